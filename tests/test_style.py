"""Reading the opponent's knocking style, and rollouts that follow it (``agents.style``)."""

from __future__ import annotations

import json
import random

import pytest

from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.inference import beliefs, sample_world
from ginrummy.agents.play import drive
from ginrummy.agents.search import FIRST_CHANCE, TO_DRAW, KnockRule, Rollout, Scoring, play_out
from ginrummy.agents.style import Evidence, Style, StyleModel, evidence
from ginrummy.engine import Card, Hand, Rules, parse_cards
from ginrummy.engine.melds import deadwood_mask
from test_panel import view

EAAI = Rules.preset("eaai")


def test_a_knock_rule_allows_gin_always_and_a_knock_within_its_bounds() -> None:
    assert FIRST_CHANCE.allows(10, 30)
    early = KnockRule(turns=3)
    assert early.allows(9, 3) and not early.allows(9, 4) and early.allows(0, 9)
    low = KnockRule(most=5)
    assert low.allows(5, 12) and not low.allows(6, 1) and low.allows(0, 1)
    # Gin only, but any knock once the stock is down to two cards above the floor.
    late = KnockRule(0, late=2)
    assert not late.allows(9, 5, 3) and late.allows(9, 5, 2) and late.allows(9, 5, 0)
    assert late.allows(0, 5, 30) and not KnockRule(0).allows(9, 5, 0)


MINE = "Ks Qh Jd 9c 7s 5h 3d Kc Qd Jh"  # nothing melds, nothing lays off on his melds
HIS = "As 2s 3s 4h 5h 6h 7c 8c 9c Kd"  # three melds and Kd


def _his_turn(his_turns: int) -> tuple[Rollout, int, list[int]]:
    """His turn to draw, ``his_turns`` turns begun, the stock 2d first and then the rest of
    the deck in order."""
    mine, his = parse_cards(MINE).mask, parse_cards(HIS).mask
    top = Card.parse("Ts").index
    first = Card.parse("2d").index
    used = mine | his | 1 << top | 1 << first
    stock = [first] + [i for i in range(52) if not used >> i & 1]
    return Rollout(mine, [top], 1, TO_DRAW, turns=(4, his_turns)), his, stock


def test_a_rollout_opponent_knocks_by_his_rule() -> None:
    scoring = Scoring.of(EAAI, 10, 1)
    start, his, stock = _his_turn(4)
    # He draws 2d, throws Kd and holds 2: at the first chance he knocks, and we lay off nothing.
    mine = deadwood_mask(parse_cards(MINE).mask)
    assert play_out(start, his, stock, scoring) == (0, mine - 2)
    # Knocking only in his first three turns, in his fifth he plays on for gin.
    patient = play_out(start, his, stock, scoring, his=KnockRule(turns=3))
    assert patient != (0, mine - 2)
    # In his third turn the early rule knocks too.
    start3, _, _ = _his_turn(2)
    assert play_out(start3, his, stock, scoring, his=KnockRule(turns=3)) == (0, mine - 2)
    # A low rule waits for 5 or less, which the 2 is.
    assert play_out(start, his, stock, scoring, his=KnockRule(most=5)) == (0, mine - 2)


def test_the_odds_follow_his_knocks_and_the_knocks_he_passed_up() -> None:
    model = StyleModel()
    assert model.likeliest().name == "first chance"  # most players knock at once
    # He held 4 in his seventh turn and played on: not a first-chance knocker, nor a low one;
    # once is as likely a slip as a style, twice is a style.
    model.update(Evidence(turn=7, deadwood=4, knocked=False))
    assert 0.4 < model.posterior()[1] < 0.6
    model.update(Evidence(turn=8, deadwood=3, knocked=False))
    assert model.likeliest().name == "early"
    assert model.posterior()[1] > 0.9
    # Then he knocked with 9 in his second turn: still early (the others are unlikely anyway).
    model.update(Evidence(turn=2, deadwood=9, knocked=True))
    assert model.likeliest().name == "early"
    eager = StyleModel()
    eager.update(Evidence(turn=6, deadwood=8, knocked=True))
    assert eager.posterior()[0] > 0.95
    low = StyleModel()
    low.update(Evidence(turn=6, deadwood=8, knocked=False))
    low.update(Evidence(turn=7, deadwood=3, knocked=True))
    low.update(Evidence(turn=9, deadwood=7, knocked=False))
    assert low.likeliest().name == "low"
    # Draws follow the odds, and the same seed draws the same rules.
    draws = [low.sample(random.Random(s)) for s in range(200)]
    assert draws.count(KnockRule(most=5)) > 150
    assert draws == [low.sample(random.Random(s)) for s in range(200)]


def _hands(a: str, b: str, count: int) -> list[Hand]:
    """``count`` hands of ``a`` (seat 0) against ``b``."""
    agents = (get_agent(a), get_agent(b))
    out = []
    for seed in range(count):
        rng = random.Random(seed)
        out.append(drive(Hand.deal(EAAI, seed % 2, rng), agents, rng))
    return out


@pytest.mark.parametrize(
    ("opponent", "rule"),
    [("simple", FIRST_CHANCE), ("gin-hunter", KnockRule(turns=3)), ("camper", KnockRule(most=5))],
)
def test_the_evidence_read_from_seat_0s_view_fits_his_real_rule(
    opponent: str, rule: KnockRule
) -> None:
    found = [evidence(h.view(0)) for h in _hands("simple", opponent, 60)]
    seen = [ev for ev in found if ev is not None]
    assert len(seen) >= 20
    fits = sum(rule.allows(ev.deadwood, ev.turn) == ev.knocked for ev in seen)
    assert fits >= 0.9 * len(seen)
    # Each kind of evidence is there to read: his knocks, and (but for simple) the knocks he
    # passed up.
    assert any(ev.knocked for ev in seen)
    assert any(not ev.knocked for ev in seen) == (rule != FIRST_CHANCE)


