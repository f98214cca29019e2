"""A seat lives in one browser at a time, and a move of it between browsers is shown.

Seat tokens are bearer tokens: whoever holds one plays the seat, in any browser (a player may
move from his phone to his laptop with his own link). So the sender of an invite could open it
himself in a private window, keep that window on the friend's seat, and send the friend the
seat's link instead of the invite: he would see the friend's cards all game. Now the seat
follows the browser that opened its token last: every socket left on it from another browser
is made a spectator at once, and told so; the browser the seat moved to is told its cards were
open elsewhere before it came, and so is the other player. Between people a socket without a
player cookie only watches (its seat could not be told from another browser's).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ginrummy.engine import Rules
from ginrummy.web.changes import SPECTATORS
from ginrummy.web.manager import UNLIMITED, Manager
from ginrummy.web.protocol import COOKIES_NEEDED, MOVED_AWAY
from ginrummy.web.security import PLAYER_COOKIE, player_key
from ginrummy.web.tables import Options, new_token, token_hash
from test_web_fairplay import Seat, fixed_deck
from webutil import (
    LiveServer,
    SeatSocket,
    app_client,
    invite_token,
    leaks,
    manager_of,
    new_store,
    new_table,
    post_table,
    recv,
    running_instances,
    store_of,
    sync,
)

__all__ = ["fixed_deck"]  # a fixture, used by name

#: The tests of one app run on each database; the instances' on PostgreSQL.
each_database = pytest.mark.usefixtures("on_each_database")


def _until_state(ws: Any) -> list[dict[str, Any]]:
    """The messages up to and with the next state (the seat's token among them)."""
    out = [recv(ws, seat=True)]
    while out[-1]["type"] != "state":
        out.append(recv(ws, seat=True))
    return out


def _hello(ws: Any, token: str) -> list[dict[str, Any]]:
    """Say hello with ``token`` on a socket that has had its first (spectator's) state."""
    ws.send_json({"type": "hello", "token": token})
    return _until_state(ws)


def _moved_away(ws: Any, seat: int) -> dict[str, Any]:
    """The spectator's state a socket is sent once told its seat moved away (the seat's own
    states sent before the move read past)."""
    msg = recv(ws)
    while msg["type"] == "state":
        assert msg["table"]["seat"] == seat
        msg = recv(ws)
    assert msg == {"type": "moved_away", "message": MOVED_AWAY}
    state = recv(ws)
    assert state["type"] == "state" and state["table"]["seat"] is None
    return state


def _as(client: Any, cookie: str | None) -> None:
    """The next sockets come from the browser whose player cookie is ``cookie`` (None: none)."""
    client.cookies.clear()
    client.player = cookie


@each_database
def test_the_sender_holding_his_own_invite_loses_the_seat_to_the_friend_and_all_are_told() -> None:
    with app_client() as client:
        _as(client, "ann")
        created = new_table(client, mode="friend", name="Ann")
        tid = created["id"]
        hand = manager_of(client).tables[tid].hand
        assert hand is not None
        with client.websocket_connect(f"/ws/{tid}") as ann:
            recv(ann)
            assert _hello(ann, created["token"])[-1]["table"]["seat"] == 0
            # The sender opens his own invite in a private window: the seat's token is his.
            _as(client, "ann-private-window")
            with client.websocket_connect(f"/ws/{tid}") as spy:
                recv(spy)
                seen = _hello(spy, invite_token(created))
                token = next(m["token"] for m in seen if m["type"] == "seat")
                assert seen[-1]["table"]["seat"] == 1 and seen[-1]["table"]["seat_moves"] == [0, 0]
                # He sends the friend the seat's link, not the invite; the friend opens it.
                _as(client, "bob")
                with client.websocket_connect(f"/ws/{tid}") as bob:
                    recv(bob)
                    state = _hello(bob, token)[-1]
                    assert state["table"]["seat"] == 1 and "hand" in state["view"]
                    # The friend is told the seat's cards were open in another browser.
                    assert state["table"]["seat_moves"] == [0, 1]
                    # The private window is a spectator at once, told so, sent no more cards.
                    assert "hand" not in _moved_away(spy, 1)["view"]
                    bob.send_json({"type": "name", "name": "Bob"})
                    sync(bob)  # the name stored and broadcast
                    later = sync(spy)
                    assert [m["table"]["names"][1] for m in later if m["type"] == "state"][-1] == (
                        "Bob"
                    )
                    for msg in later:
                        assert msg["type"] != "state" or msg["table"]["seat"] is None
                        assert not leaks(msg, hand, None)
                    spy.send_json({"type": "action", "action": "draw"})
                    assert recv(spy)["type"] == "error"
                    # The sender's own seat is shown that the friend's seat moved.
                    states = [m for m in sync(ann) if m["type"] == "state"]
                    assert states and states[-1]["table"]["seat_moves"] == [0, 1]
                    assert store_of(client).seat_owner(tid, 1) == player_key({PLAYER_COOKIE: "bob"})


@each_database
def test_a_player_moves_his_own_seat_to_another_browser_and_back() -> None:
    with app_client() as client:
        _as(client, "phone")
        created = new_table(client, mode="friend", name="Ann")
        tid, token = created["id"], created["token"]
        with client.websocket_connect(f"/ws/{tid}") as phone:
            recv(phone)
            assert _hello(phone, token)[-1]["table"]["seat_moves"] == [0, 0]
            _as(client, "laptop")
            with client.websocket_connect(f"/ws/{tid}") as laptop:
                recv(laptop)
                state = _hello(laptop, token)[-1]
                assert state["table"]["seat"] == 0 and state["table"]["seat_moves"] == [1, 0]
                _moved_away(phone, 0)
                # Back on the phone (a new socket, as the page's "take the seat back" opens).
                _as(client, "phone")
                with client.websocket_connect(f"/ws/{tid}?token={token}") as again:
                    state = recv(again)
                    assert state["table"]["seat"] == 0 and state["table"]["seat_moves"] == [2, 0]
                    _moved_away(laptop, 0)
                    # A second socket of the same browser shares the seat: nobody is moved.
                    with client.websocket_connect(f"/ws/{tid}?token={token}") as tab:
                        assert recv(tab)["table"]["seat_moves"] == [2, 0]
                        assert all(m["type"] != "moved_away" for m in sync(again))


@each_database
def test_a_browser_without_cookies_watches_a_friend_table_but_plays_the_computer() -> None:
    with app_client() as client:
        _as(client, "ann")
        created = new_table(client, mode="friend", name="Ann")
        tid = created["id"]
        _as(client, None)
        for token in (created["token"], invite_token(created)):
            with client.websocket_connect(f"/ws/{tid}") as ws:
                recv(ws)
                ws.send_json({"type": "hello", "token": token})
                assert recv(ws, seat=True) == {"type": "error", "message": COOKIES_NEEDED}
                assert "seats need cookies enabled" in COOKIES_NEEDED
                assert all(m["type"] != "seat" for m in sync(ws))
            with client.websocket_connect(f"/ws/{tid}?token={token}") as ws:
                seen = _until_state(ws)
                assert seen[0] == {"type": "error", "message": COOKIES_NEEDED}
                assert seen[-1]["table"]["seat"] is None
        # The invite was not spent by them: the friend's browser takes it.
        _as(client, "bob")
        with client.websocket_connect(f"/ws/{tid}") as bob:
            recv(bob)
            assert _hello(bob, invite_token(created))[-1]["table"]["seat"] == 1
        # Against the computer there is nobody to hide the cards from: as before.
        _as(client, None)
        computer = new_table(client, mode="computer", name="Ann")
        with client.websocket_connect(f"/ws/{computer['id']}") as ws:
            recv(ws)
            ws.send_json({"type": "hello", "token": computer["token"]})
            msg = recv(ws)  # (the computer's moves, as a spectator's states, may come first)
            while msg["type"] != "state" or msg["table"]["seat"] is None:
                assert msg["type"] == "state"
                msg = recv(ws)
            assert msg["table"]["seat"] == 0


@each_database
def test_a_seat_a_browser_without_cookies_held_before_moves_to_the_first_that_has_them() -> None:
    # Before seats needed a cookie, a browser without one could take the invite: it saw the
    # seat's cards though the seat stayed nobody's.
    with app_client() as client:
        _as(client, "ann")
        created = new_table(client, mode="friend", name="Ann")
        tid, fresh = created["id"], new_token()
        store = store_of(client)
        assert store.take_invite(tid, 1, token_hash(invite_token(created)), token_hash(fresh))
        assert store.seat_owner(tid, 1) is None
        _as(client, "bob")
        with client.websocket_connect(f"/ws/{tid}?token={fresh}") as bob:
            state = recv(bob)
            assert state["table"]["seat"] == 1 and state["table"]["seat_moves"] == [0, 1]
        # Seat 0, nobody's and never played (the table made without a cookie), simply becomes
        # the first browser's.
        with client.websocket_connect(f"/ws/{tid}?token={created['token']}") as ann:
            assert recv(ann)["table"]["seat_moves"] == [0, 1]


@each_database
def test_a_seat_moves_even_from_a_browser_holding_as_many_sockets_as_a_seat_may_have() -> None:
    # A seat may have only so many sockets open: they were counted whichever browser held
    # them, so the sender holding the friend's seat in enough tabs of a private window kept
    # the friend from taking it ("too many open connections") while watching his cards.
    with app_client() as client:
        _as(client, "ann")
        created = new_table(client, mode="friend", name="Ann")
        tid = created["id"]
        limit = manager_of(client).limits.sockets_per_seat
        _as(client, "ann-private-window")
        with client.websocket_connect(f"/ws/{tid}") as first:
            recv(first)
            seen = _hello(first, invite_token(created))
            token = next(m["token"] for m in seen if m["type"] == "seat")
            with contextlib.ExitStack() as tabs:
                spies = [first]
                for _ in range(limit - 1):
                    spies.append(
                        tabs.enter_context(client.websocket_connect(f"/ws/{tid}?token={token}"))
                    )
                    assert recv(spies[-1])["table"]["seat"] == 1
                # One more of his tabs is still refused.
                with client.websocket_connect(f"/ws/{tid}?token={token}") as extra:
                    assert "too many open connections" in recv(extra)["message"]
                _as(client, "bob")
                with client.websocket_connect(f"/ws/{tid}?token={token}") as bob:
                    state = recv(bob)
                    assert state["type"] == "state", state
                    assert state["table"]["seat"] == 1 and state["table"]["seat_moves"] == [0, 1]
                    for spy in spies:
                        _moved_away(spy, 1)


@each_database
def test_a_seat_claimed_by_another_browser_as_it_was_read_moves_from_it(monkeypatch: Any) -> None:
    # A seat nobody owns (a table opened without a cookie; every seat of a rematch) is
    # claimed by the first browser that opens it. Two opening it at once both read it as
    # nobody's: the second's claim failed unsaid, and it was given the seat all the same,
    # as nobody's move, while the store kept it the first's; the seat then went back and
    # forth between them with nothing shown.
    with app_client() as client:
        _as(client, None)
        created = new_table(client, mode="friend", name="Ann")
        tid, token = created["id"], created["token"]
        store = store_of(client)
        read = store.seat_owner
        assert read(tid, 0) is None

        def claimed_meanwhile(game_id: str, seat: int) -> str | None:
            monkeypatch.setattr(store, "seat_owner", read)
            found = read(game_id, seat)
            store.claim_seat(game_id, seat, player_key({PLAYER_COOKIE: "phone"}))
            return found

        monkeypatch.setattr(store, "seat_owner", claimed_meanwhile)
        _as(client, "laptop")
        with client.websocket_connect(f"/ws/{tid}?token={token}") as laptop:
            state = recv(laptop)
            assert state["table"]["seat"] == 0 and state["table"]["seat_moves"] == [1, 0]
            assert store.seat_owner(tid, 0) == player_key({PLAYER_COOKIE: "laptop"})
            _as(client, "phone")
            with client.websocket_connect(f"/ws/{tid}?token={token}") as phone:
                assert recv(phone)["table"]["seat_moves"] == [2, 0]
                _moved_away(laptop, 0)


@each_database
def test_the_browser_a_seat_left_asks_for_its_hints_review_and_state_in_vain() -> None:
    with app_client() as client:
        _as(client, "ann")
        created = new_table(client, mode="friend", name="Ann", hints=True)
        tid = created["id"]
        hand = manager_of(client).tables[tid].hand
        assert hand is not None
        _as(client, "ann-private-window")
        with client.websocket_connect(f"/ws/{tid}?history=delta") as spy:
            recv(spy)
            seen = _hello(spy, invite_token(created))
            token = next(m["token"] for m in seen if m["type"] == "seat")
            _as(client, "bob")
            with client.websocket_connect(f"/ws/{tid}?token={token}") as bob:
                recv(bob)
                _moved_away(spy, 1)
                for kind in ("hint", "review", "undo", "next", "rematch"):
                    spy.send_json({"type": kind})
                    assert recv(spy)["type"] == "error"
                spy.send_json({"type": "state"})
                state = recv(spy)
                assert state["table"]["seat"] is None and "hand" not in state["view"]
                assert not leaks(state, hand, None)


@each_database
def test_a_move_sent_from_the_browser_a_seat_leaves_as_it_leaves_is_not_made() -> None:
    # A move waits for its table's lock (another being stored); the seat moved to another
    # browser meanwhile: the move was made all the same, for a seat its socket no longer held.
    with app_client() as client:
        _as(client, "ann")
        created = new_table(client, mode="friend", name="Ann")
        tid = created["id"]
        table = manager_of(client).tables[tid]
        hand = table.hand
        assert hand is not None
        _as(client, "ann-private-window")
        with client.websocket_connect(f"/ws/{tid}") as spy:
            recv(spy)
            seen = _hello(spy, invite_token(created))
            token = next(m["token"] for m in seen if m["type"] == "seat")
            seat = hand.current_player
            assert seat is not None
            if seat != 1:  # Ann passes the upcard: the friend's seat is to move
                with client.websocket_connect(f"/ws/{tid}?token={created['token']}") as ann:
                    recv(ann)
                    ann.send_json({"type": "action", "action": "pass"})
                    while recv(ann)["view"]["current_player"] != 1:
                        pass
            playing = table.hand
            assert playing is not None and playing.current_player == 1
            before = len(playing.events)
            client.portal.call(table.lock.acquire)
            try:
                spy.send_json({"type": "action", "action": "pass"})
                deadline = time.monotonic() + 10
                while not table.lock._waiters and time.monotonic() < deadline:
                    time.sleep(0.01)
                assert table.lock._waiters
                _as(client, "bob")
                with client.websocket_connect(f"/ws/{tid}?token={token}") as bob:
                    recv(bob)
                    client.portal.call(table.lock.release)
                    answers = sync(spy)  # its move answered first
                    now = table.hand
                    assert now is not None and len(now.events) == before, now.events[-1]
                    assert {"type": "error", "message": SPECTATORS} in answers
            finally:
                if table.lock.locked():
                    client.portal.call(table.lock.release)


# -- many instances ---------------------------------------------------------------------------


@pytest.fixture
def two_instances(
    tmp_path: Path, postgres_schema_url: str, broker_url: str
) -> Iterator[list[LiveServer]]:
    """Two instances on one PostgreSQL schema and one Redis."""
    with running_instances(tmp_path, postgres_schema_url, broker_url, "1.5", count=2) as servers:
        yield servers


def test_a_seat_relayed_from_another_instance_is_demoted_when_it_moves(
    two_instances: list[LiveServer],
) -> None:
    holder, other = two_instances
    created = post_table(holder, mode="friend", name="Ann")
    tid = created["id"]
    sockets: list[SeatSocket] = []
    try:
        ann = SeatSocket(holder, tid, created["token"], player="ann")
        sockets.append(ann)
        assert ann.recv()["table"]["seat"] == 0
        # The sender's private window, on the instance that does not hold the table: relayed.
        spy = SeatSocket(other, tid, invite_token(created), player="ann-private-window")
        sockets.append(spy)
        seat = spy.recv(seat=True)
        assert seat["type"] == "seat"
        assert spy.recv()["table"]["seat"] == 1
        bob = SeatSocket(holder, tid, seat["token"], player="bob")
        sockets.append(bob)
        assert bob.recv()["table"]["seat_moves"] == [0, 1]
        msg = spy.recv()
        while msg["type"] == "state" and msg["table"]["seat"] == 1:  # sent before the move
            msg = spy.recv()
        assert msg == {"type": "moved_away", "message": MOVED_AWAY}
        bob.send({"type": "name", "name": "Bob"})
        msg = spy.recv()
        while msg["type"] != "state" or msg["table"]["names"][1] != "Bob":
            assert msg["type"] != "state" or msg["table"]["seat"] is None
            msg = spy.recv()
        assert msg["table"]["seat"] is None and "hand" not in msg["view"]
    finally:
        for sock in sockets:
            sock.close()


@each_database
def test_a_rematch_keeps_the_count_of_seat_moves(fixed_deck: None) -> None:
    """A rematch keeps the seats and their tokens: a seat whose cards were open in another
    browser during the game is still shown so at the rematch, to both players, and at the
    rematch read again from the store."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=0, game_target=1)
        created = await manager.create(rules, Options("friend"), ("Ann", "Bob"))
        table = created.table
        store.claim_seat(table.id, 1, token_hash("bob-phone"))
        assert store.move_seat(table.id, 1, token_hash("bob-laptop")) == 1
        for seat, action in ((1, "pass"), (0, "pass"), (1, "draw"), (1, "knock Kd"), (0, "done")):
            table.act(store, seat, action)
        assert table.finished
        await Seat(manager, table, 0).do({"type": "rematch"})
        new_id = table.options.rematch
        assert new_id is not None
        rematch = manager.tables[new_id]
        assert [rematch.table_info(seat)["seat_moves"] for seat in (0, 1)] == [[0, 1], [0, 1]]
        saved = store.get_game(new_id)
        assert saved is not None and saved.options["seat_moves"] == [0, 1]
        # A move at the rematch counts on from there, the first game's count unchanged.
        assert store.move_seat(new_id, 1, token_hash("bob-phone")) == 2
        saved = store.get_game(table.id)
        assert saved is not None and saved.options["seat_moves"] == [0, 1]
        manager.close()
        again = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        assert (await again.get(new_id)).moves == [0, 2]
        again.close()
        store.close()

    asyncio.run(run())


def test_a_demoted_relayed_socket_no_longer_spends_the_seats_messages_where_it_is_relayed(
    two_instances: list[LiveServer],
) -> None:
    # The instance relaying a socket counts its messages against its seat's rate: demoted at
    # the holder, it went on counting there as the seat's. The sender who had held the
    # friend's seat could spend its messages on that instance, and the friend's moves sent
    # through it were refused until his clock ran out.
    holder, other = two_instances
    created = post_table(holder, mode="friend", name="Ann")
    tid = created["id"]
    sockets: list[SeatSocket] = []
    try:
        spy = SeatSocket(other, tid, invite_token(created), player="ann-private-window")
        sockets.append(spy)
        token = spy.recv(seat=True)["token"]
        assert spy.recv()["table"]["seat"] == 1
        bob = SeatSocket(holder, tid, token, player="bob")
        sockets.append(bob)
        assert bob.recv()["table"]["seat"] == 1
        while (msg := spy.recv())["type"] != "moved_away":
            assert msg["type"] == "state"
        for _ in range(35):  # past a seat's burst, at once
            spy.ws.send(json.dumps({"type": "ping"}))
        answers: list[str] = []
        while len(answers) < 35:
            if (kind := spy.recv()["type"]) != "state":
                answers.append(kind)
        assert answers.count("pong") >= 30
        # Bob's phone reaches the other instance: its messages are the seat's own.
        phone = SeatSocket(other, tid, token, player="bob")
        sockets.append(phone)
        assert phone.recv()["table"]["seat"] == 1
        for _ in range(5):
            phone.ws.send(json.dumps({"type": "ping"}))
        replies = []
        while len(replies) < 5:
            msg = phone.recv()
            if msg["type"] != "state":
                replies.append(msg)
        assert all(m["type"] == "pong" for m in replies), replies
    finally:
        for sock in sockets:
            sock.close()


def test_a_relayed_socket_demoted_that_says_hello_with_the_seat_moves_it_back_visibly(
    two_instances: list[LiveServer],
) -> None:
    holder, other = two_instances
    created = post_table(holder, mode="friend", name="Ann")
    tid = created["id"]
    sockets: list[SeatSocket] = []
    try:
        spy = SeatSocket(other, tid, invite_token(created), player="ann-private-window")
        sockets.append(spy)
        token = spy.recv(seat=True)["token"]
        assert spy.recv()["table"]["seat"] == 1
        bob = SeatSocket(holder, tid, token, player="bob")
        sockets.append(bob)
        assert bob.recv()["table"]["seat_moves"] == [0, 1]
        while (msg := spy.recv())["type"] != "moved_away":
            assert msg["type"] == "state"
        spy.send({"type": "hello", "token": token})  # its first message
        msg = spy.recv()
        while msg["type"] != "state" or msg["table"]["seat"] is None:
            msg = spy.recv()
        assert msg["table"]["seat"] == 1 and msg["table"]["seat_moves"] == [0, 2]
        while (msg := bob.recv())["type"] != "moved_away":
            assert msg["type"] == "state"
        state = bob.recv()
        assert state["table"]["seat"] is None and state["table"]["seat_moves"] == [0, 2]
    finally:
        for sock in sockets:
            sock.close()


def test_a_browser_refused_for_its_address_socket_limit_neither_takes_nor_moves_a_seat() -> None:
    # The seat was moved in the store before the limits were checked: a browser refused for
    # its address's number of sockets was left the seat's owner, counted as a move both
    # players were shown, though it never held the seat.
    with app_client() as client:
        _as(client, "ann")
        created = new_table(client, mode="friend", name="Ann")
        tid = created["id"]
        manager = manager_of(client)
        store = store_of(client)
        with client.websocket_connect(f"/ws/{tid}?token={created['token']}") as ann:
            assert recv(ann)["table"]["seat"] == 0
            manager.limits = dataclasses.replace(manager.limits, sockets_per_address=1)
            _as(client, "someone-else")
            with client.websocket_connect(f"/ws/{tid}?token={created['token']}") as other:
                assert "too many open connections" in recv(other)["message"]
            assert store.seat_owner(tid, 0) == player_key({PLAYER_COOKIE: "ann"})
            game = store.get_game(tid)
            assert game is not None and game.options.get("seat_moves", [0, 0]) == [0, 0]
            assert manager.tables[tid].moves == [0, 0]


@each_database
def test_a_rematch_keeps_the_seats_browsers_so_another_opening_one_is_seen(
    fixed_deck: None,
) -> None:
    """A rematch keeps the seats' tokens: its seats nobody's, the first browser to open one
    claimed it unseen, though the seat was another's a moment before. The rematch keeps
    each seat's browser (not a seat still waiting for its invite, which its opener claims),
    so another browser opening it there moves it, and both players are shown so."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=0, game_target=1)
        created = await manager.create(rules, Options("friend"), ("Ann", "Bob"))
        table, invite = created.table, created.tokens[1]
        assert invite is not None
        store.claim_seat(table.id, 0, token_hash("ann"))
        assert isinstance(await manager.take_invite(table.id, 1, invite, token_hash("bob")), str)
        for seat, action in ((1, "pass"), (0, "pass"), (1, "draw"), (1, "knock Kd"), (0, "done")):
            table.act(store, seat, action)
        await Seat(manager, table, 0).do({"type": "rematch"})
        new_id = table.options.rematch
        assert new_id is not None
        assert manager.tables[new_id].owners == [token_hash("ann"), token_hash("bob")]
        assert [store.seat_owner(new_id, seat) for seat in (0, 1)] == [
            token_hash("ann"),
            token_hash("bob"),
        ]
        assert store.move_seat(new_id, 1, token_hash("someone-else")) == 1
        manager.close()
        store.close()

    asyncio.run(run())
