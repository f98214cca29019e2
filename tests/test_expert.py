"""The expert player: only legal actions under every rule set, and the plays a strong player
must make (gin when it can, the safe discard, the knock that leaves the fewest layoffs).

Budgets are tiny here so the file runs in seconds; strength is measured by
``benchmarks/expert_strength.py``.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from ginrummy.agents import get_agent
from ginrummy.agents.basic import in_some_meld
from ginrummy.agents.expert import Candidate, ExpertAgent, IntermediateExpert, Settings
from ginrummy.agents.heuristic import meld_outs, rollout_discard, takes_into_meld
from ginrummy.agents.inference import Beliefs, Observed, beliefs, observe, sample_world
from ginrummy.agents.search import (
    FIRST_CHANCE,
    TO_DRAW,
    TO_TAKE_OR_PASS,
    KnockRule,
    Rollout,
    Scoring,
    layoff_deadwood,
    play_out,
    play_out_plans,
    resolve_knock,
)
from ginrummy.agents.style import turns_of
from ginrummy.agents.winprob import Utility, win_chance
from ginrummy.engine import (
    DECK,
    Action,
    ActionKind,
    Card,
    Cards,
    Hand,
    Phase,
    PlayerView,
    Rules,
    best_arrangement,
    layoff,
    parse_cards,
    parse_melds,
)
from ginrummy.engine.actions import AUTO, DISCARDS, DRAW, PASS, TAKE

FAST = Settings(worlds=6, min_worlds=6)
EAAI = Rules.preset("eaai")


def fast_expert() -> ExpertAgent:
    return ExpertAgent(FAST)


def deck(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> Cards:
    """A deck (top first) dealing these hands, this upcard, and this stock on top."""
    a, b = parse_cards(non_dealer), parse_cards(dealer)
    assert len(a) == len(b) == 10
    top = [*(c for pair in zip(a, b, strict=True) for c in pair), Card.parse(upcard)]
    top += parse_cards(stock, allow_empty=True)
    used = sum(c.bit for c in top)
    return Cards(top + [c for c in DECK if not used & c.bit])


def legal(hand: Hand, action: Action) -> bool:
    return hand.is_legal(action, hand.current_player)


# -- every rule set, only legal actions ------------------------------------------------------


RULE_SETS = [pytest.param(Rules.preset(name), id=name) for name in Rules.presets()] + [
    pytest.param(Rules().replace(deal="eleven"), id="eleven"),
    pytest.param(Rules().replace(must_gin=True, big_gin=True), id="must-gin-big-gin"),
    pytest.param(Rules().replace(wall_pickup=True), id="wall-pickup"),
    pytest.param(Rules().replace(undercut_on_tie=False), id="no-tie-undercut"),
]


def play(rules: Rules, agents: list[object], seed: int, scores: tuple[int, int]) -> Hand:
    hand = Hand.deal(rules, seed % 2, seed)
    rng = random.Random(seed)
    while not hand.is_over:
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat, scores)
        action = agents[seat].act(view, rng)  # type: ignore[attr-defined]
        assert legal(hand, action), f"{action} is not legal in {view.phase}: {hand}"
        hand.apply(action)
    return hand


@pytest.mark.parametrize("rules", RULE_SETS)
def test_only_legal_actions_under_every_rule_set(rules: Rules) -> None:
    opponents = ["simple", "random", "expert-fast"]
    for seed in range(3):
        name = opponents[seed % len(opponents)]
        other = fast_expert() if name == "expert-fast" else get_agent(name)
        scores = [(0, 0), (85, 40), (20, 95)][seed]
        agents = [fast_expert(), other] if seed % 2 else [other, fast_expert()]
        hand = play(rules, agents, 1000 + seed, scores)
        assert hand.result is not None


def test_intermediate_plays_legal_hands() -> None:
    for seed in range(6):
        agents = [IntermediateExpert(), get_agent("simple")]
        assert play(EAAI, agents, seed, (0, 0)).result is not None


def test_the_same_seed_makes_the_same_decisions() -> None:
    # The search is counted in worlds, not in time (min_worlds == worlds: the safety cap on
    # time never cuts it short), so a seed replays the same hand on any machine.
    settings = Settings(worlds=8, min_worlds=8)
    records = [
        play(EAAI, [ExpertAgent(settings), get_agent("simple")], 12, (0, 0)).action_texts
        for _ in range(2)
    ]
    assert records[0] == records[1] and len(records[0]) > 4


def test_close_decisions_get_the_extra_worlds() -> None:
    _, view = _knock_view("4s 5s 6s 7s 7h 7d 7c Ac 2d 3h", "Kd")

    def worlds(close_z: float) -> int:
        settings = Settings(worlds=8, min_worlds=8, extra_worlds=12, close_z=close_z)
        return ExpertAgent(settings).evaluate(view, random.Random(4)).worlds

    # Any two candidates are "close" within 100 standard errors, none within zero.
    assert worlds(100.0) == 20
    assert worlds(0.0) == 8
    plain = ExpertAgent(Settings(worlds=8, min_worlds=8))
    assert plain.evaluate(view, random.Random(4)).worlds == 8


def test_patient_plans_value_a_move_by_its_best_plan() -> None:
    _, view = _knock_view("4s 5s 6s 7s 7h 7d 7c Ac 2d 3h", "Kd")
    # No pruning and no gate, so every version sees every candidate on the same worlds (the
    # rollouts draw nothing from the generator: the same seed, the same worlds).
    base = Settings(worlds=24, min_worlds=24, prune=(), keep=(), gate_z=0.0, patient=False)

    def values(**changes: object) -> list[float]:
        evaluation = ExpertAgent(replace(base, **changes)).evaluate(view, random.Random(9))
        return evaluation.values

    patient = values(patient=True, patient_most=4)
    # Each plan alone: knock at the first chance, at 4 or less, gin only.
    alone = [values(), values(own_most=4), values(own_most=0)]
    cands = ExpertAgent(base).evaluate(view, random.Random(9)).candidates
    assert {"discard", "knock"} <= {c.kind for c in cands}
    for k, c in enumerate(cands):
        if c.kind == "knock":
            assert patient[k] == alone[0][k]  # a knock ends the hand: no plan to choose
        else:
            assert patient[k] == max(a[k] for a in alone)
    # The plans differ here: the best plan is not the same for every version.
    assert len({tuple(a) for a in alone}) == 3
    # A fourth plan: knock at the first chance in the next two turns only, then for gin.
    begun = turns_of(view, view.seat)
    four = values(patient=True, patient_most=4, patient_turns=2)
    alone.append(values(own_turns=begun + 2))
    assert alone[3] not in alone[:3]
    for k, c in enumerate(cands):
        assert four[k] == (alone[0][k] if c.kind == "knock" else max(a[k] for a in alone))


def test_waiting_plans_that_knock_late_enough_are_the_first_chance_plan() -> None:
    # With patient_late past any stock, the plans that wait knock at the first chance too: the
    # values are those of the single first-chance plan; with a small one, they differ from
    # both the first-chance plan's and those of plans that wait to the end.
    _, view = _knock_view("4s 5s 6s 8h 10h 2d 4d 8c Ac 5h", "Kd")
    base = Settings(worlds=24, min_worlds=24, prune=(), keep=(), gate_z=0.0)

    def values(**changes: object) -> list[float]:
        return ExpertAgent(replace(base, **changes)).evaluate(view, random.Random(9)).values

    assert values(patient_late=99) == values(patient=False)
    late = values(patient_late=4)  # (at 1 to 3 these 24 worlds value every move as without)
    assert late != values(patient=False) and late != values()


def test_the_patient_plans_can_keep_their_outs() -> None:
    # Far from a knock (22 deadwood at best), where the discards that keep outs differ.
    _, view = _knock_view("4s 5s 6s 8h 10h 2d 4d 8c Ac 5h", "Kd")
    base = Settings(worlds=24, min_worlds=24, prune=(), keep=(), gate_z=0.0, patient=False)

    def values(**changes: object) -> list[float]:
        return ExpertAgent(replace(base, **changes)).evaluate(view, random.Random(9)).values

    kept = values(patient=True, patient_outs=1.0)
    # The first-chance plan keeps rollout_outs (0); the two that wait weigh outs by 1.
    alone = [values(), values(own_most=4, rollout_outs=1.0), values(own_most=0, rollout_outs=1.0)]
    cands = ExpertAgent(base).evaluate(view, random.Random(9)).candidates
    for k, c in enumerate(cands):
        assert kept[k] == (alone[0][k] if c.kind == "knock" else max(a[k] for a in alone))
    assert kept != values(patient=True)


def test_registered_by_name() -> None:
    assert isinstance(get_agent("expert"), ExpertAgent)
    assert isinstance(get_agent("intermediate-expert"), IntermediateExpert)
    assert get_agent("expert").name == "expert"


# -- scenarios ------------------------------------------------------------------------------


def test_takes_the_card_that_completes_gin_and_goes_gin() -> None:
    d = deck("As 2s 3s 4h 5h 6h 7d 8d 9d Tc", "Kc Qc 2c 4c 6c 8c Js 9h Jh 3d", "Td")
    hand = Hand.from_deck(EAAI, 1, d)
    rng = random.Random(1)
    expert = fast_expert()
    assert expert.act(hand.view(0), rng) == TAKE
    hand.apply(TAKE)
    action = expert.act(hand.view(0), rng)
    assert action.kind is ActionKind.GIN and action.card == Card.parse("Tc")


def test_passes_a_card_that_does_not_fit() -> None:
    d = deck("As 2s 3s 4h 5h 6h 7d 8d 9d Tc", "Kc Qc 2c 4c 6c 8c Js 9h Jh 3d", "Kd")
    hand = Hand.from_deck(EAAI, 1, d)
    assert fast_expert().act(hand.view(0), random.Random(1)) == PASS


def _knock_view(mine: str, drawn: str, scores: tuple[int, int] = (0, 0)) -> tuple[Hand, PlayerView]:
    """Seat 0 (non-dealer) holds ``mine``; both pass the upcard and seat 0 draws ``drawn``."""
    d = deck(mine, "Kc Qc 2c 4c 6c Js 9h Jh 3d Qh", "Kh", drawn)
    hand = Hand.from_deck(EAAI, 1, d)
    hand.apply(PASS)
    hand.apply(PASS)
    hand.apply(DRAW)
    return hand, hand.view(0, scores)


def _laid_down(view: PlayerView, action: Action) -> set[int]:
    assert action.card is not None
    rest = view.hand.mask & ~action.card.bit
    melds = action.melds if action.melds is not None else best_arrangement(rest).melds
    return {m.mask for m in melds}


def test_knock_arrangement_leaves_the_fewest_layoffs() -> None:
    # 7s can go in the run (4s-7s, open to 3s and 8s) or in a set of four sevens (leaving
    # 4s5s6s, open to 3s only): the second gives the defender fewer layoffs.
    hand, view = _knock_view("4s 5s 6s 7s 7h 7d 7c Ac 2d 3h", "Kd")
    action = ExpertAgent(Settings(worlds=20, min_worlds=20, budget_ms=1000)).act(
        view, random.Random(2)
    )
    assert action.kind is ActionKind.KNOCK and action.card == Card.parse("Kd")
    assert legal(hand, action)
    assert _laid_down(view, action) == {m.mask for m in parse_melds("4s5s6s 7s7h7d7c")}


def test_knocks_with_a_strong_lead() -> None:
    _, view = _knock_view("As 2s 3s 4h 5h 6h 8d 8c 8h 9c", "Kd", scores=(95, 40))
    action = ExpertAgent(Settings(worlds=20, min_worlds=20, budget_ms=1000)).act(
        view, random.Random(3)
    )
    assert action.kind is ActionKind.KNOCK and action.card == Card.parse("Kd")


def test_each_knock_carries_the_share_of_worlds_that_undercut_it() -> None:
    # Discarding Kd knocks with 9 (9c): every knock the search weighed carries the share of
    # its worlds in which he undercuts it, and nothing else carries one.
    _, view = _knock_view("As 2s 3s 4h 5h 6h 8d 8c 8h 9c", "Kd")
    evaluation = ExpertAgent(Settings(worlds=64, min_worlds=64)).evaluate(view, random.Random(5))
    risk = evaluation.extra["risk"]
    assert isinstance(risk, dict)
    knocks = {i for i, c in enumerate(evaluation.candidates) if c.kind == "knock"}
    assert knocks and set(risk) == knocks
    assert all(0.0 <= r <= 1.0 for r in risk.values())


#: A hand that may knock (with 8c or 9c) or play on, for the tests of the knock's value.
_MAY_KNOCK = "As 2s 3s 4h 5h 6h 8d 8c 8h 9c"


def _values(scores: tuple[int, int] = (0, 0), **changes: float) -> list[tuple[str, float]]:
    """Each candidate's kind and value as a small search with ``changes`` weighs them, holding
    :data:`_MAY_KNOCK` at ``scores``."""
    _, view = _knock_view(_MAY_KNOCK, "Kd", scores=scores)
    agent = ExpertAgent(Settings(worlds=32, min_worlds=32, budget_ms=10_000, **changes))
    evaluation = agent.evaluate(view, random.Random(6))
    return list(zip([c.kind for c in evaluation.candidates], evaluation.values, strict=True))


def test_the_knock_bias_when_behind_moves_only_knocks_and_only_when_behind() -> None:
    for scores, moved in (((40, 70), True), ((70, 40), False), ((50, 50), False)):
        plain = _values(scores)
        biased = _values(scores, knock_bias_behind=-3.0)
        assert [k for k, _ in plain] == [k for k, _ in biased]
        assert any(k == "knock" for k, _ in plain)
        for (kind, a), (_, b) in zip(plain, biased, strict=True):
            if kind == "knock" and moved:
                assert b < a  # three points less, at the score's worth of a point
            else:
                assert b == a
    # Behind, it is the same as the bias on every knock.
    assert _values((40, 70), knock_bias_behind=-3.0) == _values((40, 70), knock_bias=-3.0)


def test_the_hints_value_knocks_without_the_bias_when_behind() -> None:
    from ginrummy.agents.hints import hint

    _, view = _knock_view(_MAY_KNOCK, "Kd", scores=(40, 70))

    def scores(settings: Settings | None) -> list[tuple[str, float]]:
        hints = hint(view, rng=random.Random(3), worlds=24, settings=settings)
        return [(str(h.action), h.score) for h in hints]

    plain = scores(None)
    assert any(a.startswith("knock") for a, _ in plain)
    assert plain == scores(Settings(knock_bias_behind=0.0))
    # The bias is the expert's own: a player's hints are not moved by it.
    assert plain == scores(Settings(knock_bias_behind=-6.0))


def test_the_plan_blend_mixes_in_the_best_plan_world_by_world() -> None:
    from ginrummy.agents.expert import _best_plan

    # Two plans over two worlds: the second is better on average (1.0 against 0.5).
    lists = [[1.0, 0.0], [0.0, 2.0]]
    assert _best_plan(lists, 0.0) == [0.0, 2.0]
    # Half of each world's best (1.0, 2.0) mixed in; a single plan is left as it is.
    assert _best_plan(lists, 0.5) == [0.5, 2.0]
    assert _best_plan([[3.0, 1.0]], 0.5) == [3.0, 1.0]


def test_plans_chosen_by_group_take_each_groups_best() -> None:
    from ginrummy.agents.expert import _best_plan, _plan_key

    # Two plans over four worlds; worlds 0 and 2 are one group, 1 and 3 another.
    lists = [[1.0, 0.0, 5.0, 1.0], [0.0, 2.0, 0.0, 0.0]]
    # Over all worlds the first plan is best (7 against 2) ...
    assert _best_plan(lists, 0.0) == lists[0]
    # ... in the second group the second (2 against 1).
    assert _best_plan(lists, 0.0, [3, 7, 3, 7]) == [1.0, 2.0, 5.0, 0.0]
    # One group is the best plan over all worlds.
    assert _best_plan(lists, 0.0, [-1] * 4) == lists[0]
    # The groups: by the deadwood where the plans part, and by the turns' band too.
    assert _plan_key([], 1) == _plan_key(None, 2) == -1
    assert _plan_key([(6, 4)], 1) == 6
    assert _plan_key([(6, 4)], 2) == 6 * 8 + 1 != _plan_key([(6, 7)], 2)


def test_plans_chosen_by_group_raise_only_moves_that_play_on() -> None:
    plain, grouped = _values(), _values(plan_info=2)
    assert [k for k, _ in plain] == [k for k, _ in grouped]
    for (kind, a), (_, b) in zip(plain, grouped, strict=True):
        assert b == a if kind == "knock" else b >= a
    assert any(b > a for (_, a), (_, b) in zip(plain, grouped, strict=True))


def test_the_plan_blend_raises_only_moves_that_play_on() -> None:
    plain, blended = _values(plan_blend=0.0), _values(plan_blend=0.3)
    assert [k for k, _ in plain] == [k for k, _ in blended]
    kinds = {k for k, _ in plain}
    assert {"knock", "discard"} <= kinds
    for (kind, a), (_, b) in zip(plain, blended, strict=True):
        if kind == "knock":
            assert b == a
        else:
            assert b >= a
    assert any(b > a for (_, a), (_, b) in zip(plain, blended, strict=True))


def _take_view() -> tuple[Hand, PlayerView]:
    # The first upcard (9d) makes a run with 7d 8d: a take the search weighs against a pass.
    d = deck("As 2s 3s 4h 5h 7d 8d Kc Qh 9c", "Kd Qc 2c 4c 6c 8c Js 9h Jh 3d", "9d")
    hand = Hand.from_deck(EAAI, 1, d)
    return hand, hand.view(0)


def test_a_take_is_valued_by_the_best_discard_after_it() -> None:
    _, view = _take_view()
    base = Settings(worlds=24, min_worlds=24, prune=(), keep=(), gate_z=0.0)

    def values(**changes: object) -> dict[str, float]:
        ev = ExpertAgent(replace(base, **changes)).evaluate(view, random.Random(9))
        return {c.kind: v for c, v in zip(ev.candidates, ev.values, strict=True)}

    plain, then = values(), values(take_then=3)
    assert set(plain) == {"take", "pass"}
    # The same worlds: the pass is valued as before, the take by the best of more ways on.
    assert then["pass"] == plain["pass"]
    assert then["take"] > plain["take"]
    assert values(take_then=1)["take"] >= plain["take"]


def test_the_discards_tried_after_a_take_are_the_ones_the_expert_weighs_then() -> None:
    hand, view = _take_view()
    expert = ExpertAgent(replace(FAST, take_then=2))
    take = Candidate(TAKE, "take", Card.parse("9d").index)
    starts = expert._take_then(view, beliefs(view), take, (0, 0))
    hand.apply(TAKE)
    after = hand.view(0)
    weighed = [c.card for c in expert._discard_candidates(after, beliefs(after), False)]
    assert [after.hand.mask & ~s.mine for s in starts] == [1 << card for card in weighed[:2]]
    for s, card in zip(starts, weighed, strict=False):
        assert s.pile == (card,) and s.turn == 1 and s.phase == TO_DRAW
        assert s.turns == (1, 0)


def _draw_hand(mine: str, stock: str, upcard: str = "9d") -> Hand:
    """Both passed on the upcard: the non-dealer (seat 0) draws ``stock``'s card."""
    d = deck(mine, "Kd Qc 2c 4c 6c 8c Js 9h Jh 3d", upcard, stock)
    hand = Hand.from_deck(EAAI, 1, d)
    hand.apply(PASS)
    hand.apply(PASS)
    return hand


