"""``ginrummy score`` driven through its prompt: piped into the installed command, typed at a
real terminal (pexpect), and run in-process through ``ginrummy.cli.main.main`` for the quick
checks. Each test has its own SQLite file."""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path

import pexpect  # type: ignore[import-untyped]
import pytest

from ginrummy.cli.main import main
from ginrummy.engine.cards import Card
from ginrummy.engine.results import ResultKind
from ginrummy.engine.rules import Rules
from ginrummy.scorekeeper import (
    EntryError,
    IrregularityEntry,
    Keeper,
    ResultEntry,
    Setup,
    help_text,
    keeper_of,
    parse_entry,
)
from ginrummy.storage import Store
from scoreutil import COMMAND, ENV, NEW, entries, piped, score


@pytest.fixture
def db(db_url: str) -> str:
    """A fresh database of each kind (tests/conftest.py): a SQLite file, PostgreSQL."""
    return db_url


# -- a whole game, piped -------------------------------------------------------------------------


def test_whole_game_with_undo_and_irregularities(db: str) -> None:
    run = piped(
        db,
        [
            "Ann",
            "Bob",
            "classic gin_bonus=25",  # classic: undercut 10, box 20, shutout +100
            "game",
            "0.50",
            "bob",
            "ann knock 7 bob 23",  # Ann 16
            "exposed card",  # Ann deals again
            "bob gin 41",
            "undo",
            "wrong dealer",  # Bob dealt in Ann's turn: she chooses
            "redeal",
            "b knock 9 a 5",  # Ann undercuts: 9 - 5 + 10 = 14, Ann 30
            "ann gin 30",  # Ann 85
            "bob knock 2 40",  # Bob 38
            "sheet",
            "ann knock 3 bob 18",  # Ann 100: game over
            "n",
        ],
    )
    out = run.stdout
    assert run.returncode == 0, run.stderr
    assert "Hand 1, Bob deals> ann knock 7 bob 23" in out
    assert "Hand 1: Ann knocks with 7, Bob has 23: Ann scores 16." in out
    assert "Ruling: A face-up card was found in the pack before the upcard was turned: Ann" in out
    assert "Undone: hand 'bob gin 41'." in out
    assert "Bob dealt out of turn, found before the upcard was turned: Ann, the right" in out
    assert "Ann chooses: redeal or play on? [back]: redeal" in out
    assert "Ruling: Bob dealt out of turn, found before the upcard was turned: Ann stops" in out
    assert "Hand 2: Bob knocks with 9, Ann has 5: Ann undercuts and scores 14." in out
    assert "Bob deals hand 5." in out
    # The end: hand points 100 + 4 boxes of 20 + game 100 = 280 against 38 + 20 = 58.
    assert "Ann knock +15, game over" in out
    for label, ann, bob in [
        ("Hands won", 4, 1),
        ("Hand points", 100, 38),
        ("Boxes", 80, 20),
        ("Game bonus", 100, 0),
        ("Shutout", 0, 0),
        ("Total", 280, 58),
    ]:
        assert any(
            line.split()[-3:] == [label.split()[-1], str(ann), str(bob)]
            for line in out.splitlines()
        ), label
    assert "Net: Ann +222. At 0.50 a point, Bob pays Ann 111.00." in out
    assert "Another game with the same players and rules? [y/n/sheet/undo/edit]: n" in out

    with Store(db) as store:
        (game,) = store.list_games()
        assert (game.status, game.winner, game.names) == ("finished", 0, ("Ann", "Bob"))
        assert game.final is not None
        assert (game.final["net"], game.final["settlement"]) == (222, "111.00")
        dealers = [line["dealer"] for line in game.final["sheet"]["hands"]]
        assert dealers == [1, 0, 0, 0, 1]
        assert store.player_stats("Ann").wins == 1
    assert [kind for kind, _ in entries(db)] == [
        "result",
        "irregularity",
        "irregularity",
        "result",
        "result",
        "result",
        "result",
    ]


# -- bad input at every prompt, piped ------------------------------------------------------------

