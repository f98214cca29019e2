"""The fast heuristic policy on card masks: the expert's rollout policy and the core of
``intermediate-expert``.

Everything here works on 52-bit card masks (:mod:`ginrummy.engine.masks`) and calls the engine's
meld solver (:func:`deadwood_mask`, :func:`discard_deadwoods_mask`) for every deadwood count.
The policy:

* **Draw**: take the pile's top card when it goes into a meld of the best arrangement (or, for
  the full heuristic, when the hand is better with it than the average stock card).
* **Discard**: the card leaving the least deadwood, less a bonus for the live cards that would
  still join a meld (``outs``), plus a penalty for cards the opponent is likely to use.
* **Knock**: as soon as the deadwood is within the limit (the search decides to wait).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..engine.masks import RANK_MASKS, SUIT_MASK, VALUES
from ..engine.melds import (
    RUN_DW,
    deadwood_mask,
    discard_deadwoods_mask,
    min_discard_deadwood_mask,
)

#: For each card: the cards that share a meld with it most directly (same rank, same suit
#: within two ranks).
NEIGHBOURS: Final = tuple(
    (RANK_MASKS[i % 13] & ~(1 << i))
    | sum(
        1 << (i // 13 * 13 + r)
        for r in range(max(0, i % 13 - 2), min(13, i % 13 + 3))
        if r != i % 13
    )
    for i in range(52)
)


def meld_outs(m: int) -> int:
    """The cards not in ``m`` that would go into a meld with cards of ``m``: the third card of
    a pair (same rank) or of a two-card run draw (either end or the gap), and the cards that
    extend a held meld."""
    a = m & SUIT_MASK
    b = (m >> 13) & SUIT_MASK
    c = (m >> 26) & SUIT_MASK
    d = m >> 39
    two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    out = (two | two << 13 | two << 26 | two << 39) & ~m
    for shift, p in ((0, a), (13, b), (26, c), (39, d)):
        if p:
            q = ((p << 1) & (p << 2)) | ((p >> 1) & (p >> 2)) | ((p << 1) & (p >> 1))
            out |= (q & SUIT_MASK & ~p) << shift
    return out


def takes_into_meld(hand: int, card: int) -> bool:
    """Whether ``card`` goes into a meld of the best arrangement of ``hand`` plus the card."""
    bit = 1 << card
    return deadwood_mask(hand | bit) < deadwood_mask(hand) + VALUES[card]


@dataclass(frozen=True, slots=True)
class Weights:
    """The heuristic's knobs, in deadwood points."""

    #: Bonus per drawable card that would still join a meld after the discard.
    outs: float = 2.0
    #: Penalty per unit of probability that the opponent can meld the discard.
    danger: float = 6.0
    #: Weight of the expected deadwood after the next stock draw (0 = deadwood now only).
    lookahead: float = 0.0

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Explicit, as the engine's melds: a compiled build's frozen classes refuse the
        # field-by-field restore that pickle and copy would otherwise use.
        return (Weights, (self.outs, self.danger, self.lookahead))


DEFAULT_WEIGHTS: Final = Weights()


def discard_scores(
    hand: int,
    taken: int,
    drawable: Sequence[float],
    danger: Sequence[float] | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
    table: dict[int, int] | None = None,
) -> list[tuple[float, int, int]]:
    """``(score, card, deadwood left)`` for each legal discard, best (lowest score) first.

    ``taken`` is the card taken from the pile this turn (-1 if none); ``drawable`` per card
    the chance it is still in the stock; ``danger`` per card the chance the opponent can use it.
    """
    if table is None:
        table = discard_deadwoods_mask(hand)
    out: list[tuple[float, int, int]] = []
    w_outs = weights.outs
    w_danger = weights.danger
    w_look = weights.lookahead
    live = 0
    total_live = 0.0
    for card in range(52):
        if drawable[card] > 0:
            live |= 1 << card
            total_live += drawable[card]
    for card, dw in table.items():
        if card == taken:
            continue
        rest = hand & ~(1 << card)
        score = dw - 0.01 * VALUES[card]
        if w_outs:
            outs = meld_outs(rest) & live
            gain = 0.0
            while outs:
                low = outs & -outs
                gain += drawable[low.bit_length() - 1]
                outs ^= low
            score -= w_outs * gain
        if w_look and total_live > 0:
            expected = 0.0
            m = live
            while m:
                low = m & -m
                expected += drawable[low.bit_length() - 1] * min_discard_deadwood_mask(rest | low)
                m ^= low
            score += w_look * (expected / total_live - dw)
        if danger is not None:
            score += w_danger * danger[card]
        out.append((score, card, dw))
    out.sort()
    return out