def test_a_draw_can_be_played_on_with_the_heuristics_discard() -> None:
    base = Settings(worlds=24, min_worlds=24, prune=(), keep=(), gate_z=0.0)
    expert = ExpertAgent(replace(base, draw_then=True))
    td = Card.parse("Td").index
    # Far from a knock: the discard the expert weighs first once it holds the card drawn.
    hand = _draw_hand("As 2s 3s 4h 5h 7d 8d Kc Qh 9c", "Td 6d")
    view = hand.view(0)
    assert view.phase is Phase.DRAW
    then = expert._then(view, beliefs(view), td)
    hand.apply(DRAW)
    drawn = hand.view(0)
    assert then == expert._discard_candidates(drawn, beliefs(drawn), False)[0].card >= 0
    # Where a discard lets it knock (here gin), the rollout's own plans decide (-1).
    near = _draw_hand("As 2s 3s 4h 5h 6h 7d 8d 9d Kc", "Td", "Ks").view(0)
    assert expert._then(near, beliefs(near), td) == -1

    # It throws the Kc; he draws the 6d and throws it, which joins its 7d 8d: take or draw.
    hand.apply(DISCARDS[Card.parse("Kc").index])
    hand.apply(DRAW)
    hand.apply(DISCARDS[Card.parse("6d").index])
    view = hand.view(0)

    def values(**changes: object) -> dict[str, float]:
        ev = ExpertAgent(replace(base, **changes)).evaluate(view, random.Random(9))
        return {c.kind: v for c, v in zip(ev.candidates, ev.values, strict=True)}

    # The same worlds: the take is valued as before, the draw played on otherwise.
    plain, changed = values(), values(draw_then=True)
    assert set(plain) == {"take", "draw"}
    assert changed["take"] == plain["take"] and changed["draw"] != plain["draw"]


