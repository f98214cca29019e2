"""An invite link takes the friend's seat once: whoever sent it cannot use it again.

The creator of a friend table is given the invite (seat 1's link) to send on. Were the invite
the seat's token for good, its sender could open it later in another browser, or with no
cookie at all, and hold the friend's seat: see the friend's cards and move for them. So the
first to open it is given a token of the seat's own (told to that socket alone), and the
invite opens nothing more.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from ginrummy.engine import Rules
from ginrummy.web.manager import UNLIMITED, Manager
from ginrummy.web.security import PLAYER_COOKIE
from ginrummy.web.tables import Options, table_of, token_hash
from test_web_fairplay import Seat, fixed_deck
from webutil import (
    app_client,
    invite_token,
    leaks,
    new_store,
    new_table,
    recv,
    store_of,
    sync,
)

pytestmark = pytest.mark.usefixtures("on_each_database")
__all__ = ["fixed_deck"]  # a fixture, used by name


def _messages_until_state(ws: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    while not out or out[-1]["type"] != "state":
        out.append(recv(ws, seat=True))
    return out


def test_the_invite_takes_the_seat_once_and_its_sender_cannot_use_it_again() -> None:
    with app_client() as client:
        client.cookies.set(PLAYER_COOKIE, "ann-player-id")
        created = new_table(client, mode="friend", name="Ann")
        tid, invite = created["id"], invite_token(created)
        hand = client.app.state.manager.tables[tid].hand  # type: ignore[attr-defined]
        with client.websocket_connect(f"/ws/{tid}?token={created['token']}") as ann:
            assert recv(ann)["table"]["seat"] == 0
            client.cookies.set(PLAYER_COOKIE, "bob-player-id")
            with client.websocket_connect(f"/ws/{tid}") as bob:
                recv(bob)  # a spectator's state until he says which seat is his
                bob.send_json({"type": "hello", "token": invite})
                seat, state = _messages_until_state(bob)
                assert seat["type"] == "seat" and seat["token"] != invite
                assert seat["url"] == f"/t/{tid}#s={seat['token']}"
                assert state["table"]["seat"] == 1 and len(state["view"]["hand"].split()) == 10
                bobs = seat["token"]
                # Only the opener is told the seat's token.
                assert all(m["type"] != "seat" for m in sync(ann))

                # The invite's sender opens it again, in another browser or with no cookie:
                # a spectator, told nothing of the friend's cards.
                for cookie in ("eve-player-id", None):
                    client.cookies.clear()
                    client.player = cookie  # type: ignore[attr-defined]
                    if cookie is not None:
                        client.cookies.set(PLAYER_COOKIE, cookie)
                    for url, hello in ((f"/ws/{tid}", True), (f"/ws/{tid}?token={invite}", False)):
                        with client.websocket_connect(url) as eve:
                            if hello:  # watching at first, then the invite in a hello
                                seen = [recv(eve)]
                                eve.send_json({"type": "hello", "token": invite})
                                seen.insert(0, recv(eve, seat=True))
                            else:  # the invite in the socket's address
                                seen = _messages_until_state(eve)
                            assert seen[0]["type"] == "error"
                            assert seen[0]["message"].startswith(
                                "that invite has been opened already: it takes a seat once"
                            )
                            assert seen[-1]["table"]["seat"] is None
                            assert "hand" not in seen[-1]["view"]
                            assert hand is not None
                            assert all(not leaks(m, hand, None) for m in seen)
                            eve.send_json({"type": "action", "action": "draw"})
                            assert recv(eve)["type"] == "error"
                # The friend's own token holds, however he comes back, and is not changed again
                # (nor written: the spent invite is read, not taken again, at each connection),
                # in his own browser (between people a seat needs its player cookie).
                client.cookies.set(PLAYER_COOKIE, "bob-player-id")
                store, taken = store_of(client), []
                real = store.take_invite
                store.take_invite = lambda *a: taken.append(a) or real(*a)  # type: ignore[method-assign]
                for url, hello in ((f"/ws/{tid}?token={bobs}", False), (f"/ws/{tid}", True)):
                    with client.websocket_connect(url) as again:
                        if hello:
                            recv(again)
                            again.send_json({"type": "hello", "token": bobs})
                        seen = _messages_until_state(again)
                        assert [m["type"] for m in seen] == ["state"]
                        assert seen[-1]["table"]["seat"] == 1
                assert taken == []
        client.cookies.clear()  # the lists below by the links alone, not the browser's games
        # A link that never was a seat's is told apart from a spent invite.
        with client.websocket_connect(f"/ws/{tid}?token=not-a-token") as ws:
            assert recv(ws) == {
                "type": "error",
                "message": "that seat link is not valid; watching as a spectator",
            }
        mine = client.post("/api/mine", json=[{"id": tid, "token": invite}])
        assert mine.status_code == 200 and mine.json() == []
        mine = client.post("/api/mine", json=[{"id": tid, "token": bobs}])
        assert [g["id"] for g in mine.json()] == [tid]


def test_a_table_against_the_computer_has_no_invite() -> None:
    with app_client() as client:
        created = new_table(client, mode="computer", level="beginner")
        assert "invite" not in created
        saved = client.app.state.store.get_game(created["id"])  # type: ignore[attr-defined]
        assert saved is not None and "invites" not in saved.options
        with client.websocket_connect(f"/ws/{created['id']}?token={created['token']}") as ws:
            seen = _messages_until_state(ws)
            assert [m["type"] for m in seen] == ["state"] and seen[-1]["table"]["seat"] == 0


def test_the_friend_who_took_the_invite_may_open_it_again_for_a_new_token() -> None:
    """His socket dropped before he heard of his token: his browser (its player cookie) opens
    the invite again and is given the seat's new token; nobody else is, and his old one goes."""
    with app_client() as client:
        client.cookies.set(PLAYER_COOKIE, "ann-player-id")
        created = new_table(client, mode="friend", name="Ann")
        tid, invite = created["id"], invite_token(created)
        client.cookies.set(PLAYER_COOKIE, "bob-player-id")
        with client.websocket_connect(f"/ws/{tid}?token={invite}") as bob:
            first = recv(bob, seat=True)  # his page would have kept it; say it never arrived
            assert first["type"] == "seat"
        lost = first["token"]
        # Someone else opening the spent invite is only a spectator, and changes nothing.
        client.cookies.set(PLAYER_COOKIE, "eve-player-id")
        with client.websocket_connect(f"/ws/{tid}?token={invite}") as eve:
            assert recv(eve, seat=True)["message"].startswith("that invite has been opened")
            assert recv(eve, seat=True)["table"]["seat"] is None
        client.cookies.set(PLAYER_COOKIE, "bob-player-id")
        for url, hello in ((f"/ws/{tid}?token={invite}", False), (f"/ws/{tid}", True)):
            with client.websocket_connect(url) as bob:
                if hello:
                    recv(bob)
                    bob.send_json({"type": "hello", "token": invite})
                seat, state = _messages_until_state(bob)
                assert seat["type"] == "seat" and seat["token"] not in (invite, lost)
                assert state["table"]["seat"] == 1 and len(state["view"]["hand"].split()) == 10
            # The token given before holds no more: only the newest does.
            assert store_of(client).seat_for_token(tid, token_hash(lost)) is None
            lost = seat["token"]
            assert store_of(client).seat_for_token(tid, token_hash(lost)) == 1
        # Without a cookie the spent invite stays spent.
        client.cookies.clear()
        with client.websocket_connect(f"/ws/{tid}?token={invite}") as anon:
            assert recv(anon, seat=True)["message"].startswith("that invite has been opened")


