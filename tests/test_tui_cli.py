"""``ginrummy play``'s command line: every input it cannot use is refused in one line on stderr
with exit status 2, before anything is stored or drawn."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ginrummy.cli.main import main
from ginrummy.engine import Rules
from ginrummy.storage import Store
from tuiutil import SEEDS, new_game
from webutil import ROOT, free_port


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing here may touch the user's own database."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("GINRUMMY_DATABASE_URL", raising=False)


def refused(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    """Run ``ginrummy play ARGS``: it must fail with one line; returns that line."""
    code = main(["play", "--plain", *args])
    out, err = capsys.readouterr()
    assert code == 2, (out, err)
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ginrummy: error: "), err
    return lines[0]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--level", "grandmaster"], "unknown level 'grandmaster'; levels are beginner"),
        (["--rules", "canasta"], "unknown preset 'canasta'"),
        (["--preset", "canasta"], "unknown preset 'canasta'"),
        (["--set", "jokers=2"], "unknown rule option 'jokers'"),
        (["--option", "gin_bonus=lots"], "gin_bonus is a whole number, not 'lots'"),
        (["--set", "gin_bonus"], "a rule change is OPTION=VALUE"),
        (["--set", "knock_limit=99"], "knock_limit"),
        (["--computer-delay", "-1"], "--computer-delay must be 0 to 10 seconds"),
        (["--join", "ftp://example.org/t/abc#s=x"], "is not a link to a table"),
        (["--join", "http://example.org:port/t/abc#s=x"], "is not a link to a table"),
        (["--join", "http://example.org/lobby#s=x"], "no /t/<table> in it"),
        (["--join", "http://example.org/t/abc"], "that link has no seat in it"),
        (["--join", "http://example.org/t/abc#s=x", "--level", "simple"], "--level: a joined"),
        (["--join", "http://example.org/t/abc#s=x", "--resume"], "do not go together"),
        (["--resume", "--rules", "classic"], "--rules: --resume goes on with a game"),
        (["--db", "/no/such/folder/games.db"], "--db: no folder /no/such/folder: create it"),
    ],
)
def test_bad_input_is_one_line(
    capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    assert says in refused(capsys, *args)


def test_an_unreachable_server(capsys: pytest.CaptureFixture[str]) -> None:
    port = free_port()  # nothing listens there
    line = refused(capsys, "--join", f"http://127.0.0.1:{port}/t/abc#s=x")
    assert f"cannot reach 127.0.0.1:{port}" in line


def test_resume_ids_that_are_not_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "games.db"
    assert "no open terminal game to resume" in refused(capsys, "--resume", "--db", str(db))
    assert "no terminal game 'NoSuch12'" in refused(capsys, "--resume", "NoSuch12", "--db", str(db))
    with Store(f"sqlite:///{db}") as store:
        web = store.create_game("online", Rules(), ("Ann", "Computer (expert)"))
        assert f"no terminal game {web!r}" in refused(capsys, "--resume", web, "--db", str(db))
        game = new_game(SEEDS["knocked"], store, game_id="Finished")
        store.finish_game(game.table.id, {})
    assert "game Finished is over" in refused(capsys, "--resume", "Finished", "--db", str(db))


def test_the_exit_status_of_the_real_command(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli.main", "play", "--level", "nobody"],
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT / "src"), "XDG_DATA_HOME": str(tmp_path), "PATH": "/usr/bin"},
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("ginrummy: error: ")


def test_help_lists_the_levels_and_the_keys(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--help"]) == 0
    out = capsys.readouterr().out
    for word in ("beginner", "intermediate", "expert", "simple", "--resume", "--join", "--plain"):
        assert word in out
    assert "d draw" in out and "k knock" in out