def test_a_knock_riskier_than_the_cap_gives_way_to_playing_on() -> None:
    from ginrummy.agents.expert import Candidate, Evaluation

    discard = Candidate(DISCARDS[Card.parse("Kd").index], "discard", Card.parse("Kd").index)
    knock = Candidate(Action(ActionKind.KNOCK, Card.parse("Kd")), "knock", Card.parse("Kd").index)
    evaluation = Evaluation([discard, knock], [1.0, 2.0], 64, 0.0, extra={"risk": {1: 0.3}})

    def choice(cap: float) -> str:
        return ExpertAgent(Settings(knock_risk=cap)).choose(evaluation).kind

    assert choice(1.0) == "knock"  # the default: the best value, whatever its risk
    assert choice(0.3) == "knock"  # at the cap is allowed
    assert choice(0.2) == "discard"
    # With nothing else to do, the knock stands.
    alone = Evaluation([knock], [2.0], 64, 0.0, extra={"risk": {0: 0.9}})
    assert ExpertAgent(Settings(knock_risk=0.1)).choose(alone) is knock


def test_goes_gin_rather_than_knock() -> None:
    # 8s makes a set of four eights: discarding Ks is gin.
    _, view = _knock_view("As 2s 3s 4h 5h 6h 8d 8c 8h Ks", "8s")
    action = fast_expert().act(view, random.Random(4))
    assert action.kind is ActionKind.GIN and action.card == Card.parse("Ks")


