"""The store: migrations, round trips of every record, one transaction per write, the database's
location (explicit URL, environment variable, user data directory) and player statistics."""

from __future__ import annotations

import hashlib
import threading
import time
from datetime import UTC, datetime
from inspect import signature
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from ginrummy.engine.cards import DECK
from ginrummy.engine.results import HandResult, ResultKind
from ginrummy.engine.rules import Rules
from ginrummy.storage import (
    ENV_VAR,
    ConflictError,
    DatabaseUnavailable,
    NotFoundError,
    Store,
    Writer,
    default_path,
    resolve_url,
)
from ginrummy.storage.database import current, downgrade, head, migrate
from ginrummy.storage.models import Base

RULES = Rules()
TABLES = {"players", "games", "seats", "hands", "actions", "entries", "leases", "alembic_version"}


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@pytest.fixture
def store(store_url: str) -> Any:
    """A store on each database (tests/conftest.py): SQLite in memory, PostgreSQL."""
    with Store(store_url) as s:
        yield s


@pytest.fixture
def sqlite_db(tmp_path: Path) -> str:
    """A SQLite file, for what only SQLite has (WAL, PRAGMAs, file paths)."""
    return f"sqlite:///{tmp_path / 'games.db'}"


def online_game(store: Store, **kw: Any) -> str:
    return store.create_game("online", RULES, ("Ann", "Bob"), seed=42, **kw)


# -- migrations ------------------------------------------------------------------------------


def test_migrations_from_empty_create_every_table(db_url: str) -> None:
    with Store(db_url) as store:
        assert current(store.engine) == head() == "0003"
        assert set(inspect(store.engine).get_table_names()) == TABLES


def test_migrated_schema_matches_the_models(db_url: str) -> None:
    with Store(db_url) as store, store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []


def test_downgrade_to_base_and_up_again(db_url: str) -> None:
    with Store(db_url) as store:
        downgrade(store.engine, "base")
        assert current(store.engine) is None
        assert set(inspect(store.engine).get_table_names()) == {"alembic_version"}
        migrate(store.engine)
        assert current(store.engine) == "0003"
        assert store.list_games() == []


def test_a_database_of_the_first_version_is_upgraded_with_its_games(db_url: str) -> None:
    with Store(db_url) as store:
        game_id = online_game(store)
        downgrade(store.engine, "0001")  # as a server of the first version left it
        assert current(store.engine) == "0001"
        migrate(store.engine)
        assert current(store.engine) == "0003"
        assert store.get_game(game_id) is not None
        assert store.owned_games("a" * 64) == []


def test_opening_twice_migrates_once(db_url: str) -> None:
    with Store(db_url) as store:
        game_id = online_game(store)
    with Store(db_url) as store:
        assert store.get_game(game_id) is not None


def test_sqlite_file_uses_wal_and_foreign_keys(sqlite_db: str) -> None:
    with Store(sqlite_db) as store, store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
        # 2 = FULL: a commit (an acknowledged move) is synced to disk before it returns
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2


def test_migration_files_ship_with_the_package() -> None:
    folder = Path(__import__("ginrummy.storage").storage.__file__).parent / "migrations"
    assert (folder / "env.py").is_file() and (folder / "script.py.mako").is_file()
    assert any(folder.glob("versions/0001_*.py"))
    pyproject = (Path(__file__).resolve().parents[1] / "pyproject.toml").read_text()
    assert "storage/migrations/versions/*.py" in pyproject
    assert "storage/migrations/script.py.mako" in pyproject


# -- where the database is -------------------------------------------------------------------


def test_file_database_survives_close_and_reopen(db_url: str) -> None:
    store = Store(db_url)
    game_id = store.create_game("scorekeeper", RULES, ("Ann", "Bob"))
    store.add_entry(game_id, "result", {"hand": 1})
    store.close()
    with Store(db_url) as again:
        saved = again.load_game(game_id)
        assert saved is not None
        assert [e.data for e in saved.entries] == [{"hand": 1}]


def test_environment_variable_names_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "from-env.db"
    monkeypatch.setenv(ENV_VAR, f"sqlite:///{path}")
    with Store() as store:
        online_game(store)
    assert path.is_file()
    assert resolve_url("sqlite://") == "sqlite://"  # an explicit URL wins


def test_default_database_is_in_the_user_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    expected = tmp_path / "data" / "ginrummy" / "ginrummy.db"
    assert default_path() == expected
    with Store() as store:
        online_game(store)
    assert expected.is_file()


def test_postgres_urls_are_read_with_psycopg() -> None:
    for given in (
        "postgresql://u:pw@db.example:5433/games",
        "postgres://u:pw@db.example:5433/games",
    ):
        assert resolve_url(given) == "postgresql+psycopg://u:pw@db.example:5433/games"
    assert resolve_url("postgresql+psycopg2://u@h/g") == "postgresql+psycopg2://u@h/g"


@pytest.mark.postgresql
def test_environment_variable_names_a_postgres_database(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, postgres_schema_url)
    with Store() as store:
        assert store.engine.dialect.name == "postgresql"
        assert store.engine.dialect.driver == "psycopg"
        game_id = online_game(store)
    with Store(postgres_schema_url) as again:
        assert again.get_game(game_id) is not None
        assert "pw" not in repr(again)


