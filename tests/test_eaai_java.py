"""The EAAI framework's side of the bridge: ``contrib/eaai/GinRummyBridgePlayer.java``, compiled
as shipped in the framework's package (``ginrummy``) with stand-ins for the framework's ``Card``
and ``GinRummyPlayer`` (``tests/eaai_java``), driven through three hands' callbacks and through
two whole games of the framework's loop against the installed ``ginrummy bot``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = Path(sys.executable).with_name("ginrummy")
BOT = f"{SCRIPT} bot" if SCRIPT.exists() else f"{sys.executable} -m ginrummy.cli.main bot"
BOT += " --seed 1"


def _java(tmp_path: Path, *args: str) -> list[str]:
    """Compile the bridge as shipped with the stand-ins, run ``ginrummy.ARGS[0]``, its lines."""
    javac, java = shutil.which("javac"), shutil.which("java")
    assert javac and java, "a JDK is needed (apt-get install default-jdk-headless)"
    sources = [
        ROOT / "contrib/eaai/GinRummyBridgePlayer.java",
        *ROOT.glob("tests/eaai_java/*.java"),
    ]
    subprocess.run([javac, "-d", str(tmp_path), *map(str, sources)], check=True, timeout=120)
    run = subprocess.run(
        [java, "-cp", str(tmp_path), f"ginrummy.{args[0]}", *args[1:]],
        env={**os.environ, "GINRUMMY_BOT": BOT},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.splitlines()


def test_the_java_player_forwards_every_callback_to_the_bot(tmp_path: Path) -> None:
    lines = _java(tmp_path, "BridgeCheck", "simple")
    assert lines[0] == "take 9D: true"  # 7D 8D 9D
    assert lines[1] in ("discard: KC", "discard: QS")  # either leaves 10
    assert lines[2] == "knock: [[AS, 2S, 3S], [4H, 5H, 6H], [7D, 8D, 9D]]"
    assert lines[3] == "take 2C: false"
    assert lines[4].startswith("refused: ") and "already in this player's hand" in lines[4]
    assert lines[5] in ("discard: KC", "discard: QD", "discard: QH")  # all leave the most
    assert lines[6] == "knock: null"
    # It keeps 7S 8S out of its melds to lay them off on his 4S 5S 6S.
    assert lines[7] == "defence: [[9H, 9D, 9C]]"
    # A defender without a meld declares none: "[]" is not one empty meld (which forfeits).
    assert lines[8] == "no melds: []"


def test_two_whole_games_in_the_framework_loop_with_the_same_players(tmp_path: Path) -> None:
    lines = _java(tmp_path, "GameLoop", "gin-hunter", "simple", "3", "2")
    assert len(lines) == 2, lines
    for number, line in enumerate(lines, start=1):
        assert line.startswith(f"game {number}: winner ")
        assert line.endswith(", forfeit none"), line
        scores = line.split("scores ")[1].split(",")[0]
        assert max(int(s) for s in scores.split("-")) >= 100
