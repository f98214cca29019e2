"""``ginrummy score``'s conversation: the questions a new game asks, what it prints about the
rules, and backing out of a question."""

from __future__ import annotations

import pytest

from ginrummy.cli.main import main
from ginrummy.scorekeeper import help_text
from ginrummy.scorekeeper.entries import COMMANDS
from ginrummy.storage import Store
from scoreutil import NEW, entries, score

SETUP_QUESTIONS = (
    "Player 1's name: ",
    "Rules [standard]",
    "A single game, or a match",
    "Stake per point [none]: ",
    "Who deals first?",
)


@pytest.mark.parametrize(
    ("args", "asked"),
    [
        (["--new"], (0, 1, 2, 3, 4)),
        (["--players", "Ann", "Bob"], (1, 2, 3, 4)),
        (["--rules", "classic"], (0, 2, 3, 4)),
        (["--match"], (0, 1, 3, 4)),
        (["--stake", "0.05", "--dealer", "ann"], (0, 1, 2)),
    ],
)
def test_a_new_game_asks_every_question_the_command_line_did_not_answer(
    db_url: str,
    args: list[str],
    asked: tuple[int, ...],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    answers = [["Ann", "Bob"], ["classic"], ["match"], ["0.05"], ["ann"]]
    lines = [line for i in asked for line in answers[i]]
    status, out, _ = score(
        db_url, [*lines, "quit"], *args, "--plain", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0
    for i, question in enumerate(SETUP_QUESTIONS):
        assert (question in out) == (i in asked), question
    with Store(db_url) as store:
        (game,) = store.list_games()
        assert game.names == ("Ann", "Bob") and game.options["mode"] == "match"
        assert str(game.rules.stake) == "0.05" and game.rules.box_bonus == 20  # classic
        assert game.options["first_dealer"] == 0


@pytest.mark.parametrize("word", ["quit", "Exit", "q"])
@pytest.mark.parametrize("question", range(len(SETUP_QUESTIONS)))
def test_quit_at_any_question_of_a_new_game_stops_before_it_begins(
    db_url: str,
    question: int,
    word: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "quit" at a question of a new game stops, as it does at the scoring prompt; it was
    refused as a name, a preset, a mode, a stake or a dealer and asked again, so that only the
    end of input (Ctrl-D) or an interrupt got a player out."""
    answers = [["Ann", "Bob"], ["classic"], ["match"], ["0.05"], ["ann"]]
    lines = [line for group in answers[:question] for line in group]
    status, out, _ = score(
        db_url, [*lines, word, "ann gin 10"], "--new", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0
    assert "error" not in out, out
    assert out.rstrip().endswith("Stopped before the game began; nothing was saved."), out
    assert SETUP_QUESTIONS[question] in out.splitlines()[-2]
    with Store(db_url) as store:
        assert store.list_games() == []


def test_a_single_game_does_not_announce_a_match_target(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, out, _ = score(
        db_url, ["rules", "quit"], *NEW, "--dealer", "ann", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0 and "Playing one game." in out
    assert "Match to" not in out
    status, out, _ = score(
        db_url,
        ["rules", "quit"],
        "--new",
        "--players",
        "Ann",
        "Bob",
        "--match",
        "--rules",
        "standard",
        "--stake",
        "0",
        "--dealer",
        "ann",
        capsys=capsys,
        monkeypatch=monkeypatch,
    )
    assert out.count("Match to 500.") == 2  # when the game starts, and for 'rules'


def test_straight_gin_offers_no_undercut(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--players", "Ann", "Bob", "--rules", "straight", "--single", "--stake", "0"]
    status, out, _ = score(
        db_url, ["quit"], *args, "--dealer", "ann", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0 and "Gin only (no knocking); gin +25." in out
    assert "undercut" not in out.lower()


@pytest.mark.parametrize("back", ["back", "", None])
def test_the_redeal_question_can_be_backed_out_of(
    db_url: str,
    back: str | None,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Bob was to deal but Ann dealt, found before the upcard: Bob chooses, or backs out.
    lines = ["wrong dealer", "maybe"] + ([] if back is None else [back, "ann gin 10", "quit"])
    status, out, _ = score(
        db_url, lines, *NEW, "--dealer", "bob", "--plain", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0
    assert "Bob chooses: redeal or play on? [back]: maybe" in out
    assert "error: answer redeal or play on (or back), not 'maybe'" in out
    assert "Nothing recorded.\nBob deals hand 1.\nHand 1, Bob deals> " in out
    assert entries(db_url) == ([] if back is None else [("result", "ann gin 10")])


@pytest.mark.parametrize("plain", [True, False])
def test_each_oklahoma_hand_shows_its_upcard_on_the_sheet(
    db_url: str, plain: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = ["--players", "Ann", "Bob", "--rules", "oklahoma", "--single", "--stake", "0"]
    args += ["--dealer", "ann", *(["--plain"] if plain else [])]
    lines = ["ann knock 3 bob 20 up 4s", "dead", "bob gin 10 up Kd", "sheet", "quit"]
    status, out, _ = score(db_url, lines, *args, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0
    sheet = out[out.rindex("deals> sheet") :]
    if plain:
        assert "Upcards: hand 1 4s, hand 3 Kd" in sheet
    else:
        rows = [line.split() for line in sheet.splitlines()]
        assert ["1", "Ann", "4s", "Ann", "knock", "+34", "(x2)", "34", "0"] in rows
        assert ["3", "Ann", "Kd", "Bob", "gin", "+35", "34", "35"] in rows
    with Store(db_url) as store:
        saved = store.load_game(store.list_games()[0].id)
        assert saved is not None
        assert [e.data.get("upcard") for e in saved.entries] == ["4s", None, "Kd"]


def test_edit_at_the_prompt_replaces_an_earlier_hand(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        "ann knock 7 bob 23",  # Ann 16
        "bob gin 10",  # Bob 35
        "edit 1 ann knock 2 bob 23",  # Ann 21
        "edit 1 ann gin 90",  # would end the game before hand 2: refused
        "edit 1 wrong dealer",
        "edit 2.1 dead",
        "edit x dead",
        "quit",
    ]
    status, out, _ = score(
        db_url, lines, *NEW, "--dealer", "bob", "--plain", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0
    assert "Hand 1 is now: Ann knocks with 2, Bob has 23: Ann scores 21." in out
    assert "Ann knock +21" in out
    assert "error: this result would end the game at hand 1, but later entries follow" in out
    assert "error: only a hand's result can be edited, not 'wrong dealer'" in out
    assert "error: this is a single game: say just the hand" in out
    assert "error: 'x' is not a hand number" in out
    assert entries(db_url) == [
        ("result", "ann knock 2 bob 23"),
        ("result", "bob gin 10"),
        ("note", "ann knock 2 bob 23"),  # the edit, kept for undo
    ]


def test_undo_after_an_edit_takes_back_the_edit_and_says_so(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player who just edited a hand and types 'undo' gets the edit taken back, not the last
    hand entered; a second 'undo' then takes back that hand."""
    lines = ["ann knock 7 bob 23", "bob gin 10", "edit 1 ann knock 2 bob 23", "undo", "undo"]
    status, out, _ = score(
        db_url, lines, *NEW, "--dealer", "bob", "--plain", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0
    assert (
        "Undone: the edit of hand 1 to 'ann knock 2 bob 23'; it is again 'ann knock 7 bob 23'."
        in out
    ), out
    assert "Undone: hand 'bob gin 10'." in out
    assert entries(db_url) == [("result", "ann knock 7 bob 23")]


def test_edit_after_the_end_can_reopen_the_game(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    args = [*NEW, "--dealer", "bob", "--set", "game_target=25", "--plain"]
    lines = ["ann gin 10", "edit 1 ann knock 5 bob 10", "bob gin 3", "n"]
    status, out, _ = score(db_url, lines, *args, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0
    assert "[y/n/sheet/undo/edit]: edit 1 ann knock 5 bob 10" in out
    assert "Hand 1 is now: Ann knocks with 5, Bob has 10: Ann scores 5." in out
    assert "Hand 2: Bob goes gin; Ann has 3: Bob scores 28." in out
    with Store(db_url) as store:
        (game,) = store.list_games()
        assert game.status == "finished" and game.winner == 1


@pytest.mark.parametrize(("answer", "status"), [("y", "abandoned"), ("n", "open")])
def test_abandon_at_the_prompt_asks_first(
    db_url: str,
    answer: str,
    status: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    args = [*NEW, "--dealer", "bob", "--plain"]
    code, out, _ = score(
        db_url, ["dead", "abandon", answer, "quit"], *args, capsys=capsys, monkeypatch=monkeypatch
    )
    assert code == 0 and "as abandoned? It is not resumed. [y/N]: " in out
    code, out, _ = score(db_url, [], "--list", "--plain", capsys=capsys, monkeypatch=monkeypatch)
    assert out.splitlines()[1].split()[-1] == status
    code, out, _ = score(db_url, ["quit"], capsys=capsys, monkeypatch=monkeypatch)
    assert ("Resuming game" in out) == (status == "open")


def test_delete_and_abandon_from_the_command_line(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for _ in range(3):
        score(db_url, ["dead", "quit"], "--new", *NEW, "--dealer", "bob", capsys=capsys,
              monkeypatch=monkeypatch)  # fmt: skip
    with Store(db_url) as store:
        first, second, third = (g.id for g in store.list_games())
    status, out, _ = score(db_url, ["n"], "--delete", first, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0 and "and all its entries? This cannot be undone. [y/N]: n" in out
    assert "Not deleted." in out
    status, out, _ = score(db_url, ["y"], "--delete", first, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 0 and f"Deleted game {first} (Ann v Bob)." in out
    status, out, _ = score(
        db_url, [], "--delete", second, "--yes", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0 and f"Deleted game {second}" in out
    status, out, _ = score(
        db_url, [], "--abandon", third, "--yes", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0 and f"Game {third} is abandoned." in out
    with Store(db_url) as store:
        assert [(g.id, g.status) for g in store.list_games()] == [(third, "abandoned")]
        assert store.load_game(first) is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--delete", "nope"], "there is no scorekeeper game 'nope'"),
        (["--abandon", "nope", "--yes"], "there is no scorekeeper game 'nope'"),
        (["--delete", "x", "--game", "y"], "--delete and --abandon take the game's id"),
        (["--yes"], "--yes confirms --delete or --abandon"),
    ],
)
def test_bad_delete_and_abandon_options_are_one_line_errors(
    db_url: str,
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, _, err = score(db_url, [], *args, capsys=capsys, monkeypatch=monkeypatch)
    assert status == 2 and message in err and err.count("\n") == 1


def test_the_help_names_every_word_and_option(capsys: pytest.CaptureFixture[str]) -> None:
    text = help_text()
    words = ("edit 3", "abandon", "delete", "dead (or draw)", '"back"', "undo", "sheet", "quit")
    for word in words:
        assert word in text, word
    assert set(COMMANDS.values()) - {"help"} <= {w for w in COMMANDS.values() if w in text}
    assert main(["score", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--import FILE", "--export FILE", "--delete ID", "--abandon ID", "--yes"):
        assert option in out, option


def test_delete_at_the_prompt_asks_first(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = ["dead", "delete", "n", "delete", "y"]
    status, out, _ = score(
        db_url, lines, *NEW, "--dealer", "bob", capsys=capsys, monkeypatch=monkeypatch
    )
    assert status == 0 and "Not deleted." in out and "Deleted game" in out
    with Store(db_url) as store:
        assert store.list_games() == []


EDITED = [("note", "bob gin 80")]  # the edit, kept for undo


def test_the_next_game_of_a_match_question_takes_sheet_undo_and_edit(
    db_url: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The hand that ended a game of a match, mistyped, can be taken back or edited where the
    next game is offered, as at the end of a single game: 'undo', 'sheet' and 'edit' were
    refused there ("answer y or n"), and 'y' first started the next game."""
    args = ["--players", "Ann", "Bob", "--rules", "standard", "--match", "--stake", "0"]
    lines = ["ann gin 90", "sheet", "undo", "ann gin 9", "bob gin 95", "edit 1.2 bob gin 80"]
    status, out, _ = score(
        db_url,
        [*lines, "n"],
        *args,
        "--dealer",
        "ann",
        "--plain",
        capsys=capsys,
        monkeypatch=monkeypatch,
    )
    assert status == 0
    assert "error" not in out, out
    assert "Start game 2? [Y/n/sheet/undo/edit]: sheet" in out
    assert "Start game 2? [Y/n/sheet/undo/edit]: undo\nUndone: hand 'ann gin 90'." in out
    assert "Game 1, hand 2 is now: Bob goes gin; Ann has 80: Bob scores 105." in out
    assert out.count("Start game 2?") == 4, out  # each end, after the sheet and the edit
    assert "Start game 2? [Y/n/sheet/undo/edit]: n\nThe match is saved" in out, out
    assert entries(db_url) == [("result", "ann gin 9"), ("result", "bob gin 80"), *EDITED]


@pytest.mark.parametrize("plain", [True, False])
def test_a_stake_keeps_the_presets_name_over_the_rules(
    db_url: str, plain: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The stake is what a point is worth, not a rule of play: classic at 0.05 a point was
    headed "Rules:", as if its rules had been changed, where classic without a stake is
    "Rules (classic):"."""
    args = ["--players", "Ann", "Bob", "--rules", "classic", "--single", "--dealer", "ann"]
    status, out, _ = score(
        db_url,
        ["rules", "quit"],
        *args,
        "--stake",
        "0.05",
        *(["--plain"] if plain else []),
        capsys=capsys,
        monkeypatch=monkeypatch,
    )
    assert status == 0
    assert out.count("Rules (classic):") == 2, out  # when the game starts, and for 'rules'
    assert "Stake 0.05 per point." in out
