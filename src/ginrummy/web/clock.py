"""The move clock, and the hands dealt for a seat that waited long enough.

:meth:`Clock.tick`, called every second or so by the app, lets go of idle tables, deals the
next hand for a seat that asked for it and has waited for the other long enough, runs the
clock of a seat away too long, and makes a move for a seat whose time ran out: the simple
player's (:func:`timeout_move`), stored as the seat's own would be, unless the seat moved
meanwhile. :class:`Clock` is a base of :class:`~.manager.Manager`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from typing import Any

from ..agents import get_agent
from ..engine import GinRummyError
from ..storage import DatabaseUnavailable, StorageError
from .base import ManagerBase
from .tables import Table

log = logging.getLogger("ginrummy.web")


class Clock(ManagerBase):
    """The move clock: see the module docstring."""

    async def tick(self) -> None:
        """Move clock: a seat out of time gets a move made for it. Idle tables are let go."""
        self.evict_idle()
        now = time.time()
        for table in list(self.tables.values()):
            if table.waited_long_enough(time.monotonic()) and table.id not in self._timeouts:
                self._timeouts.add(table.id)
                task = self._spawn(self._deal_waiting(table))
                task.add_done_callback(functools.partial(_discard, self._timeouts, table.id))
                continue
            if table.run_clock_away(now):  # away too long: its time runs on
                table.version += 1
                self._spawn(self.broadcast(table))
            hand = table.hand
            if table.deadline is None or hand is None or hand.is_over or now < table.deadline:
                continue
            if table.id not in self._timeouts:
                self._timeouts.add(table.id)
                task = self._spawn(self._time_out(table))
                task.add_done_callback(functools.partial(_discard, self._timeouts, table.id))

    async def _deal_waiting(self, table: Table) -> None:
        """Deal the next hand for a seat that asked for it and has waited for the other long
        enough (or the other has gone): :meth:`Table.waited_long_enough`."""
        async with table.lock:
            if not table.waited_long_enough(time.monotonic()):
                return  # dealt meanwhile
            try:
                deal = table.next_deal(self._rng)
                await self._store(table, table.write_deal, deal)
            except DatabaseUnavailable:
                return  # logged by _store; tried again on the next tick
            except (GinRummyError, StorageError) as exc:
                log.warning("the next hand at table %s: %s", table.id, exc)
                return
            table.start(deal)
        await self.after_change(table)

    async def _time_out(self, table: Table) -> None:
        """Move for the seat whose time ran out, unless it moved meanwhile. Never at a table
        against the computer (it has no clock, :meth:`Table.touch`): the clock's move is the
        simple player's, and the computer's seat must be played by the computer."""
        hand = table.hand
        if table.vs_computer or hand is None or hand.is_over or hand.current_player is None:
            return
        position, seat = table.position(), hand.current_player
        view = table.player_view(hand, seat)
        action = await asyncio.to_thread(timeout_move, view)
        async with table.lock:
            # The seat moved in time after all, or its clock was held (it went away) or given
            # more time meanwhile. A change that leaves the hand where it was (a name, who is
            # connected) does not put the move off: that would let a seat out of time dodge
            # the clock's ticks by renaming itself.
            if (
                table.position() != position
                or table.deadline is None
                or time.time() < table.deadline
            ):
                return
            try:
                await self._store_and_commit(table, table.plan(seat, str(action)))
            except DatabaseUnavailable:  # logged by _store
                return  # nothing changed: the next tick tries again if the time is still out
            except StorageError as exc:  # the game was just closed
                log.warning("the clock's move at table %s: %s", table.id, exc)
                return
            moved = table.hand
            if moved is not None and moved.events:  # the log says the clock made it
                table.clock_moves.append(moved.events[-1].number)
        await self.after_change(table)


def timeout_move(view: Any) -> Any:
    """The move made for a seat that ran out of time: the simple player's."""
    return get_agent("simple").act(view, random.Random(0))


def _discard(items: set[str], item: str, _task: object) -> None:
    items.discard(item)
