"""How the opponent knocks: read from what he has shown in the hands of this game.

The rollouts of the search (:mod:`.search`) play his turns by a :class:`~.search.KnockRule`.
Players differ most in when they knock: ``simple`` knocks at the first chance, MARJJ (and
``gin-hunter``) only in its first three turns and then plays for gin, ``camper`` only with a
low deadwood. :class:`StyleModel` keeps the odds of a few such styles and moves them with two
kinds of evidence, both public:

* **he knocked** in his turn ``t`` with ``d`` deadwood (the knocker's deadwood is laid down):
  a style that would not knock there is unlikely;
* **he passed up a knock**: when a hand ends without his knock, his hand is shown, so the hand
  he held before his last discard is known (the shown cards, those he laid off and the card he
  threw); if some discard from it left ``d`` deadwood within the knock limit, he chose not to
  knock in his turn ``t``: a style that would have knocked there is unlikely.

Within a hand, before any card is shown, the turns he has played without knocking weigh the
styles too (:meth:`StyleModel.within`): most hands played for the least deadwood can knock by
the tenth turn, so a long hand without his knock speaks for a patient style.

A gin says nothing (every style goes gin). Each piece of evidence contradicting a style
multiplies its odds by ``slip`` (a player is not a rule), so no style is ever ruled out. Only
the seat's own view is read: the cards shown at the end of a hand and the public history.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from ..engine.actions import ActionKind
from ..engine.melds import discard_deadwoods_mask
from ..engine.results import ResultKind
from ..engine.views import PlayerView
from .search import FIRST_CHANCE, KnockRule
from .survival import survival


@dataclass(frozen=True, slots=True)
class Style:
    """One way of knocking, and how likely it is before anything is seen."""

    name: str
    rule: KnockRule
    prior: float


def default_styles(early: float = 0.05, low: float = 0.05) -> tuple[Style, ...]:
    """Knocking at the first chance, and the two patient styles with these prior odds:
    ``early`` (only in the first three turns, as MARJJ) and ``low`` (only at 5 or less)."""
    first = max(0.0, 1.0 - early - low)
    return (
        Style("first chance", FIRST_CHANCE, first),
        Style("early", KnockRule(turns=3), early),
        Style("low", KnockRule(most=5), low),
    )


@dataclass(frozen=True, slots=True)
class Evidence:
    """One of his knock decisions: in his turn ``turn``, with ``deadwood`` left, he knocked
    (``knocked``) or played on."""

    turn: int
    deadwood: int
    knocked: bool

    def to_list(self) -> list[int]:
        """As plain data: ``[turn, deadwood, knocked]`` (knocked as 0 or 1)."""
        return [self.turn, self.deadwood, int(self.knocked)]

    @classmethod
    def from_list(cls, data: Sequence[object]) -> Evidence:
        """From :meth:`to_list`'s form; raises ValueError for anything else."""
        if not isinstance(data, Sequence) or isinstance(data, str) or len(data) != 3:
            raise ValueError(f"evidence is [turn, deadwood, knocked], not {data!r}")
        turn, deadwood, knocked = data
        if knocked not in (0, 1):
            raise ValueError(f"evidence's knocked is 0 or 1, not {knocked!r}")
        return cls(_count(turn, data), _count(deadwood, data), bool(knocked))


def _count(x: object, data: object) -> int:
    """``x`` if it is a whole number, not negative (of the evidence ``data``)."""
    if not isinstance(x, int) or isinstance(x, bool) or x < 0:
        raise ValueError(f"evidence's turn and deadwood are whole numbers, not negative: {data!r}")
    return x


def turns_of(view: PlayerView, seat: int) -> int:
    """How many turns ``seat`` has begun this hand (a turn begins with a take or a draw)."""
    return sum(
        1
        for e in view.history
        if e.seat == seat and e.action.kind in (ActionKind.DRAW, ActionKind.TAKE)
    )


def evidence(view: PlayerView) -> Evidence | None:
    """What the finished hand of ``view`` shows about his knocking (None: nothing, or the hand
    is not over)."""
    result = view.result
    if result is None:
        return None
    him = 1 - view.seat
    turn = turns_of(view, him)
    if result.knocker == him:
        if result.kind in (ResultKind.KNOCK, ResultKind.UNDERCUT) and result.knocker_deadwood:
            return Evidence(turn, result.knocker_deadwood, True)
        return None  # a gin, or a tie scored as no undercut: nothing any style would not do
    shown = view.opponent_hand
    if shown is None or turn == 0:
        return None
    mine = [e for e in view.history if e.seat == him]
    last = next((e for e in reversed(mine) if e.action.kind is ActionKind.DISCARD), None)
    if last is None or last.card is None:
        return None
    # His cards after his last discard: those shown, and those he laid off on our knock.
    held = shown.mask
    for card, _meld in view.layoffs:
        held |= card.bit
    before = held | last.card.bit
    took = next(
        (e for e in reversed(mine) if e.action.kind in (ActionKind.DRAW, ActionKind.TAKE)),
        None,
    )
    taken = -1
    if took is not None and took.action.kind is ActionKind.TAKE and took.card is not None:
        taken = took.card.index
    table = discard_deadwoods_mask(before)
    options = [dw for card, dw in table.items() if card != taken]
    least = min(options) if options else 99
    if 0 < least <= view.knock_limit:
        return Evidence(turn, least, False)
    return None


class StyleModel:
    """The odds of each style, moved by the evidence of the hands seen so far."""

    def __init__(self, styles: Sequence[Style] | None = None, slip: float = 0.05) -> None:
        self.styles = tuple(styles) if styles is not None else default_styles()
        self.slip = slip
        self.weights = [s.prior for s in self.styles]
        self.seen: list[Evidence] = []

    def update(self, ev: Evidence) -> None:
        """Weigh each style by how well it explains ``ev``."""
        self.seen.append(ev)
        for i, style in enumerate(self.styles):
            would = style.rule.allows(ev.deadwood, ev.turn)
            self.weights[i] *= 1.0 - self.slip if would == ev.knocked else self.slip

    def posterior(self) -> list[float]:
        total = sum(self.weights)
        if total <= 0:
            return [1.0 / len(self.weights)] * len(self.weights)
        return [w / total for w in self.weights]

    def within(self, turn: int, limit: int) -> list[float]:
        """The odds of each style within a hand in which he has played ``turn`` turns without
        knocking (knock limit ``limit``): each weighed by the chance that a player of that
        style would not have knocked yet (:func:`.survival.survival`)."""
        return [
            w * survival(min(style.rule.most, limit), style.rule.turns, turn)
            for style, w in zip(self.styles, self.weights, strict=True)
        ]

    def sample(self, rng: random.Random, weights: Sequence[float] | None = None) -> KnockRule:
        """One style's rule, drawn with its odds (or with ``weights``, one a style)."""
        odds = self.weights if weights is None else weights
        x = rng.random() * sum(odds)
        for style, w in zip(self.styles, odds, strict=True):
            x -= w
            if x < 0:
                return style.rule
        return self.styles[-1].rule

    def likeliest(self) -> Style:
        return self.styles[max(range(len(self.styles)), key=self.weights.__getitem__)]


__all__ = ["Evidence", "Style", "StyleModel", "default_styles", "evidence", "turns_of"]
