"""A finished hand reviewed by the expert: each decision of one seat that the expert would have
made differently, with what it cost by the expert's estimate, the biggest mistakes first.

>>> from ginrummy.engine import Rules, parse_cards, DECK
>>> top = parse_cards("As Qh 2s Qd 3s Qc 4s 9s 7h Ts 7d Js 7c 6d Kd 6h 4c 9c 3h Kc Jd Ad")
>>> deck = [*top, *(c for c in DECK if c not in top)]
>>> actions = ["pass", "pass", "draw", "discard 4s"]  # breaking A-2-3-4 of spades, not Kd
>>> mistakes = review_hand(Rules(), 1, deck, actions, seat=0, worlds=8)
>>> [(m.played, m.best) for m in mistakes if m.move == 4]
[('discard 4s', 'knock Kd')]

The estimates are the expert's search on sampled deals (``worlds`` of them, seeded), so they are
estimates: the same arguments always give the same review.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, replace

from ..engine import Action, Card, Hand, Phase, Rules
from ..engine.scoring import Column
from .hints import action_key, hint

#: The decisions reviewed: the phases where the expert ranks every legal action.
REVIEWED = frozenset({Phase.FIRST_UPCARD, Phase.DRAW, Phase.DISCARD, Phase.WALL})
#: Differences smaller than this (in the hint's unit) are not mistakes, only noise.
NOISE = 0.05


@dataclass(frozen=True, slots=True)
class Mistake:
    """A decision the expert would have made differently."""

    move: int  # the action's number in the hand, from 1
    played: str
    best: str
    cost: float  # how much worse than the expert's choice, in ``unit``
    unit: str  # "%" (the chance of winning the game) or "points"
    reason: str  # why the expert prefers its choice

    def to_dict(self) -> dict[str, object]:
        return {
            "move": self.move,
            "played": self.played,
            "best": self.best,
            "cost": self.cost,
            "unit": self.unit,
            "reason": self.reason,
        }


def _plain(action: Action) -> str:
    """The action without a knock's chosen melds: what a player would call it."""
    return str(replace(action, melds=None))


def review_hand(
    rules: Rules,
    dealer: int,
    deck: Sequence[Card],
    actions: Sequence[str],
    *,
    seat: int,
    scores: tuple[int, int] = (0, 0),
    columns: tuple[Column, ...] = (),
    match_points: tuple[int, int] | None = None,
    worlds: int = 48,
    seed: int = 0,
) -> list[Mistake]:
    """The seat's mistakes in the hand dealt from ``deck`` and played by ``actions`` (the game
    score ``scores``, its score ``columns`` and, in a match, the ``match_points`` before it),
    biggest first."""
    hand = Hand.from_deck(rules, dealer, list(deck))
    found: list[Mistake] = []
    for number, text in enumerate(actions, start=1):
        if hand.current_player == seat and hand.phase in REVIEWED:
            played = Action.parse(text)
            view = hand.view(seat, scores, columns=columns, match_points=match_points)
            ranked = hint(view, rng=random.Random(seed * 1_000_003 + number), worlds=worlds)
            if ranked:
                best = ranked[0]
                mine = next((h for h in ranked if action_key(h.action) == action_key(played)), None)
                cost = best.score - mine.score if mine is not None else 0.0
                if action_key(best.action) != action_key(played) and cost > NOISE:
                    found.append(
                        Mistake(
                            number,
                            _plain(played),
                            _plain(best.action),
                            round(cost, 2),
                            best.unit,
                            best.reason,
                        )
                    )
        hand.apply(text)
    found.sort(key=lambda m: (-m.cost, m.move))
    return found


__all__ = ["Mistake", "review_hand"]
