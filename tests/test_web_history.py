"""Finished games: the lobby's list, the history page's API, the replay and player statistics."""

from __future__ import annotations

import random
from typing import Any

import pytest

from ginrummy.web.dealing import verify
from webutil import app_client, invite_token, new_table, pick, recv, sync, unlimited_rate


def _play_friend_game(client: Any, created: dict[str, Any], rng: random.Random) -> None:
    """Both seats play random sensible moves until the game is over."""
    tokens = [created["token"], invite_token(created)]
    with (
        client.websocket_connect(f"/ws/{created['id']}?token={tokens[0]}") as ws0,
        client.websocket_connect(f"/ws/{created['id']}?token={tokens[1]}") as ws1,
    ):
        sockets = [ws0, ws1]
        states = [recv(ws0), recv(ws1)]
        for _ in range(3000):
            for seat in (0, 1):
                for msg in sync(sockets[seat]):
                    if msg["type"] == "state":
                        states[seat] = msg
            table = states[0]["table"]
            if table["over"]:
                return
            view = states[0]["view"]
            if view["phase"] == "over":
                sockets[0].send_json({"type": "next"})
                continue
            turn = view["current_player"]
            sockets[turn].send_json({"type": "action", "action": pick(states[turn]["view"], rng)})
        raise AssertionError("the game did not end")


def test_a_finished_game_is_listed_replayed_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    unlimited_rate(monkeypatch)
    with app_client() as client:
        created = new_table(
            client, mode="friend", name="Ann", opponent="Bob", options={"game_target": 10}
        )
        unfinished = client.get(f"/api/replay/{created['id']}")
        assert unfinished.status_code == 403  # nothing is replayed while the game is on
        _play_friend_game(client, created, random.Random(3))

        listed = client.get("/api/history").json()
        assert [g["id"] for g in listed] == [created["id"]]
        assert listed[0]["names"] == ["Ann", "Bob"]
        assert listed[0]["final"]["winner"] in (0, 1)

        mine = client.post("/api/mine", json=[{"id": created["id"], "token": created["token"]}])
        assert mine.json()[0]["status"] == "finished"
        stranger = client.post("/api/mine", json=[{"id": created["id"], "token": "nope"}])
        assert stranger.json() == []

        replay = client.get(f"/api/replay/{created['id']}").json()
        assert replay["names"] == ["Ann", "Bob"]
        hands = replay["hands"]
        assert hands and hands[-1]["result"]["winner"] in (0, 1)
        for hand in hands:
            # every deal checks against the commitment published at the time
            assert verify(hand["deck"], hand["salt"], hand["commitment"])
            steps = hand["steps"]
            assert steps[0]["label"] is None  # the deal
            assert all(len(s["hands"][0].split()) in (10, 11) for s in steps[:-1])
            assert steps[-1]["phase"] == "over"

        winner = listed[0]["final"]["winner"]
        stats = client.get("/api/stats", params={"name": ["Ann", "Bob"][winner]}).json()
        assert stats["games"] == 1 and stats["wins"] == 1
        assert stats["hands_won"] >= 1
        assert client.get("/api/stats").status_code == 400
        assert client.get("/api/replay/nosuchgame").status_code == 404
        for page in ("/history", f"/replay/{created['id']}"):
            assert client.get(page).status_code == 200
