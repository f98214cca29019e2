"""The move clock held while the seat to move is away: what it must not allow."""

from __future__ import annotations

import asyncio
import time

import pytest

from ginrummy.storage import Store
from ginrummy.web.manager import UNLIMITED, Manager
from ginrummy.web.tables import AWAY_ALLOWANCE
from test_web_fairplay import Seat
from test_web_friends import _friend_table, _settle


def test_a_friend_slow_to_open_the_invite_keeps_his_whole_allowance() -> None:
    """The time a friend not there yet is waited for is not counted against his allowance."""

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        table = await _friend_table(manager)
        manager.join(Seat(manager, table, 0).client)  # Ann waits; Bob has not come
        assert table.held_at is not None
        table.held_at -= 300  # Bob opens the invite five minutes later
        manager.join(Seat(manager, table, 1).client)
        assert table.away_left[1] == AWAY_ALLOWANCE
        manager.close()
        store.close()

    asyncio.run(run())


def test_reloading_the_page_again_and_again_gains_no_more_than_the_allowance(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each return to a held clock gives a few seconds at least: given again and again for
    a reload in the last second, they would let a player stall without end."""
    from ginrummy.web import table_clock

    # A new table's allowance and the clock's accounting both read it from table_clock.
    monkeypatch.setattr(table_clock, "AWAY_ALLOWANCE", 20.0)

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        table = await _friend_table(manager)
        bob = Seat(manager, table, 1)
        manager.join(Seat(manager, table, 0).client)
        manager.join(bob.client)
        gained = 0.0
        for _ in range(10):
            table.deadline = time.time() + 1  # one second left...
            manager.leave(bob.client)  # ... and the page reloaded
            manager.join(bob.client)
            assert table.deadline is not None
            gained += table.deadline - (time.time() + 1)
        assert gained <= 20.0 + 1.0
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_seat_that_played_and_left_has_its_clock_run_after_a_restart() -> None:
    """Read again after a restart, the table knows the seat that has played came: away past
    its allowance, its time runs (else leaving a losing game across a restart stalls it)."""

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        table = await _friend_table(manager)
        ann, bob = Seat(manager, table, 0), Seat(manager, table, 1)
        manager.join(ann.client)
        manager.join(bob.client)
        await bob.act("pass")
        await ann.act("pass")
        assert table.hand is not None and table.hand.current_player == 1
        manager.leave(bob.client)  # Bob closes his page on his turn
        manager.close()

        again = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)  # restarted
        table = await again.get(table.id)
        again.join(Seat(again, table, 0).client)  # Ann comes back; Bob does not
        assert table.held_at is not None
        table.held_at -= AWAY_ALLOWANCE + 1
        await _settle(again)
        assert table.deadline is not None  # his time runs
        again.close()
        store.close()

    asyncio.run(run())


def test_a_terminal_computer_move_that_could_not_be_stored_leaves_the_undo_open() -> None:
    """The computer's move failed to be stored (the database locked by another program): no
    move of the computer stands, so the person's last move may still be taken back (and the
    computer's turn then starts again); refused, the game could go no further."""
    from ginrummy.storage import StorageError
    from tuiutil import SEEDS, new_game

    async def run() -> None:
        store = Store("sqlite://")
        game = new_game(SEEDS["undo"], store)
        await game.start()
        stored = game._store_and_commit
        failed = []

        async def failing(step: object) -> None:
            if game.table.hand is not None and game.table.hand.current_player == 1 and not failed:
                failed.append(step)
                raise StorageError("database is locked")
            await stored(step)  # type: ignore[arg-type]

        game._store_and_commit = failing  # type: ignore[method-assign]
        await game.send({"type": "action", "action": "pass"})
        while game._thinking is not None and not game._thinking.done():
            await asyncio.sleep(0.01)
        assert failed
        messages = []
        while not game._queue.empty():  # type: ignore[union-attr]
            messages.append(game._queue.get_nowait())  # type: ignore[union-attr]
        assert any("could not move" in str(m.get("message")) for m in messages), messages
        await game.send({"type": "undo"})
        last = game._queue.get_nowait()  # type: ignore[union-attr]
        assert last["type"] == "state", last
        assert last["view"]["history"] == []
        await game.close()
        store.close()

    asyncio.run(run())


def test_a_web_computer_that_failed_to_think_leaves_the_undo_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The computer's thinking failed: its move is no longer due, so the person's last move may
    be taken back (the undo then starts the computer's turn anew); refused, the table stalls."""
    from ginrummy.engine import Rules
    from ginrummy.web import computer as computer_module
    from ginrummy.web.tables import Options

    real = computer_module.think
    calls = []

    def failing(*args: object) -> object:
        calls.append(args)
        if len(calls) == 1:
            raise RuntimeError("the agent failed")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(computer_module, "think", failing)

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=1)
        table = (await manager.create(rules, Options("computer", "beginner"), ("Ann", "C"))).table
        ann = Seat(manager, table, 0)
        manager.join(ann.client)
        await ann.act("pass")
        while manager._thinking:
            await asyncio.sleep(0.01)
        assert calls and table.hand is not None and len(table.hand.events) == 1
        await ann.do({"type": "undo"})
        assert ann.sent[-1]["type"] != "error", ann.sent[-1]
        assert table.hand.events == []
        manager.close()
        store.close()

    asyncio.run(run())


def test_an_undo_stored_as_the_computers_move_falls_due_leaves_no_move_due(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An undo checked before the computer's move fell due, and stored after: the computer's
    move is dropped. The person then makes the same move again (the same position): the
    computer's new turn has its whole delay, within which the move may be taken back."""
    from ginrummy.engine import Rules
    from ginrummy.web.tables import Options

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=1.0, seed=1, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=1)
        table = (await manager.create(rules, Options("computer", "beginner"), ("Ann", "C"))).table
        ann = Seat(manager, table, 0)
        manager.join(ann.client)
        await ann.act("take")
        assert table.hand is not None
        discard = next(str(a) for a in table.hand.legal_actions() if str(a).startswith("discard"))
        await ann.act(discard)
        await asyncio.sleep(0.4)
        write = manager.writes.write

        async def slow(job: object) -> object:
            await asyncio.sleep(1.0)  # stored past the moment the computer's move falls due
            return await write(job)  # type: ignore[arg-type]

        monkeypatch.setattr(manager.writes, "write", slow)
        await ann.do({"type": "undo"})
        monkeypatch.setattr(manager.writes, "write", write)
        while manager._thinking:
            await asyncio.sleep(0.01)
        assert table.hand.current_player == 0  # the undo stands; the computer did not move
        await ann.act(discard)  # the same move again
        await asyncio.sleep(0.05)  # well within the computer's delay
        await ann.do({"type": "undo"})
        assert table.hand.current_player == 0
        manager.close()
        store.close()

    asyncio.run(run())


def test_a_hello_the_database_cannot_answer_is_tried_again_not_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The page holds the spectator's state until its hello is answered, and takes an error
    meanwhile for its seat refused: it watches, and says so for good. A database away for a
    moment refuses no seat: the socket is closed to be opened again (the page reconnects and
    says hello again), with no error the page would take for a refusal."""
    from ginrummy.storage import DatabaseUnavailable
    from webutil import app_client, manager_of, new_table, recv

    with app_client() as client:
        created = new_table(client, mode="computer", level="beginner")
        with client.websocket_connect(f"/ws/{created['id']}") as ws:
            assert recv(ws)["table"]["seat"] is None  # the spectator's state, first
            manager = manager_of(client)

            async def away(*_args: object) -> None:
                raise DatabaseUnavailable("the database cannot be reached just now")

            monkeypatch.setattr(manager, "seat_for", away)
            ws.send_json({"type": "hello", "token": created["token"]})
            with pytest.raises(AssertionError, match="1013"):  # closed: try again later
                while True:  # (the computer's first move may be sent to the watcher first)
                    message = recv(ws)
                    if message["type"] != "state" or message["table"]["seat"] is not None:
                        raise AssertionError(f"sent {message}")
