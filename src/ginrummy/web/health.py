"""Whether the database answers, and takes writes: what ``/readyz`` tells a load balancer.

The check runs in a thread of its own, never in the event loop nor in the manager's database
threads (a hung database must not take a thread from the players, nor a load balancer's probes
pile up waiting threads): while one check is still waiting, the next is answered at once as a
failure instead of starting another.

A database that answers may still refuse every write: a SQLite file on a full disk (``database
or disk is full``), a read-only file, a PostgreSQL out of disk or in recovery. A trivial query
does not show that, and a probe that wrote would write to the database every few seconds (and
one rolled back never reaches the disk: SQLite's journal is written at the commit). So the
server goes by its own writes instead (:class:`WriteWatch`): it is not ready while the last of
them was refused so, until one is committed again (a move, a table made, a lease renewed, the
sweep of abandoned tables). A server whose disk fills before it writes at all says it is
ready until its first write.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import weakref
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

from sqlalchemy import Connection, Engine, event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.orm import Session

from ..storage import Store
from ..storage.database import WRITE
from ..storage.errors import refusal

log = logging.getLogger("ginrummy.web")

#: Seconds the database has to answer a readiness check.
READY_TIMEOUT = 1.0


class WriteWatch:
    """Whether the last write to ``engine``'s database was refused because the database
    takes none (:func:`refusal`): set by a refused statement or commit, cleared by the commit
    of a write transaction (a store's writing session, see
    :data:`~ginrummy.storage.database.WRITE`) that changed a row. One that changed none (a
    sweep that found nothing to do) wrote nothing to the disk, and proves nothing."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        #: Why the last write was refused, or None.
        self.refused: str | None = None
        # Whether the transaction of this thread (a store's transaction runs in one) changed
        # a row: the statements and the session's commit run in the thread that writes.
        self._local = threading.local()
        self._listeners: list[tuple[str, Callable[..., None]]] = [
            ("begin", self._begun),
            ("after_cursor_execute", self._executed),
            ("handle_error", self._failed),
        ]
        for name, fn in self._listeners:
            event.listen(engine, name, fn)
        # Sessions' commits are heard by one listener for all (SQLAlchemy's session events
        # are the class's): a watch that is closed, or dropped unclosed, is no longer told.
        with _lock:
            if not event.contains(Session, "after_commit", _any_commit):
                event.listen(Session, "after_commit", _any_commit)
            _watches.add(self)

    def _begun(self, connection: Connection) -> None:
        self._local.wrote = False

    def _executed(self, connection: Connection, cursor: Any, statement: str, *_args: Any) -> None:
        verb = statement.lstrip()[:6].upper()
        if verb in ("INSERT", "UPDATE", "DELETE") and cursor.rowcount != 0:
            self._local.wrote = True

    def _failed(self, context: ExceptionContext) -> None:
        self._local.wrote = False
        why = refusal(context.original_exception)
        if why is not None:
            if self.refused is None:
                log.warning("the database refuses writes: %s", context.original_exception)
            self.refused = why

    def _committed(self, session: Session) -> None:
        wrote, self._local.wrote = getattr(self._local, "wrote", False), False
        bind: Any = session.bind
        if not wrote or getattr(bind, "pool", None) is not self.engine.pool:
            return  # nothing written, or another database's session
        if bind.get_execution_options().get(WRITE, False):
            self.refused = None

    def close(self) -> None:
        for name, fn in self._listeners:
            if event.contains(self.engine, name, fn):
                event.remove(self.engine, name, fn)
        with _lock:
            _watches.discard(self)


#: The watches open now, each told of every session's commit by :func:`_any_commit`.
_watches: weakref.WeakSet[WriteWatch] = weakref.WeakSet()
_lock = threading.Lock()


def _any_commit(session: Session) -> None:
    for watch in list(_watches):
        watch._committed(session)


class Readiness:
    """Checks that the store's database answers a trivial query within ``timeout`` seconds,
    and that it has not refused the last write as full or read-only (:class:`WriteWatch`)."""

    def __init__(self, store: Store, timeout: float = READY_TIMEOUT) -> None:
        self.store = store
        self.timeout = timeout
        self.writes = WriteWatch(store.engine)
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ginrummy-ready")
        self._pending: Future[None] | None = None

    async def check(self) -> str | None:
        """None when the database answered; else why not, in one line fit for anyone to read
        (no host names, no driver messages: those go to the log)."""
        if self._pending is not None and not self._pending.done():
            # One thread at most waits on the database: a check that finds the previous one
            # still running waits on that one, never starts a second.
            done, _ = await asyncio.wait([asyncio.wrap_future(self._pending)], timeout=self.timeout)
            if not done:
                return "the database has not answered the previous check yet"
        self._pending = self._thread.submit(self.store.ping)
        try:
            await asyncio.wait_for(asyncio.wrap_future(self._pending), self.timeout)
        except TimeoutError:
            return f"the database did not answer within {self.timeout:g} s"
        except Exception as exc:
            first = (str(exc).strip().splitlines() or [""])[0]
            log.warning("readiness check: the database failed: %s: %s", type(exc).__name__, first)
            return f"the database failed the check ({type(exc).__name__})"
        refused = self.writes.refused
        if refused is not None:
            return f"the database refuses writes: {refused}"
        return None

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)
        self.writes.close()