def test_evidence_needs_a_finished_hand() -> None:
    hand = Hand.deal(EAAI, 0, random.Random(1))
    assert evidence(hand.view(0)) is None


def test_the_expert_reads_a_gin_hunter_over_the_hands_of_a_game() -> None:
    expert = ExpertAgent(Settings(worlds=6, min_worlds=6, read_style=True, bar_knocks=True))
    agents = (expert, get_agent("gin-hunter"))
    rng = random.Random(3)
    for seed in range(8):
        drive(Hand.deal(EAAI, seed % 2, rng), agents, rng)
    assert expert.style.likeliest().name == "early", expert.style.seen


def test_a_world_where_he_would_have_knocked_is_drawn_again() -> None:
    """His sixth turn over, with a knock limit of 25 (so that a fresh deal's hands come near
    it): by a first-chance rule he would have knocked with 25 or less, so the worlds' hands
    hold more, nearly always; by an early rule, past his turns, they may hold anything but
    gin; and when both rules are as likely, the hands that could have knocked speak for the
    early rule."""
    hand = Hand.deal(EAAI, 0, random.Random(5))
    b = beliefs(hand.view(0))
    expert = ExpertAgent(
        Settings(
            gin_tries=8,
            gin_sharpness=0.15,
            gin_steps=0,
            steps=0,  # every hand the best of 8 guesses, as the plain ones below
            style_turns=False,
            read_style=True,
            bar_knocks=True,
        )
    )
    early = KnockRule(turns=3)

    def worlds(*styles: Style) -> list[tuple[KnockRule, int, list[int]]]:
        rng = random.Random(1)
        model = StyleModel(styles)
        guesser = expert.settings.guesser(b, rng)
        return [expert._world(guesser, rng, model, 6, 25, 8, 0.15) for _ in range(300)]

    def low(found: list[tuple[KnockRule, int, list[int]]]) -> float:
        return sum(deadwood_mask(h) <= 25 for _, h, _ in found) / len(found)

    plain = [deadwood_mask(sample_world(b, random.Random(s), 8, 0.15)[0]) for s in range(300)]
    share = sum(dw <= 25 for dw in plain) / 300
    assert low(worlds(Style("first", FIRST_CHANCE, 1.0))) < 0.02 < 0.5 * share
    assert low(worlds(Style("early", early, 1.0))) > 0.5 * share
    both = worlds(Style("first", FIRST_CHANCE, 0.5), Style("early", early, 0.5))
    assert sum(rule == early for rule, _, _ in both) > 0.55 * len(both)


def test_a_knock_against_a_gin_player_past_his_knocking_turns_risks_more() -> None:
    """Knocking with 9 (As2s3s 7h7d7c 9cTcJc, 9d; Kh thrown) in our seventh turn: against a
    player who has shown he plays for gin after his first turns, the search guesses his hand
    sharper and values the knock lower (more undercuts in its worlds) than against one who
    knocks at the first chance, whose hand would already have knocked if it could."""
    v = view("As 2s 3s 7h 7d 7c 9c Tc Jc 9d Kh", turns_before=6)

    def knock_value(*seen: Evidence) -> float:
        expert = ExpertAgent(
            Settings(worlds=128, min_worlds=128, budget_ms=10_000, read_style=True, bar_knocks=True)
        )
        for ev in seen:
            expert.style.update(ev)
        found = expert.evaluate(v, random.Random(1))
        return max(
            x for c, x in zip(found.candidates, found.values, strict=True) if c.kind == "knock"
        )

    hunter = knock_value(Evidence(7, 4, False), Evidence(8, 3, False))
    eager = knock_value(Evidence(7, 8, True))
    assert hunter < eager - 5


def test_evidence_goes_to_plain_data_and_back() -> None:
    for ev in (Evidence(3, 7, True), Evidence(12, 0, False)):
        assert Evidence.from_list(ev.to_list()) == ev
        assert Evidence.from_list(json.loads(json.dumps(ev.to_list()))) == ev
    for bad in ([1, 2], "abc", [1, 2, 3, 4], [1.5, 2, 1], [1, 2, 2], [-1, 2, 0], [True, 2, 1]):
        with pytest.raises(ValueError, match="evidence"):
            Evidence.from_list(bad)  # type: ignore[arg-type]


def test_what_an_expert_learns_is_what_it_would_have_observed() -> None:
    """An expert handed the evidence of the hands (as the web's workers are) holds the same
    odds as one that watched them."""
    watched = ExpertAgent(Settings(worlds=6, min_worlds=6))
    agents = (watched, get_agent("gin-hunter"))
    rng = random.Random(3)
    seen = []
    for seed in range(6):
        hand = drive(Hand.deal(EAAI, seed % 2, rng), agents, rng)
        ev = evidence(hand.view(0))
        if ev is not None:
            seen.append(ev)
    assert watched.style.seen == seen and seen
    told = ExpertAgent(Settings(worlds=6, min_worlds=6))
    for ev in seen:
        told.learn(ev)
    assert told.style.posterior() == watched.style.posterior()
