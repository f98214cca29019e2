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
    EntryError,
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
    (hand,) = [row for row in rows if row[0] == "entry"]
    assert hand[9:12] == ["Bob", "knock", "10"]
    with store.transaction() as tx:
        online = tx.create_game("online", RULES, ("Ann", "Bob"))
    # An online game exports its sheet (it is not the scorekeeper's to import).
    assert json.loads(export_text(saved(store, online), "json"))["hands"] == []


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


def test_an_earlier_hand_is_edited_and_every_later_total_recomputed(store: Store) -> None:
    session = new_session(store)  # Bob deals first; the winner deals next
    for line in ("ann knock 7 bob 23", "bob gin 10", "dead"):
        enter(session, line)
    told = [e.created_at for e in saved(store, session.id).entries]
    entry = parse_entry("bob knock 2 ann 12", session.keeper)
    assert isinstance(entry, ResultEntry)
    after = session.edit(1, 1, entry.result, "bob knock 2 ann 12")
    lines = after.sheet().lines
    assert [line.totals[0] for line in lines] == [(0, 10), (0, 45), (0, 45)]
    # Bob won hand 1 now, so he dealt hand 2 and (after his gin) hand 3.
    assert [line.dealer for line in lines] == [1, 1, 1]
    *stored, note = saved(store, session.id).entries
    assert [e.data["text"] for e in stored] == ["bob knock 2 ann 12", "bob gin 10", "dead"]
    assert [e.data["dealer"] for e in stored] == [1, 1, 1]
    assert [e.created_at for e in stored] == told
    assert (note.kind, note.data["text"], note.data["hand"]) == ("note", "bob knock 2 ann 12", 1)
    assert Session(store, session.id).keeper.sheet() == after.sheet()


def test_undo_takes_back_the_last_edit_or_entry_whichever_came_last(store: Store) -> None:
    """An edit is undone as an entry is: the last thing done first, in a game resumed too
    (the edit is stored), each hand it changed as it was; the game it ended or reopened
    reopened or ended again."""
    session = new_session(store)  # Bob deals first; the winner deals next
    for line in ("ann knock 7 bob 23", "bob gin 10"):  # Ann 16, Bob 35
        enter(session, line)
    before = saved(store, session.id)
    entry = parse_entry("bob knock 2 ann 12", session.keeper)
    assert isinstance(entry, ResultEntry)
    session.edit(1, 1, entry.result, "bob knock 2 ann 12")  # Bob 10: he deals hand 2
    enter(session, "ann knock 3 bob 10")
    resumed = Session(store, session.id)
    removed = resumed.undo()
    assert removed is not None and removed.data["text"] == "ann knock 3 bob 10"
    removed = Session(store, session.id).undo()
    assert removed is not None and removed.kind == "note" and removed.data["hand"] == 1
    assert saved(store, session.id).entries == before.entries
    again = Session(store, session.id)
    assert again.keeper.sheet() == keeper_of(before).sheet()
    assert [line.dealer for line in again.keeper.sheet().lines] == [1, 0]
    removed = again.undo()
    assert removed is not None and removed.data["text"] == "bob gin 10"

    big = parse_entry("ann gin 40", again.keeper)  # Ann 65: the edit ends the game
    assert isinstance(big, ResultEntry)
    again.edit(1, 1, big.result, "ann gin 40")
    assert again.keeper.is_over
    exported = json.loads(export_text(saved(store, session.id), "json"))
    assert [e["text"] for e in exported["entries"]] == ["ann gin 40"]  # as it now is
    game = find_game(store, session.id)
    assert game is not None and game.status == "finished"
    assert again.undo() is not None and not again.keeper.is_over
    game = find_game(store, session.id)
    assert game is not None and game.status == "open" and game.final is None
    assert [e.data["text"] for e in saved(store, session.id).entries] == ["ann knock 7 bob 23"]