BAD_SETUP = [
    ("", "a name cannot be empty"),
    ("Ann Lee", "a name is one word (e.g. Ann-Lee)"),
    ("9lives", "a name starts with a letter"),
    ("undo", "'undo' is a command word"),
    ("Ann", None),
    ("ann", "the players need different names"),
    ("Andy", None),
    ("bogus", "unknown preset 'bogus'"),
    ("classic gin_bonus=x", "gin_bonus is a whole number, not 'x'"),
    ("classic colour=red", "unknown rule option 'colour'"),
    ("classic knock_limit=11", "knock_limit must be between 0 and 10"),
    ("classic 20", "give changes as OPTION=VALUE, not '20'"),
    ("standard", None),
    ("maybe", "answer game or match, not 'maybe'"),
    ("game", None),
    ("-1", "stake must be a finite amount of at least 0"),
    ("abc", "stake is not a decimal number"),
    ("", None),
    ("zed", "the first dealer is Ann or Andy, not 'zed'"),
    ("an", "'an' could be Ann or Andy: type more of the name"),
    ("andy", None),
]
BAD_HANDS = [
    ("an knock 5 20", "'an' could be Ann or Andy"),
    ("zed gin 4", "'zed' is neither Ann nor Andy nor a command"),
    ("ann", "what did Ann do?"),
    ("ann knock", "a knock takes two numbers"),
    ("ann knock 5", "a knock takes two numbers"),
    ("ann knock 12 3", "Ann cannot knock with 12: the knock limit is 10"),
    ("ann gin", "gin takes one number"),
    ("ann gin 3 4", "gin takes one number"),
    ("ann biggin 30", "these rules do not play big gin"),
    ("ann fly 3", "'fly' is not knock, gin or biggin"),
    ("ann knock 5 ann 20", "Ann is the one who went out here: name the other player, Andy"),
    ("ann knock 5 bob 20", "'bob' is not understood here"),
    ("knock 5 20", "say who"),
    ("7 5", "start with a player's name"),
    ("ann knock 5 -3", "deadwood cannot be negative"),
    ("ann knock 5 999", "deadwood is at most 98"),
    ("ann undercut 5 3", "enter an undercut as the knock"),
    ("ann gin 10 up 7s", "for Oklahoma games only"),
    ("irregular hand", "say whose hand is wrong"),
    ("wrong dealer after upcard redeal", "once the upcard is turned the deal stands"),
    ("exposed card in pocket", "unexpected 'pocket'"),
    ("", "type a hand"),
]


def test_bad_input_at_every_prompt_gets_one_line_and_a_new_prompt(db: str) -> None:
    lines = [text for text, _ in BAD_SETUP] + [text for text, _ in BAD_HANDS]
    run = piped(db, [*lines, "ann knock 5 andy 20", "quit"])
    assert run.returncode == 0, run.stderr
    out = run.stdout.splitlines()
    errors = [line for line in out if line.startswith("error: ")]
    expected = [why for _, why in BAD_SETUP + BAD_HANDS if why is not None]
    assert len(errors) == len(expected), "\n".join(errors)
    for error, why in zip(errors, expected, strict=True):
        assert why in error
    # Every refusal is followed straight away by the same question again.
    for i, line in enumerate(out):
        if line.startswith("error: "):
            assert out[i + 1].startswith(out[i - 1].split(":")[0].split(">")[0]), out[i - 1 : i + 2]
    assert "Hand 1: Ann knocks with 5, Andy has 20: Ann scores 15." in run.stdout
    assert entries(db) == [("result", "ann knock 5 andy 20")]


