"""Hand records: (rules, dealer, deck, actions), as JSON and as one line of text, and replay.

The one-line form is ``GR1 <rules> <dealer> <deck> | <action>, <action>, ...`` where ``<rules>``
is a preset name or ``custom:`` followed by compact JSON, and ``<deck>`` is the 52 cards top
first written without spaces (104 characters).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .actions import Action, Event
from .cards import Cards, parse_cards
from .errors import GinRummyError, InvalidNotationError, check_seat
from .hand import Hand
from .rules import Rules
from .serial import json_object

TEXT_TAG = "GR1"


@dataclass(frozen=True)
class HandRecord:
    """Everything needed to replay a hand exactly."""

    rules: Rules
    dealer: int
    deck: Cards
    actions: tuple[Action, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dealer", check_seat(self.dealer, "the dealer"))

    @classmethod
    def of(cls, hand: Hand) -> HandRecord:
        return cls(hand.rules, hand.dealer, hand.deck, tuple(e.action for e in hand.events))

    def replay(self) -> Hand:
        """A new hand with every action applied again (raises if one is illegal)."""
        hand = Hand.from_deck(self.rules, self.dealer, self.deck)
        for number, action in enumerate(self.actions, 1):
            try:
                hand.apply(action)
            except ValueError as exc:
                raise InvalidNotationError(
                    f"action {number} ({action}) cannot be replayed: {exc}"
                ) from None
        return hand

    def events(self) -> list[Event]:
        return self.replay().events

    # -- JSON ------------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "deck": str(self.deck),
            "actions": [str(a) for a in self.actions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> HandRecord:
        try:
            return cls(
                Rules.from_dict(data["rules"]),
                _dealer(data["dealer"]),
                _deck(data["deck"]),
                tuple(Action.parse(a) for a in data["actions"]),
            )
        except GinRummyError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidNotationError(f"bad hand record: {exc!r}") from None

    def to_json(self) -> str:
        return json.dumps(self.to_dict())

    @classmethod
    def from_json(cls, text: str) -> HandRecord:
        return cls.from_dict(json_object(text, "hand record"))

    # -- one line of text --------------------------------------------------------------------

    def to_text(self) -> str:
        name = self.rules.preset_name()
        rules = (
            name if name else "custom:" + json.dumps(self.rules.to_dict(), separators=(",", ":"))
        )
        deck = "".join(str(c) for c in self.deck)
        actions = ", ".join(str(a) for a in self.actions)
        return f"{TEXT_TAG} {rules} {self.dealer} {deck} | {actions}"

    @classmethod
    def from_text(cls, text: str) -> HandRecord:
        head, bar, tail = text.strip().partition("|")
        words = head.split()
        if not bar or len(words) != 4 or words[0] != TEXT_TAG:
            raise InvalidNotationError(
                f"a hand record line reads '{TEXT_TAG} <rules> <dealer> <deck> | <actions>'"
            )
        _, rules_text, dealer, deck = words
        if rules_text.startswith("custom:"):
            try:
                rules = Rules.from_dict(json.loads(rules_text[len("custom:") :]))
            except json.JSONDecodeError as exc:
                raise InvalidNotationError(f"bad rules in hand record: {exc}") from None
        else:
            rules = Rules.preset(rules_text)
        actions = tuple(Action.parse(a) for a in tail.split(",") if a.strip())
        return cls(rules, _dealer(dealer), _deck(deck), actions)


def _dealer(value: object) -> int:
    """The dealer from a record: a seat, or its digit in the one-line form."""
    if isinstance(value, str) and value in ("0", "1"):
        return int(value)
    return check_seat(value, "the dealer")


def _deck(text: str) -> Cards:
    deck = parse_cards(text)
    if len(deck) != 52:
        raise InvalidNotationError(f"a deck has 52 cards, not {len(deck)}")
    return deck
