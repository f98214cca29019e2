"""Fairness: no observation shows a card its seat has not seen.

The test does not look for particular cards in particular planes: it deals another world that
the seat cannot tell from this one (the cards it has never seen, the stock and the opponent's
unknown cards, shuffled among their places in the deck), replays the same actions there, and
asks that every encoding give the seat the very same observation in both worlds. A control
checks the test can fail: moving one of the seat's own cards changes its observation.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ginrummy import Cards, Hand, IllegalActionError, Rules
from ginrummy.rl.encoding_registry import get_encoding
from ginrummy.rl.knowledge import FULL
from ginrummy.rl.options import make_options
from helpers import Policy, rule_mixes
from rlutil import observed

ENCODINGS = ["default", "rlcard", "infostate", "openspiel"]


def seen_by(hand: Hand, seat: int) -> int:
    """Every card ``seat`` has seen in ``hand`` (so far): its own cards from the deal on, every
    card an event showed it, the upcard, and what is face up now (the opponent's hand once
    the hand is over). The knock card counts as seen: the replay needs the knocker to hold it."""
    deck = hand.deck
    seen = 0
    for i in range(20):
        if (i % 2 == 0) == (seat != hand.dealer):
            seen |= deck[i].bit
    if (hand.rules.deal == "eleven" and seat != hand.dealer) or hand.upcard is not None:
        seen |= deck[20].bit
    for event in hand.events:
        if event.seat == seat or event.action.kind.value != "draw":
            for card in (event.action.card, event.card, *event.laid_off):
                if card is not None:
                    seen |= card.bit
    view = hand.view(seat)
    return seen | (FULL & ~view.unseen.mask)


def other_world(hand: Hand, seat: int, rng: random.Random) -> Hand | None:
    """The same actions on a deck whose cards unseen by ``seat`` are shuffled among their
    places; None when the rules make an action illegal there (a must-gin rule can)."""
    hidden = FULL & ~seen_by(hand, seat)
    deck = list(hand.deck)
    places = [i for i, card in enumerate(deck) if hidden & card.bit]
    cards = [deck[i] for i in places]
    rng.shuffle(cards)
    for place, card in zip(places, cards, strict=True):
        deck[place] = card
    world = Hand.from_deck(hand.rules, hand.dealer, Cards(deck))
    try:
        for event in hand.events:
            world.apply(event.action)
    except IllegalActionError:
        return None
    return world


def sample_states(name: str, rules: Rules, hands: int) -> list[tuple[Hand, int]]:
    """Finished hands and, for each, a few points in them to look at."""
    rng = random.Random(name)
    out = []
    for number in range(hands):
        hand = Hand.deal(rules, number % 2, rng.randrange(1 << 62))
        policy = Policy(rng, greed=0.9)
        while not hand.is_over:
            hand.apply(policy.choose(hand, hand.legal_actions()))
        size = len(hand.events)
        for upto in {0, 1, size // 3, size // 2, size - 2, size - 1, size}:
            out.append((hand, upto))
    return out


MIXES = [m for m in rule_mixes() if m[0].startswith(("standard", "oklahoma"))]


@pytest.mark.parametrize(("name", "rules"), MIXES, ids=[m[0] for m in MIXES])
def test_no_encoding_tells_two_worlds_apart_that_the_seat_cannot(name: str, rules: Rules) -> None:
    rng = random.Random(name)
    options = make_options(rules=rules, encoding="default")
    compared = 0
    for hand, upto in sample_states(name, rules, 4):
        prefix = Hand.from_deck(hand.rules, hand.dealer, hand.deck)
        for event in hand.events[:upto]:
            prefix.apply(event.action)
        for seat in (0, 1):
            world = other_world(prefix, seat, rng)
            if world is None:
                continue
            for encoding in ENCODINGS:
                make = get_encoding(encoding).make
                here = observed(prefix, upto, seat, make(options))
                there = observed(world, upto, seat, make(options))
                assert np.array_equal(here, there), (name, encoding, seat, upto)
                compared += 1
    assert compared >= 100


def test_the_comparison_sees_a_card_that_moves_from_the_seats_hand() -> None:
    """The control: swap one of seat 1's dealt cards with a stock card and its observation
    changes (so equal observations above are not an accident of the test)."""
    rules = Rules()
    hand = Hand.deal(rules, 0, 11)
    hand.apply("pass")
    deck = list(hand.deck)
    deck[0], deck[40] = deck[40], deck[0]  # the non-dealer's first card and a stock card
    swapped = Hand.from_deck(rules, 0, Cards(deck))
    swapped.apply("pass")
    options = make_options(rules=rules)
    for encoding in ENCODINGS:
        make = get_encoding(encoding).make
        assert not np.array_equal(
            observed(hand, 1, 1, make(options)), observed(swapped, 1, 1, make(options))
        )
