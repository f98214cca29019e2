"""Hints: every legal action ranked, best first, each with a reason a person understands."""

from __future__ import annotations

import random

import pytest

from ginrummy.agents import get_agent
from ginrummy.agents.hints import Hint, hint
from ginrummy.engine import (
    DECK,
    ActionKind,
    Card,
    Cards,
    Hand,
    Phase,
    PlayerView,
    Rules,
    parse_cards,
)
from ginrummy.engine.actions import AUTO, DISCARDS, DRAW, PASS, TAKE

EAAI = Rules.preset("eaai")
#: Sampled deals per hint: a count, not a time, so the hints do not depend on the machine.
WORLDS = 24


def deck(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> Cards:
    a, b = parse_cards(non_dealer), parse_cards(dealer)
    top = [*(c for pair in zip(a, b, strict=True) for c in pair), Card.parse(upcard)]
    top += parse_cards(stock, allow_empty=True)
    used = sum(c.bit for c in top)
    return Cards(top + [c for c in DECK if not used & c.bit])


def key(action: object) -> tuple[object, object]:
    return getattr(action, "kind", None), getattr(action, "card", None)


def check_hints(hand: Hand, hints: list[Hint]) -> None:
    seat = hand.current_player
    legal = hand.legal_actions()
    assert {key(h.action) for h in hints} == {key(a) for a in legal}
    assert len(hints) == len(legal)
    for h in hints:
        assert hand.is_legal(h.action, seat), h
        assert h.reason and isinstance(h.reason, str)
        assert str(h)
    if hand.phase is not Phase.LAYOFF:
        scores = [h.score for h in hints]
        assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("preset", Rules.presets())
def test_hints_cover_every_legal_action_under_every_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(11)
    simple = get_agent("simple")
    for seed in range(2):
        hand = Hand.deal(rules, seed % 2, 500 + seed)
        while not hand.is_over:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat, (30, 60))
            if seat == 0:
                hints = hint(view, rng=rng, worlds=WORLDS)
                check_hints(hand, hints)
                action = hints[0].action
            else:
                action = simple.act(view, rng)
            hand.apply(action)


def test_no_hints_when_it_is_not_my_turn() -> None:
    hand = Hand.deal(EAAI, 0, 1)
    other = 1 - (hand.current_player or 0)
    assert hint(hand.view(other), worlds=WORLDS) == []


def test_gin_comes_first_and_says_so() -> None:
    d = deck("As 2s 3s 4h 5h 6h 8d 8c 8h Ks", "Kc Qc 2c 4c 6c Js 9h Jh 3d Qh", "Kh", "8s")
    hand = Hand.from_deck(EAAI, 1, d)
    for action in (PASS, PASS, DRAW):
        hand.apply(action)
    hints = hint(hand.view(0), rng=random.Random(1), worlds=WORLDS)
    check_hints(hand, hints)
    assert hints[0].action.kind is ActionKind.GIN
    assert "gin" in hints[0].reason


def test_take_hint_names_the_meld() -> None:
    d = deck("As 2s 3s 4h 5h 6h 7d 8d 9d Tc", "Kc Qc 2c 4c 6c 8c Js 9h Jh 3d", "Td")
    hand = Hand.from_deck(EAAI, 1, d)
    hints = hint(hand.view(0), rng=random.Random(2), worlds=WORLDS)
    check_hints(hand, hints)
    assert hints[0].action == TAKE
    assert "gin" in hints[0].reason or "run" in hints[0].reason
    assert "does not" in hints[1].reason or "stock" in hints[1].reason or "pass" in hints[1].reason


def _danger_view(known: str) -> PlayerView:
    mine = parse_cards("As 2s 3s 4h 5h 6h 7h 7d 8d Jc Ks")
    pile = tuple(parse_cards("Qh 5c 3c"))
    return PlayerView(
        seat=0,
        hand=mine,
        phase="discard",
        current_player=0,
        dealer=1,
        discard_pile=pile,
        opponent_known=parse_cards(known),
        opponent_count=10,
        stock_count=52 - 11 - 10 - len(pile),
        legal_actions=tuple(DISCARDS[c.index] for c in mine),
        rules=EAAI,
    )


def test_dangerous_discard_ranks_below_the_safe_one_and_says_why() -> None:
    # Ks and Jc differ by a few hundredths of a game: 200 worlds tell them apart (24 do not).
    hints = hint(_danger_view("Jh Jd"), rng=random.Random(3), worlds=200)
    by_card = {str(h.action.card): h for h in hints}
    assert hints[0].action == DISCARDS[Card.parse("Ks").index]
    assert by_card["Jc"].score < by_card["Ks"].score
    assert "he took" in by_card["Jc"].reason and "Jh" in by_card["Jc"].reason
    assert "deadwood" in by_card["Ks"].reason


def test_layoff_hints_put_auto_first() -> None:
    rng = random.Random(4)
    simple = get_agent("simple")
    for seed in range(60):
        hand = Hand.deal(EAAI, seed % 2, seed)
        while not hand.is_over:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            if view.phase is Phase.LAYOFF and len(view.legal_actions) > 2:
                hints = hint(view, worlds=WORLDS)
                check_hints(hand, hints)
                assert hints[0].action == AUTO and "least" in hints[0].reason
                assert hints[0].score >= max(h.score for h in hints)
                return
            hand.apply(simple.act(view, rng))
    pytest.fail("no hand with a layoff choice")


def test_knock_hint_explains_the_deadwood() -> None:
    d = deck("As 2s 3s 4h 5h 6h 8d 8c 8h 9c", "Kc Qc 2c 4c 6c Js 9h Jh 3d Qh", "Kh", "Kd")
    hand = Hand.from_deck(EAAI, 1, d)
    for action in (PASS, PASS, DRAW):
        hand.apply(action)
    hints = hint(hand.view(0), rng=random.Random(5), worlds=WORLDS)
    check_hints(hand, hints)
    knock = next(h for h in hints if h.action.kind is ActionKind.KNOCK)
    assert "9 deadwood" in knock.reason and "he holds about" in knock.reason
    # The undercut risk is the search's own: the share of its worlds in which he undercuts.
    assert "he could undercut it in about 4% of the hands he may hold" in knock.reason
    assert hints[0].unit == "%"
    standard = hint(hand.view(0), rng=random.Random(5), worlds=WORLDS)
    assert {key(h.action) for h in standard} == {key(a) for a in hand.legal_actions()}


def test_hints_by_count_of_deals_are_the_same_on_any_machine() -> None:
    view = _danger_view("Jh Jd")
    first = hint(view, rng=random.Random(9), worlds=12)
    assert first == hint(view, rng=random.Random(9), worlds=12)
    with pytest.raises(ValueError, match="worlds must be at least 1"):
        hint(view, worlds=0)
