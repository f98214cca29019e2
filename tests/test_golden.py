"""Golden playthroughs: replay every ``tests/golden/*.txt`` record and compare its events and
result with the text stored under it, exactly.

To change them on purpose, edit the scenarios in ``tests/golden/regenerate.py``, run it, and
review the diff.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from ginrummy import HandRecord, ResultKind
from helpers import describe_hand

GOLDEN = Path(__file__).resolve().parent / "golden"
FILES = sorted(GOLDEN.glob("*.txt"))


def load_regenerate() -> ModuleType:
    spec = importlib.util.spec_from_file_location("golden_regenerate", GOLDEN / "regenerate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def split(text: str) -> tuple[str, str, str]:
    """(comment, record line, expected events and result) of a golden file."""
    comment, record, blank, rest = text.split("\n", 3)
    assert comment.startswith("# ") and record.startswith("GR1 ") and blank == ""
    return comment, record, rest


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_golden_playthrough_replays_exactly(path: Path) -> None:
    _, line, expected = split(path.read_text())
    record = HandRecord.from_text(line)
    assert record.to_text() == line
    hand = record.replay()
    assert hand.is_over
    assert describe_hand(hand) == expected
    # The JSON form replays the same hand.
    again = HandRecord.from_json(record.to_json()).replay()
    assert again.events == hand.events and again.result == hand.result


def test_golden_files_match_their_scenarios() -> None:
    regenerate = load_regenerate()
    scenarios = {s.name: s for s in regenerate.SCENARIOS}
    assert sorted(scenarios) == [p.stem for p in FILES], "run tests/golden/regenerate.py"
    for path in FILES:
        assert path.read_text() == scenarios[path.stem].text(), f"{path.name} is out of date"


def test_every_ending_has_a_golden_playthrough() -> None:
    kinds = {}
    for path in FILES:
        _, line, _ = split(path.read_text())
        hand = HandRecord.from_text(line).replay()
        assert hand.result is not None
        kinds[path.stem] = hand.result.kind
    expected = {
        "knock": ResultKind.KNOCK,
        "gin": ResultKind.GIN,
        "big_gin": ResultKind.BIG_GIN,
        "undercut": ResultKind.UNDERCUT,
        "tie_undercut": ResultKind.UNDERCUT,
        "tie_no_score": ResultKind.KNOCK,
        "dead_at_the_wall": ResultKind.DEAD,
        "knock_on_the_wall_turn": ResultKind.KNOCK,
        "wall_pickup": ResultKind.KNOCK,
        "wall_pickup_pass": ResultKind.DEAD,
        "oklahoma_spade": ResultKind.KNOCK,
        "eleven_card_deal": ResultKind.KNOCK,
        "dealer_takes_upcard": ResultKind.KNOCK,
        "chained_layoffs": ResultKind.KNOCK,
    }
    assert {name: kinds.get(name) for name in expected} == expected


def test_a_changed_record_no_longer_matches() -> None:
    """The comparison is exact: one action changed gives a different playthrough."""
    _, line, expected = split((GOLDEN / "chained_layoffs.txt").read_text())
    changed = HandRecord.from_text(line.replace("layoff Qs, done", "done"))
    assert describe_hand(changed.replay()) != expected