#: Each rank's cards, kings first, down to the aces.
RANKS_DOWN: Final = RANK_MASKS[::-1]


def least_discard(hand: int, taken: int) -> tuple[int, int]:
    """``(card, deadwood left)``: the discard leaving the least deadwood, the highest card
    among equals (never ``taken``). Usually the first few cards tried are the answer, so this
    is cheaper than the full discard table."""
    a = hand & SUIT_MASK
    b = (hand >> 13) & SUIT_MASK
    c = (hand >> 26) & SUIT_MASK
    d = hand >> 39
    if not (a & b & (c | d)) | (c & d & (a | b)):
        # No set is possible, so each suit's runs stand alone: the solver's run tables give
        # every discard's deadwood directly.
        pats = (a, b, c, d)
        runs = (RUN_DW[a], RUN_DW[b], RUN_DW[c], RUN_DW[d])
        total = runs[0] + runs[1] + runs[2] + runs[3]
        best_card, best_dw = -1, 999
        for rank in range(12, -1, -1):
            for suit in range(4):
                p = pats[suit]
                if p >> rank & 1:
                    card = suit * 13 + rank
                    if card == taken:
                        continue
                    v = total - runs[suit] + RUN_DW[p ^ (1 << rank)]
                    if v < best_dw:
                        best_card, best_dw = card, v
        return best_card, best_dw
    target = min_discard_deadwood_mask(hand)
    for rank_cards in RANKS_DOWN:
        q = hand & rank_cards
        while q:
            bit = q & -q
            card = bit.bit_length() - 1
            if card != taken and deadwood_mask(hand ^ bit) == target:
                return card, target
            q ^= bit
    # Only the card just taken reaches the minimum: take the best of the rest.
    best_card, best_dw = -1, 999
    for card, dw in discard_deadwoods_mask(hand).items():
        if card != taken and (dw < best_dw or (dw == best_dw and VALUES[card] > VALUES[best_card])):
            best_card, best_dw = card, dw
    return best_card, best_dw


def rollout_discard(
    hand: int,
    taken: int,
    live: int,
    outs: float,
    limit: int,
    danger: Sequence[float] = (),
    shun: float = 0.0,
) -> tuple[int, int]:
    """The rollout's end of turn: ``(card, deadwood left)``.

    When some discard leaves a knock (deadwood within ``limit``), the least deadwood wins;
    otherwise the score is the deadwood left less ``outs`` per live card that would still join
    a meld (``live``: cards not in this hand or the pile), plus ``shun`` times the card's
    ``danger`` (the chance the opponent can meld it, as read when the search began).
    """
    if not outs and not shun:
        return least_discard(hand, taken)
    table = discard_deadwoods_mask(hand)
    best_card = -1
    best_dw = 999
    for card, dw in table.items():
        if card != taken and (dw < best_dw or (dw == best_dw and VALUES[card] > VALUES[best_card])):
            best_dw = dw
            best_card = card
    if best_dw <= limit:
        return best_card, best_dw
    best_score = 1e9
    for card, dw in table.items():
        if card == taken:
            continue
        score = dw - 0.01 * VALUES[card]
        if outs:
            rest = hand & ~(1 << card)
            score -= outs * (meld_outs(rest) & live).bit_count()
        if shun:
            score += shun * danger[card]
        if score < best_score:
            best_score = score
            best_card = card
            best_dw = dw
    return best_card, best_dw
