"""The move clock is fair, and closing abandoned games breaks no move on its way.

Only a move, a deal or an undo gives the seat to move its full time again: a new name does
not. A table against the computer never has a clock (the clock's move is the simple player's,
which must play no seat of a game that counts as one against the computer's level). A game
closed as abandoned while a move of it is being stored refuses the move, and the socket that
sent it is told so and stays open.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

from ginrummy.engine import IllegalActionError, Rules
from ginrummy.storage import Store, Writer
from ginrummy.storage.models import GameRow, utcnow
from ginrummy.web.manager import UNLIMITED, Manager
from ginrummy.web.tables import READY_WAIT, Options
from test_web_fairplay import Seat, fixed_deck
from webutil import (
    app_client,
    invite_token,
    manager_of,
    new_store,
    new_table,
    recv,
    store_of,
    sync,
    unlimited_rate,
)

pytestmark = pytest.mark.usefixtures("on_each_database")
__all__ = ["fixed_deck"]  # a fixture, used by name


@pytest.fixture(autouse=True)
def _fast(monkeypatch: pytest.MonkeyPatch) -> None:
    unlimited_rate(monkeypatch)


def next_state(ws: Any) -> dict[str, Any]:
    """The next state the socket is sent (past anything else, such as a seat's new token)."""
    while (msg := recv(ws))["type"] != "state":
        pass
    return msg


# -- a new name is no move -----------------------------------------------------------------------


def test_a_new_name_gives_the_seat_to_move_no_more_time() -> None:
    """The seat to move renames itself with 2 seconds left: its deadline stays, the clock
    moves for it when the time runs out, and that move gives the other seat its full time
    (held until that seat is here)."""
    with app_client(seed=5) as client:
        created = new_table(client, mode="friend", clock=30, name="Ann", opponent="Bob")
        client.cookies.clear()
        table = manager_of(client).tables[created["id"]]
        assert table.hand is not None and table.hand.current_player is not None
        mover = table.hand.current_player
        token = created["token"] if mover == 0 else invite_token(created)
        with client.websocket_connect(f"/ws/{created['id']}?token={token}") as ws:
            first = next_state(ws)
            assert first["view"]["current_player"] == mover and first["table"]["deadline"]
            left = time.time() + 2.0
            table.deadline = left  # as if the seat had thought for 28 seconds
            ws.send_json({"type": "name", "name": "Ann Again"})
            # (past the state that told the table the seat to move came, its clock with it)
            while (renamed := next_state(ws))["table"]["names"][mover] != "Ann Again":
                assert renamed["view"]["history"] == []
            assert renamed["table"]["deadline"] == left
            assert renamed["view"]["history"] == []
            # ... and the time runs out all the same: the clock moves for the seat
            timed_out = next_state(ws)
            history = timed_out["view"]["history"]
            assert [e["seat"] for e in history] == [mover], history
            # the other seat's full time, held while it is not here (no socket of it open)
            assert timed_out["table"]["deadline"] is None
            assert timed_out["table"]["clock_held"] == 30


# -- no clock against the computer -----------------------------------------------------------------


def test_a_table_against_the_computer_has_no_clock_whatever_the_page_sends() -> None:
    with app_client(seed=3) as client:
        created = new_table(client, mode="computer", level="beginner", clock=30)
        with client.websocket_connect(f"/ws/{created['id']}?token={created['token']}") as ws:
            state = next_state(ws)
        assert state["table"]["options"]["clock"] == 0 and state["table"]["deadline"] is None
        stored = store_of(client).get_game(created["id"])
        assert stored is not None and stored.options["clock"] == 0


def test_a_computer_game_stored_with_a_clock_runs_none_and_never_moves_for_the_computer() -> None:
    """A game against the computer stored with a clock (as servers once allowed) is read with
    no deadline on anyone's turn, and a deadline left over never makes the clock's move for
    the computer's seat."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=3600, seed=1, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=0)  # the computer moves first
        created = await manager.create(rules, Options("computer", "beginner"), ("Ann", "C"))
        store.update_options(created.table.id, {"clock": 30})
        manager.tables.clear()
        table = await manager.get(created.table.id)  # read again, as after a restart
        assert table.options.clock == 30 and table.computer_to_move()
        assert table.deadline is None
        table.deadline = time.time() - 1  # as an older server would have left it: run out
        await manager.tick()
        await asyncio.gather(*manager._tasks)
        assert table.hand is not None and len(table.hand.events) == 0
        table.act(store, 1, "pass")  # the computer's own move; now it is the person's turn
        assert not table.computer_to_move() and table.deadline is None
        manager.close()
        store.close()

    asyncio.run(run())


# -- closing abandoned games -----------------------------------------------------------------------


def _nothing_moved(store: Any, table: Any) -> None:
    """The table's first hand has no move, in memory or in the store."""
    assert table.hand is not None and len(table.hand.events) == 0
    saved = store.load_game(table.id)
    assert saved is not None and saved.hands[0].actions == ()


def test_the_clocks_move_in_a_game_closed_meanwhile_is_refused_and_said_in_the_log(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The store has closed the game (as abandoned) just as the clock runs out: the clock's
    move is refused, nothing is stored or changed, and the log says why."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=0, seed=2, limits=UNLIMITED)
        table = (await manager.create(Rules(), Options("friend", clock=30), ("Ann", "Bob"))).table
        for seat in (0, 1):  # both here: the clock runs
            manager.join(Seat(manager, table, seat).client)
        store.abandon_game(table.id)
        version = table.version
        assert table.deadline is not None
        table.deadline -= 60  # the time has run out
        await manager.tick()
        assert manager._tasks
        await asyncio.gather(*manager._tasks)  # the clock's task ends without an error
        assert table.version == version
        _nothing_moved(store, table)
        manager.close()
        store.close()

    asyncio.run(run())
    assert "is abandoned: it takes no more moves" in caplog.text


def test_the_computers_move_in_a_game_closed_meanwhile_is_refused_and_warned_of(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The store closed the game as the computer was about to move: its move is refused and
    nothing changes; the log warns of it, as of any move on its way, and reports no failure."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=0)  # the computer moves first
        created = await manager.create(rules, Options("computer", "beginner"), ("Ann", "C"))
        table = created.table
        store.abandon_game(table.id)
        manager.kick(table)
        while manager._tasks:
            await asyncio.gather(*manager._tasks)
        _nothing_moved(store, table)
        manager.close()
        store.close()

    asyncio.run(run())
    assert "is abandoned: it takes no more moves" in caplog.text
    assert [r.getMessage() for r in caplog.records if r.levelname == "ERROR"] == []


def test_a_move_stored_as_its_game_is_closed_as_abandoned_is_refused_and_the_socket_stays(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The database is slow to start storing my move; meanwhile the game is closed as
    abandoned. My move is refused, saying why; the table is closed at once after it; the
    socket stays open."""
    with app_client(seed=4) as client:
        manager = manager_of(client)
        fixed = {"first_dealer": "fixed", "first_dealer_seat": 1}  # I move first
        created = new_table(client, mode="computer", level="beginner", options=fixed)
        tid = created["id"]
        store = store_of(client)
        entered, release = threading.Event(), threading.Event()
        real = manager.writes._transaction

        @contextlib.contextmanager
        def slow_transaction() -> Iterator[Writer]:
            entered.set()
            assert release.wait(20)
            with real() as tx:
                yield tx

        with client.websocket_connect(f"/ws/{tid}?token={created['token']}") as ws:
            start = next_state(ws)
            assert start["view"]["current_player"] == 0
            with store.transaction() as tx:  # nobody has moved in it for 31 days
                tx._session.execute(
                    update(GameRow)
                    .where(GameRow.id == tid)
                    .values(updated_at=utcnow() - timedelta(days=31))
                )
            manager.writes._transaction = slow_transaction
            ws.send_json({"type": "action", "action": "pass"})
            assert entered.wait(20)  # my move waits for the database, the table's lock held
            assert client.portal is not None
            closing = client.portal.start_task_soon(manager.abandon_stale)
            deadline = time.monotonic() + 20
            while (game := store.get_game(tid)) is None or game.status != "abandoned":
                assert time.monotonic() < deadline, "the game was not closed"
                time.sleep(0.01)
            # Closed in the store; the table waits for its lock, held by my move in flight.
            time.sleep(0.3)
            assert not closing.done() and not manager.tables[tid].abandoned
            release.set()
            assert closing.result(20) == 1
            told = [recv(ws), *sync(ws)]  # the socket still answers a ping
        errors = [m["message"] for m in told if m["type"] == "error"]
        assert errors == [f"game {tid} is abandoned: it takes no more moves"], told
        last = [m for m in told if m["type"] == "state"][-1]
        assert last["table"]["abandoned"] is True and last["view"]["history"] == []
        saved = store.load_game(tid)
        assert saved is not None and saved.hands[0].actions == ()
        assert f"table {tid}: game {tid} is abandoned" in caplog.text


def test_an_undo_or_a_hint_at_a_game_closed_as_abandoned_is_told_so() -> None:
    """Closed as abandoned, the table says so to an undo and a hint (an undo failed in the
    store as a conflict, and a hint was worked out for a game that was over)."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=3600, seed=3, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=1)  # I move first
        created = await manager.create(rules, Options("computer", "beginner"), ("Ann", "C"))
        table, me = created.table, Seat(manager, created.table, 0)
        await me.act("pass")
        table.abandoned = True
        for ask in ("undo", "hint"):
            with pytest.raises(IllegalActionError, match="closed as abandoned"):
                await me.do({"type": ask})
        assert table.hand is not None and len(table.hand.events) == 1
        manager.close()
        store.close()

    asyncio.run(run())


# -- the next hand between people ------------------------------------------------------------------


def test_the_next_hand_waits_for_both_unless_the_other_is_away_or_slow(
    fixed_deck: None,
) -> None:
    """Between people, asking for the next hand does not take the result from under the other
    player's eyes: it is dealt once both have asked, at once if the other has no socket open,
    and after READY_WAIT seconds if the other has not asked meanwhile."""

    async def one_hand_over(manager: Manager, store: Any) -> Any:
        rules = Rules(first_dealer="fixed", first_dealer_seat=0)
        table = (await manager.create(rules, Options("friend"), ("Ann", "Bob"))).table
        for seat, action in ((1, "pass"), (0, "pass"), (1, "draw"), (1, "knock Kd"), (0, "done")):
            table.act(store, seat, action)
        assert table.hand is not None and table.hand.is_over
        return table

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=0, seed=5, limits=UNLIMITED)
        # Both there: the first to ask waits; the second deals.
        table = await one_hand_over(manager, store)
        ann, bob = Seat(manager, table, 0), Seat(manager, table, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        await ann.do({"type": "next"})
        assert table.hand_number == 1 and table.ready == {0}
        assert ann.state["table"]["ready"] == [0] and bob.state["table"]["ready"] == [0]
        # when the next hand comes anyway, for the page to count down to (as the move clock)
        deadline = bob.state["table"]["ready_deadline"]
        assert READY_WAIT - 5 < deadline - time.time() <= READY_WAIT
        await manager.tick()  # not yet waited long enough
        await asyncio.gather(*manager._tasks)
        assert table.hand_number == 1
        await bob.do({"type": "next"})
        assert table.hand_number == 2 and table.ready == set()
        assert bob.state["table"]["ready_deadline"] is None
        # Both there, one slow: dealt READY_WAIT seconds after the first asked.
        slow = await one_hand_over(manager, store)
        ann, bob = Seat(manager, slow, 0), Seat(manager, slow, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        await bob.do({"type": "next"})
        assert slow.ready_since is not None
        slow.ready_since -= READY_WAIT
        await manager.tick()
        await asyncio.gather(*manager._tasks)
        assert slow.hand_number == 2 and bob.state["table"]["hand_number"] == 2
        # The other away: dealt at once.
        alone = await one_hand_over(manager, store)
        ann = Seat(manager, alone, 0)
        manager.join(ann.client)
        await ann.do({"type": "next"})
        assert alone.hand_number == 2
        manager.close()
        store.close()

    asyncio.run(run())


def test_the_best_discard_by_deadwood_is_given_only_at_tables_with_hints() -> None:
    """A table without hints says so in its terms, and its states then leave out the deadwood
    each discard would leave (the page named the best discard from it: a hint)."""
    with app_client() as client:
        for hints in (False, True):
            created = new_table(client, mode="friend", hints=hints)
            tid = created["id"]
            with client.websocket_connect(f"/ws/{tid}?token={created['token']}") as ws:
                state = next_state(ws)
                assert state["table"]["fair_play"]["hints"] is hints
                assert ("discard_deadwood" in state["view"]) is hints


def test_the_log_says_which_moves_the_clock_made() -> None:
    """A seat out of time gets the simple player's move; both seats' logs (and the terminal's)
    say the clock made it, and a move made in time is not so named."""
    from ginrummy.tui.words import log_lines

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=6, limits=UNLIMITED)
        table = (await manager.create(Rules(), Options("friend", clock=30), ("Ann", "Bob"))).table
        hand = table.hand
        assert hand is not None and hand.current_player is not None
        late = hand.current_player
        seats = [Seat(manager, table, seat) for seat in (0, 1)]
        for seat in seats:
            manager.join(seat.client)
        assert table.deadline  # both here: the clock runs
        table.deadline -= 60  # the time has run out
        await manager.tick()
        for task in list(manager._tasks):
            await task
        hand = table.hand  # a move replaces the table's hand
        assert hand is not None
        assert len(hand.events) == 1 and table.clock_moves == [hand.events[0].number]
        for seat in seats:
            state = [m for m in seat.sent if m["type"] == "state"][-1]
            assert state["table"]["clock_moves"] == table.clock_moves
            words = [line.text for line in log_lines(state)]
            whom = "you" if seat.client.seat == late else ("Ann", "Bob")[late]
            assert words[-1].endswith(f"(Out of time: the clock moved for {whom}.)"), words
        assert hand.current_player is not None and hand.current_player != late
        await seats[hand.current_player].act(str(hand.legal_actions()[0]))
        assert table.hand is not None and len(table.hand.events) == 2
        assert len(table.clock_moves) == 1  # a move made in time is not named
        manager.close()
        store.close()

    asyncio.run(run())
