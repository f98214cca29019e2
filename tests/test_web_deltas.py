"""A seat's history in parts (``/ws/{table}?history=delta``, as the pages ask): each state holds
only the moves the socket has not had, and what the socket puts together from them is, at every
state, exactly the whole history a socket that did not ask is sent."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from webutil import Joined, app_client, friend_token, new_table, pick, recv, sync, unlimited_rate

pytestmark = pytest.mark.usefixtures("on_each_database")


def states(ws: Any) -> list[dict[str, Any]]:
    return [m for m in sync(ws) if m["type"] == "state"]


def check_same(whole: Any, parts: Any, joined: Joined) -> tuple[dict[str, Any], int, int]:
    """Read both sockets of one seat up to now: the same states, the same histories once
    joined; returns the last state and the bytes of states each was sent."""
    b = states(parts)  # first: it is the socket that moved, whose pong follows the move's states
    a = states(whole)
    assert a and [m["version"] for m in a] == [m["version"] for m in b]
    sizes = [0, 0]
    for full, part in zip(a, b, strict=True):
        assert "history_from" not in (full["view"] or {})
        assert joined.take(part) == (full["view"] or {}).get("history")
        if full["view"] is not None:  # the rest of the state is the same
            drop = ("history", "history_from")
            assert {k: v for k, v in part["view"].items() if k not in drop} == {
                k: v for k, v in full["view"].items() if k not in drop
            }
        # (Each socket's first state says who was connected when it came.)
        table = {**part["table"], "connected": full["table"]["connected"]}
        assert {**part, "view": None, "table": table} == {**full, "view": None}
        sizes[0] += len(json.dumps(full))
        sizes[1] += len(json.dumps(part))
    return a[-1], sizes[0], sizes[1]


def test_parts_join_up_to_the_whole_history_through_a_friend_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unlimited_rate(monkeypatch)
    rng = random.Random(5)
    with app_client(seed=5) as client:
        created = new_table(client, mode="friend")
        tid = created["id"]
        tokens = [created["token"], friend_token(client, created)]
        urls = [f"/ws/{tid}?token={t}" for t in tokens]
        with (
            client.websocket_connect(urls[0]) as whole0,
            client.websocket_connect(urls[0] + "&history=delta") as parts0,
            client.websocket_connect(urls[1]) as whole1,
            client.websocket_connect(urls[1] + "&history=delta") as parts1,
        ):
            pairs = [(whole0, parts0, Joined()), (whole1, parts1, Joined())]
            sent = [0, 0]
            hands = mover = 0
            while hands < 3:
                last: list[dict[str, Any]] = [{}, {}]
                for seat in (mover, 1 - mover):
                    last[seat], whole_bytes, parts_bytes = check_same(*pairs[seat])
                    sent[0] += whole_bytes
                    sent[1] += parts_bytes
                view = last[0]["view"]
                if view["phase"] == "over":
                    hands += 1
                    parts0.send_json({"type": "next"})  # between people, both ask for it:
                    for seat in (0, 1):  # the state that says seat 0 is ready
                        check_same(*pairs[seat])
                    parts1.send_json({"type": "next"})
                    mover = 1  # read first: its pong follows the deal's states
                    continue
                seat = mover = view["current_player"]
                whole, parts, _ = pairs[seat]
                if rng.random() < 0.1:  # asked for again: the whole history
                    whole.send_json({"type": "state"})
                    parts.send_json({"type": "state"})
                parts.send_json({"type": "action", "action": pick(last[seat]["view"], rng)})
            assert pairs[0][2].parts > 20 and pairs[1][2].parts > 20
            assert sent[1] < 0.75 * sent[0], sent


def test_an_undo_sends_the_history_again_and_parts_go_on_after_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unlimited_rate(monkeypatch)
    with app_client(seed=8) as client:
        client.app.state.manager.computer_delay = 60  # the computer does not answer meanwhile
        fixed = {"first_dealer": "fixed", "first_dealer_seat": 1}  # I move first
        created = new_table(client, mode="computer", level="beginner", options=fixed)
        url = f"/ws/{created['id']}?token={created['token']}"
        with (
            client.websocket_connect(url) as whole,
            client.websocket_connect(url + "&history=delta") as parts,
        ):
            joined = Joined()
            check_same(whole, parts, joined)
            parts.send_json({"type": "action", "action": "take"})
            taken = check_same(whole, parts, joined)[0]
            discards = [a for a in taken["view"]["legal_actions"] if "discard" in a]
            for discard in discards[:3]:  # a discard, taken back, another
                parts.send_json({"type": "action", "action": discard})
                check_same(whole, parts, joined)
                parts.send_json({"type": "undo"})
                check_same(whole, parts, joined)
                assert joined.history is not None and joined.history[-1]["action"] == "take"
            assert joined.parts >= 3


def test_a_spectator_and_a_new_socket_get_whole_states() -> None:
    with app_client(seed=3) as client:
        created = new_table(client, mode="friend")
        tid = created["id"]
        tokens = [created["token"], friend_token(client, created)]
        with client.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as ws:
            mover = recv(ws)["view"]["current_player"]
        url = f"/ws/{tid}?token={tokens[mover]}&history=delta"
        with client.websocket_connect(url) as ws:
            first = recv(ws)
            ws.send_json({"type": "action", "action": pick(first["view"], random.Random(1))})
            assert len(recv(ws)["view"]["history"]) == 1  # the first event: sent whole
        with (
            client.websocket_connect(f"/ws/{tid}?history=delta") as spectator,
            client.websocket_connect(url) as ws,
        ):
            assert "history_from" not in recv(spectator)["view"]
            again = recv(ws)
            assert "history_from" not in again["view"] and len(again["view"]["history"]) == 1
