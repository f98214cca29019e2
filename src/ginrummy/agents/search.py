"""Determinized Monte Carlo: play a hand out in a sampled world, on card masks.

A world fixes the opponent's hand and the stock order. From a candidate move the hand is played
to its end with the fast heuristic for both players, and the result is scored. Every candidate
is judged on the same worlds. :class:`Rollout` names where the simulated hand starts and
:func:`play_out` plays it.

**What a rollout simplifies.** It is the real hand (the same cards, the same order of turns,
the stock floor, the knock limit of this hand, the hand's multiplier) played by a fixed policy,
and it leaves out every choice that policy never makes:

* Both seats play the same policy: take the first upcard, or the pile's top card, exactly when
  it goes into a meld of the best arrangement with it (otherwise pass, or draw from the stock);
  discard the card leaving the least deadwood (the highest card among equals; never the card
  just taken), except that with ``outs`` the searching seat, when it cannot knock, also counts
  the live cards that would still join a meld (and with ``shun`` it avoids the cards the
  opponent was read, at the search's start, to be likely to meld); and **knock** as its
  :class:`KnockRule` allows: by default at the first chance, but a seat may be given a patient
  rule (knock only at a deadwood of at most ``most``, or only in its first ``turns`` turns,
  otherwise play for gin, perhaps knocking at the first chance again when the stock is nearly
  gone: ``late``), each seat its own, so that the rollout can follow an opponent who plays for
  gin.
* **Must gin** is never looked up, but it always holds: a seat that can knock discards the card
  leaving the least deadwood, so it goes gin whenever it can.
* **Big gin** is never declared: eleven melded cards discard one and score as gin (the gin
  bonus, not the big gin bonus).
* **The wall pickup** is never offered: a discard that leaves the stock at the floor without a
  knock ends the hand dead, as it does without the ``wall_pickup`` rule.
* **The knocker's melds** are the solver's first least-deadwood arrangement, not the one leaving
  the fewest layoffs. The defender then lays off optimally (the engine's ``auto``; only his
  deadwood counts, so which cards go is not decided).
* **The score** is the hand's points under the rules (gin and undercut bonuses, the tie rule,
  the multiplier); what they do to the game (boxes, the target) is the caller's to weigh.
* A hand still going after ``max_plies`` moves (pile cards taken back and forth) is dead.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import Final, NewType

from ..engine.masks import (
    FULL_DECK_MASK,
    KNOCKER,
    RANK_MASKS,
    STOCK_FLOOR,
    SUIT_MASK,
    VALUES,
    knock_score,
)
from ..engine.melds import (
    Meld,
    best_arrangements,
    best_covers,
    deadwood_mask,
    run_melds,
)
from ..engine.rules import Rules
from .heuristic import least_discard, meld_outs, rollout_discard, takes_into_meld

#: Rollouts in nearby worlds meet the same hands again (four in ten least-deadwood discards,
#: nearly half the deadwood counts, more than half the knocking hands): all are pure functions
#: of the cards, so they are kept, up to ``_CACHE_SIZE`` entries each (then the cache starts
#: afresh).
_CACHE_SIZE = 1 << 17
_discards: dict[int, tuple[int, int]] = {}
_deadwoods: dict[int, int] = {}
_knocks: dict[int, tuple[Meld, ...]] = {}


def _least_discard(hand: int, taken: int) -> tuple[int, int]:
    """:func:`least_discard`, remembered."""
    key = hand << 6 | (taken + 1)
    got = _discards.get(key)
    if got is None:
        if len(_discards) >= _CACHE_SIZE:
            _discards.clear()
        got = _discards[key] = least_discard(hand, taken)
    return got


def _deadwood(hand: int) -> int:
    """:func:`deadwood_mask`, remembered."""
    got = _deadwoods.get(hand)
    if got is None:
        if len(_deadwoods) >= _CACHE_SIZE:
            _deadwoods.clear()
        got = _deadwoods[hand] = deadwood_mask(hand)
    return got


@dataclass(frozen=True, slots=True)
class Scoring:
    """The rules that score a hand, as plain numbers."""

    limit: int
    gin_bonus: int
    undercut_bonus: int
    undercut_on_tie: bool
    multiplier: int

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Explicit, as the engine's melds: a compiled build's frozen classes refuse the
        # field-by-field restore that pickle and copy would otherwise use.
        return (
            Scoring,
            (
                self.limit,
                self.gin_bonus,
                self.undercut_bonus,
                self.undercut_on_tie,
                self.multiplier,
            ),
        )

    @classmethod
    def of(cls, rules: Rules, limit: int, multiplier: int) -> Scoring:
        return cls(limit, rules.gin_bonus, rules.undercut_bonus, rules.undercut_on_tie, multiplier)

    def knock(self, knocker_dw: int, defender_dw: int) -> tuple[int, int]:
        """``(knocker's points, defender's points)`` once the defender has laid off (the
        engine's :func:`~ginrummy.engine.masks.knock_score`)."""
        winner, points = knock_score(
            knocker_dw,
            defender_dw,
            self.gin_bonus,
            self.undercut_bonus,
            self.undercut_on_tie,
            self.multiplier,
        )
        return (points, 0) if winner == KNOCKER else (0, points)


def _run_extensions(defender: int, meld: int) -> list[int]:
    """Each mask of defender cards that can be laid off onto the run ``meld`` (0 included)."""
    low = (meld & -meld).bit_length() - 1
    rank, suit = low % 13, low // 13
    n = meld.bit_count()
    base = suit * 13
    down = [0]
    r = rank - 1
    acc = 0
    while r >= 0 and defender >> (base + r) & 1:
        acc |= 1 << (base + r)
        down.append(acc)
        r -= 1
    up = [0]
    r = rank + n
    acc = 0
    while r < 13 and defender >> (base + r) & 1:
        acc |= 1 << (base + r)
        up.append(acc)
        r += 1
    if len(down) == 1:
        return up
    if len(up) == 1:
        return down
    return [d | u for d in down for u in up]


def layoff_options(defender: int, melds: Sequence[Meld]) -> list[list[int]]:
    """Per knocker meld, the masks of defender cards it could take (0 first)."""
    options: list[list[int]] = []
    for meld in melds:
        if meld.kind == "set":
            if meld.mask.bit_count() == 3:
                low = (meld.mask & -meld.mask).bit_length() - 1
                fourth = RANK_MASKS[low % 13] & ~meld.mask & defender
                options.append([0, fourth] if fourth else [0])
            else:
                options.append([0])
        else:
            options.append(_run_extensions(defender, meld.mask))
    return options


def layoff_deadwood(defender: int, melds: Sequence[Meld]) -> int:
    """The defender's least deadwood after laying off onto ``melds`` (the engine's ``auto``)."""
    options = [opts for opts in layoff_options(defender, melds) if len(opts) > 1]
    if not options:
        return deadwood_mask(defender)
    best = deadwood_mask(defender)
    if len(options) == 1:
        for used in options[0][1:]:
            v = deadwood_mask(defender & ~used)
            if v < best:
                best = v
        return best
    for combo in product(*options):
        used = 0
        ok = True
        for m in combo:
            if used & m:
                ok = False
                break
            used |= m
        if ok and used:
            v = deadwood_mask(defender & ~used)
            if v < best:
                best = v
    return best


def knock_melds(hand: int) -> tuple[Meld, ...]:
    """A minimum-deadwood arrangement's melds (the rollout's knock).

    Without three cards of a rank there are only runs, and the solver's cached run covers of
    each suit give them directly; otherwise the solver's first best arrangement.
    """
    a = hand & SUIT_MASK
    b = (hand >> 13) & SUIT_MASK
    c = (hand >> 26) & SUIT_MASK
    d = hand >> 39
    if (a & b & (c | d)) | (c & d & (a | b)):
        return best_arrangements(hand)[0].melds
    melds: list[Meld] = []
    for suit, p in enumerate((a, b, c, d)):
        if p:
            melds.extend(run_melds(best_covers(p)[0], suit))
    return tuple(melds)


def resolve_knock(
    knocker: int, defender: int, melds: Sequence[Meld] | None, scoring: Scoring
) -> tuple[int, int]:
    """Points ``(knocker, defender)`` when the knocker (mask after his discard) lays down."""
    k = deadwood_mask(knocker)
    if k == 0:
        return scoring.knock(0, deadwood_mask(defender))
    if melds is None:
        melds = _knocks.get(knocker)
        if melds is None:
            if len(_knocks) >= _CACHE_SIZE:
                _knocks.clear()
            melds = _knocks[knocker] = knock_melds(knocker)
    return scoring.knock(k, layoff_deadwood(defender, melds))


@dataclass(frozen=True, slots=True)
class KnockRule:
    """When a seat knocks in a rollout: with deadwood at most ``most`` (and the hand's knock
    limit), in one of its first ``turns`` turns of the hand (the turn it is in counted); gin
    always; and at the first chance once the stock holds at most ``late`` cards above the
    floor (-1: never), rather than let the hand die. Outside them it discards as before and
    plays on."""

    most: int = 99
    turns: int = 99
    late: int = -1

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Explicit, as the engine's melds: a compiled build's frozen classes refuse the
        # field-by-field restore that pickle and copy would otherwise use.
        return (KnockRule, (self.most, self.turns, self.late))

    def allows(self, deadwood: int, turn: int, left: int = 99) -> bool:
        """Whether to knock with ``deadwood`` in turn ``turn``, ``left`` stock cards above
        the floor."""
        return deadwood == 0 or (deadwood <= self.most and turn <= self.turns) or left <= self.late


#: Knock at the first chance: the rollout's rule unless told otherwise.
FIRST_CHANCE: Final = KnockRule()


#: The phase of a simulated hand: its own type, so that it cannot be mixed up with the
#: engine's :class:`~ginrummy.engine.hand.Phase` (a rollout has no wall and no layoffs).
RolloutPhase = NewType("RolloutPhase", int)
#: ``turn`` takes the first upcard or passes.
TO_TAKE_OR_PASS: Final = RolloutPhase(0)
#: ``turn`` takes the pile's top card or draws from the stock.
TO_DRAW: Final = RolloutPhase(1)
#: ``turn`` holds the card just drawn or taken, and discards (knocking if it can).
TO_DISCARD: Final = RolloutPhase(2)


@dataclass(slots=True)
class Rollout:
    """Where a candidate move leaves the simulated hand, whatever the world: :func:`play_out`
    takes the opponent's cards and the stock from the world, the rest from here. Seat 0 is the
    searching player; cards are indices and masks (:mod:`ginrummy.engine.masks`)."""

    #: The searching player's cards.
    mine: int
    #: The discard pile, bottom first.
    pile: Sequence[int]
    #: The seat to move, and what it does.
    turn: int
    phase: RolloutPhase
    #: How many of the world's stock cards are gone already: ``stock[pos]`` is drawn next.
    pos: int = 0
    #: The card ``turn`` took from the pile this turn, which it may not discard (-1: none).
    taken: int = -1
    #: How many seats passed on the first upcard; after both did, ``turn`` (the non-dealer)
    #: draws from the stock without the pile's card on offer.
    passes: int = 0
    #: How many turns each seat (0: the searching player) has begun this hand, the current
    #: one included: a turn begins with a take or a draw (for :class:`KnockRule`).
    turns: tuple[int, int] = (0, 0)


def play_out(
    start: Rollout,
    opp: int,
    stock: Sequence[int],
    scoring: Scoring,
    outs: float = 0.0,
    max_plies: int = 200,
    mine: KnockRule = FIRST_CHANCE,
    his: KnockRule = FIRST_CHANCE,
    danger: Sequence[float] = (),
    shun: float = 0.0,
    his_any: bool = False,
) -> tuple[int, int]:
    """Play a simulated hand from ``start`` to its end in the world where the opponent holds
    ``opp`` and the stock is ``stock`` (in draw order), with the heuristic for both seats (see
    the module docstring for what that leaves out). ``start`` is left as it was, so one start
    serves every world.

    Returns the points ``(seat 0, seat 1)``. Both seats discard the card leaving the least
    deadwood, except that with ``outs`` seat 0 (the searching player) also values live cards
    that would still join a meld, and with ``shun`` it avoids throwing cards by their
    ``danger`` (per card, the chance the opponent can meld it, as read at the search's start).
    ``mine`` and ``his`` say when seat 0 and seat 1 knock. With ``his_any`` seat 1 takes a
    pile card that goes into any meld with his cards (as ``simple`` and the players modelled
    on it do), not only into one of his best arrangement.
    """
    points = play_out_plans(
        start, opp, stock, scoring, outs, max_plies, (mine,), his, danger, shun, his_any
    )
    return points[0]


def play_out_plans(
    start: Rollout,
    opp: int,
    stock: Sequence[int],
    scoring: Scoring,
    outs: float = 0.0,
    max_plies: int = 200,
    plans: Sequence[KnockRule] = (FIRST_CHANCE,),
    his: KnockRule = FIRST_CHANCE,
    danger: Sequence[float] = (),
    shun: float = 0.0,
    his_any: bool = False,
    parted: list[tuple[int, int]] | None = None,
) -> list[tuple[int, int]]:
    """:func:`play_out` once for each of seat 0's knocking ``plans`` (its ``mine``), in one
    pass: the plans play the same hand until one of them knocks, and the others play on from
    there, so the points of each plan are exactly what :func:`play_out` gives it, at the cost
    of the longest of them rather than their sum.

    With ``parted``, where the plans first part (some knock, the others play on) seat 0's
    deadwood then and the turns it has begun are appended to it: what seat 0 knows of its own
    hand when it chooses between them. Nothing is appended when they never part."""
    results = [(0, 0)] * len(plans)
    # The plans still playing (by index): the hand is the same for all of them.
    playing = list(range(len(plans)))
    hands = [start.mine, opp]
    pos = start.pos
    pile = list(start.pile)
    turn = start.turn
    phase = start.phase
    taken = start.taken
    passes = start.passes
    limit = scoring.limit
    turns = [start.turns[0], start.turns[1]]
    end = len(stock)
    gone = 0
    for card in pile:
        gone |= 1 << card
    # Each seat's deadwood, known after its discard (-1: not yet computed).
    dws = [-1, -1]
    for _ in range(max_plies):
        h = hands[turn]
        if phase == TO_TAKE_OR_PASS:
            top = pile[-1]
            if his_any and turn == 1:
                take = meld_outs(h) >> top & 1 == 1
            else:
                take = takes_into_meld(h, top)
            if take:
                h |= 1 << top
                pile.pop()
                taken = top
                phase = TO_DISCARD
                turns[turn] += 1
            else:
                passes += 1
                turn = 1 - turn
                if passes == 2:
                    phase = TO_DRAW
                continue
        elif phase == TO_DRAW:
            top = pile[-1] if pile and passes != 2 else -1
            passes = 0
            turns[turn] += 1
            if top >= 0 and his_any and turn == 1:
                take = meld_outs(h) >> top & 1 == 1
            elif top >= 0:
                before = dws[turn]
                if before < 0:
                    before = _deadwood(h)
                take = _deadwood(h | 1 << top) < before + VALUES[top]
            else:
                take = False
            if take:
                h |= 1 << top
                pile.pop()
                taken = top
            else:
                if end - pos <= STOCK_FLOOR:
                    return results
                h |= 1 << stock[pos]
                pos += 1
                taken = -1
        # TO_DISCARD
        if turn == 0 and (outs or shun):
            live = FULL_DECK_MASK & ~(h | gone)
            card, dw = rollout_discard(h, taken, live, outs, limit, danger, shun)
        else:
            card, dw = _least_discard(h, taken)
        if card < 0:
            return results
        h &= ~(1 << card)
        if dw <= limit:
            left = end - pos - STOCK_FLOOR
            if turn == 1:
                if his.allows(dw, turns[1], left):
                    pts = resolve_knock(h, hands[0], None, scoring)
                    for k in playing:
                        results[k] = (pts[1], pts[0])
                    return results
            else:
                knocking = [k for k in playing if plans[k].allows(dw, turns[0], left)]
                if knocking:
                    pts = resolve_knock(h, hands[1], None, scoring)
                    for k in knocking:
                        results[k] = (pts[0], pts[1])
                    if len(knocking) == len(playing):
                        return results
                    if parted is not None and len(playing) == len(plans):
                        parted.append((dw, turns[0]))
                    playing = [k for k in playing if k not in knocking]
        hands[turn] = h
        dws[turn] = dw
        pile.append(card)
        gone |= 1 << card
        if end - pos <= STOCK_FLOOR:
            return results
        turn = 1 - turn
        phase = TO_DRAW
        taken = -1
    return results
