"""The basic computer players: ``random``, ``simple``, ``greedy``, ``beginner`` and a provisional
``intermediate``.

``simple`` is the standard research baseline (the EAAI gin rummy challenge's simple player):

* Draw: take the face-up card if and only if it lies in some meld of the hand plus that card,
  otherwise draw from the stock. The first upcard is taken or passed by the same rule.
* Discard: among the 11 cards, leaving out a face-up card just taken and every card ``c`` such
  that the pair {drawn card, ``c``} was already drawn and discarded this hand, discard a card
  leaving the least deadwood (uniformly at random among ties). The pairs are read back from
  the view's history, which holds this seat's own draws, so the agent needs no memory.
* Knock as soon as the deadwood after that discard is within the knock limit (it never waits
  for gin), laying down a minimum-deadwood arrangement chosen at random.
* Defending, lay off optimally (``auto``).

``greedy`` takes the face-up card when it gives an immediate knock or is melded in a best
arrangement of the 11 cards, goes (big) gin or knocks whenever it may, and otherwise discards the
highest-value deadwood card of the best arrangement after the draw (never the card just taken).

``beginner`` plays like ``simple`` but discards a random card now and then and knocks late;
``intermediate`` looks one draw ahead, keeps away from the cards the opponent collects, takes
the upcard for near-melds and weighs the undercut before knocking.

Every agent uses the engine's meld solver for deadwood and arrangements.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from ..engine import Action, ActionKind, Card, Phase, PlayerView
from ..engine.actions import AUTO, DISCARDS, DRAW, GINS, KNOCKS, PASS, TAKE
from ..engine.cards import DECK
from ..engine.masks import RANK_MASKS, bits
from ..engine.melds import (
    best_arrangements,
    deadwood_mask,
    discard_deadwoods_mask,
    meld_kind,
    min_discard_deadwood_mask,
)
from .base import BaseAgent

# ---------------------------------------------------------------------------------------------
# What every agent needs to read from a view


def in_some_meld(hand_mask: int, card: Card) -> bool:
    """Whether ``card`` lies in some meld (a set or a run of three) of the hand plus the card."""
    mask = hand_mask | card.bit
    if meld_kind(mask & RANK_MASKS[card.rank]) == "set":
        return True
    base = 13 * card.suit
    for low in range(max(0, card.rank - 2), min(card.rank, 10) + 1):
        run = 0b111 << (base + low)
        if mask & run == run and meld_kind(run) == "run":
            return True
    return False


def drawn_card(view: PlayerView) -> Card | None:
    """The card this seat drew or took on the current turn, if the turn began with a draw."""
    if not view.history:
        return None
    last = view.history[-1]
    if last.seat == view.seat and last.action.kind in (ActionKind.DRAW, ActionKind.TAKE):
        return last.card
    return None


def used_pairs(view: PlayerView) -> set[int]:
    """The {drawn card, discarded card} pairs (as card masks) of this seat's turns this hand."""
    pairs: set[int] = set()
    drawn: Card | None = None
    for event in view.history:
        if event.seat != view.seat:
            continue
        kind = event.action.kind
        if kind in (ActionKind.DRAW, ActionKind.TAKE):
            drawn = event.card
        elif kind is ActionKind.DISCARD:
            if drawn is not None and event.card is not None:
                pairs.add(drawn.bit | event.card.bit)
            drawn = None
    return pairs


def finish_turn(view: PlayerView, index: int, dw: int, rng: random.Random, knock: bool) -> Action:
    """End the turn by putting down card ``index`` (leaving ``dw`` deadwood): gin when that is
    gin, a knock with a random minimum-deadwood arrangement when ``knock`` and within the limit,
    otherwise a discard. Falls back on :func:`best_legal` when that action is not legal."""
    legal = view.legal_actions
    if dw == 0 and GINS[index] in legal:
        return GINS[index]
    if knock and 0 < dw <= view.knock_limit and KNOCKS[index] in legal:
        arrangements = best_arrangements(view.hand.mask & ~DECK[index].bit)
        if len(arrangements) == 1:
            return KNOCKS[index]
        return Action(ActionKind.KNOCK, DECK[index], rng.choice(arrangements).melds)
    action = DISCARDS[index]
    return action if action in legal else best_legal(view)