def _danger_view(opponent_known: str) -> PlayerView:
    mine = parse_cards("As 2s 3s 4h 5h 6h 7h 7d 8d Jc Ks")
    pile = tuple(parse_cards("Qh 5c 3c"))
    known = parse_cards(opponent_known, allow_empty=True)
    return PlayerView(
        seat=0,
        hand=mine,
        phase="discard",
        current_player=0,
        dealer=1,
        discard_pile=pile,
        opponent_known=known,
        opponent_count=10,
        stock_count=52 - 11 - 10 - len(pile),
        legal_actions=tuple(DISCARDS[c.index] for c in mine),
        rules=EAAI,
    )


def test_does_not_feed_the_opponent_a_meld_when_an_equal_discard_exists() -> None:
    """Jc and Ks are both loose tens. The search weighs them on sampled worlds, so each view
    is decided with 20 seeds: nearly always the card he cannot use."""

    def picks(view: PlayerView) -> Counter[str]:
        expert = ExpertAgent(Settings(worlds=64, min_worlds=64))
        return Counter(str(expert.act(view, random.Random(s)).card) for s in range(20))

    # He took Jh and Jd, so Jc would give him a set.
    assert picks(_danger_view("Jh Jd"))["Ks"] >= 16
    # He took Qs and Js instead: now the king is the one he wants.
    assert picks(_danger_view("Qs Js"))["Jc"] >= 16


