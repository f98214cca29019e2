"""benchmarks/gin_guesses.py: the guesses of his hand scored against the truth by his turns."""

from __future__ import annotations

import pytest

from benchutil import load

gin_guesses = load("gin_guesses")


def bands(out: str) -> list[tuple[str, list[tuple[str, ...]]]]:
    """Per version, in order: its heading and its rows (turns, decisions, real, guessed)."""
    tables: list[tuple[str, list[tuple[str, ...]]]] = []
    for line in out.splitlines()[1:]:
        if line[:2].strip().isdigit():
            turns, decisions, real, _, guessed = line.split()[:5]
            tables[-1][1].append((turns, decisions, real, guessed))
        elif line and not line.startswith("his turns"):
            tables.append((line, []))
    return tables


def test_one_version_twice_scores_the_same_and_a_sharper_one_guesses_lower(
    capsys: pytest.CaptureFixture[str],
) -> None:
    sharp = "gin_ramp=1,gin_sharpness=5,gin_steps=200,prior_early=0.9"
    loose = "gin_ramp=0,gin_sharpness=0,gin_steps=0,prior_early=0.9"
    args = ["--games", "1", "--worlds", "8", "--guesses", "20"]
    for version in (loose, loose, sharp):
        args += ["--version", version]
    assert gin_guesses.main(args) == 0
    out = capsys.readouterr().out
    assert "his turns  decisions" in out
    (_, first), (_, second), (name, sharper) = bands(out)
    assert name == sharp
    assert first and first == second  # the same guesses on the same decisions
    late = [(a, b) for a, b in zip(first, sharper, strict=True) if a[0] != "0-3"]
    assert late  # he played past his third turn in some hand
    for a, b in late:
        assert a[:3] == b[:3]  # the same decisions, the same truth
        assert float(b[3]) < float(a[3])
