"""The fixed discrete action space: every engine action a policy can choose, as one id.

Ids 2, 3 and 6-109 mean what they mean in RLCard's gin-rummy environment (draw, take the
discard, discard a card, knock with a card), so a policy's output layer reads the same there::

    0        pass          (the first upcard, or at the wall)
    1        done          (the defender lays off no more cards)
    2        draw          (from the stock)
    3        take          (the top card of the discard pile)
    4        auto          (the defender lays off the best set of cards and is done)
    5        biggin        (all eleven cards melded, when the rules allow big gin)
    6-57     discard <card>
    58-109   knock <card>  (discarding <card>; the melds are the engine's minimum-deadwood choice)
    110-161  gin <card>
    162-213  layoff <card>

A card's offset is its engine index, ``suit * 13 + rank`` with the suits spades, hearts,
diamonds, clubs and the ranks ace to king (As = 0, Ks = 12, Ah = 13, ..., Kc = 51), which is also
RLCard's card id. A knock that names its own melds (``knock Kh As2s3s ...``) has no id: the
space holds the default arrangement only, which is what a fixed-size policy output can name.

OpenSpiel's numbering, the one ``python_ginrummy`` (:mod:`.openspiel_game`) speaks, is the
same actions in another order, 213 ids, with OpenSpiel's card ids (suits spades, clubs,
diamonds, hearts) and its meaning of 0-54 (:func:`to_openspiel`, :func:`from_openspiel`)::

    0-51     discard <card>   (OpenSpiel's card id)
    52       take
    53       draw
    54       pass, and done   (OpenSpiel ends the defender's layoffs with its pass)
    55       biggin
    56-107   knock <card>
    108-159  gin <card>
    160-211  layoff <card>
    212      auto
"""

from __future__ import annotations

from typing import Final

from ..engine import DECK, Action, ActionKind
from .openspiel import CARD_IDS, DRAW_STOCK, DRAW_UPCARD, PASS_ACTION

PASS: Final = 0
DONE: Final = 1
DRAW: Final = 2
TAKE: Final = 3
AUTO: Final = 4
BIG_GIN: Final = 5
DISCARD: Final = 6
KNOCK: Final = DISCARD + 52
GIN: Final = KNOCK + 52
LAYOFF: Final = GIN + 52
#: The number of action ids.
NUM_ACTIONS: Final = LAYOFF + 52

_SIMPLE: Final = {
    ActionKind.PASS: PASS,
    ActionKind.DONE: DONE,
    ActionKind.DRAW: DRAW,
    ActionKind.TAKE: TAKE,
    ActionKind.AUTO: AUTO,
    ActionKind.BIG_GIN: BIG_GIN,
}
_WITH_CARD: Final = {
    ActionKind.DISCARD: DISCARD,
    ActionKind.KNOCK: KNOCK,
    ActionKind.GIN: GIN,
    ActionKind.LAYOFF: LAYOFF,
}


def _table() -> tuple[Action, ...]:
    names = {v: k for k, v in _SIMPLE.items()}
    actions = [Action(names[i]) for i in range(DISCARD)]
    for kind in _WITH_CARD:
        actions += [Action(kind, card) for card in DECK]
    return tuple(Action.parse(str(a)) for a in actions)


#: ``ACTIONS[i]`` is the engine action of id ``i`` (the engine's own instance of it).
ACTIONS: Final = _table()
#: The ids of the engine's action instances (kept alive by ``ACTIONS``, so an ``id()`` is never
#: reused), so mapping a legal action list costs one dict lookup an action; :func:`action_id`
#: falls back to the action's kind and card for any other instance.
_BY_IDENTITY: Final = {id(a): i for i, a in enumerate(ACTIONS)}


def action_id(action: Action) -> int:
    """The id of an engine action. Raises ``ValueError`` for a knock that names its melds."""
    found = _BY_IDENTITY.get(id(action))
    if found is not None:
        return found
    if action.melds is not None:
        raise ValueError(f"'{action}' names its melds: only the default arrangement has an id")
    if action.kind in _SIMPLE:
        return _SIMPLE[action.kind]
    card = action.card
    assert card is not None, f"{action.kind} needs a card"
    return _WITH_CARD[action.kind] + card.index