def test_defends_with_the_best_layoffs() -> None:
    rng = random.Random(6)
    defended = 0
    for seed in range(40):
        hand = Hand.deal(EAAI, seed % 2, seed)
        agents = [fast_expert(), get_agent("simple")]
        while not hand.is_over:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            action = agents[seat].act(view, rng)
            if seat == 0 and view.phase is Phase.LAYOFF and len(view.legal_actions) > 2:
                assert action == AUTO
                defended += 1
            hand.apply(action)
        if defended >= 2:
            break
    assert defended >= 2


# -- the parts --------------------------------------------------------------------------------


def test_layoff_deadwood_matches_the_engine() -> None:
    rng = random.Random(7)
    for _ in range(200):
        cards = rng.sample(range(52), 20)
        knocker = sum(1 << i for i in cards[:10])
        defender = sum(1 << i for i in cards[10:])
        melds = best_arrangement(knocker).melds
        assert layoff_deadwood(defender, melds) == layoff(defender, melds).deadwood


def test_resolve_knock_scores_like_the_rules() -> None:
    scoring = Scoring.of(EAAI, 10, 1)
    knocker = parse_cards("As 2s 3s 4h 5h 6h 8d 8c 8h 9c").mask
    defender = parse_cards("Ks Qs Kh Qh Kd Qd 2c 3c 5c 7s").mask
    # Kings and queens melded, nothing to lay off: 2c 3c 5c 7s = 17 against the knocker's 9.
    assert resolve_knock(knocker, defender, None, scoring) == (17 - 9, 0)
    low = parse_cards("Ks Kh Kd Qs Qh Qd 2c 3c 4c Ac").mask  # no deadwood: an undercut
    assert resolve_knock(knocker, low, None, scoring) == (0, 9 - 0 + 25)


