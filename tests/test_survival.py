"""The turns a player goes without a chance to knock (``agents.survival``), and the styles'
odds within a hand that rest on them (``StyleModel.within``)."""

from __future__ import annotations

import random
from collections import Counter
from itertools import pairwise
from pathlib import Path
from statistics import mean

from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import beliefs
from ginrummy.agents.search import FIRST_CHANCE, KnockRule
from ginrummy.agents.style import Style, StyleModel, default_styles
from ginrummy.agents.survival import SURVIVAL, TURNS, measure, survival, table_source
from ginrummy.engine.melds import deadwood_mask
from test_panel import view


def test_the_shipped_table_is_what_measuring_again_gives() -> None:
    """The table is data made by :func:`measure` (seeded): made again, it is the same, and
    the module's own text holds it as :func:`table_source` writes it."""
    again = measure()
    assert again == SURVIVAL
    from ginrummy.agents import survival as module

    assert table_source(again) in Path(module.__file__).read_text(encoding="utf-8")


def test_the_table_falls_with_the_turns_and_with_a_wider_limit() -> None:
    assert len(SURVIVAL) == 11 and all(len(row) == TURNS + 1 for row in SURVIVAL)
    for row in SURVIVAL:
        assert row[0] == 1.0
        assert all(a >= b for a, b in pairwise(row))
    for t in range(TURNS + 1):
        column = [SURVIVAL[limit][t] for limit in range(11)]
        assert all(a >= b for a, b in pairwise(column))
    # A first-chance player (limit 10) rarely goes twelve turns without a knock; gin is rarer.
    assert SURVIVAL[10][12] < 0.1 < 0.5 < SURVIVAL[0][12]


def test_a_patient_rule_survives_by_its_window_and_then_by_gin_alone() -> None:
    assert survival(10, 99, 7) == SURVIVAL[10][7]
    assert survival(10, 3, 2) == SURVIVAL[10][2]
    expected = SURVIVAL[10][3] * SURVIVAL[0][12] / SURVIVAL[0][3]
    assert abs(survival(10, 3, 12) - expected) < 1e-12
    assert survival(10, 3, 12) > 5 * survival(10, 99, 12)
    # Beyond the table: its last figure; never below the floor; limits clamped to 0..10.
    assert survival(10, 99, 40) == max(SURVIVAL[10][TURNS], 0.001)
    assert survival(25, 99, 5) == SURVIVAL[10][5] and survival(-1, 99, 5) == SURVIVAL[0][5]
    assert all(survival(limit, 99, t) >= 0.001 for limit in range(11) for t in range(30))


def test_within_a_hand_the_turns_he_plays_on_speak_for_the_patient_styles() -> None:
    model = StyleModel(default_styles(0.05, 0.05))
    assert model.within(0, 10) == model.weights
    late = model.within(13, 10)
    share = late[0] / sum(late)
    assert share < 0.6 < 0.89 < model.weights[0] / sum(model.weights)
    # The rule's own limit counts (low knocks at 5) and so does the hand's (Oklahoma's ace: 1).
    assert late[2] == model.weights[2] * survival(5, 99, 13)
    assert model.within(13, 1)[0] == model.weights[0] * survival(1, 99, 13)
    # The game's odds are untouched: the hand's are made afresh at each decision.
    assert model.weights == list(default_styles(0.05, 0.05)[i].prior for i in range(3))


def test_a_style_is_drawn_by_the_odds_given() -> None:
    early = KnockRule(turns=3)
    model = StyleModel((Style("first", FIRST_CHANCE, 0.5), Style("early", early, 0.5)))
    rng = random.Random(2)
    drawn = Counter(model.sample(rng, [0.0, 1.0]) for _ in range(200))
    assert drawn == Counter({early: 200})
    drawn = Counter(model.sample(rng, [3.0, 1.0]) for _ in range(4000))
    assert 0.72 < drawn[FIRST_CHANCE] / 4000 < 0.78


