"""Helpers for the ``ginrummy score`` tests: the command piped, run in this process, and the
entries a database holds."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from ginrummy.cli.main import main
from ginrummy.storage import Store

SCRIPT = Path(sys.executable).with_name("ginrummy")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "ginrummy.cli.main"]
ENV = {
    **{k: v for k, v in os.environ.items() if k != "GINRUMMY_DATABASE_URL"},
    "NO_COLOR": "1",
    "TERM": "dumb",
    "COLUMNS": "100",
}
#: A new game set up wholly on the command line: nothing about it is asked.
NEW = ["--players", "Ann", "Bob", "--rules", "standard", "--single", "--stake", "0"]


def piped(db: str, lines: Sequence[str], *args: str) -> subprocess.CompletedProcess[str]:
    """Run the installed ``ginrummy score`` with ``lines`` on a pipe."""
    return subprocess.run(
        [*COMMAND, "score", "--db", db, *args],
        input="".join(f"{line}\n" for line in lines),
        capture_output=True,
        text=True,
        env=ENV,
        timeout=60,
    )


def score(
    db: str,
    lines: Sequence[str],
    *args: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[int, str, str]:
    """Run ``ginrummy score`` in this process with ``lines`` as standard input."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("COLUMNS", "100")
    status = main(["score", "--db", db, *args])
    out, err = capsys.readouterr()
    return status, out, err


def entries(db: str, game_id: str | None = None) -> list[tuple[str, str]]:
    """Each stored entry's kind and text, of ``game_id`` or the game changed last."""
    with Store(db) as store:
        game_id = game_id or store.list_games()[0].id
        saved = store.load_game(game_id)
        assert saved is not None
        return [(e.kind, str(e.data.get("text"))) for e in saved.entries]
