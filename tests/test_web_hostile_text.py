"""Text the database cannot store, and ids that name no table, get a clear answer.

PostgreSQL refuses a NUL character in text: a name or a table id holding one reached the
database and came back as a server error (a 500, or a socket dropped). Names now refuse control
characters and the marks that turn text around; an id that could not be a table's is answered
without asking the database; and the store turns a value the database refuses into
:class:`InvalidData`, which the app answers with a 400.
"""

from __future__ import annotations

import json

import pytest

from ginrummy.engine import Rules
from ginrummy.storage import InvalidData
from webutil import app_client, new_store, new_table, recv

pytestmark = pytest.mark.usefixtures("on_each_database")

HOSTILE = ("Ann\x00", "Ann\x07", "Ann\u202eLOL", "Ann\u061c123 456")


@pytest.mark.parametrize("name", HOSTILE)
def test_a_table_is_not_made_with_a_name_holding_control_characters(name: str) -> None:
    with app_client() as client:
        for body in ({"name": name}, {"opponent": name}, {"preset": "standard\x00"}):
            answer = client.post("/api/tables", json={"mode": "friend", **body})
            assert answer.status_code == 400, answer.text
            assert "cannot hold control characters" in answer.json()["message"]


def test_a_new_name_holding_control_characters_is_refused_and_the_socket_stays() -> None:
    with app_client() as client:
        created = new_table(client, mode="friend", name="Ann")
        with client.websocket_connect(f"/ws/{created['id']}?token={created['token']}") as ws:
            assert recv(ws)["type"] == "state"
            for name in HOSTILE:
                ws.send_json({"type": "name", "name": name})
                assert recv(ws) == {
                    "type": "error",
                    "message": "a name cannot hold control characters",
                }
            ws.send_json({"type": "name", "name": "Ann Lee 👩‍💻"})  # joiners are letters' own
            state = recv(ws)
            assert state["type"] == "state" and state["table"]["names"][0] == "Ann Lee 👩‍💻"


def test_ids_that_name_no_table_are_answered_without_the_database() -> None:
    with app_client() as client:
        answer = client.get("/api/replay/ab%00cd")
        assert answer.status_code == 404 and answer.json()["message"] == "no such game"
        answer = client.post("/api/mine", json=[{"id": "ab\x00", "token": "x"}])
        assert answer.status_code == 200 and answer.json() == []
        for url in ("/ws/ab%00cd", "/ws/a%20b"):
            with client.websocket_connect(url) as ws:
                assert recv(ws) == {"type": "error", "message": "no such table (it may be over)"}


def test_the_store_says_when_the_database_cannot_hold_a_value() -> None:
    """The backstop: where a value reaches a database that refuses it, the store raises
    InvalidData (a StorageError and a ValueError) and nothing is written."""
    store = new_store()
    try:
        game_id = store.create_game("online", Rules(), ("Ann", "Bob"))
        if store.engine.dialect.name == "postgresql":
            with pytest.raises(InvalidData, match="cannot store that"):
                store.rename_seat(game_id, 0, "A\x00nn")
        else:  # SQLite stores any text
            store.rename_seat(game_id, 0, "A\x00nn")
        game = store.get_game(game_id)
        assert game is not None and game.names[0] in ("Ann", "A\x00nn")
        assert (game.names[0] == "Ann") == (store.engine.dialect.name == "postgresql")
    finally:
        store.close()


def test_a_table_is_not_made_to_a_target_no_game_reaches() -> None:
    with app_client() as client:
        for options in ({"game_target": 10**9, "match_target": 0}, {"match_target": 10**9}):
            answer = client.post("/api/tables", json={"mode": "friend", "options": options})
            assert answer.status_code == 400, answer.text
            assert answer.json()["message"].startswith("a game is played to at most 1000")
        answer = client.post("/api/tables", json={"mode": "friend", "preset": "oklahoma"})
        assert answer.status_code == 200, answer.text


#: A lone surrogate: JSON's "\ud800" escape makes one (``json.dumps`` writes it so), valid JSON
#: and UTF-8 on the wire, but text that UTF-8 cannot encode again (a token hashed, an error
#: quoting it, a message relayed).
SURROGATE = "\ud800"


def test_lone_surrogates_in_a_message_are_refused_and_the_socket_stays() -> None:
    with app_client() as client:
        created = new_table(client, mode="friend", name="Ann")
        with client.websocket_connect(f"/ws/{created['id']}") as ws:
            assert recv(ws)["type"] == "state"
            for msg in (
                {"type": "hello", "token": SURROGATE},
                {"type": "hello", "token": created["token"] + SURROGATE},
                {"type": "action", "action": "discard " + SURROGATE},
                {"type": "name", "name": "Ann" + SURROGATE},
            ):
                ws.send_text(json.dumps(msg))
                answer = recv(ws)
                assert answer["type"] == "error", msg
                assert "lone surrogate" in answer["message"]
            ws.send_text(json.dumps({"type": "ping", "id": SURROGATE}))
            assert recv(ws) == {
                "type": "error",
                "message": "a message's 'id' is a number or a short text",
            }
            # The socket still serves.
            ws.send_json({"type": "state"})
            assert recv(ws)["type"] == "state"


def test_lone_surrogates_in_a_post_get_a_clear_answer() -> None:
    headers = {"content-type": "application/json"}
    with app_client() as client:
        body = json.dumps({"tables": [{"id": "abcdefgh", "token": SURROGATE}]})
        answer = client.post("/api/mine", content=body, headers=headers)
        assert answer.status_code == 200 and answer.json() == []
        body = json.dumps({"options": {SURROGATE: 1}})
        answer = client.post("/api/tables", content=body, headers=headers)
        assert answer.status_code == 400
        assert answer.json()["message"] == "unknown rule option(s): ?"
