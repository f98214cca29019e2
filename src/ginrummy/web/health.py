"""Whether the database answers: what ``/readyz`` tells a load balancer.

The check runs in a thread of its own, never in the event loop nor in the manager's database
threads (a hung database must not take a thread from the players, nor a load balancer's probes
pile up waiting threads): while one check is still waiting, the next is answered at once as a
failure instead of starting another.
"""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures import Future, ThreadPoolExecutor

from ..storage import Store

log = logging.getLogger("ginrummy.web")

#: Seconds the database has to answer a readiness check.
READY_TIMEOUT = 1.0


class Readiness:
    """Checks that the store's database answers a trivial query within ``timeout`` seconds."""

    def __init__(self, store: Store, timeout: float = READY_TIMEOUT) -> None:
        self.store = store
        self.timeout = timeout
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
        return None

    def close(self) -> None:
        self._thread.shutdown(wait=False, cancel_futures=True)
