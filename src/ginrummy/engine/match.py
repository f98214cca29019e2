"""A match: games until a player's match points reach ``rules.match_target``.

Each game's net is credited to the player who wins it (see :class:`.scoring.GameFinal`); the
first player whose match points reach the target wins the match. Settle the stake either per
game or once for the match (``MatchFinal.settlement``), not both.

Decisions: game ``n`` is seeded with ``derived_seed(match seed, "game:<n>")``; the first game's
dealer is chosen as for any game, and each later game starts with the player who would have
dealt next in the game before (the dealing rule carries on across games).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from .errors import (
    GinRummyError,
    IllegalActionError,
    InvalidNotationError,
    InvalidRulesError,
    check_int,
)
from .game import Game, GameRecord, HandEntry, derived_seed
from .results import HandResult
from .rules import Rules
from .scoring import GameFinal, money
from .serial import json_object

if TYPE_CHECKING:
    from .hand import Hand
    from .sheet import MatchSheet

MATCH_FORMAT = "ginrummy-match"


@dataclass(frozen=True, slots=True)
class MatchFinal:
    """The end of a match: each game's final, the match points, the winner, net and money."""

    games: tuple[GameFinal, ...]
    totals: tuple[int, int]
    winner: int
    stake: Decimal

    @property
    def loser(self) -> int:
        return 1 - self.winner

    @property
    def net(self) -> int:
        return self.totals[self.winner] - self.totals[self.loser]

    @property
    def settlement(self) -> Decimal:
        return money(self.net * self.stake)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": [g.to_dict() for g in self.games],
            "totals": list(self.totals),
            "winner": self.winner,
            "net": self.net,
            "stake": str(self.stake),
            "settlement": str(self.settlement),
        }


class Match:
    """Games under one set of rules until ``rules.match_target``.

    A new game starts as soon as one ends (unless the match is over); :meth:`undo` steps back
    across that boundary too.
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        *,
        first_dealer: int | None = None,
    ) -> None:
        self.rules = rules if rules is not None else Rules()
        if not self.rules.match_target:
            raise InvalidRulesError("these rules play single games: match_target is 0")
        self.seed = (
            check_int(seed, "the seed")
            if seed is not None
            else random.SystemRandom().randrange(1 << 63)
        )
        self._games = [Game(self.rules, self.game_seed(1), first_dealer=first_dealer)]

    def game_seed(self, number: int) -> int:
        return derived_seed(self.seed, f"game:{number}")

    @property
    def games(self) -> tuple[Game, ...]:
        """Every game so far, the current one last."""
        return tuple(self._games)

    @property
    def game(self) -> Game:
        """The game being played (the last game once the match is over)."""
        return self._games[-1]

    @property
    def finished(self) -> tuple[Game, ...]:
        return tuple(g for g in self._games if g.is_over)

    @property
    def totals(self) -> tuple[int, int]:
        """Match points: the nets credited so far."""
        points = [0, 0]
        for game in self.finished:
            final = game.final()
            if final.winner is not None:
                points[final.winner] += final.net
        return (points[0], points[1])

    @property
    def winner(self) -> int | None:
        """The first player to reach the match target (``None`` while the match is on)."""
        points = [0, 0]
        for game in self.finished:
            final = game.final()
            if final.winner is not None:
                points[final.winner] += final.net
                if points[final.winner] >= self.rules.match_target:
                    return final.winner
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def final(self) -> MatchFinal:
        winner = self.winner
        if winner is None:
            raise IllegalActionError("the match is not over")
        finals = tuple(g.final() for g in self.finished)
        return MatchFinal(finals, self.totals, winner, self.rules.stake)

    def sheet(self, names: tuple[str, str] = ("Player 1", "Player 2")) -> MatchSheet:
        from .sheet import match_sheet

        return match_sheet(self, names)

    # -- entering hands ----------------------------------------------------------------------

    def record(self, result: HandResult) -> HandEntry:
        """Enter a hand's result in the current game (starting the next game if it ends)."""
        self._check_on()
        entry = self.game.record(result)
        self._next_game()
        return entry

    def deal_hand(self) -> Hand:
        self._check_on()
        return self.game.deal_hand()

    def finish_hand(self, hand: Hand) -> HandEntry:
        self._check_on()
        entry = self.game.finish_hand(hand)
        self._next_game()
        return entry

    def undo(self) -> HandEntry:
        """Remove the last hand of the match, dropping a game that it was the last hand before."""
        if not self.game.hands and len(self._games) > 1:
            self._games.pop()
        return self.game.undo()

    def _check_on(self) -> None:
        if self.is_over:
            raise IllegalActionError("the match is over")

    def _next_game(self) -> None:
        if self.game.is_over and not self.is_over:
            number = len(self._games) + 1
            game = Game(self.rules, self.game_seed(number), first_dealer=self.game.dealer)
            self._games.append(game)

    # -- records -----------------------------------------------------------------------------

    def to_record(self) -> MatchRecord:
        games = tuple(g.to_record() for g in self._games)
        return MatchRecord(self.rules, self.seed, games)


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A match's rules and seed, and each game's record."""

    rules: Rules
    seed: int
    games: tuple[GameRecord, ...]

    def replay(self, *, play: bool = False) -> Match:
        if not self.games:
            raise GinRummyError("a match record has at least one game")
        first = self.games[0]
        match = Match(
            self.rules, self.seed, first_dealer=None if first.cuts else first.first_dealer
        )
        for number, record in enumerate(self.games, 1):
            if number > 1:
                if not match.game.is_over or match.is_over:
                    raise GinRummyError(f"game {number} of the record should not have been played")
                match._next_game()
            expected = match.game
            game = record.replay(play=play)
            if (game.rules, game.seed, game.first_dealer, game.cuts) != (
                expected.rules,
                expected.seed,
                expected.first_dealer,
                expected.cuts,
            ):
                raise GinRummyError(f"game {number} of the record does not follow the match's")
            match._games[-1] = game
        match._next_game()
        return match

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": MATCH_FORMAT,
            "version": 1,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "games": [g.to_dict() for g in self.games],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> MatchRecord:
        if data.get("format") != MATCH_FORMAT or data.get("version") != 1:
            raise GinRummyError("not a version 1 match record")
        try:
            games = tuple(GameRecord.from_dict(g) for g in data["games"])
            return cls(Rules.from_dict(data["rules"]), check_int(data["seed"], "the seed"), games)
        except GinRummyError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidNotationError(f"bad match record: {exc!r}") from None

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_json(cls, text: str) -> MatchRecord:
        return cls.from_dict(json_object(text, "match record"))