def test_a_rematch_keeps_an_invite_nobody_took_for_the_friend_who_takes_it_later(
    fixed_deck: None,
) -> None:
    """A game to 1 point played out before the friend opened his invite (the clock, or the
    host at both seats): the rematch's seat waits for the invite, which nobody can open
    there; the friend who takes it later, at the table his link names, is seated at the
    rematch too (it once made the invite a seat token there for good, and his left out)."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=0, game_target=1)
        created = await manager.create(rules, Options("friend"), ("Ann", "Bob"))
        table, invite = created.table, created.tokens[1]
        assert invite is not None
        for seat, action in ((1, "pass"), (0, "pass"), (1, "draw"), (1, "knock Kd"), (0, "done")):
            table.act(store, seat, action)
        assert table.finished
        await Seat(manager, table, 0).do({"type": "rematch"})
        new_id = table.options.rematch
        assert new_id is not None
        assert await manager.seat_for(new_id, created.tokens[0]) == 0  # the host's seat holds
        assert await manager.seat_for(new_id, invite) is None  # the invite opens nothing there
        owner = token_hash("bob-player-id")
        fresh = await manager.take_invite(table.id, 1, invite, owner)
        assert isinstance(fresh, str)
        assert await manager.seat_for(table.id, fresh) == 1
        assert await manager.seat_for(new_id, fresh) == 1  # carried to the rematch
        assert store.seat_owner(new_id, 1) == owner
        # Taken again by its taker (a lost seat message): the new token holds at both.
        again = await manager.retake_invite(table.id, 1, invite, owner)
        assert again is not None
        for game_id in (table.id, new_id):
            assert await manager.seat_for(game_id, again) == 1
            assert await manager.seat_for(game_id, fresh) is None
        manager.close()
        store.close()

    asyncio.run(run())


def test_the_sender_is_told_of_an_invite_still_open_at_the_table_and_its_rematch(
    fixed_deck: None,
) -> None:
    """The host's page shows the invite while nobody has taken it, at a rematch too (where
    the link is still the first table's): the state says which table's invite is open, to
    the host alone, until it is taken (or the friend is seen at the table, whichever instance
    of the server saw it taken); a table read again from the store says the same."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        rules = Rules(first_dealer="fixed", first_dealer_seat=0, game_target=1)
        created = await manager.create(rules, Options("friend"), ("Ann", "Bob"))
        table, invite = created.table, created.tokens[1]
        assert invite is not None
        assert table.table_info(0)["invite_open"] == table.id
        assert table.table_info(1)["invite_open"] is None  # the host's alone
        assert table.table_info(None)["invite_open"] is None
        stored = store.load_game(table.id)
        assert stored is not None and table_of(stored).table_info(0)["invite_open"] == table.id
        for seat, action in ((1, "pass"), (0, "pass"), (1, "draw"), (1, "knock Kd"), (0, "done")):
            table.act(store, seat, action)
        await Seat(manager, table, 0).do({"type": "rematch"})
        new_id = table.options.rematch
        assert new_id is not None
        rematch = manager.tables[new_id]
        assert rematch.table_info(0)["invite_open"] == table.id  # its link names the first
        stored = store.load_game(new_id)  # read again from the store
        assert stored is not None
        assert table_of(stored).table_info(0)["invite_open"] == table.id
        assert isinstance(await manager.take_invite(table.id, 1, invite, token_hash("bob")), str)
        assert table.table_info(0)["invite_open"] is None
        assert rematch.table_info(0)["invite_open"] is None
        stored = store.load_game(new_id)
        assert stored is not None and table_of(stored).table_info(0)["invite_open"] is None
        manager.close()
        store.close()

    asyncio.run(run())
