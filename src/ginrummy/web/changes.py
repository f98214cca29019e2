"""The seats' messages applied to their tables, and each change stored before anyone is told.

:meth:`Changes.handle` takes one validated message of a socket: a move, the next hand, an
undo, a name, a rematch (or a hint or a review, which :mod:`.computer` works out). A change is
made under the table's lock: planned, stored (:meth:`Changes._store`, in a group commit with
other tables' writes, fenced so that a copy of the table let go of, or one whose lease another
instance holds, writes nothing), then made the table's state and sent to its sockets
(:meth:`Changes.after_change`). Should the database go away as a change commits, it may or may
not be stored: the table is let go of, to be read again, and its sockets reconnect to see
which (:meth:`Changes._in_doubt`). :class:`Changes` is a base of :class:`~.manager.Manager`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from ..engine import IllegalActionError
from ..storage import DatabaseUnavailable, Writer
from .base import ManagerBase
from .connections import Client
from .protocol import ProtocolError, clean_name
from .tables import COMPUTER_SEAT, Options, Step, Table

log = logging.getLogger("ginrummy.web")

#: What a seat is told when the database could not store its move.
NOT_SAVED = "the database cannot be reached just now: your move was not made; try again in a moment"
#: ... and when the database went away as its move was being stored.
IN_DOUBT = "the database went away as your move was being saved: reconnecting shows whether it was"
#: What a socket that holds no seat is told when it tries to change the table.
SPECTATORS = "spectators cannot act: open the game with your seat's link"


class Changes(ManagerBase):
    """The seats' messages and the storing of each change: see the module docstring."""

    async def handle(self, client: Client, msg: dict[str, Any]) -> None:
        """Apply one validated client message. Raises ProtocolError / GinRummyError."""
        table = await self.get(client.table_id)
        kind = msg["type"]
        if kind == "ping":
            await client.send({"type": "pong", "now": time.time()})
            return
        if kind == "state":
            await client.send(self.state_message(table, client, whole=True))
            return
        if client.seat is None:
            raise ProtocolError(SPECTATORS)
        seat = client.seat
        if kind == "hint":
            await client.send({"type": "hints", "hints": await self._hints(table, client)})
            return
        if kind == "rematch":
            await self._rematch(table)
            return
        if kind == "review":
            await client.send(await self._review(table, client))
            return
        async with table.lock:
            if client.seat != seat:  # its seat moved to another browser as this waited
                raise ProtocolError(SPECTATORS)
            try:
                await self._change(table, seat, msg)
            except DatabaseUnavailable as exc:
                if exc.in_doubt:  # the table was let go of, its sockets are told (_store)
                    return
                raise ProtocolError(NOT_SAVED) from exc  # nothing stored, nothing changed
        await self.after_change(table)

    async def _change(self, table: Table, seat: int, msg: dict[str, Any]) -> None:
        """A seat's change to the table, stored and made (the caller holds its lock)."""
        kind = msg["type"]
        if kind == "action":
            if table.vs_computer and seat == COMPUTER_SEAT:
                raise ProtocolError("that seat is the computer's")
            await self._store_and_commit(table, table.plan(seat, msg["action"]))
        elif kind == "next":
            deal = table.next_deal(self._rng)  # raises (changing nothing) where none is due
            asked = seat in table.ready
            if table.ready_for_next(seat):
                await self._store(table, table.write_deal, deal)
                table.start(deal)
            elif not asked:  # stored, so that a table read again still deals it in time
                try:
                    await self._store(table, table.write_fairness)
                    table.fairness_kept()
                except DatabaseUnavailable as exc:
                    if exc.in_doubt:
                        raise
                    # Not stored, but asked all the same: it stands here, as it always did
                    # (only a table read again before the next change would forget it).
        elif kind == "undo":
            await self._undo(table, seat)
        elif kind == "name":
            await self._rename(table, seat, msg["name"])
        else:  # pragma: no cover - the protocol layer checks types
            raise ProtocolError(f"unknown message type {kind!r}")

    async def _undo(self, table: Table, seat: int) -> None:
        """Take back the seat's last action, as far as the fair-play policy allows (see
        :meth:`Table.undo_point`); the game is marked as one where undo was used."""
        keep = table.undo_point(seat)  # raises, saying why, when the policy forbids it
        await self._store(table, table.write_undo, keep)
        table.undo_to(keep)

    async def _rename(self, table: Table, seat: int, name: str) -> None:
        if table.vs_computer and seat == COMPUTER_SEAT:
            raise ProtocolError("that seat is the computer's")
        if table.finished:
            raise IllegalActionError("the game is over: its names stay as they were")
        name = clean_name(name)
        await self._store(table, lambda tx: tx.rename_seat(table.id, seat, name))
        table.rename(seat, name)
        table.touch(clock=False)  # a name is no move: the seat to move gains no time by it

    async def _rematch(self, table: Table) -> None:
        """Once the game is over: a new table with the same rules, names and seats (their
        tokens hold there too); everyone at the old table is sent there. Asked twice, the
        same new table."""
        async with table.lock:
            if table.options.rematch is None:
                if not table.finished or table.abandoned:
                    raise IllegalActionError("a rematch is offered once the game is over")
                options = Options.from_dict(
                    {**table.options.to_dict(), "undo_used": False, "rematch": None}
                )
                try:
                    created = await self.create(table.rules, options, table.names, after=table.id)
                except DatabaseUnavailable as exc:
                    # Stored or not, as a move in doubt: asked again on this copy, a second
                    # rematch would be made over the first.
                    self._in_doubt(table, exc)
                    if exc.in_doubt:
                        return  # its sockets are told (_in_doubt)
                    raise
                table.moved_to(created.table.id)
        await self.broadcast(table)

    def _retire(self, table: Table) -> None:
        """Let go of a table whose last write may or may not be stored (the caller holds its
        lock): it is loaded from the database again when next needed, and this copy writes
        nothing more (:meth:`_fence`)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def _reconnect_all(self, table_id: str, why: str) -> None:
        """Tell every socket of the table ``why`` and close it: each reconnects and is sent
        the table as stored."""
        clients = list(self.clients.get(table_id, ()))
        await self._deliver([(c, {"type": "error", "message": why}) for c in clients], close=True)

    async def _store(self, table: Table, fn: Callable[..., None], *args: Any) -> None:
        """Store a change of the table (``fn(tx, *args)``; the caller holds its lock). Should
        the database go away as it commits, the change may or may not be stored: the table
        is let go of, to be read again, and its sockets reconnect to see which."""
        try:
            await self.writes.write(lambda tx: self._write(tx, table, fn, *args))
        except DatabaseUnavailable as exc:
            if not exc.in_doubt:
                log.warning(
                    "table %s: %s; the database said: %s", table.id, exc, _driver_error(exc)
                )
            self._in_doubt(table, exc)
            raise

    def _in_doubt(self, table: Table, exc: DatabaseUnavailable) -> None:
        """A change of the table (the caller holds its lock) failed with the database gone:
        where it may have been stored after all, the table is let go of, to be read again,
        and its sockets reconnect to see whether it was."""
        if exc.in_doubt:
            log.warning(
                "table %s: %s; the database said: %s; it is read again once it is back",
                table.id,
                exc,
                _driver_error(exc),
            )
            self._retire(table)
            self._spawn(self._reconnect_all(table.id, IN_DOUBT))

    def _write(self, tx: Writer, table: Table, fn: Callable[..., None], *args: Any) -> None:
        """A table's write in the transaction ``tx`` (of :attr:`writes`)."""
        self._fence(tx, table)
        fn(tx, *args)

    def _fence(self, tx: Writer, table: Table) -> None:
        """Refuse a write from a copy of the table let go of (:meth:`_retire`); with many
        instances, refuse it (:class:`LeaseLost`) unless this one still holds the table's
        lease: checked in the write's own transaction."""
        if self.tables.get(table.id) is not table:
            raise ProtocolError("this table was reloaded from the database: try again")
        if self.cluster is not None:
            self.cluster.fence(tx, table.id)

    async def _store_and_commit(self, table: Table, step: Step) -> None:
        """Store a planned step, then make it the table's state (the caller holds the lock)."""
        await self._store(table, table.write, step)
        table.commit(step)
        self.actions_applied += 1

    async def after_change(self, table: Table) -> None:
        await self.broadcast(table)
        self.kick(table)


def _driver_error(exc: BaseException) -> str:
    """The first line of what the database's driver said (the cause of a
    :class:`DatabaseUnavailable`), for the log: a lock, a full disk or a lost server."""
    cause = exc.__cause__
    text = str(cause).strip() if cause is not None else ""
    return text.splitlines()[0] if text else "no reason given"
