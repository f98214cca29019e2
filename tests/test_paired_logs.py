"""benchmarks/paired_logs.py: two arena runs from the same seed, compared pair by pair."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from benchutil import load
from ginrummy.cli.main import main

paired_logs = load("paired_logs")


def _run(tmp_path: Path, a: str, name: str, seed: int = 5, games: int = 6) -> str:
    path = tmp_path / name
    argv = ["arena", a, "simple", "--rules", "eaai", "--games", str(games), "--seed", str(seed)]
    assert main([*argv, "--log", str(path), "--json"]) == 0
    return str(path)


def test_the_same_player_twice_plays_every_pair_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first, second = _run(tmp_path, "greedy", "a.jsonl.gz"), _run(tmp_path, "greedy", "b.jsonl")
    capsys.readouterr()
    assert paired_logs.main([first, second]) == 0
    out = capsys.readouterr().out
    assert "6 pairs in both logs (seed 5, against simple)" in out
    assert "second minus first: +0.0%" in out and "played exactly alike 6 (100%)" in out
    # Each version's hands, the same twice over.
    _, pairs = paired_logs.read(first)
    hands = sum(game.hands for pair in pairs.values() for game in pair.games)
    assert out.count(f"; {hands} hands, points a hand ") == 2


def test_two_players_are_compared_on_the_pairs_both_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _run(tmp_path, "greedy", "a.jsonl.gz")
    second = _run(tmp_path, "beginner", "b.jsonl.gz", games=4)
    _, greedy = paired_logs.read(first)
    _, beginner = paired_logs.read(second)
    capsys.readouterr()
    assert paired_logs.main([first, second]) == 0
    out = capsys.readouterr().out
    assert "4 pairs in both logs" in out
    diff = sum(beginner[i].value - greedy[i].value for i in range(4)) / 4
    assert f"second minus first: {diff:+.1%}" in out
    # A line cut off mid-write (a run killed) is left out, the rest read.
    with gzip.open(second, "rt") as f:
        text = f.read()
    with gzip.open(second, "wt") as f:
        f.write(text[: text.rindex("\n", 0, len(text) - 1) + 10])
    assert len(paired_logs.read(second)[1]) == 3


def test_runs_on_other_deals_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = _run(tmp_path, "greedy", "a.jsonl.gz")
    other = _run(tmp_path, "greedy", "b.jsonl.gz", seed=6)
    capsys.readouterr()
    assert paired_logs.main([first, other]) == 2
    assert "the logs differ in seed: not the same deals" in capsys.readouterr().err
