"""``ginrummy analyze``: called through main(argv) and as a real process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ginrummy.cli.main import SUBCOMMANDS, build_parser, main

SAMPLE = "As 2s 3s 7h 7d 7c Kd Qd 5c 9h"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*argv: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ginrummy.cli.main", *argv],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONIOENCODING": "utf-8", **env},
        timeout=60,
        check=False,
    )


# -- ten cards -----------------------------------------------------------------------------------


def test_sample_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "analyze", SAMPLE)
    assert code == 0
    assert err == ""
    assert out.splitlines() == [
        "Hand (10 cards): A♠ 2♠ 3♠ 7♥ 9♥ 7♦ Q♦ K♦ 5♣ 7♣",
        "Best arrangement (1), deadwood 34:",
        "  [7♥ 7♦ 7♣] [A♠ 2♠ 3♠]  deadwood 9♥ Q♦ K♦ 5♣ = 34",
        "Deadwood: 34",
        "May not knock: deadwood 34 is over the knock limit 10.",
    ]


def test_cards_may_be_given_as_several_arguments(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "analyze", *SAMPLE.split()) == run(capsys, "analyze", SAMPLE)
    assert (
        run(capsys, "analyze", "as2s3s", "7H,7D,7C", "K♦ Q♦ 5♣ 9♥")[1]
        == run(capsys, "analyze", SAMPLE)[1]
    )


def test_knock_and_knock_limit(capsys: pytest.CaptureFixture[str]) -> None:
    hand = "As 2s 3s 7h 7d 7c 4c 5c 6c 9h"
    code, out, _ = run(capsys, "analyze", hand)
    assert code == 0
    assert "Deadwood: 9" in out
    assert "May knock: deadwood 9 is at most the knock limit 10." in out
    _, out, _ = run(capsys, "analyze", hand, "--knock-limit", "5")
    assert "May not knock: deadwood 9 is over the knock limit 5." in out
    _, out, _ = run(capsys, "analyze", hand, "--knock-limit", "0")
    assert "straight gin" in out


def test_gin(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", "As 2s 3s 7h 7d 7c 4c 5c 6c 7s")
    assert "Gin: no deadwood." in out
    assert "no deadwood" in out.splitlines()[2]


def test_ties_list_every_best_arrangement(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", "Ks Qs Js Kh Kd")
    lines = out.splitlines()
    assert lines[1] == "Best arrangements (2), deadwood 20:"
    assert "  [K♠ K♥ K♦]  deadwood J♠ Q♠ = 20" in lines
    assert "  [J♠ Q♠ K♠]  deadwood K♥ K♦ = 20" in lines
    assert "Knocking is judged on 10 cards; this hand has 5" in out


def test_plain_cards(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", SAMPLE, "--plain")
    assert "[7h 7d 7c] [As 2s 3s]  deadwood 9h Qd Kd 5c = 34" in out
    assert not set(out) & set("♠♥♦♣")


def test_no_melds_and_one_card(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "Ks")
    assert code == 0
    assert "Hand (1 card): K♠" in out
    assert "(no melds)  deadwood K♠ = 10" in out


# -- eleven cards ----------------------------------------------------------------------------------


def test_eleven_cards_rank_the_discards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "analyze", "2s 3s 4s 2h 3h 4h 5h 3d 4d 5d 5c")
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "Best arrangement of all 11 cards (1), deadwood 4:"
    start = lines.index("Discards, best first (knock limit 10):")
    ranked = lines[start + 1 : start + 12]
    assert ranked[0] == "   1. 5♣  leaves   0  gin"
    assert ranked[1] == "   2. 2♠  leaves   2  knock"
    assert ranked[-1] == "  11. 4♥  leaves  12"
    assert "Gin: discard 5♣." in lines
    assert any(line.startswith("May knock, discarding any of 2♠ 2♥") for line in lines)
    assert lines[-1] == "  [2♠ 3♠ 4♠] [2♥ 3♥ 4♥ 5♥] [3♦ 4♦ 5♦]  no deadwood"


def test_eleven_cards_best_discard_may_break_a_meld(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", "4s 5s 6s 3h 2d 5d 6d 3c 4c 5c 6c", "--plain")
    assert "   1. 6d  leaves  10  knock" in out
    assert "May knock, discarding any of 6d." in out
    _, out, _ = run(capsys, "analyze", "4s 5s 6s 3h 2d 5d 6d 3c 4c 5c 6c", "--knock-limit", "9")
    assert "May not knock: the best discard leaves 10, over the knock limit 9." in out


def test_big_gin(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", "As 2s 3s 7h 7d 7c 8c 9c Tc Jc Qc", "--plain")
    assert "All 11 cards meld: big gin, where the rules allow it." in out
    assert "Gin: discard Qc or 8c." in out


# -- layoffs -------------------------------------------------------------------------------------


def test_layoffs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys,
        "analyze",
        "8s 9s Kh Kd Qh 4c 2d Ac 5h 6d",
        "--layoff",
        "5s6s7s QsQdQc",
        "--plain",
    )
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index("Knocker's melds: [5s 6s 7s] [Qs Qd Qc]")
    assert lines[start:] == [
        "Knocker's melds: [5s 6s 7s] [Qs Qd Qc]",
        "Defender's layoffs, in order:",
        "  8s onto [5s 6s 7s]",
        "  9s onto [5s 6s 7s 8s]",
        "  Qh onto [Qs Qd Qc]",
        "Knocker's melds after layoffs: [5s 6s 7s 8s 9s] [Qs Qh Qd Qc]",
        "Defender's melds: none",
        "Defender's deadwood: 5h Kh 2d 6d Kd Ac 4c",
        "Defender's deadwood count: 38 (without layoffs 65)",
    ]


def test_layoffs_worked_example(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", "Kh Kd Kc Ts Qh 8d 6c 5h 2d Ac", "--layoff", "JsQsKs 9h9d9c")
    assert "  10♠ onto [J♠ Q♠ K♠]" in out
    assert "Defender's melds: [K♥ K♦ K♣]" in out
    assert "Defender's deadwood count: 32 (without layoffs 42)" in out


def test_no_layoffs(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "analyze", SAMPLE, "--layoff", "JhJdJc")
    assert "Defender's layoffs: none." in out
    assert "Defender's deadwood count: 34" in out
    assert "without layoffs" not in out


def test_layoffs_for_eleven_cards_use_the_best_discard(
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out, _ = run(capsys, "analyze", SAMPLE + " 8h", "--layoff", "5s6s7s KhKsKc")
    lines = out.splitlines()
    assert "Defender (after the best discard): A♠ 2♠ 3♠ 7♥ 8♥ 9♥ 7♦ K♦ 5♣ 7♣" in lines
    assert "  K♦ onto [K♠ K♥ K♣]" in lines
    assert lines[-1] == "Defender's deadwood count: 19 (without layoffs 29)"


# -- errors --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["analyze", "As 2s Xs"], "bad rank in card 'Xs' at position 3"),
        (["analyze", "As 2s 3x"], "bad suit in card '3x' at position 3"),
        (["analyze", "As 2s as"], "duplicate card 'as' at position 3"),
        (["analyze", ""], "no cards given"),
        (["analyze", " , "], "no cards given"),
        (["analyze", "As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs"], "1 to 11 cards, not 12"),
        (["analyze", SAMPLE, "--knock-limit", "11"], "--knock-limit must be 0 to 10, not 11"),
        (["analyze", SAMPLE, "--knock-limit", "-1"], "--knock-limit must be 0 to 10, not -1"),
        (["analyze", SAMPLE, "--layoff", "5s6s"], "--layoff: '5s6s' is not a meld"),
        (["analyze", SAMPLE, "--layoff", "QsKsAs"], "--layoff: 'QsKsAs' is not a meld"),
        (["analyze", SAMPLE, "--layoff", ""], "--layoff: no melds given"),
        (["analyze", SAMPLE, "--layoff", "5s6s7s 5s5h5d"], "--layoff: meld 5s5h5d shares"),
        (
            ["analyze", SAMPLE, "--layoff", "5s6s7s KhKdKc"],
            "--layoff: the knocker's melds hold cards of the hand: Kd",
        ),
    ],
)
def test_errors_are_one_line_with_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.startswith("ginrummy: error: ")
    assert err.count("\n") == 1 and err.endswith("\n")
    assert message in err


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys)
    assert code == 2
    assert "required" in err
    code, _, err = run(capsys, "analyze")
    assert code == 2
    code, _, err = run(capsys, "analyze", SAMPLE, "--knock-limit", "ten")
    assert code == 2
    assert "invalid int value" in err
    code, _, err = run(capsys, "no-such-command")
    assert code == 2


def test_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--help")
    assert code == 0
    assert "analyze" in out
    code, out, _ = run(capsys, "analyze", "--help")
    assert code == 0
    assert "--layoff" in out and "--knock-limit" in out and "examples:" in out
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert out.startswith("ginrummy ")


def test_every_registered_subcommand_is_in_the_parser() -> None:
    parser = build_parser()
    (subparsers,) = [a for a in parser._actions if a.dest == "command"]
    assert subparsers.choices is not None
    assert [name for name, _ in SUBCOMMANDS] == list(subparsers.choices)


# -- as a process ----------------------------------------------------------------------------------


def test_process_output_and_status() -> None:
    result = run_process("analyze", SAMPLE)
    assert result.returncode == 0, result.stderr
    assert "[7♥ 7♦ 7♣] [A♠ 2♠ 3♠]  deadwood 9♥ Q♦ K♦ 5♣ = 34" in result.stdout
    result = run_process("analyze", "As 2s As")
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr == "ginrummy: error: duplicate card 'As' at position 3\n"


def test_process_without_a_unicode_terminal_writes_plain_cards() -> None:
    result = run_process("analyze", SAMPLE, PYTHONIOENCODING="ascii")
    assert result.returncode == 0, result.stderr
    assert "[7h 7d 7c] [As 2s 3s]  deadwood 9h Qd Kd 5c = 34" in result.stdout


def test_console_script() -> None:
    script = Path(sys.executable).with_name("ginrummy")
    if not script.exists():
        pytest.skip("the package is not installed with its console script")
    result = subprocess.run(
        [str(script), "analyze", SAMPLE, "--plain"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Deadwood: 34" in result.stdout
    result = subprocess.run(
        [str(script), "analyze", "As Zz"], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2
    assert result.stderr == "ginrummy: error: bad rank in card 'Zz' at position 2\n"


def test_cli_imports_stay_light() -> None:
    code = (
        "import sys, ginrummy.cli.main as m; m.build_parser(); "
        "heavy = {'rich', 'sqlalchemy', 'numpy', 'hypothesis'} & set(sys.modules); "
        "print(sorted(heavy))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
