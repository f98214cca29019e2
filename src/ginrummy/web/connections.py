"""The sockets of the tables in memory, and what each is sent.

A socket joins its table as a seat or a spectator (:class:`Client`), is counted per seat and
per address (the limits on how many may be open, :meth:`Connections.may_join`, and on how fast
they may send, :meth:`Connections.allow`), and is let go of when it leaves. Between people a
seat lives in one browser at a time: a socket of the seat from another browser is made a
spectator, told why (:meth:`Connections._take_seat`). Each change of a table is sent to all of
its sockets at once (:meth:`Connections.broadcast`), each its own seat's state, so that a slow
socket holds up nobody else. :class:`Connections` is a base of :class:`~.manager.Manager`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from .base import ManagerBase, _count
from .protocol import MOVED_AWAY
from .tables import HistoryMark, Table

log = logging.getLogger("ginrummy.web")
Send = Callable[[dict[str, Any]], Awaitable[None]]

#: Seconds a socket may take to take one message before it is let go of and closed: one whose
#: reader stopped (every buffer on the way full) would otherwise hold up everyone it is sent
#: to along with it, and the computer's moves.
SEND_TIMEOUT = 10.0


@dataclass(eq=False)
class Client:
    table_id: str
    seat: int | None
    send: Send
    address: str = ""
    #: Closes the socket, which then reconnects (when its table moves to another instance).
    close: Callable[[], Awaitable[None]] | None = None
    #: The socket asked for its history in parts (``?history=delta``): each state it is sent
    #: holds only the events it has not had (:meth:`Manager.state_message`).
    deltas: bool = False
    #: What it holds of the hand's history (:meth:`Table.history_mark`).
    mark: HistoryMark | None = None
    #: Whose browser it is (the hash of its player cookie; None: it sent none).
    owner: str | None = None
    #: How many times its seat had moved to another browser when it took it (the store's
    #: count, :meth:`~ginrummy.storage.writer.Writer.move_seat`): the table's count is kept
    #: at least that (a move made as the table was in memory on another instance).
    seat_moves: int = 0


class Connections(ManagerBase):
    """The tables' sockets: see the module docstring."""

    def may_join(
        self,
        table_id: str,
        seat: int | None,
        address: str,
        owner: str | None = None,
        *,
        joined: bool = False,
    ) -> str | None:
        """Why another socket may not open (None: it may). Between people a seat's sockets
        in browsers other than ``owner``'s (the joining socket's) are not counted: they
        become spectators as it joins (:meth:`_take_seat`), and a browser holding as many
        as a seat may have would otherwise keep the seat from moving to another. A socket
        ``joined`` already (a hello taking a seat) is counted in its address's sockets: it
        opens none more, so it is not refused for them."""
        limit = self.limits.sockets_per_seat
        opened = self._address_sockets.get(address, 0) - (1 if joined else 0)
        if opened >= self.limits.sockets_per_address:
            return "too many open connections from your address"
        if seat is not None and self._seat_sockets.get((table_id, seat), 0) >= limit:
            table = self.tables.get(table_id)
            if table is not None and table.vs_computer:
                owner = None  # nobody is moved: each counts
            mine = sum(
                1
                for c in self.clients.get(table_id, ())
                if c.seat == seat and (owner is None or c.owner == owner)
            )
            if mine >= limit:
                return "this seat has too many open connections: close some tabs"
        return None

    def join(self, client: Client) -> None:
        self.clients.setdefault(client.table_id, set()).add(client)
        _count(self._address_sockets, client.address, +1)
        if client.seat is not None:
            _count(self._seat_sockets, (client.table_id, client.seat), +1)
        table = self.tables.get(client.table_id)
        if table is not None:
            self._take_seat(table, client)
            self._presence(table, client.seat, +1)
            self.kick(table)

    def _take_seat(self, table: Table, client: Client) -> None:
        """Between people a seat lives in one browser at a time: the socket joining a seat
        (its token just checked, the seat claimed or moved to its browser in the store) makes
        the seat its browser's, and every socket of the seat from another browser a
        spectator, told why at once (:meth:`_demote`). Its page takes the seat back only when
        asked to, which moves it again, visibly. Against the computer nothing changes: there
        is nobody to hide the cards from."""
        seat = client.seat
        if seat is None or table.vs_computer:
            return
        changed = client.seat_moves > table.moves[seat]
        table.moves[seat] = max(table.moves[seat], client.seat_moves)
        if client.owner != table.owners[seat]:
            changed = changed or table.owners[seat] is not None
            table.owners[seat] = client.owner
        self._demote(table)
        if changed:  # both seats are shown that the seat moved
            table.version += 1
            self._spawn(self.broadcast(table))

    def _demote(self, table: Table) -> None:
        """Make a spectator of each socket of the table seated in a browser other than its
        seat's owner's, and tell it so: it stops being sent the seat's cards now."""
        for other in list(self.clients.get(table.id, ())):
            seat = other.seat
            if seat is None or table.vs_computer or other.owner == table.owners[seat]:
                continue
            self.reseat(other, None)
            self._spawn(self._deliver([(other, {"type": "moved_away", "message": MOVED_AWAY})]))

    def leave(self, client: Client) -> None:
        group = self.clients.get(client.table_id)
        if group is None or client not in group:
            return
        group.discard(client)
        if not group:  # not kept for a table no socket has (a relayed one is never evicted)
            del self.clients[client.table_id]
        _count(self._address_sockets, client.address, -1)
        if client.seat is not None:
            _count(self._seat_sockets, (client.table_id, client.seat), -1)
        table = self.tables.get(client.table_id)
        if table is not None:
            self._presence(table, client.seat, -1)

    def _presence(self, table: Table, seat: int | None, change: int) -> None:
        """Count a seat's socket in or out; tell the table when a seat comes or goes."""
        if seat is None:
            return
        before = table.connected()
        table.present[seat] = max(0, table.present[seat] + change)
        if table.connected() != before:
            if table.hold_clock():  # the seat to move came or went: its clock with it
                table.version += 1
                self._spawn(self.broadcast(table))
            self._spawn(self._tell_presence(table))

    async def _tell_presence(self, table: Table) -> None:
        msg = {"type": "presence", "connected": table.connected()}
        await self._deliver([(client, msg) for client in self.clients.get(table.id, ())])

    async def _deliver(
        self, sends: list[tuple[Client, dict[str, Any]]], *, close: bool = False
    ) -> None:
        """Send each client its message (then, if ``close``, let go of it and close it), all
        at once: a socket that fails is let go of, and one that has not taken its message
        within ``send_timeout`` is let go of and closed (it reconnects, should it come back),
        so that it holds up nobody else."""

        async def one(client: Client, msg: dict[str, Any]) -> None:
            if close:
                self.leave(client)
            try:
                async with asyncio.timeout(self.send_timeout):
                    await client.send(msg)
                    if close and client.close is not None:
                        await client.close()
            except TimeoutError:
                # Closed once, by the first of its sends to give up (others may be waiting).
                joined = client in self.clients.get(client.table_id, ())
                self.leave(client)
                if (joined or close) and client.close is not None:
                    log.warning("table %s: a socket took no message for a while", client.table_id)
                    self._spawn(_quietly(client.close()))  # waits behind the rest: not here
            except Exception:
                self.leave(client)

        # Each send a task of its own, even a single one: tasks run in the order they were
        # made, so a socket is sent the messages of two broadcasts in the order they were made.
        await asyncio.gather(*(one(client, msg) for client, msg in sends))

    def reseat(self, client: Client, seat: int | None) -> None:
        """Move a connected socket to another seat (after it said who it is)."""
        self.leave(client)
        client.seat, client.mark = seat, None
        self.join(client)

    def state_message(
        self,
        table: Table,
        client: Client,
        made: dict[tuple[int | None, int], dict[str, Any]] | None = None,
        *,
        whole: bool = False,
    ) -> dict[str, Any]:
        """The ``state`` message to send ``client`` now (the whole history if ``whole``, or
        if it did not ask for parts); ``made`` keeps the messages made for a broadcast, one
        per seat and history start, for the sockets after the first."""
        seat = client.seat
        start = 0 if whole or not client.deltas else table.history_from(seat, client.mark)
        msg = None if made is None else made.get((seat, start))
        if msg is None or msg["version"] != table.version:
            msg = table.state_for(seat, start)
            if made is not None:
                made[(seat, start)] = msg
        if client.deltas:
            client.mark = table.history_mark(seat)
        return msg

    def allow(self, client: Client) -> bool:
        """Whether one more message from this socket is within its seat's and its address's
        rates (shared by all their sockets). A seat whose address's rate is spent (by another
        player behind the same address, perhaps) may still send at its reserve's rate
        (:attr:`Limits.seat_reserve_rate`)."""
        key = (client.table_id, client.seat if client.seat is not None else client.address)
        if not self._seat_msgs.peek(key):
            return False
        if self._address_msgs.peek(client.address):
            self._address_msgs.take(client.address)
        elif client.seat is None or not self._seat_reserve.take(key):
            return False
        self._seat_msgs.take(key)
        return True

    async def broadcast(self, table: Table) -> None:
        # One message per seat and history start, however many sockets have it, all made
        # now and sent at once: a socket slow to take its message holds up no other, and each
        # socket is sent its states in the order they were made.
        made: dict[tuple[int | None, int], dict[str, Any]] = {}
        clients = list(self.clients.get(table.id, ()))
        await self._deliver([(c, self.state_message(table, c, made)) for c in clients])


async def _quietly(job: Awaitable[Any]) -> None:
    with contextlib.suppress(Exception):
        await job