def test_rollouts_end_with_points_for_one_side_at_most() -> None:
    rng = random.Random(8)
    scoring = Scoring.of(EAAI, 10, 1)
    for _ in range(50):
        cards = list(range(52))
        rng.shuffle(cards)
        mine, his = sum(1 << i for i in cards[:10]), sum(1 << i for i in cards[10:20])
        start = Rollout(mine, [cards[20]], turn=0, phase=TO_DRAW)
        pts = play_out(start, his, cards[21:], scoring, outs=1.0)
        assert min(pts) == 0 and max(pts) >= 0
        # The start is left as it was: one start serves every world.
        assert start == Rollout(mine, [cards[20]], turn=0, phase=TO_DRAW)
        assert play_out(start, his, cards[21:], scoring, outs=1.0) == pts


def test_plans_played_out_together_score_as_each_played_out_alone() -> None:
    """Seat 0's knocking plans share one rollout until they part (play_out_plans): each plan's
    points are those it gets played out alone, from every kind of start, for every mix of
    plans, his rule, outs and danger."""
    rng = random.Random(21)
    scoring = Scoring.of(EAAI, 10, 1)
    rules = [
        FIRST_CHANCE,
        KnockRule(4),
        KnockRule(0),
        KnockRule(4, late=3),
        KnockRule(0, late=6),
        KnockRule(99, turns=2),
        KnockRule(7, turns=5, late=2),
    ]
    apart = together = 0
    for _ in range(400):
        cards = list(range(52))
        rng.shuffle(cards)
        mine, his = sum(1 << i for i in cards[:10]), sum(1 << i for i in cards[10:20])
        drawn = rng.randrange(3)
        start = rng.choice(
            [
                Rollout(mine, [cards[20]], turn=0, phase=TO_DRAW, turns=(drawn, drawn)),
                Rollout(mine, [cards[20]], turn=1, phase=TO_DRAW, turns=(drawn + 1, drawn)),
                Rollout(mine, [cards[20]], turn=1, phase=TO_TAKE_OR_PASS, passes=1),
            ]
        )
        plans = rng.sample(rules, rng.randint(1, 4))
        him = rng.choice(rules)
        outs = rng.choice([0.0, 0.0, 1.0])
        danger = [rng.random() for _ in range(52)] if rng.random() < 0.3 else []
        shun = 3.0 if danger else 0.0
        stock = cards[21 : rng.choice([52, 40, 30])]
        args = (start, his, stock, scoring, outs)
        each = [
            play_out_plans(*args, plans=[plan], his=him, danger=danger, shun=shun)[0]
            for plan in plans
        ]
        parted: list[tuple[int, int]] = []
        got = play_out_plans(*args, plans=plans, his=him, danger=danger, shun=shun, parted=parted)
        assert got == each
        # Where they part is told once, at a deadwood one may knock with; plans that never
        # part score alike.
        assert len(parted) <= 1
        if parted:
            deadwood, begun = parted[0]
            assert 0 < deadwood <= 10 and begun >= start.turns[0]
        else:
            assert len(set(each)) == 1
        assert each[0] == play_out(*args, mine=plans[0], his=him, danger=danger, shun=shun)
        apart += len(set(each)) > 1
        together += len(set(each)) == 1 and len(plans) > 1
    assert apart > 50 and together > 50  # plans that parted, and plans that never did


def test_rollout_discard_knocks_on_the_least_deadwood() -> None:
    hand = parse_cards("As 2s 3s 4h 5h 6h 8d 8c 8h 9c Kd").mask
    card, dw = rollout_discard(hand, -1, 0, 1.0, 10)
    assert DECK[card] == Card.parse("Kd") and dw == 9