def to_action(action_id: int) -> Action:
    """The engine action of an id; raises ``ValueError`` for an id outside the space."""
    if not 0 <= action_id < NUM_ACTIONS:
        raise ValueError(f"action id {action_id} is outside 0..{NUM_ACTIONS - 1}")
    return ACTIONS[action_id]


def action_name(action_id: int) -> str:
    """The canonical text of an id's action (``discard Kh``)."""
    return str(to_action(action_id))


#: ``_BY_IDENTITY``'s lookup, bound once rather than at every call of :func:`ids_of`.
_ID_OF_IDENTITY: Final = _BY_IDENTITY.__getitem__


def ids_of(actions: list[Action]) -> list[int]:
    """The ids of legal actions, in the order given."""
    try:  # the engine's own instances: two C-level maps, no Python loop
        return list(map(_ID_OF_IDENTITY, map(id, actions)))
    except KeyError:
        return [action_id(action) for action in actions]


# -- OpenSpiel's numbering -------------------------------------------------------------------

#: The number of OpenSpiel's ids (``python_ginrummy``'s ``num_distinct_actions``).
OPENSPIEL_NUM_ACTIONS: Final = 213
_OPENSPIEL_SIMPLE: Final = {
    PASS: PASS_ACTION,
    DONE: PASS_ACTION,
    DRAW: DRAW_STOCK,
    TAKE: DRAW_UPCARD,
    AUTO: 212,
    BIG_GIN: 55,
}
#: OpenSpiel's first id of each card action (the card's OpenSpiel id is added to it).
_OPENSPIEL_WITH_CARD: Final = {DISCARD: 0, KNOCK: 56, GIN: 108, LAYOFF: 160}


def _to_openspiel_table() -> tuple[int, ...]:
    table = [_OPENSPIEL_SIMPLE[i] for i in range(DISCARD)]
    for base, openspiel_base in _OPENSPIEL_WITH_CARD.items():
        table += [openspiel_base + CARD_IDS[card.index] for card in DECK]
        assert len(table) == base + 52
    return tuple(table)


#: ``TO_OPENSPIEL[i]`` is OpenSpiel's id of the environments' id ``i``.
TO_OPENSPIEL: Final = _to_openspiel_table()
#: ``FROM_OPENSPIEL[j]`` is the environments' id of OpenSpiel's id ``j`` (54 is ``pass``).
FROM_OPENSPIEL: Final = tuple(TO_OPENSPIEL.index(j) for j in range(OPENSPIEL_NUM_ACTIONS))


def to_openspiel(action_id: int) -> int:
    """OpenSpiel's id (``python_ginrummy``'s) of the environments' id ``action_id``. Both
    ``pass`` and ``done`` become OpenSpiel's pass, 54."""
    if not 0 <= action_id < NUM_ACTIONS:
        raise ValueError(f"action id {action_id} is outside 0..{NUM_ACTIONS - 1}")
    return TO_OPENSPIEL[action_id]


def from_openspiel(openspiel_id: int, *, laying_off: bool = False) -> int:
    """The environments' id of OpenSpiel's id ``openspiel_id``. OpenSpiel's pass, 54, is
    ``done`` while the defender is laying off (``laying_off``) and ``pass`` otherwise."""
    if not 0 <= openspiel_id < OPENSPIEL_NUM_ACTIONS:
        raise ValueError(
            f"OpenSpiel action id {openspiel_id} is outside 0..{OPENSPIEL_NUM_ACTIONS - 1}"
        )
    if laying_off and openspiel_id == PASS_ACTION:
        return DONE
    return FROM_OPENSPIEL[openspiel_id]


__all__ = [
    "ACTIONS",
    "AUTO",
    "BIG_GIN",
    "DISCARD",
    "DONE",
    "DRAW",
    "FROM_OPENSPIEL",
    "GIN",
    "KNOCK",
    "LAYOFF",
    "NUM_ACTIONS",
    "OPENSPIEL_NUM_ACTIONS",
    "PASS",
    "TAKE",
    "TO_OPENSPIEL",
    "action_id",
    "action_name",
    "from_openspiel",
    "ids_of",
    "to_action",
    "to_openspiel",
]
