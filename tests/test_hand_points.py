"""benchmarks/hand_points.py: hands by who deals, and the chance of a game by who deals next."""

from __future__ import annotations

from typing import Any

import pytest

from benchutil import load
from ginrummy.agents.winprob import AHEAD, Points, win_chance

hand_points = load("hand_points")


def test_with_the_same_hands_whoever_deals_the_dealing_rule_does_not_matter() -> None:
    for rule in ("alternate", "winner", "loser"):
        got = hand_points.dealer_table(100, AHEAD, AHEAD, rule)
        assert got == pytest.approx(win_chance(100, 0, 0, *AHEAD))


def _game(
    target: int, dealing: tuple[Points, Points], receiving: tuple[Points, Points], rule: str
) -> float:
    """The same chance by plain recursion over the hands, dead hands left out."""
    from functools import cache

    @cache
    def chance(a: int, b: int, deals: bool) -> float:
        if a >= target:
            return 1.0
        if b >= target:
            return 0.0
        ours, his = dealing if deals else receiving
        total = sum(p for _, p in ours) + sum(p for _, p in his)
        v = 0.0
        for won, side in ((True, ours), (False, his)):
            nxt = {"winner": won, "loser": not won, "alternate": not deals}[rule]
            for x, p in side:
                v += p / total * chance(a + x if won else a, b if won else b + x, nxt)
        return v

    return (chance(0, 0, True) + chance(0, 0, False)) / 2


MODELS = [
    # Dealt hands even, the others 65% its, some of them for 25; dead hands too.
    ((((10, 0.45), (25, 0.05)), ((10, 0.45),)), (((10, 0.55), (25, 0.1)), ((10, 0.35),))),
    ((((5, 0.3), (20, 0.1)), ((12, 0.6),)), (((5, 0.5), (30, 0.2)), ((8, 0.3),))),
]


@pytest.mark.parametrize("rule", ["alternate", "winner", "loser"])
@pytest.mark.parametrize("model", MODELS)
def test_the_chance_of_a_game_by_who_deals_next(
    model: tuple[tuple[Points, Points], tuple[Points, Points]], rule: str
) -> None:
    dealing, receiving = model
    got = hand_points.dealer_table(60, dealing, receiving, rule)
    assert got == pytest.approx(_game(60, dealing, receiving, rule))


def test_who_deals_next_changes_the_chance_where_dealing_matters() -> None:
    dealing, receiving = MODELS[0]
    chances = {
        rule: hand_points.dealer_table(100, dealing, receiving, rule)
        for rule in ("alternate", "winner", "loser")
    }
    assert len({round(c, 6) for c in chances.values()}) == 3


def test_each_deal_is_played_once_from_each_seat() -> None:
    rows = hand_points.play_deal(("simple", "simple", "eaai", 7, (0, 0)))
    assert sorted(dealt for _, _, dealt in rows) == [False, True]
    for mine, his, _ in rows:
        assert mine == 0 or his == 0


def test_a_deal_from_a_score_gives_the_agent_its_score_from_either_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    seen: list[tuple[int, int]] = []
    real = hand_points.play_hand

    def spy(rules: Any, dealer: int, seed: int, agents: Any, scores: tuple[int, int]) -> Any:
        seen.append(scores)
        return real(rules, dealer, seed, agents, scores)

    monkeypatch.setattr(hand_points, "play_hand", spy)
    hand_points.play_deal(("simple", "simple", "eaai", 7, (60, 85)))
    assert seen == [(60, 85), (85, 60)]  # the agent in seat 0, then in seat 1