def test_rollout_discard_shuns_a_card_he_likely_melds_unless_it_knocks() -> None:
    hand = parse_cards("As 2s 3s 4h 5h 6h 8d 7c 9s 5c Kd").mask
    king, nine = Card.parse("Kd").index, Card.parse("9s").index
    assert rollout_discard(hand, -1, 0, 0.0, 10)[0] == king  # the least deadwood
    danger = [0.0] * 52
    danger[king] = 0.9
    card, dw = rollout_discard(hand, -1, 0, 0.0, 10, danger, 6.0)
    assert card == nine and dw == 8 + 7 + 5 + 10
    assert rollout_discard(hand, -1, 0, 0.0, 10, danger, 0.5)[0] == king  # worth 0.45 only
    # With a knock at hand the least deadwood still wins, however dangerous.
    knocking = parse_cards("As 2s 3s 4h 5h 6h 8d 8c 8h 2c Kd").mask
    assert rollout_discard(knocking, -1, 0, 0.0, 10, danger, 6.0)[0] == king


def test_meld_outs() -> None:
    outs = meld_outs(parse_cards("7h 8h Kc Kd").mask)
    assert outs == parse_cards("6h 9h Ks Kh").mask


def test_meld_outs_are_the_cards_simple_takes() -> None:
    """``his_any`` rollouts take his pile cards by ``meld_outs``: exactly simple's rule."""
    rng = random.Random(5)
    for _ in range(3000):
        cards = rng.sample(range(52), 11)
        hand = sum(1 << c for c in cards[:10])
        card = cards[10]
        assert bool(meld_outs(hand) >> card & 1) == in_some_meld(hand, DECK[card])


def test_his_any_takes_a_card_his_best_melds_leave_out() -> None:
    # 7d makes a set with 7s 7h, but his best arrangement keeps them in runs.
    his = parse_cards("5s 6s 7s 7h 8h 9h Ac 2c Kc Qd").mask
    seven = Card.parse("7d").index
    assert in_some_meld(his, DECK[seven]) and not takes_into_meld(his, seven)
    mine = parse_cards("2h 3h 4h 9c 9d 9s Js Jd Jh 4c").mask
    order = ["Kd", "Qh", "3c", "Ts", "Th", "8c", "6d", "2d", "5c", "4d"]
    stock = [Card.parse(t).index for t in order]
    start = Rollout(mine, [seven], turn=1, phase=TO_DRAW, turns=(1, 0))
    scoring = Scoring.of(EAAI, 10, 1)
    plain = play_out(start, his, stock, scoring)
    taking = play_out(start, his, stock, scoring, his_any=True)
    # Without the rule he draws the Kd and throws a ten: I draw the Qh and knock with 4
    # against his 23. Taking the 7d, he throws the Kc: I draw the Kd and knock against 20.
    assert plain == (19, 0)
    assert taking == (16, 0)


def test_beliefs_follow_what_he_took_passed_and_threw() -> None:
    d = deck("As 2s 3s 4h 5h 6h 7d 8d 9d Tc", "Kc Qc 2c 4c 6c 8c Js 9h Jh 3d", "Kd", "5s Qd")
    hand = Hand.from_deck(EAAI, 1, d)
    hand.apply(PASS)  # seat 0 passes Kd
    hand.apply(TAKE)  # seat 1 takes Kd (he holds Kc)
    hand.apply(DISCARDS[Card.parse("2c").index])
    view = hand.view(0)
    obs = observe(view)
    assert [DECK[c] for c in obs.took] == [Card.parse("Kd")]
    assert [DECK[c] for c in obs.discarded] == [Card.parse("2c")]
    b = beliefs(view)
    ks, kh, ac = (Card.parse(t).index for t in ("Ks", "Kh", "Ac"))
    assert b.prob[Card.parse("Kd").index] == 1.0
    assert b.prob[ks] > b.prob[Card.parse("5d").index]
    assert b.prob[ac] < b.prob[Card.parse("5d").index]
    assert b.prob[kh] > 0
    opp, stock = sample_world(b, random.Random(1), 4, 0.1)
    assert opp.bit_count() == 10 and opp & Card.parse("Kd").bit
    assert len(stock) == view.stock_count
    assert not opp & view.hand.mask


def test_win_chance_and_utility() -> None:
    assert win_chance(100, 0, 0) == pytest.approx(0.5, abs=1e-9)
    assert win_chance(100, 90, 10) > 0.9 > 0.1 > win_chance(100, 10, 90)
    assert win_chance(100, 100, 50) == 1.0 and win_chance(100, 50, 100) == 0.0
    u = Utility(EAAI, (50, 50), 0)
    assert u.win_only and u(20, 0) > u(0, 0) > u(0, 20)
    points = Utility(Rules(), (0, 0), 0)
    assert not points.win_only and points(10, 0) - points(0, 0) > 10
    # The expert's win_game setting: only the game counts, whatever the bonuses.
    win = Utility(Rules(), (30, 60), 1, win_only=True)
    assert win.win_only and win(10, 0) == pytest.approx(200 * win_chance(100, 70, 30))


def _two_of_four() -> tuple[tuple[int, ...], list[float], int, Beliefs]:
    """Beliefs with two hidden cards among four unseen ones (4s, 5h, 5d, Kc) weighted 1, 2, 3,
    4: ``(cards, weights, unseen mask, beliefs)``."""
    cards = (3, 17, 30, 51)
    weights = [0.0] * 52
    for card, w in zip(cards, (1.0, 2.0, 3.0, 4.0), strict=True):
        weights[card] = w
    unseen = sum(1 << c for c in cards)
    return (
        cards,
        weights,
        unseen,
        Beliefs(0, unseen, 2, tuple(weights), (0.5,) * 52, Observed((), (), (), 0)),
    )