def best_legal(view: PlayerView) -> Action:
    """The legal action that ends the turn best by deadwood alone: big gin, gin, the lowest
    knock, the discard leaving the least deadwood (for rules such as ``must_gin`` or a card
    taken at the wall, which leave only some endings legal)."""
    legal = view.legal_actions
    table = discard_deadwoods_mask(view.hand.mask)

    def rank(action: Action) -> tuple[int, int]:
        order = {ActionKind.BIG_GIN: 0, ActionKind.GIN: 1, ActionKind.KNOCK: 2}
        card = action.card
        return order.get(action.kind, 3), table.get(card.index, 99) if card else 0

    return min(legal, key=rank)


def require_turn(view: PlayerView) -> tuple[Action, ...]:
    legal = view.legal_actions
    if not legal:
        raise ValueError(f"seat {view.seat} has nothing to do in phase {view.phase.value!r}")
    return legal


# ---------------------------------------------------------------------------------------------
# random


class RandomAgent(BaseAgent):
    """Uniformly random over the legal actions (knocks and layoffs included)."""

    name = "random"

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        return rng.choice(require_turn(view))


# ---------------------------------------------------------------------------------------------
# the shape of a turn the rule-based players share


class TurnAgent(BaseAgent):
    """A player whose turn is two choices: whether to take the upcard (:meth:`wants_upcard`)
    and how to end the turn after a draw (:meth:`end_turn`); it takes at the wall whenever it
    may and lays off automatically."""

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        legal = require_turn(view)
        phase = view.phase
        if phase in (Phase.FIRST_UPCARD, Phase.DRAW):
            return TAKE if TAKE in legal and self.wants_upcard(view) else _no_take(legal)
        if phase == Phase.WALL:  # taking at the wall is legal only when it gives a knock
            return TAKE if TAKE in legal else PASS
        if phase == Phase.LAYOFF:
            return AUTO
        return self.end_turn(view, rng)

    def wants_upcard(self, view: PlayerView) -> bool:
        raise NotImplementedError

    def end_turn(self, view: PlayerView, rng: random.Random) -> Action:
        raise NotImplementedError


# ---------------------------------------------------------------------------------------------
# simple


class SimpleAgent(TurnAgent):
    """The research baseline described in the module docstring."""

    name = "simple"

    def wants_upcard(self, view: PlayerView) -> bool:
        top = view.top_discard
        return top is not None and in_some_meld(view.hand.mask, top)

    def candidates(self, view: PlayerView, table: dict[int, int]) -> list[int]:
        """The card indexes simple may discard: not the card just taken, no repeated pair."""
        taken = view.taken_card
        drawn = drawn_card(view)
        pairs = used_pairs(view) if drawn is not None else set()
        allowed = [
            i
            for i in table
            if (taken is None or i != taken.index)
            and (drawn is None or drawn.bit | 1 << i not in pairs)
        ]
        return allowed or [i for i in table if taken is None or i != taken.index]

    def choose_discard(self, view: PlayerView, rng: random.Random, table: dict[int, int]) -> int:
        cands = self.candidates(view, table)
        least = min(table[i] for i in cands)
        return rng.choice(sorted(i for i in cands if table[i] == least))

    def may_knock(self, view: PlayerView, dw: int) -> bool:
        return True

    def end_turn(self, view: PlayerView, rng: random.Random) -> Action:
        table = discard_deadwoods_mask(view.hand.mask)
        index = self.choose_discard(view, rng, table)
        dw = table[index]
        return finish_turn(view, index, dw, rng, knock=self.may_knock(view, dw))


def _no_take(legal: Iterable[Action]) -> Action:
    return DRAW if DRAW in legal else PASS


