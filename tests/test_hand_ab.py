"""benchmarks/hand_ab.py: versions of the expert on the same single hands."""

from __future__ import annotations

import pytest

from benchutil import load

hand_ab = load("hand_ab")


def test_versions_are_parsed_with_the_common_worlds() -> None:
    assert hand_ab.parse_version("", 32) == {"worlds": "32"}
    assert hand_ab.parse_version("patient=true,worlds=8", 32) == {
        "patient": "true",
        "worlds": "8",
    }
    assert hand_ab.parse_version("tries=16", None) == {"tries": "16"}


def test_the_same_version_twice_scores_the_same_on_every_deal() -> None:
    # Both seats of a deal, the same cards and random draws: a version met twice must agree
    # with itself exactly, or the paired comparison would carry noise of its own.
    same = {"worlds": "4", "min_worlds": "4"}
    for seed in (3, 4):
        scores = (0, 0) if seed == 3 else (80, 20)
        rows = hand_ab.play_deal(("simple", "eaai", seed, [same, dict(same)], scores))
        assert rows[0] == rows[1]
        points, value, knocks, undercut, gins = rows[0]
        assert undercut <= knocks <= 2 and gins <= 2
        # Two hands move the chance of winning a game by less than two whole games.
        assert -200 < value < 200 and abs(points) < 400


def test_main_prints_each_version_and_the_difference(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--version", "", "--version", "tries=2", "--deals", "2", "--worlds", "4"]
    args += ["--scores", "60,85"]
    assert hand_ab.main([*args, "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "at 60-85" in out and "(as it is) |" in out and "tries=2 |" in out
    assert "tries=2 minus (as it is): points" in out
    # The expert as it is, met second, is named in the difference too.
    args = ["--version", "tries=2", "--version", "", "--deals", "1", "--worlds", "4"]
    assert hand_ab.main([*args, "--workers", "1"]) == 0
    assert "\n(as it is) minus tries=2: points" in capsys.readouterr().out
