"""The action ids of ``python_ginrummy`` (:mod:`.openspiel_game`), also used by the self-play data.

Ids 0-54 mean what they mean in OpenSpiel's ``gin_rummy`` (a card by OpenSpiel's card id, take
the upcard, draw from the stock, pass), so a policy head trained there reads the same here; the
rest name what our rules do in one action::

    0-51     discard <card>       (OpenSpiel card id: suits spades, clubs, diamonds, hearts)
    52       take                 (the upcard, the top of the pile, or at the wall to knock)
    53       draw                 (from the stock)
    54       pass / done          (the first upcard or the wall; the defender's layoffs end)
    55       biggin
    56-107   knock <card>         (the engine's least-deadwood melds)
    108-159  gin <card>
    160-211  layoff <card>
    212      auto                 (the defender's best layoffs, then done)

A knock naming its own melds has no id: a fixed-size policy output names the default only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from ..engine import Action, ActionKind
from .openspiel import CARD_IDS

DISCARD: Final = 0
TAKE: Final = 52
DRAW: Final = 53
PASS: Final = 54
BIG_GIN: Final = 55
KNOCK: Final = 56
GIN: Final = KNOCK + 52
LAYOFF: Final = GIN + 52
AUTO: Final = LAYOFF + 52
#: The number of action ids.
NUM_ACTIONS: Final = AUTO + 1

_SIMPLE: Final = {
    ActionKind.TAKE: TAKE,
    ActionKind.DRAW: DRAW,
    ActionKind.PASS: PASS,
    ActionKind.DONE: PASS,
    ActionKind.BIG_GIN: BIG_GIN,
    ActionKind.AUTO: AUTO,
}
_WITH_CARD: Final = {
    ActionKind.DISCARD: DISCARD,
    ActionKind.KNOCK: KNOCK,
    ActionKind.GIN: GIN,
    ActionKind.LAYOFF: LAYOFF,
}


def action_id(action: Action) -> int:
    """The id of ``action``; ``ValueError`` for a knock or gin that names its own melds."""
    if action.melds is not None:
        raise ValueError(f"'{action}' names its melds: only the default arrangement has an id")
    base = _WITH_CARD.get(action.kind)
    if base is not None:
        assert action.card is not None
        return base + CARD_IDS[action.card.index]
    return _SIMPLE[action.kind]


def legal_ids(legal: Iterable[Action]) -> dict[int, Action]:
    """The legal actions by id, ids ascending (OpenSpiel lists legal actions sorted)."""
    return dict(sorted((action_id(a), a) for a in legal))


def action_of(action_id: int, legal: Sequence[Action]) -> Action:
    """The legal action with ``action_id``; ``ValueError`` when none has it."""
    for action in legal:
        if _id_or_none(action) == action_id:
            return action
    raise ValueError(f"action id {action_id} is not legal now")


def action_mask(
    legal: Iterable[Action], out: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.bool_]:
    """A boolean mask over the :data:`NUM_ACTIONS` ids, true for the legal ones."""
    mask = np.zeros(NUM_ACTIONS, np.bool_) if out is None else out
    if out is not None:
        mask.fill(False)
    for action in legal:
        mask[action_id(action)] = True
    return mask


def _id_or_none(action: Action) -> int | None:
    try:
        return action_id(action)
    except ValueError:
        return None