# ---------------------------------------------------------------------------------------------
# greedy


class GreedyAgent(TurnAgent):
    """Takes useful upcards, ends the hand as soon as it may, sheds its highest deadwood."""

    name = "greedy"

    def wants_upcard(self, view: PlayerView) -> bool:
        card = view.top_discard
        if card is None:
            return False
        mask = view.hand.mask | card.bit
        table = discard_deadwoods_mask(mask)
        if any(dw <= view.knock_limit for i, dw in table.items() if i != card.index):
            return True
        return any(not a.deadwood_mask & card.bit for a in best_arrangements(mask))

    def end_turn(self, view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        enders = [a for a in legal if a.kind in (ActionKind.BIG_GIN, ActionKind.GIN)]
        if enders:
            return min(enders, key=lambda a: a.kind is not ActionKind.BIG_GIN)
        mask = view.hand.mask
        knocks = [a for a in legal if a.kind is ActionKind.KNOCK]
        if knocks:
            table = discard_deadwoods_mask(mask)
            return min(knocks, key=lambda a: _card_key(table, a.card))
        taken = view.taken_card
        taken_bit = 0 if taken is None else taken.bit
        arrangements = best_arrangements(mask)
        best = next((a for a in arrangements if not a.deadwood_mask & taken_bit), arrangements[0])
        dead = [DECK[i] for i in bits(best.deadwood_mask & ~taken_bit)]
        if not dead:
            return best_legal(view)
        top = max(c.value for c in dead)
        card = rng.choice([c for c in dead if c.value == top])
        action = DISCARDS[card.index]
        return action if action in legal else best_legal(view)


def _card_key(table: dict[int, int], card: Card | None) -> tuple[int, int]:
    assert card is not None
    return table[card.index], -card.value


# ---------------------------------------------------------------------------------------------
# beginner


class BeginnerAgent(SimpleAgent):
    """``simple`` with slips: a random discard now and then (but it never misses gin), and slow
    to knock (it waits for half the knock limit, or for the wall to come near)."""

    name = "beginner"
    #: The chance of discarding a random card instead of the best one.
    slip: float = 0.1

    def choose_discard(self, view: PlayerView, rng: random.Random, table: dict[int, int]) -> int:
        best = super().choose_discard(view, rng, table)
        if table[best] > 0 and rng.random() < self.slip:  # gin is never missed
            return rng.choice(sorted(self.candidates(view, table)))
        return best

    def may_knock(self, view: PlayerView, dw: int) -> bool:
        return dw <= view.knock_limit // 2 or view.stock_count <= 6


# ---------------------------------------------------------------------------------------------
# intermediate (provisional)


class IntermediateAgent(TurnAgent):
    """One draw of lookahead and a little card reading on top of ``simple``:

    * A discard is scored by the expected deadwood after the next stock draw (over the unseen
      cards), favouring cards like those the opponent threw away or refused, and, between
      near-equal discards, avoiding cards that fit the cards he visibly collects.
    * The upcard is taken when it makes a meld, or when the deadwood after taking it beats the
      average deadwood of a stock draw by a margin (near-melds of low cards).
    * It knocks at once while the hand is young; later it asks for less deadwood the longer the
      opponent has played and the more he has taken, fearing the undercut, unless the wall
      is near.

    Against ``simple`` it wins about two games in three (``benchmarks/strength.md``).
    """

    name = "intermediate"
    #: How much a discard that fits the opponent's known cards costs, in deadwood points
    #: (small: a tie-breaker; larger penalties measured weaker).
    danger: float = 0.3
    #: How much a card like the opponent's own discards is favoured, in deadwood points.
    safety: float = 1.5
    #: How much lower than an average stock draw the deadwood after taking the upcard must be.
    take_margin: float = 2.0

    def wants_upcard(self, view: PlayerView) -> bool:
        card = view.top_discard
        if card is None:
            return False
        hand = view.hand.mask
        if in_some_meld(hand, card):
            return True
        table = discard_deadwoods_mask(hand | card.bit)
        after_take = min(dw for i, dw in table.items() if i != card.index)
        unseen = [c for c in view.unseen if c is not card]
        if not unseen:
            return False
        stock = sum(min_discard_deadwood_mask(hand | c.bit) for c in unseen) / len(unseen)
        return after_take <= stock - self.take_margin

    def end_turn(self, view: PlayerView, rng: random.Random) -> Action:
        mask = view.hand.mask
        table = discard_deadwoods_mask(mask)
        taken = view.taken_card
        cands = [i for i in table if taken is None or i != taken.index]
        least = min(table[i] for i in cands)
        # Gin, or a knock the hand can afford.
        if least == 0 or (least <= view.knock_limit and self.should_knock(view, least)):
            best = [i for i in cands if table[i] == least]
            return finish_turn(view, rng.choice(sorted(best)), least, rng, knock=True)
        unseen = [c.bit for c in view.unseen]
        avoid, welcome = opponent_signals(view)
        scores: dict[int, float] = {}
        for i in cands:
            if table[i] > least + 10:  # far worse now: not worth the lookahead
                continue
            scores[i] = self._lookahead(mask & ~(1 << i), unseen) + self._risk(i, avoid, welcome)
        low = min(scores.values())
        index = rng.choice(sorted(i for i, s in scores.items() if s <= low + 1e-9))
        return finish_turn(view, index, table[index], rng, knock=False)

    def should_knock(self, view: PlayerView, dw: int) -> bool:
        """Knock early; later only with little deadwood, as the opponent's count falls with
        every turn he has had and every card he took from the pile (undercut risk)."""
        if view.stock_count <= 4 or dw <= 2:
            return True
        turns = _opponent_turns(view)
        if turns <= 3:
            return True
        return dw <= view.knock_limit - (turns - 3) - len(view.opponent_known)

    @staticmethod
    def _lookahead(rest: int, unseen: list[int]) -> float:
        """Expected deadwood after drawing one unseen card and discarding the worst one."""
        if not unseen:
            return float(deadwood_mask(rest))
        total = sum(min_discard_deadwood_mask(rest | bit) for bit in unseen)
        return total / len(unseen)

    def _risk(self, index: int, avoid: int, welcome: int) -> float:
        bit = 1 << index
        risk = 0.0
        if avoid & bit:
            risk += self.danger
        if welcome & bit:
            risk -= self.safety
        return risk


def opponent_signals(view: PlayerView) -> tuple[int, int]:
    """Masks of cards that fit what the opponent collects, and of cards like those he
    discarded or refused."""
    avoid = 0
    for card in view.opponent_known:
        avoid |= _neighbours(card, 1)
    welcome = 0
    other = 1 - view.seat
    pile: list[Card] = [] if view.upcard is None else [view.upcard]
    for event in view.history:
        kind = event.action.kind
        if event.seat == other and kind is ActionKind.DISCARD and event.card is not None:
            welcome |= _neighbours(event.card)
        if event.seat == other and kind in (ActionKind.DRAW, ActionKind.PASS) and pile:
            welcome |= _neighbours(pile[-1])
        if kind is ActionKind.DISCARD and event.card is not None:
            pile.append(event.card)
        elif kind is ActionKind.TAKE and pile:
            pile.pop()
    return avoid, welcome & ~avoid


def _neighbours(card: Card, reach: int = 2) -> int:
    """The cards that could meld with ``card``: its rank, and its suit ``reach`` ranks either
    way."""
    mask = RANK_MASKS[card.rank]
    base = 13 * card.suit
    for rank in range(max(0, card.rank - reach), min(12, card.rank + reach) + 1):
        mask |= 1 << (base + rank)
    return mask & ~card.bit


def _opponent_turns(view: PlayerView) -> int:
    other = 1 - view.seat
    return sum(
        1
        for e in view.history
        if e.seat == other and e.action.kind in (ActionKind.DRAW, ActionKind.TAKE)
    )
