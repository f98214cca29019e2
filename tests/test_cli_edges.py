"""The command line as a new user meets it: every example in the help runs, mistakes are one
line on stderr with a non-zero status and change nothing, ``python -m ginrummy`` works."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from frontutil import Server, request
from ginrummy.agents import get_agent
from ginrummy.cli.main import SUBCOMMANDS, main


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


@pytest.mark.parametrize(
    "command", [["play", "--plain"], ["serve", "--port", "1"], ["score", "--list"]]
)
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


# -- every example in the help runs ----------------------------------------------------------------

#: Appended to an example that plays many games, so that it runs in a test (argparse keeps
#: the last value of an option given twice).
SMALLER = {"--games": ["--games", "2"], "--episodes": ["--episodes", "20"]}
#: And the expert an arena example names weighs fewer worlds (the last value of a setting
#: given twice counts): its games at 768 worlds made this test a fifth of the suite's time.
FEWER_WORLDS = "worlds=48"


def cheaper_agents(args: list[str]) -> list[str]:
    """``args`` of an arena example with each expert named weighing fewer worlds."""
    if args[:1] != ["arena"]:
        return args
    return [
        f"{a}{',' if ':' in a else ':'}{FEWER_WORLDS}" if a.split(":")[0] == "expert" else a
        for a in args
    ]


#: An example that needs a Ray cluster gets as far as looking for one: this one line (or, where
#: Ray is not installed, the line saying so).
NO_CLUSTER = (
    "ginrummy: error: --ray auto: no running Ray cluster was found to join: start one "
    "(ray start --head), or give --ray no address to start a Ray of its own for this run\n"
    if importlib.util.find_spec("ray") is not None
    else "ginrummy: error: --ray: Ray is not installed"
)
#: The game id the scorekeeper's examples show, and how a test makes a game to stand in for it.
GAME_ID = "Xy3_k9Qa"
NEW_GAME = ["score", "--new", "--players", "Ann", "Bob", "--single", "--dealer", "Ann"]
NEW_GAME += ["--rules", "standard", "--stake", "0", "--plain"]
#: What ``ginrummy bot intermediate < callbacks.jsonl`` reads.
CALLBACKS = (
    '{"call": "startGame", "args": [0, 0, ["AS", "2S", "3S", "4H", "5H", "6H", "7D", "8D", '
    '"9D", "KC"]]}\n{"call": "willDrawFaceUpCard", "args": ["TD"]}\n'
)


def help_examples(command: str, capsys: pytest.CaptureFixture[str]) -> list[list[str]]:
    """The example command lines in ``ginrummy COMMAND --help``, split as a shell would
    (without the words describing them)."""
    assert main([command, "--help"]) == 0
    text = capsys.readouterr().out
    if "\nexamples:\n" not in text:
        return []
    block = text.split("\nexamples:\n", 1)[1].split("\n\n", 1)[0]
    lines = [line.strip() for line in block.splitlines() if line.startswith("  ginrummy ")]
    return [shlex.split(re.split(r"\s{2,}", line)[0]) for line in lines]


def test_an_arena_example_s_expert_weighs_fewer_worlds_as_the_last_setting_given() -> None:
    args = ["arena", "expert:worlds=128", "expert", "simple", "--games", "50"]
    cheaper = cheaper_agents(args)
    assert cheaper == [
        "arena",
        f"expert:worlds=128,{FEWER_WORLDS}",
        f"expert:{FEWER_WORLDS}",
        *args[3:],
    ]
    assert [get_agent(spec).settings.worlds for spec in cheaper[1:3]] == [48, 48]  # type: ignore[attr-defined]
    assert cheaper_agents(["play", "--level", "expert"]) == ["play", "--level", "expert"]


def test_every_example_in_the_help_runs(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each example shown in a subcommand's --help, run as a new user would run it in an
    empty folder (no terminal, nothing typed), exits 0. Placeholders are filled in: a game's
    id with a scorekeeper game made for the example, the link of ``--join`` with a table of a
    server started here. Only the examples on a Ray cluster cannot run here: they must get as
    far as looking for one."""
    examples = [argv for name, _ in SUBCOMMANDS for argv in help_examples(name, capsys)]
    assert {argv[1] for argv in examples} >= {"play", "analyze", "score", "arena", "bot"}
    (tmp_path / "callbacks.jsonl").write_text(CALLBACKS)
    monkeypatch.setenv("GINRUMMY_DATABASE_URL", str(tmp_path / "games.db"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    def new_game() -> str:
        made = run_module(*NEW_GAME, cwd=tmp_path)
        assert made.returncode == 0, made.stderr
        found = re.search(r"Started game (\S+):", made.stdout)
        assert found, made.stdout
        return found.group(1)

    with Server(tmp_path) as server:
        status, body = request(server.port, "/api/tables", method="POST", body={"mode": "friend"})
        assert status == 200, body
        invite = f"http://127.0.0.1:{server.port}{json.loads(body)['invite']}"
        for argv in examples:
            assert argv[0] == "ginrummy"
            args = argv[1:]
            stdin = ""
            if "<" in args:
                stdin = (tmp_path / args[args.index("<") + 1]).read_text()
                args = args[: args.index("<")]
            args = [invite if a.startswith("http://127.0.0.1:8000/t/") else a for a in args]
            if GAME_ID in args:
                args[args.index(GAME_ID)] = new_game()
            args += [word for option, extra in SMALLER.items() if option in args for word in extra]
            args = cheaper_agents(args)
            result = run_module(*args, cwd=tmp_path, stdin=stdin)
            shown = " ".join(argv)
            assert "Traceback" not in result.stderr, (shown, result.stderr)
            if "--ray" in args:
                assert result.returncode == 2, (shown, result.stderr)
                assert result.stderr.startswith(NO_CLUSTER), (shown, result.stderr)
                assert result.stderr.count("\n") == 1, (shown, result.stderr)
                continue
            assert result.returncode == 0, (shown, result.stdout[-2000:], result.stderr)


# -- other rough edges -----------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["", *(name for name, _ in SUBCOMMANDS)])
def test_a_usage_error_is_one_line_naming_the_help(
    capsys: pytest.CaptureFixture[str], command: str
) -> None:
    prog = f"ginrummy {command}".strip()
    argv = [command, "--no-such-option"] if command else ["--no-such-option"]
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert err.startswith(f"{prog}: error: ") and err.endswith(f"(see {prog} --help)\n"), err


def test_selfplay_refuses_a_file_named_only_by_its_ending(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    one_line_error(capsys, ["selfplay", ".npz", "--episodes", "2"], "not '.npz'")
    assert list(tmp_path.iterdir()) == []


def test_a_game_in_memory_is_not_said_to_be_saved(tmp_path: Path) -> None:
    result = run_module("play", "--db", "sqlite://", "--plain", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    last = result.stdout.splitlines()[-1]
    assert last.endswith("was kept in memory only (--db sqlite://): it cannot be resumed."), last
    assert "--resume" not in result.stdout


def test_every_built_in_player_has_a_summary() -> None:
    from ginrummy.agents.registry import _SUMMARIES, builtin_agents

    assert set(_SUMMARIES) == set(builtin_agents())
