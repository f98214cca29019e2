"""One hand as a state machine: the deal, the first upcard, draws, discards, knocks, layoffs,
the wall, and the result.

The hand's state is one immutable value (:class:`~ginrummy.engine.phases.HandState`), so the
state before an action is kept for :meth:`Hand.undo` by reference, :meth:`Hand.copy` shares it,
and an action that raises leaves the hand exactly as it was. What each phase allows and does is
in :mod:`.phases`; a :class:`Hand` dispatches to it and keeps the events and the undo history.
"""

from __future__ import annotations

import json
import random
import warnings
from dataclasses import dataclass
from typing import Any

from .actions import Action, Event, to_action
from .cards import DECK, Card, Cards, CardsLike, parse_cards, to_cards
from .errors import GinRummyError, IllegalActionError, InvalidNotationError, check_seat
from .masks import FULL_DECK_MASK
from .melds import Arrangement, Meld, deadwood_mask, discard_deadwoods_mask
from .phases import PHASES, HandState, Phase
from .results import HandResult
from .rules import Rules
from .scoring import Column
from .serial import json_object
from .views import PlayerView, PublicView, public_view, view_of

_OVER = Phase.OVER  # read on every action: a plain name is faster than the enum's attribute


class Hand:
    """One deal from the shuffle to the result.

    >>> from ginrummy import Hand, Rules
    >>> hand = Hand.deal(Rules(), dealer=0, seed=7)
    >>> hand.current_player, hand.phase.value
    (1, 'first_upcard')
    >>> hand.apply("pass").action
    Action('pass')

    What the deal fixes is held in plain attributes (``rules``, ``dealer``, ``deck``, ``upcard``,
    ``knock_limit``, ``multiplier``); everything that changes is the one :attr:`state`.
    """

    __slots__ = (
        "_cache",
        "_history",
        "_order",
        "_state",
        "dealer",
        "deck",
        "events",
        "knock_limit",
        "multiplier",
        "rules",
        "upcard",
    )

    def __init__(self, rules: Rules, dealer: int, deck: CardsLike) -> None:
        cards = to_cards(deck)
        if len(cards) != 52:
            raise InvalidNotationError(f"a deck has 52 cards, not {len(cards)}")
        dealer = check_seat(dealer, "the dealer")  # a plain int, even from numpy
        self.rules = rules
        self.dealer = dealer
        self.deck: Cards = cards
        #: The deck as a plain tuple, for speed (the draw reads it).
        self._order: tuple[Card, ...] = tuple(cards)
        non_dealer = 1 - dealer
        hands = [0, 0]
        for i in range(20):
            hands[non_dealer if i % 2 == 0 else dealer] |= cards[i].bit
        if rules.deal == "eleven":
            hands[non_dealer] |= cards[20].bit
            self.upcard: Card | None = None
            pile: tuple[Card, ...] = ()
            phase = Phase.DISCARD
        else:
            self.upcard = cards[20]
            pile = (cards[20],)
            phase = Phase.FIRST_UPCARD
        self.knock_limit = rules.knock_limit_for(self.upcard)
        self.multiplier = rules.hand_multiplier(self.upcard)
        self._state = HandState(
            hands=(hands[0], hands[1]),
            stock_pos=21,
            pile=pile,
            phase=phase,
            turn=non_dealer,
            passes=0,
            taken=None,
            known=(0, 0),
            knocker=None,
            knock_card=None,
            knock_arrangement=None,
            melds=(),
            layoffs=(),
            wall_take=False,
            result=None,
        )
        #: The state before each action applied so far (what undo goes back to).
        self._history: list[HandState] = []
        self.events: list[Event] = []
        #: The discard table of the last hand mask asked about (legal actions and checks of the
        #: same turn share it).
        self._cache: tuple[int, dict[int, int]] | None = None

    # -- construction --------------------------------------------------------------------

    @classmethod
    def deal(cls, rules: Rules, dealer: int, seed: int | str | random.Random | None) -> Hand:
        """Shuffle with ``seed`` (an int, or a ``random.Random`` to draw from) and deal."""
        rng = seed if isinstance(seed, random.Random) else random.Random(seed)
        deck = list(DECK)
        rng.shuffle(deck)
        return cls(rules, dealer, Cards._trusted(tuple(deck), FULL_DECK_MASK))

    @classmethod
    def from_deck(cls, rules: Rules, dealer: int, deck: CardsLike) -> Hand:
        """Deal a given deck, top card first."""
        return cls(rules, dealer, deck)

    def copy(self) -> Hand:
        """An independent copy: it shares the state and the deal (all immutable), and has
        its own events and undo history."""
        other = object.__new__(Hand)
        other.rules = self.rules
        other.dealer = self.dealer
        other.deck = self.deck
        other._order = self._order
        other.upcard = self.upcard
        other.knock_limit = self.knock_limit
        other.multiplier = self.multiplier
        other._cache = self._cache
        other._state = self._state
        other._history = list(self._history)
        other.events = list(self.events)
        return other

    # -- state ----------------------------------------------------------------------------

    @property
    def state(self) -> HandState:
        """Everything that has changed since the deal, as one immutable value."""
        return self._state

    @property
    def phase(self) -> Phase:
        return self._state.phase

    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the hand is over."""
        s = self._state
        return None if s.phase is _OVER else s.turn

    @property
    def is_over(self) -> bool:
        return self._state.phase is _OVER

    @property
    def result(self) -> HandResult | None:
        return self._state.result

    def cards(self, seat: int) -> Cards:
        """The cards ``seat`` holds, in card order."""
        return Cards.from_mask(self._state.hands[check_seat(seat)])

    def hand_mask(self, seat: int) -> int:
        """The cards ``seat`` holds, as a card mask."""
        return self._state.hands[check_seat(seat)]

    @property
    def stock(self) -> Cards:
        """The stock, top card first."""
        return Cards(self.deck[self._state.stock_pos :])

    @property
    def stock_count(self) -> int:
        return 52 - self._state.stock_pos

    @property
    def discard_pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first."""
        return self._state.pile

    @property
    def known_cards(self) -> tuple[int, int]:
        """Per seat, the mask of cards it took from the pile and still holds (public)."""
        return self._state.known

    @property
    def knocker(self) -> int | None:
        return self._state.knocker

    @property
    def knock_arrangement(self) -> Arrangement | None:
        return self._state.knock_arrangement

    @property
    def knock_card(self) -> Card | None:
        return self._state.knock_card

    @property
    def table_melds(self) -> tuple[Meld, ...]:
        """The knocker's melds as extended by the layoffs so far."""
        return self._state.melds

    @property
    def layoffs(self) -> tuple[tuple[Card, Meld], ...]:
        return self._state.layoffs

    @property
    def taken_card(self) -> Card | None:
        """The card taken from the pile this turn, which may not be discarded this turn."""
        return self._state.taken

    @property
    def action_texts(self) -> list[str]:
        """The canonical text of every action applied so far (``record().actions`` has them
        as :class:`Action` values)."""
        return [str(e.action) for e in self.events]

    @property
    def actions(self) -> list[str]:
        """Deprecated: the older name of :attr:`action_texts` (it read like
        ``record().actions``, which holds Action values), kept for code written before."""
        warnings.warn(
            "Hand.actions is deprecated: use Hand.action_texts", DeprecationWarning, stacklevel=2
        )
        return self.action_texts

    # -- legal actions ----------------------------------------------------------------------

    def _discard_table(self, mask: int) -> dict[int, int]:
        """For the hand ``mask``: each card's index and the least deadwood after discarding it
        (kept for the last mask asked about)."""
        cache = self._cache
        if cache is not None and cache[0] == mask:
            return cache[1]
        table = discard_deadwoods_mask(mask)
        self._cache = (mask, table)
        return table

    def legal_actions(self) -> list[Action]:
        """The current player's legal actions (knocks in their default arrangement)."""
        s = self._state
        return PHASES[s.phase].legal(self, s)

    # -- checking ---------------------------------------------------------------------------

    def is_legal(self, action: Action | str, seat: int | None = None) -> bool:
        """Whether ``action`` is legal now (for ``seat``, when given). A ``seat`` that is not 0
        or 1 is a mistake in the call, not an illegal move: it raises InvalidArgumentError."""
        try:
            self.check(action, seat)
        except (IllegalActionError, InvalidNotationError):
            return False
        return True

    def check(self, action: Action | str, seat: int | None = None) -> Action:
        """Raise :class:`IllegalActionError` saying why ``action`` is not legal now.

        ``seat``, when given, is who is trying to act (for out-of-turn moves).
        Returns the parsed action.
        """
        a = to_action(action)
        self._check(self._state, a, seat)
        return a

    def _check(self, s: HandState, a: Action, seat: int | None) -> Arrangement | None:
        rules = PHASES[s.phase]
        if (
            seat is not None
            and check_seat(seat, "the acting player") != s.turn
            and s.phase is not _OVER  # once it is over, that is what a late move is told
        ):
            raise IllegalActionError(f"it is not your turn: seat {s.turn} is to {rules.verb}")
        return rules.check(self, s, a)

    # -- applying ----------------------------------------------------------------------------

    def apply(self, action: Action | str, seat: int | None = None) -> Event:
        """Apply a legal action (or its text); return the event, also appended to ``events``.

        ``seat``, when given, is who is acting: another seat's turn raises. Raises
        :class:`IllegalActionError` (or :class:`InvalidNotationError` for bad text) and
        changes nothing when the action is not legal.
        """
        a = action if isinstance(action, Action) else Action.parse(action)
        s = self._state
        phase = PHASES[s.phase]
        # Without a seat there is no turn to check: the phase's own check is all (the
        # environments apply every action so, one call fewer an action).
        arrangement = phase.check(self, s, a) if seat is None else self._check(s, a, seat)
        state, event = phase.apply[a.kind](self, s, a, arrangement, len(self.events) + 1)
        self._history.append(s)
        self._state = state
        self.events.append(event)
        return event

    def undo(self) -> Event:
        """Take back the last action; returns its event."""
        if not self._history:
            raise IllegalActionError("nothing to undo")
        self._state = self._history.pop()
        return self.events.pop()

    # -- views and records ---------------------------------------------------------------

    def view(
        self,
        seat: int,
        scores: tuple[int, int] = (0, 0),
        *,
        history: bool = True,
        columns: tuple[Column, ...] = (),
        match_points: tuple[int, int] | None = None,
    ) -> PlayerView:
        """What ``seat`` knows: never the opponent's hidden cards or the stock order.

        ``scores`` is the game score to carry in the view, for players that weigh it, and
        ``columns`` the game's score columns (:attr:`Game.columns`; what a player needs to
        weigh a hand under Hollywood scoring, where ``scores`` sums three games), and in a
        match ``match_points``, the match points before this game (:attr:`Match.totals`).
        ``history=False`` leaves the events out (an empty ``history``): for a caller that
        has them already, or sends them apart.
        """
        return view_of(
            self, seat, scores, history=history, columns=columns, match_points=match_points
        )

    def public_view(self) -> PublicView:
        """What someone who holds no seat may see: public cards and counts only."""
        return public_view(self)

    def record(self) -> HandRecord:
        """The hand's record: rules, dealer, deck and actions; it replays exactly."""
        return HandRecord.of(self)

    def __repr__(self) -> str:
        return (
            f"<Hand dealer={self.dealer} phase={self.phase.value} "
            f"turn={self.current_player} stock={self.stock_count}>"
        )

    def __str__(self) -> str:
        lines = [repr(self)]
        for seat in (0, 1):
            lines.append(
                f"seat {seat}: {self.cards(seat)}  ({deadwood_mask(self._state.hands[seat])})"
            )
        lines.append(f"pile: {' '.join(map(str, self._state.pile)) or '-'}")
        return "\n".join(lines)


# -- records -------------------------------------------------------------------------------------
# A hand and its record build each other (Hand.record, HandRecord.replay), so they live
# together: the one-line form is described in :mod:`.records`.

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


__all__ = ["TEXT_TAG", "Hand", "HandRecord", "HandState", "Phase"]
