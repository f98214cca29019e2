"""The score sheet: its data, the paper-like text, JSON and CSV, for games and matches."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal

import pytest

from ginrummy.engine.game import Game
from ginrummy.engine.match import Match
from ginrummy.engine.results import HandResult
from ginrummy.engine.rules import Rules
from ginrummy.engine.sheet import ScoreSheet

RULES = Rules(stake=Decimal("0.10"))
NAMES = ("Alice", "Bob")


def finished_game() -> Game:
    game = Game(RULES, seed=1, first_dealer=1)
    game.record(HandResult.knock(RULES, 0, 8, 32))  # Alice knock +24
    game.record(HandResult.dead())
    game.record(HandResult.knock(RULES, 0, 8, 6))  # Bob undercut +27
    game.record(HandResult.gin(RULES, 1, 30))  # Bob gin +55
    game.record(HandResult.gin(RULES, 0, 60))  # Alice gin +85: 109
    return game


def test_sheet_data() -> None:
    sheet = finished_game().sheet(NAMES)
    assert sheet.names == NAMES and sheet.column_count == 1
    assert [line.number for line in sheet.lines] == [1, 2, 3, 4, 5]
    assert [line.dealer for line in sheet.lines] == [1, 0, 0, 1, 1]
    assert [line.winner for line in sheet.lines] == [0, None, 1, 1, 0]
    assert [line.how for line in sheet.lines] == ["knock", "dead hand", "undercut", "gin", "gin"]
    assert [line.points for line in sheet.lines] == [24, 0, 27, 55, 85]
    assert [line.totals[0] for line in sheet.lines] == [
        (24, 0), (24, 0), (24, 27), (24, 82), (109, 82),
    ]  # fmt: skip
    assert sheet.lines[-1].closed == (1,)
    assert sheet.final is not None and sheet.final.net == 127


def test_sheet_text_looks_like_paper() -> None:
    text = finished_game().sheet(NAMES).to_text()
    lines = text.splitlines()
    header = next(line for line in lines if line.startswith("Hand"))
    assert header.split()[-2:] == ["Alice", "Bob"]
    row = next(line for line in lines if line.startswith("   1 "))
    assert "Alice knock +24" in row and row.rstrip().endswith("24")
    underline = lines[lines.index(row) + 1]
    assert underline.strip() == "--" and len(underline) == len(row.rstrip())
    assert any("dead hand" in line for line in lines)
    assert "Total" in text and "Net: Alice +127" in text
    assert "Bob pays Alice 12.70" in text
    assert "First dealer: Bob" in text


def test_sheet_text_in_progress_and_default_names() -> None:
    game = Game(Rules(), seed=1, first_dealer=0)
    game.record(HandResult.knock(game.rules, 1, 2, 20))
    text = game.sheet().to_text()
    assert "Player 1" in text and "Player 2" in text
    assert "Game in progress" in text and "Net" not in text


def test_result_text_says_each_hand_in_words() -> None:
    sheet = finished_game().sheet(NAMES)
    assert [sheet.result_text(line) for line in sheet.lines] == [
        "Alice knock +24",
        "dead hand",
        "Bob undercut +27",
        "Bob gin +55",
        "Alice gin +85, game over",
    ]
    rules = Rules(undercut_on_tie=False)
    game = Game(rules, seed=1, first_dealer=0)
    game.record(HandResult.knock(rules, 0, 5, 5))
    game.record(HandResult.gin(rules, 1, 10, 2))
    sheet = game.sheet(NAMES)
    tie, doubled = sheet.lines
    assert sheet.result_text(tie) == "tie, no score"
    assert sheet.result_text(doubled) == "Bob gin +70 (x2)"


def test_sheet_csv() -> None:
    rows = list(csv.reader(io.StringIO(finished_game().sheet(NAMES).to_csv())))
    assert rows[0] == ["hand", "dealer", "winner", "how", "points", "multiplier", "Alice", "Bob"]
    assert rows[1] == ["1", "Bob", "Alice", "knock", "24", "1", "24", "0"]
    assert rows[2][2:4] == ["", "dead hand"]
    totals = next(r for r in rows if r[0] == "total")
    assert totals[-2:] == ["259", "132"]
    assert next(r for r in rows if r[0] == "settlement")[4] == "12.70"


def test_sheet_json() -> None:
    data = json.loads(finished_game().sheet(NAMES).to_json())
    assert data["names"] == list(NAMES)
    assert data["hands"][0]["totals"] == [[24, 0]]
    assert data["final"]["winner"] == 0 and data["final"]["net"] == 127
    assert data["final"]["settlement"] == "12.70"
    assert data["final"]["players"][0]["total"] == 259


def test_hollywood_sheet_has_three_games() -> None:
    rules = Rules.preset("hollywood")
    game = Game(rules, seed=1, first_dealer=0)
    for knocker in (0, 0, 0):
        game.record(HandResult.knock(rules, knocker, 1, 31))
    sheet = game.sheet(NAMES)
    assert sheet.column_count == 3
    text = sheet.to_text()
    assert "Game 1" in text and "Game 3" in text
    assert sheet.result_text(sheet.lines[0]) == "Alice knock +30"
    third = next(line for line in text.splitlines() if line.startswith("   3 "))
    assert third.split()[-3:] == ["90", "60", "30"]
    assert json.loads(sheet.to_json())["hands"][2]["columns"] == [1, 2, 3]
    header = sheet.to_csv().splitlines()[0]
    assert header.endswith("Alice game 3,Bob game 3")


def test_the_sheet_holds_each_columns_boxes_so_far() -> None:
    game = Game(Rules(), seed=1, first_dealer=0)
    assert game.sheet().to_dict()["boxes"] == [[0, 0]]
    game.record(HandResult.knock(game.rules, 1, 2, 20))
    game.record(HandResult.dead())
    game.record(HandResult.gin(game.rules, 1, 10))
    assert game.sheet().boxes == ((0, 50),)
    rules = Rules.preset("hollywood")
    game = Game(rules, seed=1, first_dealer=0)
    game.record(HandResult.knock(rules, 0, 1, 31))
    game.record(HandResult.knock(rules, 1, 1, 31))  # each player's first win: game 1 only
    game.record(HandResult.knock(rules, 0, 1, 31))  # Alice's second: games 1 and 2
    assert json.loads(game.sheet().to_json())["boxes"] == [[50, 25], [25, 0], [0, 0]]


def test_sheet_needs_two_names() -> None:
    with pytest.raises(ValueError):
        finished_game().sheet(("Alice", ""))


def test_match_sheet() -> None:
    rules = Rules(stake=Decimal(1))
    match = Match(rules, seed=5, first_dealer=0)
    match.record(HandResult.gin(rules, 0, 80))  # game 1: Alice 330 (a shutout)
    match.record(HandResult.gin(rules, 1, 30))
    match.record(HandResult.knock(rules, 0, 2, 12))
    match.record(HandResult.gin(rules, 1, 80))  # game 2: Bob 310 - 35 = 275
    match.record(HandResult.gin(rules, 0, 90))  # game 3: Alice 340
    assert match.is_over and match.totals == (670, 275)
    sheet = match.sheet(NAMES)
    assert [line.winner for line in sheet.lines] == [0, 1, 0]
    assert sheet.lines[-1].totals == match.totals
    text = sheet.to_text()
    assert "== Game 3 ==" in text and "Alice wins the match" in text
    assert text.count("pays") == 1  # a match settles once, not game by game
    assert "settlement" not in sheet.games[0].to_csv()
    rows = list(csv.reader(io.StringIO(sheet.to_csv())))
    assert rows[0] == ["game", "winner", "net", "Alice", "Bob"]
    assert rows[-1] == ["settlement", "Alice", "395.00"]
    assert json.loads(sheet.to_json())["final"]["winner"] == 0


def test_sheets_are_values() -> None:
    assert isinstance(finished_game().sheet(NAMES), ScoreSheet)
    assert finished_game().sheet(NAMES) == finished_game().sheet(NAMES)
