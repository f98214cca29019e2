"""A scorekeeper game exported whole (JSON, CSV) and imported back: the same game, the same
sheet, byte for byte the same export; and files that cannot be imported, refused in one line
that names the line or field, with nothing stored."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from ginrummy.engine.rules import Rules
from ginrummy.engine.rulings import parse_irregularity
from ginrummy.scorekeeper import (
    ImportFileError,
    ResultEntry,
    Session,
    Setup,
    export_text,
    keeper_of,
    parse_entry,
    read_game,
)
from ginrummy.storage import SavedGame, Store
from scoreutil import score

FORMS = ("json", "csv")


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    with Store(db_url) as opened:
        yield opened


def play(store: Store, rules: Rules, mode: str, lines: list[str]) -> Session:
    """A game told ``lines``: hands, and irregularities as ``!text`` (ruled for the dealer)."""
    session = Session.create(store, Setup(("Ann", "Bob"), rules, mode, 1))
    for line in lines:
        if line.startswith("!"):
            dealt_by = session.keeper.dealer
            session.enter_ruling(parse_irregularity(line[1:], dealt_by), line[1:], dealt_by)
            continue
        entry = parse_entry(line, session.keeper)
        assert isinstance(entry, ResultEntry)
        session.enter_result(entry.result, line, entry.upcard)
    return session


def saved(store: Store, game_id: str) -> SavedGame:
    game = store.load_game(game_id)
    assert game is not None
    return game


GAMES = {
    "single game": ("classic stake=0.25", "game", ["ann knock 7 bob 23", "dead", "bob gin 30"]),
    "finished game": (
        "standard game_target=50 stake=0.10",
        "game",
        ["ann knock 7 bob 23", "bob gin 40"],
    ),
    "match": (
        "standard game_target=50 stake=0.01",
        "match",
        ["bob gin 30", "ann gin 40", "ann knock 2 bob 9"],
    ),
    "finished match": (
        "standard game_target=30 match_target=100 game_bonus=0 box_bonus=0 shutout=none",
        "match",
        ["bob gin 30", "bob gin 40"],
    ),
    "hollywood": ("hollywood", "game", ["ann knock 1 bob 31", "bob gin 12", "ann gin 3"]),
    "oklahoma": (
        "oklahoma",
        "game",
        ["ann knock 3 bob 20 up 4s", "dead", "bob gin 10 up Kd", "ann gin 2 up As"],
    ),
    "rulings": (
        "standard",
        "game",
        ["!exposed card", "ann knock 5 bob 9", "!irregular hand 1 after draw play on", "dead"],
    ),
}


@pytest.mark.parametrize("form", FORMS)
@pytest.mark.parametrize("name", list(GAMES))
def test_export_import_export_is_the_same_game_byte_for_byte(
    store: Store, name: str, form: str
) -> None:
    words, mode, lines = GAMES[name]
    original = play(store, Rules.from_words(words), mode, lines)
    exported = export_text(saved(store, original.id), form)  # type: ignore[arg-type]
    copy = Session.imported(store, read_game(exported, form))
    assert copy.id != original.id
    again = export_text(saved(store, copy.id), form)  # type: ignore[arg-type]
    assert again == exported
    before, after = saved(store, original.id), saved(store, copy.id)
    assert keeper_of(after).sheet() == keeper_of(before).sheet()
    assert after.game.status == before.game.status and after.game.final == before.game.final
    assert [(e.kind, e.data, e.created_at) for e in after.entries] == [
        (e.kind, e.data, e.created_at.replace(microsecond=0)) for e in before.entries
    ]
    assert after.game.created_at == before.game.created_at.replace(microsecond=0)


def test_the_export_holds_everything(store: Store) -> None:
    rules = Rules.from_words("oklahoma stake=0.10")
    session = play(store, rules, "game", ["!exposed card", "ann knock 3 bob 20 up 4s"])
    doc = json.loads(export_text(saved(store, session.id), "json"))
    assert doc["rules"] == rules.to_dict() and doc["status"] == "open"
    ruling, hand = doc["entries"]
    assert ruling["kind"] == "irregularity" and ruling["dealt_by"] == "Bob"
    assert ruling["ruling"].endswith("Bob deals again.")
    assert hand["text"] == "ann knock 3 bob 20 up 4s" and hand["upcard"] == "4s"
    assert (hand["winner"], hand["how"], hand["points"], hand["multiplier"]) == (
        "Ann",
        "knock",
        34,
        2,
    )
    assert hand["date"].endswith("Z") and doc["started"].endswith("Z")
    assert doc["games"][0]["upcards"] == {"1": "4s"}

    rows = list(csv.reader(io.StringIO(export_text(saved(store, session.id), "csv"))))
    assert all(len(row) == len(rows[0]) for row in rows)
    records = {(row[0], row[1]) for row in rows}
    assert ("rule", "stake") in records and ("setting", "started") in records
    (entry,) = [row for row in rows if row[:2] == ["entry", "result"]]
    assert entry[8] == "4s" and entry[-2:] == ["34", "0"]


def test_a_match_csv_has_every_hand_and_every_total(store: Store) -> None:
    words, mode, lines = GAMES["finished match"]
    session = play(store, Rules.from_words(words), mode, lines)
    rows = list(csv.reader(io.StringIO(export_text(saved(store, session.id), "csv"))))
    assert all(len(row) == len(rows[0]) for row in rows)
    assert [row[7] for row in rows if row[0] == "entry"] == lines
    nets = [row for row in rows if row[:2] == ["total", "net"]]
    assert [(row[3], row[9], row[11]) for row in nets] == [("1", "Bob", "55"), ("2", "Bob", "65")]
    match = [row for row in rows if row[0] == "match"]
    assert [row[-2:] for row in match] == [["0", "55"], ["0", "120"], ["0", "120"]]
    assert match[-1][1:3] == ["result", "0"]  # no stake


def _exported(store: Store, form: str) -> str:
    words, mode, lines = GAMES["rulings"]
    session = play(store, Rules.from_words(words), mode, lines)
    return export_text(saved(store, session.id), form)  # type: ignore[arg-type]


def _json_edit(text: str, change: str) -> str:
    doc = json.loads(text)
    exec(change, {"doc": doc})  # the test's own one-line edits
    return json.dumps(doc)


JSON_BAD = [
    (
        "doc['entries'][1]['points'] = 99",
        "entries[1].points: the file says 99, but its entries give 4",
    ),
    (
        "doc['entries'][1]['text'] = 'ann knock 5 bob'",
        "entries[1]: 'ann knock 5 bob': a knock takes two numbers",
    ),
    ("doc['entries'][0]['date'] = 'yesterday'", "entries[0].date: 'yesterday' is not a date"),
    ("doc['entries'][0]['dealt_by'] = 'Cy'", "entries[0].dealt_by: 'Cy' is neither Ann nor Bob"),
    ("doc['players'] = ['Ann', 'ann']", "players[1]: the players need different names"),
    ("doc['rules']['gin_bonus'] = -1", "rules: "),
    ("doc['status'] = 'finished'", "status: the file says 'finished', but its entries give 'open'"),
    ("doc['status'] = 'lost'", "status: the status is one of open, finished, abandoned"),
    ("del doc['entries']", "entries: missing"),
    ("doc['format'] = 'other'", "format: not a ginrummy-score file"),
    ("doc['games'][0]['hands'][0]['points'] = 1", "games[0].hands[0].points"),
]
CSV_BAD = [
    (
        ("entry", "result"),
        11,
        "99",
        "line {n}: points is '99' in the file, but its entries give '4'",
    ),
    (("entry", "result"), 7, "ann knock 5", "line {n}: 'ann knock 5': a knock takes two numbers"),
    (("entry", "irregularity"), 5, "noon", "line {n}: 'noon' is not a date"),
    (("rule", "gin_bonus"), 2, "lots", "line {n}: gin_bonus is a whole number, not 'lots'"),
    (("setting", "mode"), 2, "league", "line {n}: the mode is game or match, not 'league'"),
    (("setting", "player 2"), 2, "Ann", "line {n}: the players need different names"),
    (("setting", "status"), 0, "bonus", "line {n}: unknown record 'bonus'"),
]


@pytest.mark.parametrize(("change", "message"), JSON_BAD)
def test_a_bad_json_file_is_refused_naming_the_field(
    store: Store, change: str, message: str, tmp_path: Path, db_url: str,
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    good = _exported(store, "json")
    path = tmp_path / "bad.json"
    path.write_text(_json_edit(good, change))
    count = len(store.list_games())
    status, _, err = score(
        db_url, [], "--import", str(path), capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 2 and err.count("\n") == 1, err
    assert err.startswith(f"ginrummy: error: {path}: ") and message in err
    assert len(store.list_games()) == count


@pytest.mark.parametrize(("row", "column", "value", "message"), CSV_BAD)
def test_a_bad_csv_file_is_refused_naming_the_line(
    store: Store, row: tuple[str, str], column: int, value: str, message: str
) -> None:
    rows = list(csv.reader(io.StringIO(_exported(store, "csv"))))
    number = next(i for i, r in enumerate(rows) if tuple(r[:2]) == row)
    rows[number][column] = value
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    with pytest.raises(ImportFileError) as caught:
        read_game(buffer.getvalue(), "csv")
    assert message.format(n=number + 1) in str(caught.value)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "line 1: not JSON"),
        ("[]", "format: not a ginrummy-score file"),
    ],
)
def test_files_that_are_not_exports_are_refused(text: str, message: str) -> None:
    with pytest.raises(ImportFileError, match=message):
        read_game(text, "json")
    with pytest.raises(ImportFileError, match="line 1: not a ginrummy-score CSV"):
        read_game("hand,dealer\n1,Ann\n", "csv")


def test_a_short_csv_row_is_refused(store: Store) -> None:
    text = _exported(store, "csv")
    lines = text.splitlines()
    lines[3] = lines[3].rstrip(",")
    with pytest.raises(ImportFileError, match="line 4: 3 cells, but the header has 16"):
        read_game("\n".join(lines) + "\n", "csv")
    words, mode, hands = GAMES["finished game"]
    session = play(store, Rules.from_words(words), mode, hands)
    lines = export_text(saved(store, session.id), "csv").splitlines()
    assert lines[-1].startswith("total,net,")
    with pytest.raises(ImportFileError, match=f"line {len(lines)}: this line is missing"):
        read_game("\n".join(lines[:-1]) + "\n", "csv")


def test_import_and_export_on_the_command_line(
    db_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    args = ["--players", "Ann", "Bob", "--rules", "standard", "--single", "--stake", "0"]
    lines = ["ann knock 7 bob 23", "wrong dealer", "redeal", "bob gin 9", "quit"]
    score(db_url, lines, *args, "--dealer", "bob", capsys=capsys, monkeypatch=monkeypatch)
    first, second = tmp_path / "a.csv", tmp_path / "b.csv"
    status, out, _ = score(
        db_url, [], "--export", str(first), capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0
    status, out, _ = score(
        db_url, [], "--import", str(first), capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0 and "(Ann v Bob, 2 hands, open) from" in out
    with Store(db_url) as store:
        copy = store.list_games()[0].id
    score(
        db_url, [], "--export", str(second), "--game", copy, capsys=capsys, monkeypatch=monkeypatch
    )
    assert second.read_bytes() == first.read_bytes()
    for bad, message in [
        (tmp_path / "nope.csv", "cannot read"),
        (tmp_path / "a.txt", "the file must end in .json or .csv"),
    ]:
        status, _, err = score(
            db_url, [], "--import", str(bad), capsys=capsys, monkeypatch=monkeypatch
        )
        assert status == 2 and message in err and err.count("\n") == 1
