"""Sparring partners written from published descriptions, so that strength is never tuned
against one style of play: ``gin-hunter`` and ``camper``.

``gin-hunter`` plays as MARJJ, the EAAI-2021 challenge's winner, is described (Goldstein et al.,
EAAI-21; Ahmed et al.): it knocks only in its first three turns and otherwise holds out for
gin; when it knocks it lays down, among its least-deadwood arrangements, the one that leaves
the opponent the fewest cards to lay off; and it discards away from the cards the opponent
visibly collects (the cards he took from the pile, their ranks and their suits' neighbours),
paying up to :attr:`GinHunterAgent.danger` deadwood points to do so, and towards the cards like
those he threw away. Its draws are ``simple``'s: the upcard only when it makes a meld.

``camper`` is ``simple`` that never knocks above 5 deadwood: it plays on for a low knock or
gin, and so is undercut less and gins more.

Neither is a copy of another program: each is what its description says, on top of
``simple``'s draws and ``simple``'s rule against repeating a draw/discard pair.
"""

from __future__ import annotations

import random

from ..engine import Action, ActionKind, PlayerView
from ..engine.actions import KNOCKS
from ..engine.cards import DECK
from ..engine.masks import RANK_MASKS
from ..engine.melds import Arrangement, Meld, best_arrangements, discard_deadwoods_mask
from .basic import SimpleAgent, finish_turn, opponent_signals


def layoff_spots(melds: tuple[Meld, ...]) -> int:
    """The cards that could be laid off directly onto ``melds``: the fourth card of each set
    of three, and the card either end of each run."""
    spots = 0
    for meld in melds:
        low = (meld.mask & -meld.mask).bit_length() - 1
        if meld.kind == "set":
            spots |= RANK_MASKS[low % 13] & ~meld.mask
            continue
        high = meld.mask.bit_length() - 1
        if low % 13 > 0:
            spots |= 1 << (low - 1)
        if high % 13 < 12:
            spots |= 1 << (high + 1)
    return spots


def fewest_layoffs(view: PlayerView, rest: int) -> Arrangement:
    """Among the least-deadwood arrangements of ``rest`` (the ten cards after the discard), one
    that leaves the opponent the fewest cards to lay off: a spot counts when its card may be in
    his hand (unseen), twice when he is known to hold it. Ties go to the first arrangement."""
    unseen = view.unseen.mask
    held = view.opponent_known.mask

    def exposure(arrangement: Arrangement) -> int:
        spots = layoff_spots(arrangement.melds)
        return (spots & unseen).bit_count() + 2 * (spots & held).bit_count()

    return min(best_arrangements(rest), key=exposure)


def own_turns(view: PlayerView) -> int:
    """How many turns this seat has begun this hand (the current one included)."""
    return sum(
        1
        for e in view.history
        if e.seat == view.seat and e.action.kind in (ActionKind.DRAW, ActionKind.TAKE)
    )


class GinHunterAgent(SimpleAgent):
    """Knocks only in its first three turns, then plays for gin; knocks with the fewest
    layoffs; discards away from what the opponent collects (see the module docstring)."""

    name = "gin-hunter"
    #: The turns in which it may knock (later it only goes gin).
    knock_turns: int = 3
    #: Deadwood points a discard that fits the opponent's collected cards costs.
    danger: float = 3.0
    #: Deadwood points a discard like the opponent's own discards or refusals is favoured by.
    safety: float = 0.5

    def choose_discard(self, view: PlayerView, rng: random.Random, table: dict[int, int]) -> int:
        cands = self.candidates(view, table)
        avoid, welcome = opponent_signals(view)
        if table[min(cands, key=table.__getitem__)] == 0:
            return super().choose_discard(view, rng, table)  # gin: nothing else matters

        def cost(i: int) -> float:
            bit = 1 << i
            return (
                table[i]
                + (self.danger if avoid & bit else 0.0)
                - (self.safety if welcome & bit else 0.0)
            )

        least = min(cost(i) for i in cands)
        return rng.choice(sorted(i for i in cands if cost(i) <= least + 1e-9))

    def may_knock(self, view: PlayerView, dw: int) -> bool:
        return own_turns(view) <= self.knock_turns

    def end_turn(self, view: PlayerView, rng: random.Random) -> Action:
        table = discard_deadwoods_mask(view.hand.mask)
        index = self.choose_discard(view, rng, table)
        dw = table[index]
        knock = 0 < dw <= view.knock_limit and self.may_knock(view, dw)
        if knock and KNOCKS[index] in view.legal_actions:
            card = DECK[index]
            melds = fewest_layoffs(view, view.hand.mask & ~card.bit).melds
            return Action(ActionKind.KNOCK, card, melds)
        return finish_turn(view, index, dw, rng, knock=False)


class CamperAgent(SimpleAgent):
    """``simple`` that never knocks above 5 deadwood (it plays on for a low knock or gin)."""

    name = "camper"
    #: The most deadwood it knocks with.
    most: int = 5

    def may_knock(self, view: PlayerView, dw: int) -> bool:
        return dw <= self.most
