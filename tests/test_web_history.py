"""Finished games: the lobby's list, the history page's API, the replay and player statistics."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest

from ginrummy.engine import Rules
from ginrummy.web.dealing import verify
from ginrummy.web.security import PLAYER_COOKIE
from webutil import app_client, friend_token, invite_token, new_table, pick, recv, unlimited_rate

pytestmark = pytest.mark.usefixtures("on_each_database")


def _play_friend_game(
    client: Any,
    created: dict[str, Any],
    rng: random.Random,
    friend: str | None = None,
    players: tuple[str, str] | None = None,
) -> list[str]:
    """Both seats play random sensible moves until the game is over; the seats' tokens (the
    friend's: ``friend``, or the one the invite gives when it is opened here). ``players``:
    each seat's browser (its player cookie), else both the client's."""
    tokens = [created["token"], friend or friend_token(client, created)]
    cookies = [
        {} if players is None else {"cookie": f"{PLAYER_COOKIE}={p}"} for p in players or ("", "")
    ]
    with (
        client.websocket_connect(
            f"/ws/{created['id']}?token={tokens[0]}", headers=cookies[0]
        ) as ws0,
        client.websocket_connect(
            f"/ws/{created['id']}?token={tokens[1]}", headers=cookies[1]
        ) as ws1,
    ):
        sockets = [ws0, ws1]
        states = [recv(ws0), recv(ws1)]

        def moved(seat: int, msg: dict[str, Any]) -> None:
            """Send a move, then read both seats' states up to the one it caused (the server
            stores a move before it tells anyone, so the states come a moment later)."""
            version = states[0]["version"]
            sockets[seat].send_json(msg)
            for other in (0, 1):
                while states[other]["version"] <= version:
                    reply = recv(sockets[other])
                    assert reply["type"] == "state", reply
                    states[other] = reply

        for _ in range(3000):
            table = states[0]["table"]
            if table["over"]:
                return tokens
            view = states[0]["view"]
            if view["phase"] == "over":
                moved(0, {"type": "next"})
                continue
            turn = view["current_player"]
            moved(turn, {"type": "action", "action": pick(states[turn]["view"], rng)})
        raise AssertionError("the game did not end")


def test_a_finished_game_is_listed_replayed_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    unlimited_rate(monkeypatch)
    with app_client() as client:
        created = new_table(
            client, mode="friend", name="Ann", opponent="Bob", options={"game_target": 10}
        )
        unfinished = client.get(f"/api/replay/{created['id']}")
        assert unfinished.status_code == 403  # nothing is replayed while the game is on
        tokens = _play_friend_game(client, created, random.Random(3))

        # History is per player: the games this browser holds seats at, a page at a time.
        seat0 = [{"id": created["id"], "token": created["token"]}]
        page = client.post("/api/history", json={"tables": seat0}).json()
        assert (page["page"], page["pages"], page["total"]) == (1, 1, 1)
        listed = page["games"]
        assert [g["id"] for g in listed] == [created["id"]]
        assert listed[0]["names"] == ["Ann", "Bob"] and listed[0]["seat"] == 0
        assert listed[0]["final"]["winner"] in (0, 1) and listed[0]["undo_used"] is False
        assert listed[0]["rules"] == "standard, game target 10"
        stranger = [{"id": created["id"], "token": "nope"}]
        assert client.post("/api/history", json={"tables": stranger}).json()["games"] == []
        assert client.get("/api/history").status_code == 405  # nobody lists everyone's games

        mine = client.post("/api/mine", json=seat0)
        assert mine.json()[0]["status"] == "finished"
        assert client.post("/api/mine", json=stranger).json() == []

        replay = client.get(f"/api/replay/{created['id']}").json()
        assert replay["names"] == ["Ann", "Bob"]
        hands = replay["hands"]
        assert hands and hands[-1]["result"]["winner"] in (0, 1)
        for hand in hands:
            # every deal checks against the commitment published at the time
            assert verify(hand["deck"], hand["salt"], hand["commitment"])
            steps = hand["steps"]
            assert "event" not in steps[0]  # the deal
            assert all(s["event"]["n"] == n for n, s in enumerate(steps[1:], start=1))
            assert all(len(s["hands"][0].split()) in (10, 11) for s in steps[:-1])
            assert steps[-1]["phase"] == "over"

        winner = listed[0]["final"]["winner"]
        winner_seat = [{"id": created["id"], "token": tokens[winner]}]
        stats = client.post("/api/stats", json={"tables": winner_seat}).json()
        assert stats["games"] == 1 and stats["wins"] == 1 and stats["not_counted"] == 0
        assert stats["hands_won"] >= 1
        loser = client.post("/api/stats", json={"tables": seat0 if winner else winner_seat[:0]})
        assert loser.json()["wins"] == 0
        assert client.get("/api/replay/nosuchgame").status_code == 404
        for page in ("/history", f"/replay/{created['id']}"):
            assert client.get(page).status_code == 200


def test_history_is_paged_and_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """However many games a browser names, one answer holds at most 100."""
    unlimited_rate(monkeypatch)
    from ginrummy.web.tables import token_hash

    with app_client() as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        mine = []
        with store.transaction() as tx:
            for n in range(250):
                token = f"token-{n}"
                game_id = tx.create_game(
                    "online", Rules(), ("Ann", "Bob"), seats=[(0, token_hash(token))]
                )
                tx.finish_game(game_id, {"final": {"winner": 0, "net": 100}}, winner=0)
                mine.append({"id": game_id, "token": token})
        body = {"tables": mine}
        first = client.post("/api/history?per_page=500", json=body).json()
        assert len(first["games"]) == 100 and first["total"] == 250 and first["pages"] == 3
        last = client.post("/api/history?per_page=100&page=3", json=body).json()
        assert len(last["games"]) == 50
        default = client.post("/api/history", json=body).json()
        assert len(default["games"]) == 20
        seen = {
            g["id"]
            for p in (1, 2, 3)
            for g in client.post(f"/api/history?per_page=100&page={p}", json=body).json()["games"]
        }
        assert seen == {m["id"] for m in mine}
        # more tables than one request may name are cut to the first 500
        many = {"tables": [*mine, *({"id": f"x{n}", "token": "t"} for n in range(1000))]}
        assert client.post("/api/history", json=many).json()["total"] == 250


def test_reads_of_saved_games_are_limited_per_address() -> None:
    """An address that polls the lists of games is slowed to a couple of reads a second."""
    with app_client() as client:
        now = [0.0]  # the limit's clock stands still unless the test moves it
        readers = client.app.state.context.readers  # type: ignore[attr-defined]
        readers.clock = lambda: now[0]
        body = {"tables": [{"id": "x", "token": "y"}]}
        codes = [client.post("/api/history", json=body).status_code for _ in range(20)]
        assert codes == [200] * 20
        # the 21st read, of any kind, is refused (once the address may read again)
        assert client.get("/api/replay/nothere").status_code == 429
        now[0] += 0.5  # half a second on: one more read
        assert client.post("/api/stats", json=body).status_code == 200
        refused = client.post("/api/history", json=body)
        assert refused.status_code == 429 and "too many requests" in refused.json()["message"]
        assert client.get("/api/presets").status_code == 200  # other answers go on
        assert refused.headers["Retry-After"] == "1"


def test_a_refused_read_is_answered_once_the_address_may_ask_again() -> None:
    """A client that asks again as soon as it is refused is refused a couple of times a second,
    not as fast as it can ask: the refusal waits until the address has a read again."""
    with app_client() as client:
        body = {"tables": [{"id": "x", "token": "y"}]}
        while client.post("/api/history", json=body).status_code != 429:
            pass
        started = time.monotonic()
        codes = [client.post("/api/history", json=body).status_code for _ in range(6)]
        # 2 reads a second: each refusal waits half a second, then the next read is answered
        assert time.monotonic() - started >= 1.2
        # Each refusal is followed by an answered read (it waited for one); on a busy machine
        # a slow request may let the next read come due before it is asked, so not every
        # answered read is followed by a refusal.
        assert 429 in codes and codes[0] == 200
        assert all(b == 200 for a, b in itertools.pairwise(codes) if a == 429)


def test_history_and_statistics_follow_the_player_not_the_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each browser gets an anonymous player id (a cookie); a seat becomes the player's when it
    is taken, and the lists and statistics are that player's games, whatever the names."""
    unlimited_rate(monkeypatch)
    with app_client() as client:
        page = client.get("/")
        assert PLAYER_COOKIE in page.cookies
        header = page.headers["set-cookie"].lower()
        assert "httponly" in header and "samesite=lax" in header
        assert PLAYER_COOKIE not in client.get("/history").headers.get("set-cookie", "")
        ann, bob, eve = page.cookies[PLAYER_COOKIE], "bob-player-id", "eve-player-id"

        def as_player(player: str | None) -> None:
            client.cookies.clear()
            if player is not None:
                client.cookies.set(PLAYER_COOKIE, player)

        as_player(ann)  # both are called "Player 1": names do not matter
        created = new_table(client, mode="friend", options={"game_target": 10})
        as_player(bob)
        with client.websocket_connect(f"/ws/{created['id']}") as ws:
            recv(ws)
            ws.send_json({"type": "hello", "token": invite_token(created)})
            bobs = recv(ws, seat=True)["token"]
            assert recv(ws)["table"]["seat"] == 1
        as_player(None)
        _play_friend_game(client, created, random.Random(8), bobs, (ann, bob))
        as_player(ann)  # a later visit with another seat's link does not take it over
        with client.websocket_connect(f"/ws/{created['id']}?token={invite_token(created)}") as ws:
            recv(ws)

        def mine(player: str) -> list[dict[str, Any]]:
            as_player(player)
            games: list[dict[str, Any]] = client.post("/api/history", json={"tables": []}).json()[
                "games"
            ]
            return games

        assert [(g["id"], g["seat"]) for g in mine(ann)] == [(created["id"], 0)]
        assert [(g["id"], g["seat"]) for g in mine(bob)] == [(created["id"], 1)]
        assert mine(eve) == []
        stats = {}
        for player in (ann, bob):
            as_player(player)
            stats[player] = client.post("/api/stats", json={"tables": []}).json()
        assert stats[ann]["games"] == stats[bob]["games"] == 1
        assert stats[ann]["wins"] + stats[bob]["wins"] == 1
        (row,) = stats[ann]["by"]
        assert (row["against"], row["rules"], row["games"]) == (
            "a person",
            "standard, game target 10",
            1,
        )
        assert row["wins"] == stats[ann]["wins"]
        for key in ("hands", "gins", "undercuts", "points"):
            assert row[key] == stats[ann][key], key
        (ann_game,) = stats[ann]["series"]
        (bob_game,) = stats[bob]["series"]
        assert ann_game["result"] == -bob_game["result"] != 0
        assert ann_game["net"] == -bob_game["net"] != 0
