"""What one seat knows, read live from the hand: the only input the encodings get.

A :class:`Knowledge` answers each question from the hand's public properties when asked, so it
costs nothing to keep one per seat for the whole hand, and an encoding that reads three fields
pays for three. It exposes exactly what :meth:`~ginrummy.engine.Hand.view` would show the seat
(its :meth:`Knowledge.view` builds that view), with one difference the rules ask for: the
knocker discards face down (RULES.md), so the defender is not told the knock card until the
hand is over, as the web app does. (The view itself, for encodings built on it, is the
engine's, knock card included.)
"""

from __future__ import annotations

from typing import Final, Protocol

from ..engine import Action, ActionKind, Card, Event, Hand, HandResult, Phase, PlayerView, Rules
from ..engine.scoring import Column

FULL: Final = (1 << 52) - 1
_OVER: Final = Phase.OVER
#: The kinds of event the other seat sees otherwise than the actor (:func:`visible`).
PARTLY_HIDDEN: Final = frozenset({ActionKind.DRAW, ActionKind.KNOCK})
#: The knock a defender sees before the hand is over: the action without its card.
HIDDEN_KNOCK: Final = Action(ActionKind.KNOCK)


class Scores(Protocol):
    """Where a seat's knowledge reads the score (the episode's game or match)."""

    @property
    def game_scores(self) -> tuple[int, int]: ...

    @property
    def match_scores(self) -> tuple[int, int]: ...

    @property
    def game_columns(self) -> tuple[Column, ...]: ...

    @property
    def match_points(self) -> tuple[int, int] | None: ...


class NoScores:
    """The score of an episode that is one hand (none), for knowledge outside a session."""

    game_scores: Final = (0, 0)
    match_scores: Final = (0, 0)
    game_columns: Final[tuple[Column, ...]] = ()
    match_points: Final = None


class Knowledge:
    """One seat's knowledge of the hand being played (and of the score), read on demand.

    Card sets are 52-bit masks (bit ``card.index``), as in the engine.
    """

    __slots__ = ("_hand", "_scores", "rules", "seat")

    def __init__(self, hand: Hand, seat: int, scores: Scores) -> None:
        self._hand = hand
        self._scores = scores
        self.seat = seat
        self.rules: Rules = hand.rules

    # -- the deal and the turn -------------------------------------------------------------

    @property
    def dealer(self) -> int:
        return self._hand.dealer

    @property
    def phase(self) -> Phase:
        return self._hand.phase

    @property
    def turn(self) -> int | None:
        """The seat to act (None once the hand is over)."""
        return self._hand.current_player

    def turn_state(self) -> tuple[Phase, bool, Card | None]:
        """:attr:`phase`, whether this seat is to act, and :attr:`taken`, read at once (the
        encodings ask for them at every observation)."""
        state = self._hand.state
        mine = state.turn == self.seat and state.phase is not _OVER
        return state.phase, mine, state.taken if mine else None

    @property
    def over(self) -> bool:
        return self._hand.is_over

    @property
    def result(self) -> HandResult | None:
        return self._hand.result

    @property
    def knock_limit(self) -> int:
        return self._hand.knock_limit

    @property
    def multiplier(self) -> int:
        return self._hand.multiplier

    # -- cards -----------------------------------------------------------------------------

    @property
    def hand(self) -> int:
        """This seat's cards."""
        return self._hand.hand_mask(self.seat)

    @property
    def opponent_known(self) -> int:
        """The opponent's cards this seat knows: those it took from the pile and still holds,
        and its whole hand once the hand is over."""
        other = 1 - self.seat
        if self._hand.is_over:
            return self._hand.hand_mask(other)
        return self._hand.known_cards[other]

    @property
    def opponent_count(self) -> int:
        return self._hand.hand_mask(1 - self.seat).bit_count()

    @property
    def pile(self) -> tuple[Card, ...]:
        """The discard pile, bottom first."""
        return self._hand.discard_pile

    @property
    def stock_count(self) -> int:
        return self._hand.stock_count

    @property
    def taken(self) -> Card | None:
        """The card this seat took from the pile this turn (it may not discard it now)."""
        hand = self._hand
        return hand.taken_card if hand.current_player == self.seat else None

    @property
    def knocker(self) -> int | None:
        return self._hand.knocker

    @property
    def knock_card(self) -> Card | None:
        """The knocker's discard: known to the knocker, and to the defender once it is over."""
        hand = self._hand
        if hand.knocker == self.seat or hand.is_over:
            return hand.knock_card
        return None

    @property
    def table(self) -> int:
        """The knocker's melds on the table, with the cards laid off on them."""
        mask = 0
        for meld in self._hand.table_melds:
            mask |= meld.mask
        return mask

    @property
    def knocker_deadwood(self) -> int:
        arrangement = self._hand.knock_arrangement
        return 0 if arrangement is None else arrangement.deadwood_mask

    @property
    def laid_off(self) -> int:
        mask = 0
        for card, _ in self._hand.layoffs:
            mask |= card.bit
        return mask

    # -- the score -------------------------------------------------------------------------

    @property
    def scores(self) -> tuple[int, int]:
        """The game's running totals, this seat's first (0 when one hand is the episode)."""
        first, second = self._scores.game_scores
        return (first, second) if self.seat == 0 else (second, first)

    @property
    def match_scores(self) -> tuple[int, int]:
        """The match points, this seat's first (0 unless the episode is a match)."""
        first, second = self._scores.match_scores
        return (first, second) if self.seat == 0 else (second, first)

    def view(self) -> PlayerView:
        """The engine's view of the hand for this seat, with the game score (its columns, and
        in a match the match points, as the session's opponents are given them).

        It is the engine's own view, for encodings that are functions of one (OpenSpiel's
        tensor): unlike the other fields here it names the knock card to the defender, as the
        engine's view and OpenSpiel do (OpenSpiel lays it on the pile)."""
        scores = self._scores
        return self._hand.view(
            self.seat,
            scores.game_scores,
            columns=scores.game_columns,
            match_points=scores.match_points,
        )


def visible(event: Event, seat: int, over: bool) -> Event:
    """``event`` as ``seat`` sees it: the other seat's stock draw without its card, and the
    other seat's knock without its face-down discard until the hand is over."""
    if event.seat == seat:
        return event
    kind = event.action.kind
    if kind is ActionKind.DRAW:
        return event.public(seat)
    if kind is ActionKind.KNOCK and not over:
        return Event(event.number, event.seat, HIDDEN_KNOCK, None, event.laid_off)
    return event


__all__ = ["FULL", "HIDDEN_KNOCK", "PARTLY_HIDDEN", "Knowledge", "NoScores", "Scores", "visible"]