def test_end_of_input_in_the_middle_of_setting_up_creates_nothing(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = score(db, ["Ann"], capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0 and "Stopped before the game began; nothing was saved." in out
    assert "everything entered is saved" not in out
    with Store(db) as store:
        assert store.list_games() == []


# -- quitting and resuming at a terminal ---------------------------------------------------------


def spawn(db: str, *args: str) -> pexpect.spawn:
    child = pexpect.spawn(
        COMMAND[0],
        [*COMMAND[1:], "score", "--db", db, *args],
        env=ENV,
        encoding="utf-8",
        timeout=30,
        dimensions=(40, 100),
    )
    return child


def test_quit_mid_game_and_resume_from_the_database(db: str) -> None:
    child = spawn(db, "--players", "Ann", "Bob", "--dealer", "Bob", "--rules", "modern", "--single")
    child.expect_exact("Stake per point [none]: ")
    child.sendline("")
    child.expect_exact("Hand 1, Bob deals> ")
    child.sendline("ann knock 7 bob 23")
    child.expect_exact("Hand 2, Ann deals> ")
    child.sendline("bob gin 41")
    child.expect_exact("Hand 3, Bob deals> ")
    child.sendline("quit")
    child.expect_exact("Run 'ginrummy score' to go on with game")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    child = spawn(db)
    child.expect_exact("Resuming game")
    child.expect_exact("Ann v Bob")
    child.expect(r"Running totals: Ann 16, Bob 66 \(first to 100\)")
    child.expect_exact("Hand 3, Bob deals> ")
    child.sendline("ann knock 2 bob 30")
    child.expect_exact("Ann scores 28.")
    child.expect_exact("Hand 4, Ann deals> ")
    child.sendeof()  # Ctrl-D stops as quit does
    child.expect_exact("everything entered is saved")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert [text for _, text in entries(db)] == [
        "ann knock 7 bob 23",
        "bob gin 41",
        "ann knock 2 bob 30",
    ]
    with Store(db) as store:
        (game,) = store.list_games()
        assert game.status == "open" and game.rules == Rules.preset("modern")


def test_ctrl_d_at_the_redeal_question_records_nothing(db: str) -> None:
    child = spawn(db, *NEW, "--dealer", "bob")
    child.expect_exact("Hand 1, Bob deals> ")
    child.sendline("wrong dealer")
    child.expect_exact("Bob chooses: redeal or play on? [back]: ")
    child.sendeof()
    child.expect_exact("Nothing recorded.")
    child.expect_exact("Hand 1, Bob deals> ")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and entries(db) == []


# -- matches, the end of a game, undo ------------------------------------------------------------


def test_match_offers_each_next_game_and_settles_once(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--players", "Ann", "Bob", "--dealer", "ann", "--match", "--stake", "0.01"]
    args += ["--set", "game_target=50", "--set", "match_target=500"]
    status, out, _ = score(
        db,
        ["bob gin 30", "y", "ann gin 40", "n"],  # Bob 55: game 1; Ann 65: game 2
        *args,
        capsys=capsys,
        monkeypatch=monkeypatch,
    )
    assert status == 0
    assert "Start game 2? [Y/n/sheet/undo/edit]: y" in out
    # Bob's 55 + box 25 + game 100 + shutout 100 = 280; Ann's 65 + 225 = 290.
    assert "Game 1: Bob +280; match points Ann 0, Bob 280" in out
    assert "Game 2: Ann +290; match points Ann 290, Bob 280" in out
    assert "Start game 3? [Y/n/sheet/undo/edit]: n" in out and "The match is saved" in out
    assert "wins the match" not in out
    assert "Bob pays" not in out and "Ann pays" not in out  # money once, for the match

    status, out, _ = score(db, ["bob gin 50", "n"], capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0 and "Resuming game" in out
    assert "Game 3: Bob +300; match points Ann 290, Bob 580" in out
    assert "Bob wins the match by 290." in out
    assert "At 0.01 a point, Ann pays Bob 2.90." in out
    assert "Another match with the same players and rules? [y/n/sheet/undo/edit]: n" in out
    with Store(db) as store:
        (game,) = store.list_games()
        assert game.status == "finished" and game.winner == 1
        assert game.final is not None and game.final["mode"] == "match"


def test_undo_after_the_end_reopens_the_game_and_again_starts_a_new_one(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [*NEW, "--dealer", "bob", "--set", "game_target=25"]
    status, out, _ = score(
        db,
        [
            "ann gin 0",
            "undo",
            "ann knock 1 bob 30",
            "maybe",
            "sheet",
            "y",
            "bob knock 5 ann 9",
            "quit",
        ],
        *args,
        capsys=capsys,
        monkeypatch=monkeypatch,
    )
    assert status == 0
    assert "Undone: hand 'ann gin 0'." in out
    assert "error: answer y, n, sheet, undo or edit <hand> <result>, not 'maybe'" in out
    after = out.split("[y/n/sheet/undo/edit]: sheet")[1]  # the sheet, then the question again
    assert after.index("Ann knock +29") < after.index("Another game")
    assert out.count("Started game") == 2
    with Store(db) as store:
        second, first = store.list_games()
        assert (first.status, second.status) == ("finished", "open")
        assert first.final is not None and first.final["net"] == 29 + 25 + 100 + 100
    assert entries(db, first.id) == [("result", "ann knock 1 bob 30")]
    assert entries(db, second.id) == [("result", "bob knock 5 ann 9")]
    with Store(db) as store:
        saved = store.load_game(second.id)
        assert saved is not None and saved.game.options["first_dealer"] == 0  # Ann won


def test_first_game_can_be_left_open(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    base = [*NEW, "--dealer", "bob"]
    score(db, ["ann knock 4 bob 9", "quit"], *base, capsys=capsys, monkeypatch=monkeypatch)
    status, out, _ = score(db, ["quit"], "--new", *base, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0 and "Resuming" not in out and "Started game" in out
    with Store(db) as store:
        assert [g.status for g in store.list_games()] == ["open", "open"]


def test_plain_sheet_underlines_boxes(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [*NEW, "--dealer", "ann", "--plain"]
    status, out, _ = score(
        db,
        ["ann knock 5 bob 29", "dead", "sheet", "quit"],
        *args,
        capsys=capsys,
        monkeypatch=monkeypatch,
    )
    assert status == 0
    assert "Ann knock +24" in out and "dead hand" in out
    assert "Boxes so far: Ann 1, Bob 0" in out
    assert "\x1b[" not in out


def test_plain_hollywood_sheet_fits_80_columns(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Hollywood's six columns made the plain sheet 82 characters wide with names as short as
    Ann and Bob (wrapped at 80), and its boxes so far did not say which game's were which."""
    args = [*NEW, "--rules", "hollywood", "--dealer", "ann", "--plain"]
    lines = ["ann knock 5 bob 29", "bob gin 41", "ann knock 3 bob 30", "ann knock 5 bob 60"]
    status, out, _ = score(
        db, [*lines, "sheet", "quit"], *args, capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0
    sheet = out[out.index("Gin rummy: Ann v Bob") :]
    assert max(len(line) for line in sheet.splitlines()) <= 80, sheet
    assert "Boxes so far: game 1: Ann 3, Bob 1; game 2: Ann 2, Bob 0; game 3: Ann 1, Bob 0" in out


@pytest.mark.parametrize("view", ["rich", "plain"])
@pytest.mark.parametrize(
    ("stake", "paid"), [("0.5", "170.50"), ("2", "682.00"), ("0.125", "42.625")]
)
def test_the_settlement_is_written_as_money_in_every_view(
    view: str,
    stake: str,
    paid: str,
    db: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 0.5 a point the final line read "Ann pays Bob 170.5" in one view and 170.50 in the
    other: money is written with two decimals in both, more only where the stake has more."""
    args = ["--players", "Ann", "Bob", "--rules", "standard", "--single", "--stake", stake]
    args += ["--dealer", "bob", *(["--plain"] if view == "plain" else [])]
    lines = ["ann gin 91", "n"]  # 116 + box 25 + game 100 + shutout 100: net 341
    status, out, _ = score(db, lines, *args, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0
    said = [line for line in out.splitlines() if "pays" in line]
    assert said and all(line.rstrip(" .").endswith(f"Bob pays Ann {paid}") for line in said), said
    with Store(db) as store:
        (game,) = store.list_games()
        assert game.final is not None and game.final["settlement"] == paid


def test_rich_hollywood_sheet_fits_80_columns_with_its_headers_whole(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80 columns Rich cut the Hollywood sheet's headers ("Ha…", "De…") to fit its six
    score columns and a result widened by "game 1 over"."""
    args = ["score", "--db", db, *NEW, "--rules", "hollywood", "--dealer", "ann"]
    lines = ["ann knock 5 bob 29", "bob gin 41", "ann knock 3 bob 30", "ann knock 5 bob 60"]
    typed = "".join(f"{line}\n" for line in [*lines, "sheet", "quit"])
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "80")
    assert main(args) == 0
    out = capsys.readouterr().out
    sheet = out[out.rindex("Ann v Bob, game to 100") :]
    assert "…" not in sheet, sheet
    assert "Hand   Dealer   Result" in sheet, sheet
    assert "Ann knock +55" in sheet and "game 1 over" in sheet


# -- cutting for the first deal with real cards ----------------------------------------------------


def _first_sheet(db: str) -> str:
    with Store(db) as store:
        saved = store.load_game(store.list_games()[0].id)
        assert saved is not None
        return keeper_of(saved).sheet().to_text()


def test_the_cards_cut_decide_the_first_dealer_and_go_on_the_sheet(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["Ann", "Bob", "standard", "game", "", "7h", "7h 7h", "7h 7d", "Kh 3c", "quit"]
    status, out, _ = score(db, lines, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0
    assert "error: a cut is two cards, Ann's then Bob's (e.g. 7h 3c), not '7h'" in out
    assert "error: not a cut: " in out
    assert "The same rank: cut again." in out
    assert "Bob cut low and deals." in out
    assert "Hand 1, Bob deals>" in out
    assert "First dealer: Bob (cut 7h v 7d; Kh v 3c)" in _first_sheet(db)


def test_the_cut_can_be_given_on_the_command_line(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [*NEW, "--cut", "2c Ks"]
    status, out, _ = score(
        db, ["ann knock 5 bob 20", "quit"], *args, capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0 and "Hand 1, Ann deals>" in out
    assert "First dealer: Ann (cut 2c v Ks)" in _first_sheet(db)


@pytest.mark.parametrize(
    ("cut", "message"),
    [
        ("Kh Kd", "Kh and Kd are the same rank: cut again"),
        ("Kh Kh", "duplicate card"),
        ("Kh", "a cut is two cards"),
        ("Kh Zz", "Zz"),
    ],
)
def test_a_bad_cut_on_the_command_line_is_a_one_line_error(
    db: str,
    cut: str,
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _, err = score(
        db, [], "--players", "Ann", "Bob", "--cut", cut, capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 2 and message in err and len(err.strip().splitlines()) == 1
    assert err.startswith("ginrummy: error: --cut: ")
    with Store(db) as store:
        assert store.list_games() == []


def test_dealer_and_cut_together_are_refused(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--players", "Ann", "Bob", "--dealer", "ann", "--cut", "2c Ks"]
    status, _, err = score(db, [], *args, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 2 and "--dealer or --cut, not both" in err


# -- --list and --export -------------------------------------------------------------------------


def test_list_and_export(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = score(db, [], "--list", capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0 and "No saved games." in out
    args = [*NEW, "--dealer", "ann", "--set", "game_target=30"]
    score(db, ["ann knock 2 bob 40", "n"], *args, capsys=capsys, monkeypatch=monkeypatch)
    score(db, ["bob gin 3", "quit"], *args, capsys=capsys, monkeypatch=monkeypatch)
    with Store(db) as store:
        newer, older = store.list_games()

    status, out, _ = score(db, [], "--list", "--plain", capsys=capsys, monkeypatch=monkeypatch)
    rows = [line.split() for line in out.splitlines()]
    assert rows[0] == ["ID", "Updated", "Players", "Mode", "Hands", "Result"]
    assert rows[1][0] == newer.id and rows[1][-2:] == ["1", "open"]
    assert rows[2][0] == older.id and rows[2][-4:] == ["1", "Ann", "won", "+263"]

    path = tmp_path / "sheet.json"
    status, out, _ = score(
        db, [], "--export", str(path), "--game", older.id, capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0 and f"Wrote game {older.id} (Ann v Bob)" in out
    data = json.loads(path.read_text())
    (sheet,) = data["games"]
    assert data["players"] == ["Ann", "Bob"] and sheet["final"]["net"] == 263
    assert sheet["hands"][0]["how"] == "knock" and sheet["hands"][0]["points"] == 38

    path = tmp_path / "sheet.csv"
    status, _, _ = score(db, [], "--export", str(path), capsys=capsys, monkeypatch=monkeypatch)
    rows = list(csv.reader(path.read_text().splitlines()))
    (hand,) = [row for row in rows if row[0] == "entry"]  # the newest game's
    assert rows[0][:3] == ["record", "name", "value"]
    assert hand[7] == "bob gin 3" and hand[9:12] == ["Bob", "gin", "28"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--export", "sheet.txt"], "must end in .json or .csv"),
        (["--export", "sheet.json", "--game", "nope"], "there is no game 'nope'"),
        (["--export", "sheet.json"], "there are no saved games"),
        (["--game", "nope"], "there is no scorekeeper game 'nope'"),
        (["--game", "x", "--players", "A", "B"], "--game picks a game"),
        (["--players", "Ann", "Bob", "--rules", "bogus"], "unknown preset 'bogus'"),
        (["--players", "Ann", "Bob", "--set", "gin_bonus"], "a rule change is OPTION=VALUE"),
        (["--players", "Ann", "Bob", "--set", "big_gin=maybe"], "big_gin is true or false"),
        (["--players", "Ann", "ann"], "the players need different names"),
        (["--players", "Ann", "Bob", "--stake", "lots"], "stake is not a decimal number"),
        (["--players", "Ann", "Bob", "--dealer", "Cy"], "the first dealer is Ann or Bob"),
        (
            ["--players", "Ann", "Bob", "--match", "--set", "match_target=0"],
            "these rules play no match",
        ),
    ],
)
def test_bad_options_are_one_line_errors(
    db: str,
    tmp_path: Path,
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    status, _, err = score(db, [], *args, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 2
    assert err.startswith("ginrummy: error: ") and message in err and err.count("\n") == 1
    with Store(db) as store:
        assert store.list_games() == []


def test_bad_database_url_is_a_one_line_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, err = score("nosuch://x", [], "--list", capsys=capsys, monkeypatch=monkeypatch)
    assert status == 2 and err.startswith("ginrummy: error: cannot open the database")


def test_database_from_the_environment(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'env.db'}"
    monkeypatch.setenv("GINRUMMY_DATABASE_URL", url)
    monkeypatch.setattr(sys, "stdin", io.StringIO("dead\nquit\n"))
    assert main(["score", *NEW, "--dealer", "ann"]) == 0
    assert entries(url) == [("result", "dead")]


# -- the short forms, without a process ----------------------------------------------------------


def keeper(**rules: object) -> Keeper:
    return Keeper(Setup(("Ann", "Bob"), Rules().replace(**rules), "game", 0))


def test_short_forms() -> None:
    k = keeper()
    entry = parse_entry("Ann knocks with 7, Bob 23", k)
    assert isinstance(entry, ResultEntry) and entry.result.points == 16
    entry = parse_entry("b k 9 5", k)
    assert isinstance(entry, ResultEntry) and entry.result.kind is ResultKind.UNDERCUT
    assert entry.result.winner == 0 and entry.result.points == 29
    entry = parse_entry("bob gin ann 12", k)
    assert isinstance(entry, ResultEntry) and entry.result.points == 37
    entry = parse_entry("ann knock 0 20", k)
    assert isinstance(entry, ResultEntry) and entry.result.kind is ResultKind.GIN
    entry = parse_entry("irregular hand bob after draw play on", k)
    assert entry == IrregularityEntry("irregular hand 1 after draw play on")
    entry = parse_entry("ann big gin 10", keeper(big_gin=True))
    assert isinstance(entry, ResultEntry) and entry.result.points == 41


def test_the_verb_first_is_answered_with_the_named_player_first() -> None:
    """'knock ann 5 30' (the verb before the name) suggests 'ann knock 5 30', the entry the
    person meant, not one where Ann knocks against herself or Ann goes gin for Bob."""
    k = keeper()
    for typed, meant in [
        ("knock Ann 5 30", "ann knock 5 30"),
        ("gin bob 40", "bob gin 40"),
        ("big gin b 30", "b big gin 30"),
        ("knock 5 20", "ann knock 5 20"),  # nobody named: the form, with the first player
    ]:
        with pytest.raises(EntryError, match=f"say who first: e.g. '{meant}'"):
            parse_entry(typed, k)


def test_ties_and_straight_gin() -> None:
    entry = parse_entry("ann knock 5 5", keeper(undercut_on_tie=False))
    assert isinstance(entry, ResultEntry) and entry.result.winner is None
    assert "a tie, nobody scores" in entry.summary
    with pytest.raises(EntryError, match="only gin ends a hand here"):
        parse_entry("ann knock 3 20", keeper(knock_limit=0))


def test_oklahoma_upcard_sets_the_limit_and_spades_double() -> None:
    k = keeper(oklahoma=True)
    entry = parse_entry("ann knock 3 bob 20 up 4s", k)
    assert isinstance(entry, ResultEntry) and entry.result.points == 34
    assert "(doubled)" in entry.summary
    with pytest.raises(EntryError, match="knock limit is 4"):
        parse_entry("ann knock 5 bob 20 up 4h", k)
    with pytest.raises(EntryError, match="does not double"):
        parse_entry("ann gin 20 up 4h x2", k)
    entry = parse_entry("bob gin 10 x2 up 9s", k)
    assert isinstance(entry, ResultEntry) and entry.result.points == 70
    assert entry.upcard == Card.parse("9s")
    with pytest.raises(EntryError, match="only gin"):
        parse_entry("ann knock 1 bob 20 up Ad", k)


def test_hollywood_scores_three_columns() -> None:
    k = keeper(hollywood=True)
    for line in ("ann knock 1 bob 31", "ann knock 1 bob 31"):
        entry = parse_entry(line, k)
        assert isinstance(entry, ResultEntry)
        k.apply("result", k.result_data(entry.result, line))
    assert [line.totals for line in k.sheet().lines][-1] == ((60, 0), (30, 0), (0, 0))


@pytest.mark.parametrize(
    "line", ["ann knock 3 bob 20", "ann gin 20", "bob gin 10 x2", "ann knock 9 bob 20 x2"]
)
def test_an_oklahoma_hand_without_its_upcard_is_refused(line: str) -> None:
    # Without the upcard neither the knock limit nor the doubling is known.
    with pytest.raises(EntryError, match=r"^Oklahoma: say the hand's first upcard"):
        parse_entry(line, keeper(oklahoma=True))
    # A dead hand scores nothing either way: it needs no upcard.
    assert isinstance(parse_entry("dead", keeper(oklahoma=True)), ResultEntry)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("ann knock 3 bob 20 up 4s up 7h", r"the upcard is given twice \(up 4s, up 7h\)"),
        ("ann knock 3 bob 20 up 4s upcard 4s", "the upcard is given twice"),
        ("ann gin 20 up", "'up' needs the upcard after it"),
    ],
)
def test_the_upcard_is_given_once(line: str, message: str) -> None:
    with pytest.raises(EntryError, match=message):
        parse_entry(line, keeper(oklahoma=True))


def test_naming_the_winner_twice_says_who_the_other_player_is() -> None:
    with pytest.raises(EntryError) as caught:
        parse_entry("ann knock 5 ann 20", keeper())
    assert str(caught.value) == "Ann is the one who went out here: name the other player, Bob"
    assert "himself" not in str(caught.value)


@pytest.mark.parametrize("word", ["draw", "Draw", "dead", "wall"])
def test_a_draw_is_a_dead_hand(word: str) -> None:
    entry = parse_entry(word, keeper())
    assert isinstance(entry, ResultEntry) and entry.result.kind is ResultKind.DEAD
    assert "dead (or draw)" in help_text()


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("dead 5", "a dead hand is just 'dead' (or 'draw'), nothing after it"),
        ("draw hand", "a dead hand is just 'dead' (or 'draw'), nothing after it"),
        ("wall 0 0", "a dead hand is just 'dead' (or 'draw'), nothing after it"),
        ("undo 2", "'undo' takes nothing after it; to change an earlier hand: 'edit 3 ann"),
        ("sheet please", "'sheet' takes nothing after it"),
        ("wrong deal", "irregularities are 'wrong dealer', 'exposed card' or 'irregular hand"),
        ("irregular", "irregularities are 'wrong dealer', 'exposed card' or 'irregular hand"),
    ],
)
def test_a_command_word_with_more_after_it_is_refused_as_such(line: str, message: str) -> None:
    """A line begun with a command word or a dead hand's was refused as if the word were
    neither player's name "nor a command": it is one, and the refusal says how it is typed."""
    with pytest.raises(EntryError) as caught:
        parse_entry(line, keeper())
    assert str(caught.value).startswith(message), str(caught.value)
    assert "neither" not in str(caught.value)
