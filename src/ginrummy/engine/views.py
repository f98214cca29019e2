"""What each one at the table may know of a hand, as plain frozen dataclasses.

:class:`PlayerView` is exactly what one seat knows. A view can be built directly from its
fields, so another referee can drive our computer players, and it round-trips through JSON
(:meth:`PlayerView.to_dict` / :meth:`PlayerView.from_dict`). :class:`PublicView` is what someone
who holds no seat may see (a spectator): public cards and counts only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .actions import Action, Event
from .cards import Card, Cards, parse_cards
from .errors import GinRummyError, InvalidArgumentError, InvalidNotationError, check_int, check_seat
from .masks import FULL_DECK_MASK
from .melds import Meld
from .phases import Phase, parse_phase
from .results import HandResult
from .rules import Rules
from .scoring import Column
from .serial import event_from_dict, event_to_dict, result_from_dict, result_to_dict

if TYPE_CHECKING:
    from .hand import Hand


@dataclass(frozen=True)
class PlayerView:
    """One seat's knowledge of a hand.

    Public to both seats: the discard pile, the cards a player took from the pile and still
    holds, card counts, and after a knock the cards laid down. Never the opponent's other
    cards, never the stock order (until the showdown reveals the opponent's hand).
    """

    seat: int
    hand: Cards
    #: The phase (its text, "discard" and so on, is taken too and read into the enum).
    phase: Phase
    current_player: int | None
    dealer: int
    discard_pile: tuple[Card, ...] = ()
    opponent_known: Cards = field(default_factory=Cards)
    opponent_count: int = 10
    stock_count: int = 31
    knock_limit: int = 10
    multiplier: int = 1
    upcard: Card | None = None
    taken_card: Card | None = None
    legal_actions: tuple[Action, ...] = ()
    history: tuple[Event, ...] = ()
    knocker: int | None = None
    table_melds: tuple[Meld, ...] = ()
    knocker_deadwood: Cards = field(default_factory=Cards)
    layoffs: tuple[tuple[Card, Meld], ...] = ()
    opponent_hand: Cards | None = None
    result: HandResult | None = None
    rules: Rules = field(default_factory=Rules)
    scores: tuple[int, int] = (0, 0)
    #: The game's score columns (:class:`~.scoring.Column`), where the referee gives them:
    #: under Hollywood scoring ``scores`` sums three games, and only the columns say what a
    #: hand won now would count in each. Empty: ``scores`` is all that is known.
    columns: tuple[Column, ...] = ()
    #: Where the game is one of a match: the match points (seat 0's, seat 1's) the games
    #: before it have credited, so a player can weigh the game's net, which the match adds
    #: up. None: a game played on its own (or a referee that does not say).
    match_points: tuple[int, int] | None = None

    def __post_init__(self) -> None:
        if type(self.phase) is not Phase:  # a view built by another referee, from text
            object.__setattr__(self, "phase", parse_phase(self.phase))

    @property
    def is_my_turn(self) -> bool:
        return self.current_player == self.seat

    @property
    def top_discard(self) -> Card | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def unseen(self) -> Cards:
        """Cards this seat has not seen: the opponent's unknown cards and the stock."""
        seen = self.hand.mask | self.opponent_known.mask | self.knocker_deadwood.mask
        for card in self.discard_pile:
            seen |= card.bit
        for meld in self.table_melds:
            seen |= meld.mask
        if self.opponent_hand is not None:
            seen |= self.opponent_hand.mask
        return Cards.from_mask(FULL_DECK_MASK & ~seen)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": str(self.hand),
            "phase": self.phase.value,
            "current_player": self.current_player,
            "dealer": self.dealer,
            "discard_pile": " ".join(map(str, self.discard_pile)),
            "opponent_known": str(self.opponent_known),
            "opponent_count": self.opponent_count,
            "stock_count": self.stock_count,
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "upcard": None if self.upcard is None else str(self.upcard),
            "taken_card": None if self.taken_card is None else str(self.taken_card),
            "legal_actions": [str(a) for a in self.legal_actions],
            "history": [event_to_dict(e) for e in self.history],
            "knocker": self.knocker,
            "table_melds": [str(m) for m in self.table_melds],
            "knocker_deadwood": str(self.knocker_deadwood),
            "layoffs": [[str(c), str(m)] for c, m in self.layoffs],
            "opponent_hand": None if self.opponent_hand is None else str(self.opponent_hand),
            "result": None if self.result is None else result_to_dict(self.result),
            "rules": self.rules.to_dict(),
            "scores": list(self.scores),
            "columns": [c.to_dict() for c in self.columns],
            "match_points": None if self.match_points is None else list(self.match_points),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayerView:
        def cards(text: str) -> Cards:
            return parse_cards(text, allow_empty=True)

        def card(text: str | None) -> Card | None:
            return None if text is None else Card.parse(text)

        try:
            return cls(
                seat=check_seat(data["seat"], "the view's seat"),
                hand=cards(data["hand"]),
                phase=parse_phase(data["phase"]),
                current_player=_opt_seat(data["current_player"], "the player to act"),
                dealer=check_seat(data["dealer"], "the dealer"),
                discard_pile=tuple(cards(data["discard_pile"])),
                opponent_known=cards(data["opponent_known"]),
                opponent_count=int(data["opponent_count"]),
                stock_count=int(data["stock_count"]),
                knock_limit=int(data["knock_limit"]),
                multiplier=int(data["multiplier"]),
                upcard=card(data["upcard"]),
                taken_card=card(data["taken_card"]),
                legal_actions=tuple(Action.parse(a) for a in data["legal_actions"]),
                history=tuple(event_from_dict(e) for e in data["history"]),
                knocker=_opt_seat(data["knocker"], "the knocker"),
                table_melds=tuple(Meld.parse(m) for m in data["table_melds"]),
                knocker_deadwood=cards(data["knocker_deadwood"]),
                layoffs=tuple((Card.parse(c), Meld.parse(m)) for c, m in data["layoffs"]),
                opponent_hand=None
                if data["opponent_hand"] is None
                else cards(data["opponent_hand"]),
                result=None if data["result"] is None else result_from_dict(data["result"]),
                rules=Rules.from_dict(data["rules"]),
                scores=(int(data["scores"][0]), int(data["scores"][1])),
                columns=tuple(Column.from_dict(c) for c in data.get("columns", ())),
                match_points=_opt_points(data.get("match_points")),
            )
        except GinRummyError:
            raise
        except (KeyError, TypeError, IndexError, ValueError) as exc:
            raise InvalidNotationError(f"bad player view: {exc!r}") from None


def view_of(
    hand: Hand,
    seat: int,
    scores: tuple[int, int] = (0, 0),
    *,
    history: bool = True,
    columns: tuple[Column, ...] = (),
    match_points: tuple[int, int] | None = None,
) -> PlayerView:
    """Build ``seat``'s view of ``hand`` (without its events unless ``history``), carrying the
    game's ``scores``, its score ``columns`` (see :attr:`PlayerView.columns`) and, in a match,
    the ``match_points`` before the game."""
    seat = check_seat(seat, "the viewer")
    scores = _scores(scores)
    other = 1 - seat
    over = hand.is_over
    knock = hand.knock_arrangement
    turn = hand.current_player
    taken = hand.taken_card if turn == seat else None
    return PlayerView(
        seat=seat,
        hand=hand.cards(seat),
        phase=hand.phase,
        current_player=turn,
        dealer=hand.dealer,
        discard_pile=hand.discard_pile,
        opponent_known=Cards.from_mask(hand.known_cards[other]),
        opponent_count=hand.hand_mask(other).bit_count(),
        stock_count=hand.stock_count,
        knock_limit=hand.knock_limit,
        multiplier=hand.multiplier,
        upcard=hand.upcard,
        taken_card=taken,
        legal_actions=tuple(hand.legal_actions()) if turn == seat else (),
        history=tuple(e.public(seat) for e in hand.events) if history else (),
        knocker=hand.knocker,
        table_melds=hand.table_melds,
        knocker_deadwood=Cards() if knock is None else knock.deadwood_cards,
        layoffs=hand.layoffs,
        opponent_hand=hand.cards(other) if over else None,
        result=hand.result,
        rules=hand.rules,
        scores=scores,
        columns=tuple(columns),
        match_points=None if match_points is None else _opt_points(list(match_points)),
    )


@dataclass(frozen=True)
class PublicView:
    """What someone who holds no seat may see of a hand: the discard pile, the cards each
    player took from the pile and still holds, how many cards each holds, the stock's size,
    and after a knock the cards laid down and laid off; both hands once the hand is over.

    Never a card drawn from the stock, and never the knocker's discard while the hand is on:
    the rules lay it face down, so the history reads ``knock`` alone until the end.
    """

    phase: Phase
    current_player: int | None
    dealer: int
    discard_pile: tuple[Card, ...]
    #: Per seat, the cards it took from the pile and still holds.
    known: tuple[Cards, Cards]
    #: Per seat, how many cards it holds.
    counts: tuple[int, int]
    stock_count: int
    knock_limit: int
    multiplier: int
    upcard: Card | None
    history: tuple[Event, ...]
    knocker: int | None
    table_melds: tuple[Meld, ...]
    knocker_deadwood: Cards
    layoffs: tuple[tuple[Card, Meld], ...]
    #: Both hands, once the hand is over.
    hands: tuple[Cards, Cards] | None
    result: HandResult | None

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-safe data (``seat`` is None: the viewer holds none)."""
        return {
            "seat": None,
            "phase": self.phase.value,
            "current_player": self.current_player,
            "dealer": self.dealer,
            "discard_pile": " ".join(map(str, self.discard_pile)),
            "known": [str(cards) for cards in self.known],
            "counts": list(self.counts),
            "stock_count": self.stock_count,
            "knock_limit": self.knock_limit,
            "multiplier": self.multiplier,
            "upcard": None if self.upcard is None else str(self.upcard),
            "history": [event_to_dict(e) for e in self.history],
            "knocker": self.knocker,
            "table_melds": [str(m) for m in self.table_melds],
            "knocker_deadwood": str(self.knocker_deadwood),
            "layoffs": [[str(c), str(m)] for c, m in self.layoffs],
            "hands": None if self.hands is None else [str(cards) for cards in self.hands],
            "result": None if self.result is None else result_to_dict(self.result),
        }


def public_view(hand: Hand) -> PublicView:
    """What a spectator may see of ``hand``."""
    over = hand.is_over
    knock = hand.knock_arrangement
    known = hand.known_cards
    return PublicView(
        phase=hand.phase,
        current_player=hand.current_player,
        dealer=hand.dealer,
        discard_pile=hand.discard_pile,
        known=(Cards.from_mask(known[0]), Cards.from_mask(known[1])),
        counts=(hand.hand_mask(0).bit_count(), hand.hand_mask(1).bit_count()),
        stock_count=hand.stock_count,
        knock_limit=hand.knock_limit,
        multiplier=hand.multiplier,
        upcard=hand.upcard,
        history=tuple(e.public(None, face_down_knock=not over) for e in hand.events),
        knocker=hand.knocker,
        table_melds=hand.table_melds,
        knocker_deadwood=Cards() if knock is None else knock.deadwood_cards,
        layoffs=hand.layoffs,
        hands=(hand.cards(0), hand.cards(1)) if over else None,
        result=hand.result,
    )


def _scores(scores: tuple[int, int]) -> tuple[int, int]:
    """The game score a view carries: two whole numbers, as plain ints."""
    if not isinstance(scores, tuple | list) or len(scores) != 2:
        raise InvalidArgumentError(f"the scores are two numbers, one for each seat, not {scores!r}")
    return (check_int(scores[0], "seat 0's score"), check_int(scores[1], "seat 1's score"))


def _opt_points(points: object) -> tuple[int, int] | None:
    """The match points a view carries: None, or two whole numbers, each at least 0."""
    if points is None:
        return None
    if not isinstance(points, tuple | list) or len(points) != 2:
        raise InvalidArgumentError(
            f"the match points are two numbers, one for each seat, not {points!r}"
        )
    return (
        check_int(points[0], "seat 0's match points", low=0),
        check_int(points[1], "seat 1's match points", low=0),
    )


def _opt_seat(value: object, what: str) -> int | None:
    return None if value is None else check_seat(value, what)