def test_an_edit_that_ends_or_reopens_the_game_closes_or_reopens_it(store: Store) -> None:
    session = new_session(store)
    enter(session, "ann knock 7 bob 23")  # 16
    enter(session, "ann gin 30")  # 71: over 50
    game = find_game(store, session.id)
    assert game is not None and game.status == "finished"
    small = parse_entry("ann knock 9 bob 10", session.keeper)
    assert isinstance(small, ResultEntry)
    session.edit(1, 2, small.result, "ann knock 9 bob 10")  # 17: the game goes on
    game = find_game(store, session.id)
    assert game is not None and game.status == "open" and game.final is None
    big = parse_entry("ann gin 40", session.keeper)
    assert isinstance(big, ResultEntry)
    after = session.edit(1, 2, big.result, "ann gin 40")
    game = find_game(store, session.id)
    assert game is not None and game.status == "finished" and game.final == after.final_data()


def test_an_edit_that_leaves_later_hands_after_the_end_changes_nothing(store: Store) -> None:
    session = new_session(store)
    enter(session, "ann knock 7 bob 23")
    enter(session, "bob knock 3 ann 10")
    before = saved(store, session.id)
    entry = parse_entry("ann gin 60", session.keeper)
    assert isinstance(entry, ResultEntry)
    with pytest.raises(EntryError, match="would end the game at hand 1, but later entries follow"):
        session.edit(1, 1, entry.result, "ann gin 60")
    with pytest.raises(EntryError, match="there is no hand 3 to edit"):
        session.edit(1, 3, entry.result, "ann gin 60")
    assert saved(store, session.id) == before
    assert session.keeper.sheet() == keeper_of(before).sheet()


def test_an_edit_that_moves_later_hands_to_another_game_changes_nothing(store: Store) -> None:
    session = new_session(store, "match", Rules.from_words("standard game_target=50"))
    enter(session, "ann knock 7 bob 23")  # game 1: Ann 16
    enter(session, "bob gin 30")  # game 1 ends: Bob 55
    enter(session, "ann knock 2 bob 12")  # game 2, hand 1
    before = saved(store, session.id)
    entry = parse_entry("ann knock 1 bob 9", session.keeper)
    assert isinstance(entry, ResultEntry)
    with pytest.raises(EntryError, match="would change where game 1 ends and move the later hands"):
        session.edit(1, 2, entry.result, "ann knock 1 bob 9")  # game 1 would go on
    assert saved(store, session.id) == before


def test_abandoned_and_deleted_games(store: Store) -> None:
    kept, dropped, gone = new_session(store), new_session(store), new_session(store)
    enter(dropped, "ann knock 7 bob 23")
    dropped.abandon()
    gone.delete()
    assert [(g.id, g.status) for g in listed_games(store)] == [
        (dropped.id, "abandoned"),
        (kept.id, "open"),
    ]
    assert latest_open_game(store) == find_game(store, kept.id)
    assert store.load_game(gone.id) is None
    entry = parse_entry("dead", dropped.keeper)
    assert isinstance(entry, ResultEntry)
    with pytest.raises(EntryError, match="is abandoned"):
        dropped.edit(1, 1, entry.result, "dead")


def test_a_hand_of_an_earlier_game_of_a_match_is_edited(store: Store) -> None:
    session = new_session(store, "match", Rules.from_words("standard game_target=50"))
    enter(session, "bob gin 30")  # game 1 ends: Bob 55 + 25 + 100 + 100 = 280
    enter(session, "ann knock 2 bob 12")  # game 2, hand 1
    entry = parse_entry("bob gin 40", session.keeper)
    assert isinstance(entry, ResultEntry)
    after = session.edit(1, 1, entry.result, "bob gin 40")  # 65 + 225 = 290
    assert after.match_totals() == (0, 290) and after.game_number == 2
    assert after.sheet(2).lines[0].totals[0] == (10, 0)
    assert Session(store, session.id).keeper.match_totals() == (0, 290)
