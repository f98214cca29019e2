"""The perfect-recall information-state encoding (``encoding="infostate"``).

OpenSpiel's gin_rummy has no information-state tensor, only an observation of the present.
This one holds everything the seat has seen in the hand, in order, so two different histories
never encode alike::

    [0, 696)             the default encoding of the present (scores included)
    [696, 748)           the cards this seat was dealt
    [748, 800)           the first upcard (none in the eleven-card deal)
    then max_hand_actions rows of 64, one per action of the hand, in order (zero rows after):
      0, 1               who acted: this seat, the opponent
      2 .. 11            the action's kind, one-hot, in ActionKind order:
                         pass take draw discard knock gin biggin layoff done auto
      12 .. 63           the card it showed: the card discarded, knocked or ginned with, laid
                         off or taken from the pile, the card this seat drew from the stock
                         (never the opponent's), every card an ``auto`` laid off; the
                         opponent's knock card only once the hand is over (it is face down)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import numpy as np

from ..engine import ActionKind, Event
from .encodings import DEFAULT_SIZE, Array, DefaultEncoder, Encoder
from .knowledge import Knowledge

if TYPE_CHECKING:
    from .options import EnvOptions

ROW: Final = 64
_KINDS: Final = {kind: 2 + i for i, kind in enumerate(ActionKind)}
_DEALT: Final = DEFAULT_SIZE
_UPCARD: Final = DEFAULT_SIZE + 52
_ROWS: Final = DEFAULT_SIZE + 104


class InfostateEncoder(Encoder):
    """The present (the default encoding), the deal, and one row per action seen."""

    def __init__(self, options: EnvOptions) -> None:
        self._present = DefaultEncoder(options)
        self._capacity = options.max_hand_actions
        self.shape = (_ROWS + self._capacity * ROW,)
        self._history = np.zeros(self.shape, np.float32)
        self._rows = 0
        self._hidden_knock = -1  # the row of the opponent's knock while its card is face down

    def new_hand(self, knowledge: Knowledge) -> None:
        self._present.new_hand(knowledge)
        history = self._history
        history[:] = 0.0
        for card in _cards(knowledge.hand):
            history[_DEALT + card] = 1.0
        pile = knowledge.pile
        if pile:
            history[_UPCARD + pile[0].index] = 1.0
        self._rows = 0
        self._hidden_knock = -1

    def see(self, event: Event, knowledge: Knowledge) -> None:
        self._present.see(event, knowledge)
        if self._rows >= self._capacity:
            raise ValueError(f"the hand has more than {self._capacity} actions")
        start = _ROWS + self._rows * ROW
        history = self._history
        history[start + (0 if event.seat == knowledge.seat else 1)] = 1.0
        kind = event.action.kind
        history[start + _KINDS[kind]] = 1.0
        card = event.action.card if event.action.card is not None else event.card
        if card is not None:
            history[start + 12 + card.index] = 1.0
        elif kind is ActionKind.KNOCK:
            self._hidden_knock = start
        for laid in event.laid_off:
            history[start + 12 + laid.index] = 1.0
        self._rows += 1

    def encode(self, knowledge: Knowledge) -> Array:
        if self._hidden_knock >= 0:
            card = knowledge.knock_card
            if card is not None:
                self._history[self._hidden_knock + 12 + card.index] = 1.0
                self._hidden_knock = -1
        out = self._history.copy()
        out[:DEFAULT_SIZE] = self._present.encode(knowledge)
        return out


def _cards(mask: int) -> list[int]:
    return [i for i in range(52) if mask >> i & 1]
