"""The command line as a new user meets it: every example in the help runs, mistakes are one
line on stderr with a non-zero status and change nothing, ``python -m ginrummy`` works."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from ginrummy.cli.main import main


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> str:
    """Run ``ginrummy argv`` here: it must fail with status 2 and one line on stderr."""
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ginrummy: error: "), err
    for word in words:
        assert word in lines[0], err
    return lines[0]


# -- a file in a missing folder ----------------------------------------------------------------


@pytest.mark.parametrize("command", [["play", "--plain"], ["serve", "--port", "1"]])
def test_db_in_a_missing_folder_is_refused_and_makes_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    monkeypatch.chdir(tmp_path)
    line = one_line_error(capsys, [*command, "--db", "sqlite:///typo-dir/games.db"])
    assert line == "ginrummy: error: --db: no folder typo-dir: create it first or name another"
    one_line_error(capsys, [*command, "--db", "typo-dir/games.db"], "--db: no folder typo-dir")
    (tmp_path / "afile").write_text("")
    one_line_error(capsys, [*command, "--db", "afile/games.db"], "--db: afile is not a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_a_database_in_a_missing_folder_from_the_environment_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GINRUMMY_DATABASE_URL", "sqlite:///typo-dir/games.db")
    one_line_error(capsys, ["play", "--plain"], "$GINRUMMY_DATABASE_URL: no folder typo-dir")
    assert list(tmp_path.iterdir()) == []


def test_selfplay_refuses_a_missing_folder_before_playing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    one_line_error(
        capsys, ["selfplay", "typo-dir/hands.npz", "--episodes", "2"], "OUT: no folder typo-dir"
    )
    assert list(tmp_path.iterdir()) == []


# -- python -m ginrummy --------------------------------------------------------------------------


def run_module(
    *argv: str, cwd: Path | None = None, stdin: str = ""
) -> subprocess.CompletedProcess[str]:
    """``python -m ginrummy argv`` as a process, with this test run's import path."""
    src = str(Path(__file__).resolve().parents[1] / "src")
    path = os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "ginrummy", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        env={**os.environ, "PYTHONPATH": path, "PYTHONIOENCODING": "utf-8"},
        cwd=cwd,
        timeout=120,
        check=False,
    )


def test_python_dash_m_ginrummy_is_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    expected = capsys.readouterr().out
    result = run_module("--help")
    assert result.returncode == 0, result.stderr
    assert result.stdout == expected
    assert result.stdout.startswith("usage: ginrummy ")
    result = run_module("analyze", "As 2s 3s", "--plain")
    assert result.returncode == 0 and "Deadwood: 0" in result.stdout, result.stderr
    result = run_module("analyze", "As Zz")
    assert result.returncode == 2
    assert result.stderr == "ginrummy: error: bad rank in card 'Zz' at position 2\n"


# -- the players in the help ---------------------------------------------------------------------


@pytest.mark.parametrize("command", ["arena", "bot"])
def test_the_help_lists_every_player_with_how_it_plays(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str
) -> None:
    from ginrummy.agents import registry
    from ginrummy.agents.basic import RandomAgent

    monkeypatch.setattr(registry, "_added", {"coin": RandomAgent})
    monkeypatch.setattr(registry, "_added_summaries", {"coin": "flips a coin"})
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    listed = out[out.index("\nplayers:\n") :].split("\n\n")[0].splitlines()[2:]
    names = [line.split()[0] for line in listed]
    assert names == registry.agent_names() and "coin" in names
    for line in listed:
        name, summary = line.split(maxsplit=1)
        assert summary == registry.agent_summaries()[name] != ""
        assert len(line) <= 80, line
    assert "  expert               reads the opponent" in out
