"""The scorekeeper without the command line: a game kept in a store through ``Session``, saved
games read back, and the package's promise to need no database package of its own."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator

import pytest

from ginrummy.engine.rules import Rules
from ginrummy.engine.rulings import parse_irregularity
from ginrummy.scorekeeper import (
    KeeperError,
    MissingGameError,
    ResultEntry,
    Session,
    Setup,
    export_text,
    find_game,
    keeper_of,
    latest_open_game,
    listed_games,
    parse_entry,
)
from ginrummy.storage import SavedGame, Store

RULES = Rules.from_words("standard game_target=50 stake=0.10")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    """A store on each database (tests/conftest.py): a SQLite file, PostgreSQL."""
    with Store(db_url) as opened:
        yield opened


def new_session(store: Store, mode: str = "game", rules: Rules = RULES) -> Session:
    return Session.create(store, Setup(("Ann", "Bob"), rules, mode, 1))


def enter(session: Session, line: str) -> None:
    entry = parse_entry(line, session.keeper)
    assert isinstance(entry, ResultEntry)
    session.enter_result(entry.result, line)


def saved(store: Store, game_id: str) -> SavedGame:
    game = store.load_game(game_id)
    assert game is not None
    return game


def test_each_entry_is_stored_and_the_state_is_what_the_store_holds(store: Store) -> None:
    session = new_session(store)
    assert latest_open_game(store) == find_game(store, session.id)
    enter(session, "ann knock 7 bob 23")
    enter(session, "dead")
    assert session.keeper.hands_played == 2
    assert [e.data["text"] for e in saved(store, session.id).entries] == [
        "ann knock 7 bob 23",
        "dead",
    ]
    assert Session(store, session.id).keeper.sheet() == session.keeper.sheet()
    assert keeper_of(saved(store, session.id)).sheet() == session.keeper.sheet()


def test_the_entry_that_ends_the_game_finishes_it_and_undo_reopens_it(store: Store) -> None:
    session = new_session(store)
    enter(session, "bob gin 40")  # 65: over 50
    assert session.keeper.is_over
    game = find_game(store, session.id)
    assert game is not None and game.status == "finished" and game.winner == 1
    assert (
        game.final is not None
        and game.final["settlement"] == session.keeper.final_data()["settlement"]
    )
    assert latest_open_game(store) is None
    removed = session.undo()
    assert removed is not None and removed.data["text"] == "bob gin 40"
    assert not session.keeper.is_over and session.keeper.hands_played == 0
    assert latest_open_game(store) == find_game(store, session.id)
    assert session.undo() is None


def test_a_ruling_that_names_a_dealer_changes_who_deals(store: Store) -> None:
    session = new_session(store)
    assert session.keeper.dealer == 1
    wrong = 1 - session.keeper.expected  # Ann dealt out of turn, and her deal stands
    ruling = parse_irregularity("wrong dealer after upcard", wrong)
    session.enter_ruling(ruling, "wrong dealer after upcard", wrong)
    assert session.keeper.dealer == 0
    assert [r.text for r in Session(store, session.id).keeper.rulings] == [
        "wrong dealer after upcard"
    ]


def test_again_keeps_players_rules_and_mode(store: Store) -> None:
    session = new_session(store)
    enter(session, "ann gin 40")
    following = session.again()
    assert following.id != session.id
    assert following.keeper.names == ("Ann", "Bob") and following.keeper.rules == RULES
    assert following.keeper.dealer == session.keeper.expected == 0  # the winner deals
    assert latest_open_game(store) == find_game(store, following.id)


def test_saved_games_are_listed_and_exported(store: Store) -> None:
    first = new_session(store, "match", Rules.from_words("standard game_target=50"))
    enter(first, "ann gin 40")
    second = new_session(store)
    enter(second, "bob knock 3 ann 13")
    listed = listed_games(store)
    assert [(g.id, g.mode, g.hands, g.status) for g in listed] == [
        (second.id, "game", 1, "open"),
        (first.id, "match", 1, "open"),
    ]
    assert listed[0].names == ("Ann", "Bob")
    data = json.loads(export_text(saved(store, first.id), "json"))
    assert data["games"][0]["hands"][0]["how"] == "gin"
    rows = list(csv.reader(io.StringIO(export_text(saved(store, second.id), "csv"))))
    assert rows[1][2:5] == ["Bob", "knock", "10"]


def test_games_not_there_or_not_the_scorekeepers(store: Store) -> None:
    assert find_game(store, "nope") is None and latest_open_game(store) is None
    with pytest.raises(MissingGameError, match="game nope has gone from the database"):
        Session(store, "nope")
    with store.transaction() as tx:
        online = tx.create_game("online", RULES, ("Ann", "Bob"))
    assert find_game(store, online) is None


def test_entries_that_cannot_be_replayed_name_the_game(store: Store) -> None:
    session = new_session(store)
    with store.transaction() as tx:
        tx.add_entry(session.id, "result", {"text": "?"})
    with pytest.raises(KeeperError, match=f"game {session.id}: entry 1 cannot be replayed"):
        Session(store, session.id)


def test_importing_the_scorekeeper_loads_no_database_package() -> None:
    code = (
        "import sys, ginrummy.scorekeeper\n"
        "print(sorted({'sqlalchemy', 'alembic'} & set(sys.modules)))"
    )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True
    )
    assert out.stdout.strip() == "[]"
