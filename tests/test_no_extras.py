"""``pip install ginrummy`` with no extras: the engine and ``ginrummy analyze`` work on the
standard library alone, and every command that needs an extra says in one line which one to
install, instead of a traceback. Run in a process that can import nothing but the standard
library and ginrummy, as such an install can."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

#: The ``ginrummy`` command in a Python where every import outside the standard library and
#: the package itself fails, as it does with none of the extras installed.
NO_EXTRAS = """
import sys


class NoExtras:
    \"\"\"Finds what ``finder`` finds, but nothing outside the standard library and ginrummy.\"\"\"

    def __init__(self, finder):
        self.finder = finder

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in sys.stdlib_module_names or top.startswith("ginrummy"):
            return self.finder.find_spec(name, path, target)
        return None


sys.meta_path[:] = [NoExtras(finder) for finder in sys.meta_path]
from ginrummy.cli.main import main

sys.exit(main(sys.argv[1:]))
"""


def ginrummy(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path / "data"))
    env.pop("GINRUMMY_DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, "-c", NO_EXTRAS, *args],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_engine_and_analyze_need_no_extra(tmp_path: Path) -> None:
    result = ginrummy(tmp_path, "analyze", "As 2s 3s 7h 7d 7c Kd Qd 5c 9h")
    assert result.returncode == 0, result.stderr
    assert "deadwood 34" in result.stdout
    result = ginrummy(tmp_path, "arena", "greedy", "simple", "--games", "1", "--seed", "1")
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["serve", "--port", "0"], "web"),
        (["play"], "storage"),
        (["play", "--plain"], "storage"),
        (["play", "--join", "http://127.0.0.1:9/t/abc#s=x"], "tui"),
        (["play", "--plain", "--join", "http://127.0.0.1:9/t/abc#s=x"], "tui"),
        (["score", "--list"], "storage"),
        (["arena", "greedy", "simple", "--games", "1", "--ray"], "ray"),
        (["selfplay", "out.npz", "--episodes", "1"], "rl"),
        (["selfplay", "out.npz", "--episodes", "1", "--ray"], "rl"),
    ],
)
def test_a_command_needing_an_extra_names_it_in_one_line(
    tmp_path: Path, args: list[str], extra: str
) -> None:
    result = ginrummy(tmp_path, *args)
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("ginrummy: error: "), result.stderr
    assert f"pip install 'ginrummy[{extra}]'" in lines[0]
