"""Actions, their canonical text, and the events that applying them produces."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple

from .cards import DECK, Card, _parse_token
from .errors import InvalidNotationError
from .melds import Meld


class ActionKind(StrEnum):
    """What an action does. The value is its first word in the canonical text, which records
    keep, so it never changes: one word each, hence ``biggin`` for big gin (identifiers say
    ``big_gin``, a result's kind is ``big_gin`` and prose says "big gin")."""

    PASS = "pass"
    TAKE = "take"
    DRAW = "draw"
    DISCARD = "discard"
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "biggin"
    LAYOFF = "layoff"
    DONE = "done"
    AUTO = "auto"


_WITH_CARD: Final = frozenset(
    {ActionKind.DISCARD, ActionKind.KNOCK, ActionKind.GIN, ActionKind.LAYOFF}
)
_WITH_MELDS: Final = frozenset({ActionKind.KNOCK, ActionKind.GIN, ActionKind.BIG_GIN})


@dataclass(frozen=True, slots=True)
class Action:
    """One move. ``str(action)`` is its canonical text and :meth:`parse` reads it back.

    ``melds`` is the arrangement a knocker names (``knock Kh As2s3s 7h7d7c``); ``None`` means
    the default minimum-deadwood arrangement.
    """

    kind: ActionKind
    card: Card | None = None
    melds: tuple[Meld, ...] | None = None

    def __str__(self) -> str:
        text = self.kind.value
        if self.card is not None:
            text += f" {self.card}"
        if self.melds:
            text += " " + " ".join(str(m) for m in self.melds)
        return text

    def __repr__(self) -> str:
        return f"Action('{self}')"

    @staticmethod
    def parse(text: str) -> Action:
        """Read an action's canonical text (case-insensitive, extra spaces allowed)."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"an action must be text, not {type(text).__name__}")
        words = text.split()
        if not words:
            raise InvalidNotationError("empty action")
        try:
            kind = ActionKind(words[0].lower())
        except ValueError:
            names = ", ".join(k.value for k in ActionKind)
            raise InvalidNotationError(
                f"unknown action {words[0]!r}; actions are: {names}"
            ) from None
        rest = words[1:]
        card = None
        if kind in _WITH_CARD:
            if not rest:
                raise InvalidNotationError(f"{kind.value!r} needs a card, e.g. '{kind.value} Kh'")
            card = _parse_token(rest[0], 2)
            rest = rest[1:]
        melds: tuple[Meld, ...] | None = None
        if rest:
            if kind not in _WITH_MELDS:
                raise InvalidNotationError(
                    f"unexpected text after {kind.value!r}: {' '.join(rest)}"
                )
            melds = tuple(Meld.parse(word) for word in rest)
        if card is not None and melds is None:
            return CARD_ACTIONS[kind][card.index]
        if melds is None and kind in SIMPLE_ACTIONS:
            return SIMPLE_ACTIONS[kind]
        return Action(kind, card, melds)


SIMPLE_ACTIONS: Final = {
    k: Action(k)
    for k in (
        ActionKind.PASS,
        ActionKind.TAKE,
        ActionKind.DRAW,
        ActionKind.BIG_GIN,
        ActionKind.DONE,
        ActionKind.AUTO,
    )
}
CARD_ACTIONS: Final = {k: tuple(Action(k, c) for c in DECK) for k in _WITH_CARD}
PASS: Final = SIMPLE_ACTIONS[ActionKind.PASS]
TAKE: Final = SIMPLE_ACTIONS[ActionKind.TAKE]
DRAW: Final = SIMPLE_ACTIONS[ActionKind.DRAW]
BIG_GIN: Final = SIMPLE_ACTIONS[ActionKind.BIG_GIN]
DONE: Final = SIMPLE_ACTIONS[ActionKind.DONE]
AUTO: Final = SIMPLE_ACTIONS[ActionKind.AUTO]
DISCARDS: Final = CARD_ACTIONS[ActionKind.DISCARD]
KNOCKS: Final = CARD_ACTIONS[ActionKind.KNOCK]
GINS: Final = CARD_ACTIONS[ActionKind.GIN]
LAYOFFS: Final = CARD_ACTIONS[ActionKind.LAYOFF]
#: A knock as those who may not see the knocker's discard are told of it (it is no action
#: anyone can apply: a knock names its discard).
FACE_DOWN_KNOCK: Final = Action(ActionKind.KNOCK)
_DRAW_KIND: Final = ActionKind.DRAW  # read on every event of every view: a plain name is faster
_KNOCK_KIND: Final = ActionKind.KNOCK


def discard(card: Card | str) -> Action:
    """``discard <card>`` (the shared instance), from a card or its text."""
    return DISCARDS[_card(card).index]


def knock(card: Card | str, melds: tuple[Meld, ...] | None = None) -> Action:
    """``knock <card>``, laying down ``melds`` when given (else the default arrangement)."""
    return (
        KNOCKS[_card(card).index] if melds is None else Action(ActionKind.KNOCK, _card(card), melds)
    )


def gin(card: Card | str) -> Action:
    return GINS[_card(card).index]


def lay_off(card: Card | str) -> Action:
    return LAYOFFS[_card(card).index]


def _card(card: Card | str) -> Card:
    return card if isinstance(card, Card) else Card.parse(card)


def to_action(action: Action | str) -> Action:
    return action if isinstance(action, Action) else Action.parse(action)


class Event(NamedTuple):
    """What happened when an action was applied (immutable).

    ``card`` is the card that moved: the card drawn from the stock (seen only by ``seat``), the
    card taken from the pile, or the card discarded. ``auto`` lists the cards it laid off in
    ``laid_off``.
    """

    number: int
    seat: int
    action: Action
    card: Card | None = None
    laid_off: tuple[Card, ...] = ()

    def public(self, viewer: int | None, *, face_down_knock: bool = False) -> Event:
        """The event as ``viewer`` (None: a spectator) sees it: another player's stock draw
        hides its card. With ``face_down_knock`` (while the hand is on) another player's knock
        hides its discard too, laid face down: the action reads ``knock`` alone."""
        if viewer != self.seat:
            kind = self.action.kind
            if kind is _DRAW_KIND:
                return Event(self.number, self.seat, self.action, None, self.laid_off)
            if face_down_knock and kind is _KNOCK_KIND:
                return Event(self.number, self.seat, FACE_DOWN_KNOCK, None, self.laid_off)
        return self

    def __str__(self) -> str:
        extra = f" ({self.card})" if self.card is not None and self.action.card is None else ""
        return f"{self.number}. seat {self.seat}: {self.action}{extra}"