def test_sqlite_parent_directory_is_created(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "g.db"
    with Store(f"sqlite:///{path}"):
        pass
    assert path.is_file()


# -- games -----------------------------------------------------------------------------------


def test_game_round_trip(store: Store) -> None:
    ann = store.add_player("Ann")
    rules = Rules.preset("classic", stake="0.05")
    options = {"mode": "match", "opponent": {"level": "expert"}, "clock": 30}
    game_id = store.create_game(
        "online",
        rules,
        ("Ann", " Bot "),
        seed=(1 << 63) - 1,
        player_ids=(ann.id, None),
        options=options,
    )
    options["clock"] = 99  # the store kept its own copy
    game = store.get_game(game_id)
    assert game is not None
    assert (game.id, game.kind, game.status, game.is_open) == (game_id, "online", "open", True)
    assert game.rules == rules and game.seed == (1 << 63) - 1
    assert game.names == ("Ann", "Bot") and game.player_ids == (ann.id, None)
    assert game.options == {"mode": "match", "opponent": {"level": "expert"}, "clock": 30}
    assert game.final is None and game.winner is None
    assert game.created_at.tzinfo is UTC and game.created_at <= game.updated_at
    assert len(game_id) == 8 and game_id.replace("-", "").replace("_", "").isalnum()


def test_missing_game_reads_none_and_writes_raise(store: Store) -> None:
    assert store.get_game("nope") is None and store.load_game("nope") is None
    with pytest.raises(NotFoundError):
        store.add_entry("nope", "result", {})
    with pytest.raises(NotFoundError):
        store.finish_game("nope", {})
    with pytest.raises(NotFoundError):
        store.set_seat("nope", 0, token_hash("t"))


def test_list_games_filters_and_orders_newest_first(store: Store) -> None:
    first = online_game(store)
    second = store.create_game("scorekeeper", RULES, ("Cy", "Di"))
    third = online_game(store)
    store.finish_game(third, {"winner": 1})
    assert [g.id for g in store.list_games()] == [third, second, first]
    assert [g.id for g in store.list_games(kind="online")] == [third, first]
    assert [g.id for g in store.list_games(kind="online", status="open")] == [first]
    assert [g.id for g in store.list_games(limit=1)] == [third]
    store.add_entry(second, "note", {"text": "coffee break"})
    assert store.list_games()[0].id == second
    with pytest.raises(ValueError):
        store.list_games(kind="chess")
    with pytest.raises(ValueError):
        store.list_games(status="won")


def test_finish_abandon_and_reopen(store: Store) -> None:
    game_id = online_game(store)
    store.finish_game(game_id, {"winner": 1, "net": 130, "sheet": {"hands": []}})
    game = store.get_game(game_id)
    assert game is not None
    assert (game.status, game.winner, game.final) == (
        "finished",
        1,
        {"winner": 1, "net": 130, "sheet": {"hands": []}},
    )
    with pytest.raises(ConflictError):
        store.finish_game(game_id, {})
    store.reopen_game(game_id)
    game = store.get_game(game_id)
    assert game is not None and (game.status, game.winner, game.final) == ("open", None, None)
    store.finish_game(game_id, {"winner": None}, winner=0)
    assert store.get_game(game_id).winner == 0  # type: ignore[union-attr]
    other = online_game(store)
    store.abandon_game(other)
    assert store.get_game(other).status == "abandoned"  # type: ignore[union-attr]
    with pytest.raises(ConflictError):
        store.abandon_game(other)


def test_a_seat_can_be_renamed(store: Store) -> None:
    game_id = store.create_game("online", Rules.preset("standard"), ["Ann", "Friend"])
    with store.transaction() as tx:
        tx.rename_seat(game_id, 1, "  Bob ")
    assert store.load_game(game_id).game.names == ("Ann", "Bob")
    for seat, name in ((2, "Cy"), (1, "   "), (0, "x" * 65)):
        with pytest.raises(ValueError), store.transaction() as tx:
            tx.rename_seat(game_id, seat, name)
    assert store.load_game(game_id).game.names == ("Ann", "Bob")


def test_update_options_merges(store: Store) -> None:
    game_id = online_game(store, options={"mode": "single"})
    assert store.update_options(game_id, {"clock": 20}) == {"mode": "single", "clock": 20}
    assert store.get_game(game_id).options == {"mode": "single", "clock": 20}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("chess", RULES, ("A", "B")), {}),
        (("online", {"gin_bonus": 25}, ("A", "B")), {}),
        (("online", RULES, ("A",)), {}),
        (("online", RULES, ("A", "  ")), {}),
        (("online", RULES, ("A", "B" * 65)), {}),
        (("online", RULES, ("A", "B")), {"seed": 1 << 63}),
        (("online", RULES, ("A", "B")), {"seed": "7"}),
        (("online", RULES, ("A", "B")), {"options": {"f": object()}}),
        (("online", RULES, ("A", "B")), {"options": {"x": float("nan")}}),
        (("online", RULES, ("A", "B")), {"game_id": "no spaces"}),
        (("online", RULES, ("A", "B")), {"seats": [(2, token_hash("x"))]}),
        (("online", RULES, ("A", "B")), {"seats": [(0, "not a hash")]}),
    ],
)
def test_bad_game_arguments_raise_and_store_nothing(
    store: Store, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    with pytest.raises(ValueError):
        store.create_game(*args, **kwargs)
    assert store.list_games() == []


def test_chosen_game_id_must_be_new(store: Store) -> None:
    assert online_game(store, game_id="table-1") == "table-1"
    with pytest.raises(ConflictError):
        online_game(store, game_id="table-1")


# -- players ---------------------------------------------------------------------------------


def test_players(store: Store) -> None:
    ann = store.add_player("Ann")
    assert store.ensure_player("Ann") == ann
    bob = store.ensure_player("Bob")
    assert bob.id != ann.id
    with pytest.raises(ConflictError):
        store.add_player("Ann")
    assert store.player("Ann") == ann and store.player("Zed") is None
    assert [p.name for p in store.list_players()] == ["Ann", "Bob"]


def test_unknown_player_id_is_a_conflict(store: Store) -> None:
    with pytest.raises(ConflictError):
        online_game(store, player_ids=(999, None))
    assert store.list_games() == []


# -- seats -----------------------------------------------------------------------------------


def test_seats_and_tokens(store: Store) -> None:
    game_id = online_game(store, seats=[(0, token_hash("zero"))])
    bob = store.add_player("Bob")
    store.set_seat(game_id, 1, token_hash("one"), bob.id)
    assert store.seat_for_token(game_id, token_hash("zero")) == 0
    assert store.seat_for_token(game_id, token_hash("one")) == 1
    assert store.seat_for_token(game_id, token_hash("two")) is None
    assert store.seat_for_token("other", token_hash("zero")) is None
    store.set_seat(game_id, 0, token_hash("new"))  # a new invite link for seat 0
    assert store.seat_for_token(game_id, token_hash("zero")) is None
    assert store.seat_for_token(game_id, token_hash("new")) == 0
    saved = store.load_game(game_id)
    assert saved is not None
    assert [(s.seat, s.player_id) for s in saved.seats] == [(0, None), (1, bob.id)]
    with pytest.raises(ValueError):
        store.set_seat(game_id, 1, token_hash("x").upper())


# -- hands and actions -----------------------------------------------------------------------


def test_hand_round_trip(store: Store) -> None:
    game_id = online_game(store)
    deck = list(reversed(DECK))
    store.start_hand(game_id, 1, 1, deck, "ab" * 16, "c" * 64)
    moves = ["take", "discard Kd", "draw", "knock 7c"]
    for seq, text in enumerate(moves):
        store.add_action(game_id, 1, seq, seq % 2, text)
    store.add_action(game_id, 1, len(moves), None, "system note")
    result = HandResult.knock(RULES, 0, 7, 30)
    store.finish_hand(game_id, 1, result)
    store.start_hand(game_id, 2, 0, " ".join(str(c) for c in DECK), "s", "c", game_number=2)
    saved = store.load_game(game_id)
    assert saved is not None
    first, second = saved.hands
    assert first.deck == " ".join(str(c) for c in deck) and first.dealer == 1
    assert (first.salt, first.commitment, first.game_number) == ("ab" * 16, "c" * 64, 1)
    assert [a.text for a in first.actions] == [*moves, "system note"]
    assert [a.seat for a in first.actions] == [0, 1, 0, 1, None]
    assert first.hand_result == result and first.result is not None
    assert first.result["kind"] == "knock" and first.ended_at is not None
    assert second.result is None and second.ended_at is None and second.game_number == 2


def test_duplicate_action_seq_is_rejected(store: Store) -> None:
    game_id = online_game(store)
    store.start_hand(game_id, 1, 0, DECK, "s", "c")
    store.add_action(game_id, 1, 0, 1, "take")
    with pytest.raises(ConflictError):
        store.add_action(game_id, 1, 0, 0, "draw")
    store.start_hand(game_id, 2, 0, DECK, "s", "c")
    store.add_action(game_id, 2, 0, 1, "draw")  # the same seq in another hand is fine
    saved = store.load_game(game_id)
    assert saved is not None
    assert [[a.text for a in h.actions] for h in saved.hands] == [["take"], ["draw"]]


def test_hand_conflicts_and_missing_hands(store: Store) -> None:
    game_id = online_game(store)
    with pytest.raises(NotFoundError):
        store.add_action(game_id, 1, 0, 0, "draw")
    with pytest.raises(NotFoundError):
        store.finish_hand(game_id, 1, HandResult.dead())
    store.start_hand(game_id, 1, 0, DECK, "s", "c")
    with pytest.raises(ConflictError):
        store.start_hand(game_id, 1, 0, DECK, "s", "c")
    store.finish_hand(game_id, 1, HandResult.dead())
    with pytest.raises(ConflictError):
        store.finish_hand(game_id, 1, HandResult.dead())
    with pytest.raises(ConflictError):
        store.add_action(game_id, 1, 5, 0, "draw")


def test_no_play_is_stored_in_a_game_that_is_no_longer_open(store: Store) -> None:
    """A move (or a deal, a name, an undo) that reaches the store after its game was closed
    (as abandoned, say, while it was on its way) is refused, saying why; the game stays as it
    was closed."""
    abandoned, finished = online_game(store), online_game(store)
    for game_id in (abandoned, finished):
        store.start_hand(game_id, 1, 0, DECK, "s", "c")
        store.add_action(game_id, 1, 0, 1, "take")
    store.abandon_game(abandoned)
    store.finish_game(finished, {"winner": 0})
    before = {g: store.get_game(g) for g in (abandoned, finished)}
    for game_id, status in ((abandoned, "abandoned"), (finished, "finished")):
        # Nor anything else of play: a deal, a name, an undo, a hand's result.
        writes: tuple[tuple[Any, tuple[Any, ...], dict[str, Any]], ...] = (
            (store.add_action, (game_id, 1, 1, 1, "discard Kd"), {}),
            (store.start_hand, (game_id, 2, 1, DECK, "s", "c"), {}),
            (store.rename_seat, (game_id, 1, "Eve"), {}),
            (store.remove_actions, (game_id, 1), {"keep": 0}),
            (store.finish_hand, (game_id, 1, {"winner": None, "kind": "dead"}), {}),
        )
        for write, args, kwargs in writes:
            with pytest.raises(ConflictError, match=f"game {game_id} is {status}"):
                write(*args, **kwargs)
        saved = store.load_game(game_id)
        assert saved is not None and [a.text for a in saved.hands[0].actions] == ["take"]
        assert len(saved.hands) == 1 and saved.hands[0].result is None
        assert store.get_game(game_id) == before[game_id]  # not even its time changed
    with pytest.raises(NotFoundError):
        store.add_action("nosuchgm", 1, 0, 0, "draw")


def test_remove_actions_takes_back_the_last_ones(store: Store) -> None:
    game_id = online_game(store)
    store.start_hand(game_id, 1, 0, DECK, "s", "c")
    store.start_hand(game_id, 2, 0, DECK, "s", "c")
    for seq, text in enumerate(["take", "discard Kd", "draw", "discard 2c"]):
        store.add_action(game_id, 1, seq, seq % 2, text)
    store.add_action(game_id, 2, 0, 1, "pass")
    assert store.remove_actions(game_id, 1, keep=2) == 2
    assert store.remove_actions(game_id, 1, keep=5) == 0
    store.add_action(game_id, 1, 2, 0, "take")  # the freed seq can be used again
    saved = store.load_game(game_id)
    assert saved is not None
    assert [a.text for a in saved.hands[0].actions] == ["take", "discard Kd", "take"]
    assert [a.text for a in saved.hands[1].actions] == ["pass"]
    with pytest.raises(ValueError):
        store.remove_actions(game_id, 1, keep=-1)
    with pytest.raises(NotFoundError):
        store.remove_actions(game_id, 3, keep=0)
    store.finish_hand(game_id, 2, HandResult.dead())
    with pytest.raises(ConflictError):
        store.remove_actions(game_id, 2, keep=0)


@pytest.mark.parametrize(
    ("number", "dealer", "deck"),
    [(0, 0, DECK), (1, 2, DECK), (1, 0, DECK[:51]), (1, 0, "As As"), (1, 0, "not cards")],
)
def test_bad_hands_are_refused(store: Store, number: int, dealer: int, deck: Any) -> None:
    game_id = online_game(store)
    with pytest.raises(ValueError):
        store.start_hand(game_id, number, dealer, deck, "s", "c")
    assert store.load_game(game_id).hands == ()  # type: ignore[union-attr]


# -- entries ---------------------------------------------------------------------------------


def test_entries_append_and_undo(store: Store) -> None:
    game_id = store.create_game("scorekeeper", RULES, ("Ann", "Bob"))
    assert store.remove_last_entry(game_id) is None
    assert store.add_entry(game_id, "result", {"text": "ann knock 7 bob 23"}) == 1
    assert store.add_entry(game_id, "irregularity", {"text": "exposed card"}) == 2
    removed = store.remove_last_entry(game_id)
    assert removed is not None and (removed.seq, removed.kind) == (2, "irregularity")
    assert store.add_entry(game_id, "result", {"text": "bob gin 30"}) == 2
    saved = store.load_game(game_id)
    assert saved is not None
    assert [(e.seq, e.data["text"]) for e in saved.entries] == [
        (1, "ann knock 7 bob 23"),
        (2, "bob gin 30"),
    ]
    with pytest.raises(ValueError):
        store.add_entry(game_id, "mystery", {})
    store.finish_game(game_id, {"winner": 0})
    with pytest.raises(ConflictError):
        store.add_entry(game_id, "result", {})


def test_entries_keep_a_given_time_and_can_be_rewritten(store: Store) -> None:
    started = datetime(2026, 3, 1, 20, 0, 5, tzinfo=UTC)
    game_id = store.create_game("scorekeeper", RULES, ("Ann", "Bob"), created_at=started)
    told = datetime(2026, 3, 1, 20, 9, 0, tzinfo=UTC)
    store.add_entry(game_id, "result", {"text": "ann knock 7 bob 23"}, created_at=told)
    store.add_entry(game_id, "result", {"text": "dead"})
    store.rewrite_entries(game_id, {1: {"text": "ann knock 6 bob 23"}})
    saved = store.load_game(game_id)
    assert saved is not None and saved.game.created_at == started
    assert [(e.seq, e.data["text"]) for e in saved.entries] == [
        (1, "ann knock 6 bob 23"),
        (2, "dead"),
    ]
    assert saved.entries[0].created_at == told and saved.entries[1].created_at > told
    with pytest.raises(NotFoundError, match="has no entry 3"):
        store.rewrite_entries(game_id, {3: {"text": "?"}})
    with pytest.raises(ValueError, match="timezone-aware"):
        store.add_entry(game_id, "result", {}, created_at=datetime(2026, 3, 1))


def test_a_deleted_game_leaves_nothing_behind(store: Store) -> None:
    kept = store.create_game("scorekeeper", RULES, ("Ann", "Bob"))
    gone = store.create_game("scorekeeper", RULES, ("Ann", "Bob"))
    store.add_entry(gone, "result", {"text": "dead"})
    store.finish_game(gone, {"winner": 0})
    online = online_game(store)
    store.start_hand(online, 1, 0, DECK, "s", "c")
    store.delete_game(gone)
    store.delete_game(online)
    assert store.load_game(gone) is None and store.load_game(online) is None
    assert [g.id for g in store.list_games()] == [kept]
    with pytest.raises(NotFoundError):
        store.delete_game(gone)


# -- one transaction per write ---------------------------------------------------------------


def test_failure_inside_a_transaction_leaves_nothing(store: Store) -> None:
    game_id = online_game(store)
    store.start_hand(game_id, 1, 0, DECK, "s", "c")
    with pytest.raises(RuntimeError), store.transaction() as tx:
        tx.add_action(game_id, 1, 0, 1, "take")
        tx.add_action(game_id, 1, 1, 1, "discard Kd")
        tx.add_entry(game_id, "note", {"text": "half way"})
        raise RuntimeError("the server fell over")
    saved = store.load_game(game_id)
    assert saved is not None and saved.hands[0].actions == () and saved.entries == ()


def test_clash_in_the_middle_of_a_transaction_rolls_it_all_back(store: Store) -> None:
    game_id = online_game(store)
    store.start_hand(game_id, 1, 0, DECK, "s", "c")
    store.add_action(game_id, 1, 0, 1, "take")
    with pytest.raises(ConflictError), store.transaction() as tx:
        tx.add_action(game_id, 1, 1, 1, "discard Kd")
        tx.finish_hand(game_id, 1, HandResult.knock(RULES, 0, 3, 40))
        tx.add_action(game_id, 1, 0, 0, "draw")  # seq 0 is taken
    saved = store.load_game(game_id)
    assert saved is not None
    assert [a.text for a in saved.hands[0].actions] == ["take"]
    assert saved.hands[0].result is None


def test_transaction_commits_together(store: Store) -> None:
    game_id = online_game(store)
    with store.transaction() as tx:
        tx.start_hand(game_id, 1, 0, DECK, "s", "c")
        tx.add_action(game_id, 1, 0, 1, "take")
        tx.finish_hand(game_id, 1, HandResult.dead())
        tx.finish_game(game_id, {"winner": None})
    saved = store.load_game(game_id)
    assert saved is not None and saved.game.status == "finished"
    assert saved.hands[0].hand_result == HandResult.dead()


def test_the_store_has_every_write_as_a_transaction_of_its_own(store: Store) -> None:
    """The write interface is Writer's: each of its methods is the Store's too, with the same
    signature and documentation, and commits (or rolls back) on its own."""
    # Writer and its parts (the seats, the leases: classes of their own modules)
    writes = {name for part in Writer.__mro__[:-1] for name in vars(part) if name[0] != "_"}
    assert writes >= {"add_player", "create_game", "add_action", "claim_seat", "rename_seat"}
    for name in writes:
        method = getattr(Store, name)
        assert signature(method) == signature(getattr(Writer, name)), name
        assert method.__doc__ == getattr(Writer, name).__doc__, name
    game_id = store.create_game("online", RULES, ["Ann", "Friend"], seats=[(0, "0" * 64)])
    store.rename_seat(game_id, 1, "Bob")
    assert store.claim_seat(game_id, 0, "a" * 64) is True
    with pytest.raises(ValueError):
        store.rename_seat(game_id, 2, "Cy")
    saved = store.load_game(game_id)
    assert saved is not None and saved.game.names == ("Ann", "Bob")
    assert [g.id for g in store.owned_games("a" * 64)] == [game_id]


def test_an_invite_is_exchanged_for_its_opener_s_own_token_once(store: Store) -> None:
    """A seat sent out as an invite: the first to open it swaps the invite's token for one of
    their own (the invite then holds no seat); a second opener of the invite is refused; a
    seat with no invite open keeps its token whatever is asked."""
    invite, bob, eve, ann = "1" * 64, "2" * 64, "3" * 64, "4" * 64
    game_id = online_game(store, seats=[(0, ann), (1, invite)], options={"invites": [1]})
    assert store.take_invite(game_id, 0, ann, eve) is None  # seat 0 was never an invite
    assert store.take_invite(game_id, 1, invite, bob) is True
    assert store.seat_for_token(game_id, bob) == 1
    assert store.seat_for_token(game_id, invite) is None
    assert store.take_invite(game_id, 1, invite, eve) is None  # no invite open any more
    assert store.seat_for_token(game_id, eve) is None
    saved = store.get_game(game_id)
    assert saved is not None and saved.options["invites"] == []
    assert store.spent_invite(game_id, invite) and not store.spent_invite(game_id, bob)
    # Two openers at once: the one whose exchange comes second finds the token changed.
    other = online_game(store, seats=[(0, ann), (1, invite)], options={"invites": [1]})
    with store.transaction() as tx:
        assert tx.take_invite(other, 1, invite, bob) is True
    with store.transaction() as tx:
        assert tx.take_invite(other, 1, invite, eve) is None
    third = online_game(store, seats=[(0, ann), (1, bob)], options={"invites": [1]})
    assert store.take_invite(third, 1, invite, eve) is False  # not the seat's token now
    assert store.seat_for_token(third, bob) == 1
    with pytest.raises(ValueError):
        store.take_invite(third, 1, "not-a-hash", eve)
    with pytest.raises(ValueError):
        store.take_invite(third, 2, invite, eve)
    with pytest.raises(NotFoundError):
        store.take_invite("no-such-game", 1, invite, eve)


def test_game_with_a_bad_seat_is_not_half_created(store: Store) -> None:
    with pytest.raises(ValueError):
        online_game(store, seats=[(0, token_hash("a")), (5, token_hash("b"))])
    assert store.list_games() == []


def test_crash_mid_write_on_a_file_leaves_nothing(db_url: str) -> None:
    """A second process sees nothing of a transaction that has not committed."""
    with Store(db_url) as store, Store(db_url, migrate_schema=False) as other:
        game_id = online_game(store)
        with pytest.raises(KeyboardInterrupt), store.transaction() as tx:
            tx.add_entry(game_id, "note", {"n": 1})
            seen = other.load_game(game_id)
            assert seen is not None and seen.entries == ()
            raise KeyboardInterrupt
        assert store.load_game(game_id).entries == ()  # type: ignore[union-attr]


def test_two_stores_on_one_file_see_each_others_writes(db_url: str) -> None:
    with Store(db_url) as one, Store(db_url) as two:
        game_id = online_game(one)
        two.add_entry(game_id, "note", {"by": "two"})
        assert [e.data for e in one.load_game(game_id).entries] == [{"by": "two"}]  # type: ignore[union-attr]


# -- statistics ------------------------------------------------------------------------------


def test_player_stats_from_hands_and_entries(store: Store) -> None:
    ann = store.add_player("Ann")
    online = store.create_game("online", RULES, ("Ann", "Bob"), player_ids=(ann.id, None))
    store.start_hand(online, 1, 0, DECK, "s", "c")
    store.finish_hand(online, 1, HandResult.gin(RULES, 0, 20))  # Ann gin: 45
    store.start_hand(online, 2, 0, DECK, "s", "c")
    store.finish_hand(online, 2, HandResult.knock(RULES, 0, 9, 5))  # Bob undercuts: 29
    store.finish_game(online, {"winner": 0})
    # A scorekeeper game where Ann sits in seat 1, known by name only.
    kept = store.create_game("scorekeeper", RULES, ("Cy", "Ann"))
    for result in (
        HandResult.knock(RULES, 0, 8, 4),  # Ann undercuts: 29
        HandResult.dead(),
        HandResult.knock(RULES, 1, 2, 30),  # Ann knocks: 28
    ):
        from ginrummy.engine.serial import result_to_dict

        store.add_entry(kept, "result", {"result": result_to_dict(result)})
    store.add_entry(kept, "irregularity", {"text": "exposed card"})
    store.finish_game(kept, {"winner": 0})
    # A game where another "Ann" has a player id of her own does not count.
    other = store.add_player("Ann (Leeds)")
    store.create_game("online", RULES, ("Ann", "Zed"), player_ids=(other.id, None))

    stats = store.player_stats("Ann")
    assert (stats.games, stats.wins, stats.losses) == (2, 1, 1)
    assert (stats.hands, stats.hands_won, stats.gins, stats.undercuts) == (5, 3, 1, 1)
    assert stats.points == 45 + 29 + 28
    assert stats.average_points == pytest.approx((45 + 29 + 28) / 5)
    bob = store.player_stats("Bob")
    assert (bob.games, bob.wins, bob.hands, bob.undercuts, bob.points) == (1, 0, 2, 1, 29)
    nobody = store.player_stats("Nobody")
    assert (nobody.games, nobody.hands, nobody.average_points) == (0, 0, 0.0)


def test_stats_count_big_gin_as_gin(store: Store) -> None:
    rules = RULES.replace(big_gin=True)
    game_id = store.create_game("online", rules, ("Ann", "Bob"))
    store.start_hand(game_id, 1, 0, DECK, "s", "c")
    result = HandResult.big_gin(rules, 1, 10)
    assert result.kind is ResultKind.BIG_GIN
    store.finish_hand(game_id, 1, result)
    assert store.player_stats("Bob").gins == 1


def test_threads_share_a_store(store_url: str) -> None:
    """The web app calls the store from worker threads, even with an in-memory database."""
    _threads_write_one_game(store_url)


def test_threads_share_a_store_on_a_file(db_url: str) -> None:
    _threads_write_one_game(db_url)


def _threads_write_one_game(url: str) -> None:
    """Four threads append entries to one game at once: each gets the next seq, none fails
    (writers of a game take turns: BEGIN IMMEDIATE on SQLite, the game's row lock elsewhere)."""
    with Store(url) as store:
        game_id = online_game(store)
        failures: list[BaseException] = []

        def write(seat: int) -> None:
            try:
                for n in range(10):
                    store.add_entry(game_id, "note", {"seat": seat, "n": n})
                    store.load_game(game_id)
            except BaseException as exc:  # pragma: no cover - reported below
                failures.append(exc)

        threads = [threading.Thread(target=write, args=(i,)) for i in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        saved = store.load_game(game_id)
        assert saved is not None
        assert [e.seq for e in saved.entries] == list(range(1, 41))


def test_a_seat_is_claimed_once_and_lists_its_players_games(store: Store) -> None:
    ann, bob = "a" * 64, "b" * 64
    first = store.create_game(
        "online", Rules(), ["Ann", "Bob"], seats=[(0, "0" * 64), (1, "1" * 64)]
    )
    second = store.create_game("online", Rules(), ["Ann", "Cy"], seats=[(0, "2" * 64)])
    with store.transaction() as tx:
        assert tx.claim_seat(first, 0, ann) is True
        assert tx.claim_seat(first, 1, bob) is True
        assert tx.claim_seat(first, 1, ann) is False  # Bob's already: nothing changes
        assert tx.claim_seat(second, 0, ann) is True
    assert [(g.id, g.seat) for g in store.owned_games(bob)] == [(first, 1)]
    assert {(g.id, g.seat) for g in store.owned_games(ann)} == {(first, 0), (second, 0)}
    assert store.owned_games("c" * 64) == []
    for bad in ("not-a-hash", "A" * 64):
        with pytest.raises(ValueError), store.transaction() as tx:
            tx.claim_seat(first, 0, bad)
    with pytest.raises(NotFoundError), store.transaction() as tx:
        tx.claim_seat(second, 1, ann)  # no such seat


# -- writers of one game take turns, on every database ---------------------------------------


def _holding(store: Store, write: Any, locked: threading.Event, release: threading.Event) -> Any:
    """A thread running ``write`` in a transaction it keeps open until ``release`` is set."""

    def run() -> None:
        with store.transaction() as tx:
            write(tx)
            locked.set()
            release.wait(30)

    thread = threading.Thread(target=run)
    thread.start()
    assert locked.wait(30)
    return thread


def _attempt(fn: Any, outcome: list[Any]) -> threading.Thread:
    def run() -> None:
        try:
            outcome.append(fn())
        except Exception as exc:
            outcome.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_no_action_is_stored_after_a_hand_that_ended_meanwhile(db_url: str) -> None:
    """A move sent while another server is ending the hand waits for it, then is refused:
    never stored after the hand's result."""
    with Store(db_url) as one, Store(db_url, migrate_schema=False) as two:
        game_id = online_game(one)
        one.start_hand(game_id, 1, 0, DECK, "s", "c")
        locked, release = threading.Event(), threading.Event()
        holder = _holding(
            one, lambda tx: tx.finish_hand(game_id, 1, HandResult.dead()), locked, release
        )
        outcome: list[Any] = []
        mover = _attempt(lambda: two.add_action(game_id, 1, 0, 1, "take"), outcome)
        mover.join(0.3)  # let it reach the lock (the outcome is the same if it has not yet)
        release.set()
        holder.join()
        mover.join()
        assert len(outcome) == 1 and isinstance(outcome[0], ConflictError), outcome
        saved = one.load_game(game_id)
        assert saved is not None and saved.hands[0].actions == ()
        assert saved.hands[0].result is not None


def test_one_seq_sent_twice_at_once_is_stored_once(db_url: str) -> None:
    with Store(db_url) as one, Store(db_url, migrate_schema=False) as two:
        game_id = online_game(one)
        one.start_hand(game_id, 1, 0, DECK, "s", "c")
        locked, release = threading.Event(), threading.Event()
        holder = _holding(one, lambda tx: tx.add_action(game_id, 1, 0, 1, "take"), locked, release)
        outcome: list[Any] = []
        mover = _attempt(lambda: two.add_action(game_id, 1, 0, 1, "draw"), outcome)
        mover.join(0.3)
        release.set()
        holder.join()
        mover.join()
        assert len(outcome) == 1 and isinstance(outcome[0], ConflictError), outcome
        saved = one.load_game(game_id)
        assert saved is not None and [a.text for a in saved.hands[0].actions] == ["take"]


def test_a_seat_claimed_by_two_at_once_is_the_first_ones(db_url: str) -> None:
    ann, bob = "a" * 64, "b" * 64
    with Store(db_url) as one, Store(db_url, migrate_schema=False) as two:
        game_id = one.create_game("online", RULES, ["Ann", "Bob"], seats=[(0, "0" * 64)])
        locked, release = threading.Event(), threading.Event()
        holder = _holding(one, lambda tx: tx.claim_seat(game_id, 0, ann), locked, release)
        outcome: list[Any] = []
        other = _attempt(lambda: two.claim_seat(game_id, 0, bob), outcome)
        other.join(0.3)
        release.set()
        holder.join()
        other.join()
        assert outcome == [False]
        assert [g.id for g in two.owned_games(ann)] == [game_id]
        assert two.owned_games(bob) == []


def test_a_player_added_by_two_at_once_is_one_player(db_url: str) -> None:
    with Store(db_url) as one, Store(db_url, migrate_schema=False) as two:
        locked, release = threading.Event(), threading.Event()
        holder = _holding(one, lambda tx: tx.ensure_player("Ann"), locked, release)
        outcome: list[Any] = []
        other = _attempt(lambda: two.ensure_player("Ann"), outcome)
        other.join(0.3)
        release.set()
        holder.join()
        other.join()
        assert len(outcome) == 1 and not isinstance(outcome[0], Exception), outcome
        assert [p.name for p in one.list_players()] == ["Ann"]
        assert outcome[0].id == one.list_players()[0].id


# -- leases: which server instance applies a game's moves ----------------------------------


def test_a_lease_is_held_renewed_and_taken_over_only_once_expired(db_url: str) -> None:
    with Store(db_url) as store:
        game_id = online_game(store)
        assert store.take_lease(game_id, "A", 60) == 1
        assert store.take_lease(game_id, "B", 60) is None  # A holds it
        assert store.take_lease(game_id, "A", 60) == 1  # its own: renewed, same epoch
        assert store.renew_leases("A", {game_id: 1}, 60) == []
        assert store.lease_holders([game_id])[game_id][0] == "A"
        store.release_lease(game_id, "A", 1)  # let go: expired now
        assert store.take_lease(game_id, "B", 60) == 2  # a new epoch
        assert store.renew_leases("A", {game_id: 1}, 60) == [game_id]  # A's is lost


def test_a_write_under_a_lost_lease_is_refused_and_writes_nothing(db_url: str) -> None:
    from ginrummy.storage import LeaseLost

    with Store(db_url) as store:
        game_id = online_game(store)
        assert store.take_lease(game_id, "A", 0.01) == 1
        time.sleep(0.05)
        with store.transaction() as tx:  # expired but not taken over: still A's to write
            tx.check_lease(game_id, "A", 1)
        assert store.take_lease(game_id, "B", 60) == 2
        with pytest.raises(LeaseLost), store.transaction() as tx:
            tx.check_lease(game_id, "A", 1)
            tx.update_options(game_id, {"note": "stale"})
        game = store.get_game(game_id)
        assert game is not None and "note" not in (game.options or {})


def test_many_leases_are_renewed_in_one_statement_and_the_lost_ones_named(db_url: str) -> None:
    """An instance renews every lease it holds every second: one statement for them all, or
    with thousands of tables the renewal outlasts the leases and the other instances take
    them over."""
    from sqlalchemy import event

    with Store(db_url) as store:
        games = [online_game(store) for _ in range(6)]
        for game_id in games:
            assert store.take_lease(game_id, "A", 60) == 1
        store.release_lease(games[0], "A", 1)
        assert store.take_lease(games[0], "B", 60) == 2  # taken over: lost to A
        assert store.take_lease(games[1], "B", 60) is None
        before = store.lease_holders(games)
        statements: list[str] = []
        event.listen(store.engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        epochs = dict.fromkeys(games, 1) | {games[2]: 2}  # a wrong epoch: not A's lease
        assert sorted(store.renew_leases("A", epochs, 120)) == sorted(games[:1] + games[2:3])
        updates = [s for s in statements if s.lstrip().upper().startswith("UPDATE")]
        assert len(updates) == 1
        after = store.lease_holders(games)
        for game_id in games:
            renewed = game_id not in (games[0], games[2])
            assert (after[game_id][1] > before[game_id][1]) == renewed, game_id
        assert after[games[0]][0] == "B"


@pytest.mark.postgresql
def test_a_postgresql_transaction_left_idle_is_ended_in_the_end(postgres_schema_url: str) -> None:
    """A process stopped mid-transaction would hold its game's row lock, and every write to
    that game, for good: the store's connections end such a transaction after a minute (the
    URL's own options, the search path here, kept)."""
    store = Store(postgres_schema_url)
    try:
        store.add_player("Ann")  # a transaction: the setting outlives its end (and rollbacks)
        for _ in range(2):
            with store.engine.connect() as connection:
                assert (
                    connection.exec_driver_sql("SHOW idle_in_transaction_session_timeout").scalar()
                    == "1min"
                )
                assert (
                    connection.exec_driver_sql("SHOW search_path").scalar()
                    == (postgres_schema_url.rsplit("search_path%3D", 1)[1].split("&")[0])
                )
        assert [p.name for p in store.list_players()] == ["Ann"]
    finally:
        store.close()


@pytest.mark.postgresql
@pytest.mark.parametrize("at_commit", [False, True], ids=["statement", "commit"])
@pytest.mark.parametrize(
    ("sqlstate", "why"), [("25006", "it is read-only"), ("53100", "it is full")]
)
def test_a_postgresql_that_refuses_writes_is_unavailable_not_an_error(
    postgres_schema_url: str, sqlstate: str, why: str, at_commit: bool
) -> None:
    """A PostgreSQL that takes no writes (a read-only standby: SQLSTATE 25006, which psycopg
    files as an InternalError; a full disk: 53100) refuses the write as unavailable, in a line
    fit for a player, and not in doubt even at the commit: the refused commit rolls back."""
    store = Store(postgres_schema_url)
    try:
        store.add_player("Ann")
        with store.engine.begin() as connection:  # the database refusing, as it would
            connection.exec_driver_sql(
                "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                f"RAISE EXCEPTION 'refused' USING ERRCODE = '{sqlstate}'; END $$"
            )
            connection.exec_driver_sql(
                "CREATE CONSTRAINT TRIGGER refuse AFTER INSERT ON players "
                + ("DEFERRABLE INITIALLY DEFERRED " if at_commit else "")
                + "FOR EACH ROW EXECUTE FUNCTION refuse()"
            )
        with pytest.raises(DatabaseUnavailable) as refused:
            store.add_player("Bob")
        assert (
            str(refused.value) == f"the database takes no changes just now ({why}): try again later"
        )
        assert not refused.value.in_doubt
        assert [p.name for p in store.list_players()] == ["Ann"]
    finally:
        store.close()
