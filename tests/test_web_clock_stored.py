"""The move clock's fairness outlives the server's copy of a table.

Between friends the clock runs only while the seat to move is here, out of an allowance of
time away a seat may use in all (tests/test_web_friends.py), and after a hand the first to
ask for the next waits for the other a while at most. A table read again (a restarted server,
another instance taking it over, a table let go of idle) must go on from there: a full clock
and allowance again would let a player losing on time reset his clock by waiting for a
restart, and a forgotten request for the next hand would keep the one who asked waiting.
These are stored with the changes (a move, a deal, a request for the next hand), not each
second: a table read again goes on from the last one stored, its clock counted on since.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from datetime import timedelta

import pytest
from sqlalchemy import update

from ginrummy.engine import Rules
from ginrummy.storage import Store
from ginrummy.storage.models import ActionRow, utcnow
from ginrummy.web.manager import UNLIMITED, Manager
from ginrummy.web.tables import AWAY_ALLOWANCE, FAIRNESS, READY_WAIT, Options, Table
from test_web_fairplay import Seat, fixed_deck
from webutil import new_store

__all__ = ["fixed_deck"]  # a fixture, used by name

pytestmark = pytest.mark.usefixtures("on_each_database")


def _wall_clock(monkeypatch: pytest.MonkeyPatch) -> Callable[[float], None]:
    """A wall clock (``time.time``) the test moves on by hand: ``later(seconds)``."""
    real = time.time
    offset = [0.0]
    monkeypatch.setattr(time, "time", lambda: real() + offset[0])

    def later(seconds: float) -> None:
        offset[0] += seconds

    return later


def _manager(store: Store) -> Manager:
    return Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)


async def _friend_table(manager: Manager) -> Table:
    """A friend table with a minute a move, the friend (seat 1) to move first."""
    rules = Rules(first_dealer="fixed", first_dealer_seat=0)
    table = (await manager.create(rules, Options("friend", clock=60), ("Ann", "Bob"))).table
    assert table.hand is not None and table.hand.current_player == 1
    return table


async def _read_again(manager: Manager, table: Table) -> Table:
    """Let go of the idle table (nobody at it, its clock held) and read it again."""
    assert manager.evict_idle(time.monotonic() + 3600) == 1
    again = await manager.get(table.id)
    assert again is not table
    return again


def test_a_table_read_again_keeps_the_used_allowance_and_what_was_left_of_the_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    later = _wall_clock(monkeypatch)

    async def run() -> None:
        store = new_store()
        manager = _manager(store)
        table = await _friend_table(manager)
        ann, bob = Seat(manager, table, 0), Seat(manager, table, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        manager.leave(bob.client)  # Bob away on his turn for 50 seconds
        later(50)
        manager.join(bob.client)
        assert table.away_left[1] == pytest.approx(AWAY_ALLOWANCE - 50, abs=1)
        await bob.act("pass")  # stored with his move
        later(45)  # Ann thinks 45 of her 60 seconds, then both close their pages
        manager.leave(ann.client)
        manager.leave(bob.client)
        assert table.clock_held == pytest.approx(15, abs=1)

        # Let go of idle and read again: the clock as it was, not a fresh minute.
        again = await _read_again(manager, table)
        assert again.came == [True, True]
        assert again.away_left == pytest.approx([AWAY_ALLOWANCE, AWAY_ALLOWANCE - 50], abs=1)
        assert again.deadline is None and again.clock_held == pytest.approx(15, abs=1)

        # Another instance (or a restarted server) on the same database, 5 seconds on: the
        # clock counted on since the move was stored, never more than was left then.
        later(5)
        other = _manager(store)
        elsewhere = await other.get(table.id)
        assert elsewhere.away_left == pytest.approx([AWAY_ALLOWANCE, AWAY_ALLOWANCE - 50], abs=1)
        assert elsewhere.clock_held == pytest.approx(10, abs=1)
        back = Seat(other, elsewhere, 0)
        other.join(back.client)  # Ann back: her 10 seconds run (the grace is 10 at least)
        assert elsewhere.deadline is not None
        assert elsewhere.deadline <= time.time() + 11
        other.close()
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_clock_held_for_a_seat_that_came_is_counted_against_its_allowance_when_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Bob's move stored while Ann was away holds her clock from then: read again, the
    time since comes out of her allowance, and past it her clock runs."""
    later = _wall_clock(monkeypatch)

    async def run() -> None:
        store = new_store()
        manager = _manager(store)
        table = await _friend_table(manager)
        ann, bob = Seat(manager, table, 0), Seat(manager, table, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        manager.leave(ann.client)  # Ann has come, and gone
        await bob.act("pass")  # her clock held at once, from the move
        manager.leave(bob.client)
        later(AWAY_ALLOWANCE + 5)
        other = _manager(store)
        elsewhere = await other.get(table.id)
        assert elsewhere.came == [True, True]
        assert elsewhere.clock_held == 60 and elsewhere.held_at is not None
        assert elsewhere.held_at < time.time() - AWAY_ALLOWANCE
        assert elsewhere.run_clock_away(time.time())  # away past her allowance: it runs
        assert elsewhere.deadline is not None
        other.close()
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_request_for_the_next_hand_outlives_a_table_read_again(
    fixed_deck: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    later = _wall_clock(monkeypatch)

    async def run() -> None:
        store = new_store()
        manager = _manager(store)
        table = await _friend_table(manager)
        ann, bob = Seat(manager, table, 0), Seat(manager, table, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        for seat, action in ((bob, "pass"), (ann, "pass"), (bob, "draw"), (bob, "knock Kd")):
            await seat.act(action)
        await ann.act("done")
        assert table.hand is not None and table.hand.is_over and not table.finished
        await ann.do({"type": "next"})  # Bob still reads the result
        assert table.ready == {0} and table.hand_number == 1
        asked = table.ready_deadline
        assert asked is not None
        later(10)
        manager.leave(ann.client)
        manager.leave(bob.client)

        for reader in (manager, _manager(store)):  # let go of idle; another instance
            again = (
                await _read_again(reader, table)
                if reader is manager
                else await reader.get(table.id)
            )
            assert again.ready == {0}
            assert again.ready_deadline == pytest.approx(asked)
            bob_again = Seat(reader, again, 1)
            reader.join(bob_again.client)  # Bob back to read the result: Ann waits for him
            now = time.monotonic()
            assert not again.waited_long_enough(now + READY_WAIT - 15)
            assert again.waited_long_enough(now + READY_WAIT - 5)  # 10 of 30 s waited already
            if reader is not manager:
                await bob_again.do({"type": "next"})  # Ann asked: dealt at once
                assert again.hand_number == 2 and again.ready == set()
            reader.close()
        store.close()

    asyncio.run(run())


def test_a_move_that_only_starts_the_next_clock_writes_no_fairness_and_is_timed_by_itself() -> None:
    """Most moves change nothing of the stored fairness but start the next clock afresh:
    they write nothing more than the move (a second write of the game's row with every move
    cost the server two fifths of its moves a second), and a table read again runs the clock
    from the last move's stored time."""

    async def run() -> None:
        store = new_store()
        manager = _manager(store)
        table = await _friend_table(manager)
        ann, bob = Seat(manager, table, 0), Seat(manager, table, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        await bob.act("pass")  # both have come since the deal: stored with his move
        game = store.get_game(table.id)
        assert game is not None and game.options[FAIRNESS]["events"] == 1
        await ann.act("pass")  # only her clock started afresh: nothing more stored
        await bob.act("draw")
        game = store.get_game(table.id)
        assert game is not None and game.options[FAIRNESS]["events"] == 1
        manager.leave(ann.client)
        manager.leave(bob.client)
        with store.transaction() as tx:  # Bob drew 30 seconds ago
            tx._session.execute(
                update(ActionRow)
                .where(ActionRow.game_id == table.id)
                .values(created_at=utcnow() - timedelta(seconds=30))
            )
        other = _manager(store)
        elsewhere = await other.get(table.id)
        assert elsewhere.hand is not None and elsewhere.hand.current_player == 1
        assert elsewhere.clock_held == pytest.approx(30, abs=2)  # not a fresh minute
        other.close()
        manager.close()
        store.close()

    asyncio.run(run())