def test_intermediate_never_searches() -> None:
    d = deck("As 2s 3s 4h 5h 6h 7d 8d 9d Tc", "Kc Qc 2c 4c 6c 8c Js 9h Jh 3d", "Td")
    hand = Hand.from_deck(EAAI, 1, d)
    evaluation = IntermediateExpert().evaluate(hand.view(0), random.Random(1))
    assert evaluation.worlds == 0
    assert evaluation.best().action == TAKE


def test_sampled_hidden_cards_follow_the_weights_without_replacement() -> None:
    """Drawing two of four unseen cards weighted 1, 2, 3, 4: each pair comes up as often as
    successive weighted draws without replacement make it, and the stock is the rest."""
    from itertools import combinations

    from ginrummy.agents.inference import sample_hidden

    cards, weights, unseen, b = _two_of_four()
    rng = random.Random(5)
    n = 40_000
    counts: dict[int, int] = {}
    for _ in range(n):
        mask = sample_hidden(b, rng)
        assert mask.bit_count() == 2 and not mask & ~unseen
        counts[mask] = counts.get(mask, 0) + 1
    total = sum(weights)
    for i, j in combinations(cards, 2):
        wi, wj = weights[i], weights[j]
        p = wi / total * wj / (total - wi) + wj / total * wi / (total - wj)
        got = counts.get(1 << i | 1 << j, 0) / n
        assert abs(got - p) < 4.5 * (p * (1 - p) / n) ** 0.5, (i, j, got, p)
    opp, stock = sample_world(b, rng)
    assert sorted(stock) == sorted(c for c in cards if not opp >> c & 1)


@pytest.mark.parametrize("sharpness", [0.0, 0.3])
def test_the_chain_guesses_hands_with_odds_of_weights_times_the_tilt(sharpness: float) -> None:
    """Two of four unseen cards weighted 1, 2, 3, 4 (4s, 5h, 5d, Kc: two cards never meld,
    so a guess's deadwood is their values): after enough swaps each pair comes up with odds
    proportional to the product of its weights times exp(-sharpness * deadwood)."""
    from itertools import combinations
    from math import exp

    from ginrummy.agents.inference import sample_hidden_chain
    from ginrummy.engine.masks import VALUES

    cards, weights, unseen, b = _two_of_four()
    rng = random.Random(7)
    n = 20_000
    counts: dict[int, int] = {}
    for _ in range(n):
        mask = sample_hidden_chain(b, rng, 30, sharpness)
        assert mask.bit_count() == 2 and not mask & ~unseen
        counts[mask] = counts.get(mask, 0) + 1
    odds = {
        1 << i | 1 << j: weights[i] * weights[j] * exp(-sharpness * (VALUES[i] + VALUES[j]))
        for i, j in combinations(cards, 2)
    }
    total = sum(odds.values())
    for mask, o in odds.items():
        p = o / total
        got = counts.get(mask, 0) / n
        assert abs(got - p) < 4.5 * (p * (1 - p) / n) ** 0.5, (mask, got, p)


def test_the_chain_guesses_better_organised_hands_than_single_guesses() -> None:
    """Late in a hand (nothing taken, so the weights say little), the chain's guesses at a
    sharpness hold far less deadwood than plain weighted guesses, and the same seed makes the
    same guess."""
    from statistics import mean

    from ginrummy.agents.inference import sample_hidden, sample_hidden_chain
    from ginrummy.engine.melds import deadwood_mask

    _, view = _knock_view("As 2s 3s 4h 5h 6h 8d 8c 8h 9c", "Kd")
    b = beliefs(view)
    plain = mean(deadwood_mask(sample_hidden(b, random.Random(s))) for s in range(200))
    chain = mean(
        deadwood_mask(sample_hidden_chain(b, random.Random(s), 40, 0.8)) for s in range(200)
    )
    assert chain < plain - 10, (chain, plain)
    assert sample_hidden_chain(b, random.Random(3), 40, 0.8) == sample_hidden_chain(
        b, random.Random(3), 40, 0.8
    )


def test_the_stock_order_is_a_uniform_shuffle() -> None:
    from ginrummy.agents.inference import Beliefs, Observed

    unseen = 0b1111
    b = Beliefs(0, unseen, 0, (1.0,) * 4 + (0.0,) * 48, (0.0,) * 52, Observed((), (), (), 0))
    rng = random.Random(6)
    n = 24_000
    counts: dict[tuple[int, ...], int] = {}
    for _ in range(n):
        _, stock = sample_world(b, rng)
        counts[tuple(stock)] = counts.get(tuple(stock), 0) + 1
    assert len(counts) == 24
    p = 1 / 24
    for got in counts.values():
        assert abs(got / n - p) < 4.5 * (p * (1 - p) / n) ** 0.5