def test_the_expert_weighs_his_turns_without_a_knock() -> None:
    """Knocking with 9 in our thirteenth turn, nothing seen of his style in earlier hands:
    with ``style_turns`` the worlds lean to a patient player, whose hand (guessed by the
    chain) is better than a first-chance player's could be after so long without a knock, so
    the knock is undercut in more of them."""
    v = view("As 2s 3s 7h 7d 7c 9c Tc Jc 9d Kh", turns_before=12)

    def knock_risk(style_turns: bool) -> float:
        risks = []
        for seed in range(3):
            expert = ExpertAgent(
                Settings(worlds=200, min_worlds=200, budget_ms=10_000, style_turns=style_turns)
            )
            found = expert.evaluate(v, random.Random(seed))
            risk = found.extra["risk"]
            assert isinstance(risk, dict)
            risks.append(max(risk.values()))
        return sum(risks) / len(risks)

    assert knock_risk(True) > knock_risk(False) + 0.03


#: A gin player (he knocks only in his first three turns) at his ninth turn.
GIN_PLAYER = StyleModel((Style("early", KnockRule(turns=3), 1.0),))


def gin_guesses(settings: Settings, seed: int, n: int) -> list[int]:
    """The deadwood of ``n`` hands guessed the search's way (``ExpertAgent._world``) for
    ``GIN_PLAYER`` at his ninth turn, seen from a fixed hand; each guess is a whole hand."""
    b = beliefs(view("As 2s 3s 7h 7d 7c 9c Tc Jc 9d Kh", turns_before=8))
    expert = ExpertAgent(settings)
    rng = random.Random(seed)
    guesser = settings.guesser(b, rng)
    worlds = [expert._world(guesser, rng, GIN_PLAYER, 9, 10, 1, 0.0) for _ in range(n)]
    assert all(his == KnockRule(turns=3) for his, _, _ in worlds)
    assert all(opp.bit_count() == 10 for _, opp, _ in worlds)
    return [deadwood_mask(opp) for _, opp, _ in worlds]


def test_a_gin_players_hand_is_guessed_sharper_by_a_power_of_his_turns() -> None:
    """Past his knocking turns his hand is guessed at a sharpness of ``gin_ramp * turn **
    gin_power``: at his ninth turn, 0.09 in a straight line, 0.81 squared, so the squared
    ramp guesses hands with much less deadwood (before 2026-12-03 only the straight line). His
    last turn is not read here: that reading alone pulls both towards his last discard's."""

    def guessed(power: float) -> float:
        settings = Settings(
            gin_ramp=0.01, gin_sharpness=5, gin_power=power, read_discard=0.0, read_pass=0.0
        )
        return mean(gin_guesses(settings, 4, 100))

    assert guessed(2.0) < guessed(1.0) - 5


def test_a_spread_of_sharpness_widens_the_guesses_of_a_gin_players_hand() -> None:
    """With ``gin_spread`` each world draws its own sharpness around the turn's, so the
    guessed deadwood of a gin player's hand spreads wider (his best hands, the ones that
    undercut, come up in some worlds), about the same middle; 0 leaves every world at one
    sharpness."""

    def guesses(spread: float) -> list[int]:
        settings = Settings(gin_ramp=0.001, gin_power=3, gin_spread=spread)
        return sorted(gin_guesses(settings, 5, 300))

    narrow, wide = guesses(0.0), guesses(1.5)
    assert guesses(0.0) == narrow  # seeded: the same guesses again
    assert wide != narrow

    def tenth(xs: list[int], k: int) -> int:
        return xs[len(xs) * k // 10]

    assert tenth(wide, 9) - tenth(wide, 1) > tenth(narrow, 9) - tenth(narrow, 1) + 4
    assert abs(tenth(wide, 5) - tenth(narrow, 5)) < 6
    # Very sharp worlds (the spread's far tail) are drawn whole, without overflowing the chain.
    sharp = Settings(gin_ramp=1.0, gin_sharpness=50, gin_spread=3)
    assert all(dw >= 0 for dw in gin_guesses(sharp, 6, 30))
