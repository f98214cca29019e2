"""Hands replayed from their stored deck and actions: a finished hand step by step, for
the replays and the reviews (:func:`replay_hand`), and the hand a table read again goes on
with (:func:`rebuild_hand`). Knows nothing of tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine import Card, Event, Hand, Rules, parse_cards
from ..engine.serial import event_to_dict, result_to_dict


def replay_hand(
    rules: Rules, dealer: int, deck: str | Sequence[Card], actions: Sequence[str]
) -> dict[str, Any]:
    """A finished hand step by step, for replays and reviews: both hands, the pile, the stock
    and the melds on the table after the deal and after each action (with the action)."""
    hand = Hand.from_deck(rules, dealer, parse_cards(deck) if isinstance(deck, str) else deck)
    steps = [_step(hand, None)]
    for text in actions:
        event = hand.apply(text)
        steps.append(_step(hand, event))
    return {
        "dealer": dealer,
        "upcard": None if hand.upcard is None else str(hand.upcard),
        "steps": steps,
        "result": None if hand.result is None else result_to_dict(hand.result),
    }


def _step(hand: Hand, event: Event | None) -> dict[str, Any]:
    step: dict[str, Any] = {
        "hands": [str(hand.cards(0)), str(hand.cards(1))],
        "pile": " ".join(map(str, hand.discard_pile)),
        "stock": hand.stock_count,
        "melds": [str(m) for m in hand.table_melds],
        "phase": hand.phase.value,
    }
    if event is not None:
        step["event"] = event_to_dict(event)  # the page says it in words
    return step


def rebuild_hand(rules: Rules, dealer: int, deck: str, actions: list[str]) -> Hand:
    hand = Hand.from_deck(rules, dealer, parse_cards(deck))
    for text in actions:
        hand.apply(text)
    return hand
