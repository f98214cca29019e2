"""Playing a friend: the move clock between two people is fair to the one who is away.

The clock makes a move for a seat out of time, so that nobody can stall a game between
friends. It must never play for a seat that is not there: a friend who has not opened the
invite yet, or whose connection dropped. While the seat to move is away its time is held, and
runs again (what was left, at least a few seconds) when it comes back.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from ginrummy.engine import Rules
from ginrummy.storage import Store
from ginrummy.web.manager import UNLIMITED, Manager
from ginrummy.web.tables import Options, Table
from test_web_fairplay import Seat

pytestmark = pytest.mark.usefixtures("on_each_database")


async def _settle(manager: Manager) -> None:
    """Run the clock once, as if every deadline had passed, and wait for what it started."""
    await manager.tick()
    while manager._tasks:
        await asyncio.gather(*list(manager._tasks))


async def _friend_table(manager: Manager, *, clock: int = 30) -> Table:
    """A friend table where the friend (seat 1, the invite's) is to move first."""
    rules = Rules(first_dealer="fixed", first_dealer_seat=0)
    table = (await manager.create(rules, Options("friend", clock=clock), ("Ann", "Bob"))).table
    assert table.hand is not None and table.hand.current_player == 1
    return table


def _run_out(table: Table) -> None:
    if table.deadline is not None:
        table.deadline -= 3600


def test_the_clock_never_plays_for_a_friend_who_has_not_come_yet() -> None:
    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        table = await _friend_table(manager)
        ann = Seat(manager, table, 0)
        manager.join(ann.client)  # Ann waits at the table; Bob has not opened the invite
        _run_out(table)
        await _settle(manager)
        assert table.hand is not None and table.hand.events == []
        assert table.deadline is None  # held: nobody's time runs
        info = table.table_info(0)
        assert info["deadline"] is None and info["clock_held"] == 30

        bob = Seat(manager, table, 1)
        manager.join(bob.client)  # Bob sits down: his time runs from now
        await _settle(manager)
        assert table.deadline is not None and table.deadline > time.time() + 25
        assert [m for m in ann.sent if m["type"] == "state"][-1]["table"]["deadline"] == (
            table.deadline
        )
        _run_out(table)
        await _settle(manager)  # and now the clock does move for him
        assert len(table.hand.events) == 1
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_dropped_connection_holds_the_seats_time_until_it_comes_back() -> None:
    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        table = await _friend_table(manager)
        ann, bob = Seat(manager, table, 0), Seat(manager, table, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        assert table.deadline is not None
        table.deadline = time.time() + 20  # Bob has thought for 10 seconds...
        manager.leave(bob.client)  # ... when his phone loses its signal
        _run_out(table)
        await _settle(manager)
        assert table.hand is not None and table.hand.events == []
        assert table.deadline is None
        held = table.table_info(0)["clock_held"]
        assert 19 <= held <= 20
        # Ann is told the clock waits
        last = [m for m in ann.sent if m["type"] == "state"][-1]["table"]
        assert last["deadline"] is None and last["clock_held"] == held
        manager.join(bob.client)  # back: the time he had left
        await _settle(manager)
        assert table.deadline is not None
        assert time.time() + 18 <= table.deadline <= time.time() + 21
        assert table.table_info(0)["clock_held"] is None
        # the other seat's absence holds nobody's clock: Bob moves, and Ann's time runs
        manager.leave(ann.client)
        await bob.act("pass")
        assert table.hand.current_player == 0 and table.deadline is None
        manager.join(ann.client)
        assert table.deadline is not None and table.deadline > time.time() + 25
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_seat_back_with_almost_no_time_left_gets_a_few_seconds() -> None:
    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        table = await _friend_table(manager)
        bob = Seat(manager, table, 1)
        manager.join(bob.client)
        table.deadline = time.time() + 1
        manager.leave(bob.client)
        manager.join(bob.client)  # a page reloaded with a second left
        assert table.deadline is not None and table.deadline >= time.time() + 9
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_seat_away_past_its_allowance_has_its_clock_run_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Held for ever, the clock would let a player stall a game by closing his page (the
    other could neither play on nor finish it). Once a seat that came has been away from its
    turns for ``AWAY_ALLOWANCE`` seconds in all, its time runs on while it is away, and the
    clock moves for it as for anyone out of time."""
    from ginrummy.web import table_clock

    # A new table's allowance and the clock's accounting both read it from table_clock.
    monkeypatch.setattr(table_clock, "AWAY_ALLOWANCE", 5.0)

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        table = await _friend_table(manager)
        ann, bob = Seat(manager, table, 0), Seat(manager, table, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        manager.leave(bob.client)  # Bob closes his page on his turn
        assert table.deadline is None and table.held_at is not None
        table.held_at -= 3  # three seconds away: still held
        _run_out(table)
        await _settle(manager)
        assert table.hand is not None and table.hand.events == [] and table.deadline is None
        manager.join(bob.client)  # back for a moment: 2 of his 5 seconds left
        assert table.away_left[1] == pytest.approx(2, abs=0.5)
        manager.leave(bob.client)
        table.held_at -= 3  # away past what was left
        await _settle(manager)
        assert table.deadline is not None and table.clock_held is None
        assert [m for m in ann.sent if m["type"] == "state"][-1]["table"]["deadline"] is not None
        _run_out(table)
        await _settle(manager)  # the clock moves for him
        assert len(table.hand.events) == 1
        manager.close()
        store.close()

    asyncio.run(run())
