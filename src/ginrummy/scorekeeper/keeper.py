"""The scorekeeper's state: a game or a match scored from entries, and who deals.

A :class:`Keeper` is rebuilt from the stored entries every time (``Keeper.replay``), so what
the screen shows is always exactly what the database holds. Two kinds of entry change it:

* ``result``: ``{"game", "hand", "dealer", "text", "result"}``, and ``"upcard"`` in Oklahoma;
  the result is ``serial.result_to_dict``'s form and is scored as stored.
* ``irregularity``: ``{"game", "hand", "dealt_by", "text", "ruling"}``; when the ruling names
  a dealer (a redeal, or a deal that stands) that player deals the hand.

Dealing: the engine's game decides who deals from the rules. A ruling can make the hand be
played on another player's deal (a wrong dealer whose deal stands); then the keeper records
that dealer on the sheet, and who deals after that hand follows from him
(``engine.game.next_dealer``), in this game and in the next game of a match.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from ..engine.cards import Card
from ..engine.errors import GinRummyError
from ..engine.game import Cut, Game, next_dealer
from ..engine.match import Match
from ..engine.results import HandResult
from ..engine.rules import Rules
from ..engine.rulings import Ruling
from ..engine.serial import result_from_dict, result_to_dict
from ..engine.sheet import MatchSheet, ScoreSheet
from .errors import KeeperError

MODES = ("game", "match")


@dataclass(frozen=True, slots=True)
class Setup:
    """What a scorekeeper game is: players (seat 0 first), rules, game or match, first dealer."""

    names: tuple[str, str]
    rules: Rules
    mode: str
    first_dealer: int
    #: The real cards cut for the first deal (player 1's, player 2's), when they were entered.
    cuts: tuple[Cut, ...] = ()

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {
            "app": "score",
            "mode": self.mode,
            "first_dealer": self.first_dealer,
        }
        if self.cuts:
            options["cuts"] = [[str(a), str(b)] for a, b in self.cuts]
        return options

    @classmethod
    def from_stored(cls, names: tuple[str, str], rules: Rules, options: Mapping[str, Any]) -> Setup:
        mode = options.get("mode", "game")
        first = options.get("first_dealer", 0)
        if mode not in MODES or first not in (0, 1):
            raise KeeperError(f"the stored game has unreadable options: {dict(options)!r}")
        try:
            cuts = tuple((Card.parse(a), Card.parse(b)) for a, b in options.get("cuts", []))
        except (GinRummyError, TypeError, ValueError):
            raise KeeperError(f"the stored game has unreadable cuts: {options['cuts']!r}") from None
        return cls(names, rules, str(mode), int(first), cuts)


@dataclass(frozen=True, slots=True)
class Ruled:
    """An irregularity as recorded: in which game and hand, what was said, and the ruling."""

    game: int
    hand: int
    text: str
    action: str
    explanation: str
    dealer: int | None


class Keeper:
    """A game (or match) being scored from entries."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.rules = setup.rules
        self.names = setup.names
        self.match: Match | None = None
        if setup.mode == "match":
            self.match = Match(setup.rules, seed=0, first_dealer=setup.first_dealer)
            self._games = [self.match.game]
        else:
            self._games = [Game(setup.rules, seed=0, first_dealer=setup.first_dealer)]
        #: The dealer the rules call for next, and the dealer a ruling put in his place.
        self.expected = setup.first_dealer
        self._override: int | None = None
        #: The dealer of every hand scored, game by game.
        self._dealers: list[list[int]] = [[]]
        self.rulings: list[Ruled] = []
        #: The first upcard of each hand that gave one (Oklahoma), by (game, hand).
        self.upcards: dict[tuple[int, int], Card] = {}
        self.entries = 0

    @classmethod
    def replay(cls, setup: Setup, entries: Iterable[tuple[str, Mapping[str, Any]]]) -> Keeper:
        keeper = cls(setup)
        for kind, data in entries:
            keeper.apply(kind, data)
        return keeper

    # -- where the game stands -------------------------------------------------------------

    @property
    def game(self) -> Game:
        """The game being scored (the last one once everything is over)."""
        return self._games[-1]

    @property
    def games(self) -> tuple[Game, ...]:
        return tuple(self._games)

    @property
    def game_number(self) -> int:
        return len(self._games)

    @property
    def hand_number(self) -> int:
        """The number of the next hand in the current game."""
        return self.game.number

    @property
    def dealer(self) -> int:
        """Who deals (or dealt) the current hand."""
        return self.expected if self._override is None else self._override

    @property
    def is_over(self) -> bool:
        """Whether everything is over: the game, or in a match the match."""
        return self.match.is_over if self.match is not None else self.game.is_over

    @property
    def finished_games(self) -> int:
        return sum(1 for g in self._games if g.is_over)

    @property
    def hands_played(self) -> int:
        return sum(len(g.hands) for g in self._games)

    def name(self, seat: int) -> str:
        return self.names[seat]

    # -- entries ---------------------------------------------------------------------------

    def result_data(
        self, result: HandResult, text: str, upcard: Card | None = None
    ) -> dict[str, Any]:
        """The entry for a hand result, to store and then :meth:`apply`."""
        data: dict[str, Any] = {
            "game": self.game_number,
            "hand": self.hand_number,
            "dealer": self.dealer,
            "text": text,
            "result": result_to_dict(result),
        }
        if upcard is not None:
            data["upcard"] = str(upcard)
        return data

    def ruling_data(self, ruling: Ruling, text: str, dealt_by: int) -> dict[str, Any]:
        return {
            "game": self.game_number,
            "hand": self.hand_number,
            "dealt_by": dealt_by,
            "text": text,
            "ruling": {
                "action": ruling.remedy.value,  # the stored key keeps its name
                "explanation": ruling.explanation,
                "dealer": ruling.dealer,
                "chooser": ruling.chooser,
                "corrector": ruling.corrector,
                "surplus": ruling.surplus,
            },
        }

    def apply(self, kind: str, data: Mapping[str, Any]) -> None:
        """Replay one stored entry."""
        try:
            if kind == "result":
                upcard = data.get("upcard")
                if upcard is not None:
                    self.upcards[(self.game_number, self.hand_number)] = Card.parse(str(upcard))
                self._result(result_from_dict(dict(data["result"])))
            elif kind == "irregularity":
                ruling = data["ruling"]
                dealer = ruling.get("dealer")
                if dealer is not None:
                    self._override = None if dealer == self.expected else int(dealer)
                self.rulings.append(
                    Ruled(
                        self.game_number,
                        self.hand_number,
                        str(data["text"]),
                        str(ruling["action"]),
                        str(ruling["explanation"]),
                        dealer,
                    )
                )
            # Other kinds (notes) do not change the score.
        except (KeyError, TypeError, ValueError, GinRummyError) as exc:
            raise KeeperError(f"entry {self.entries + 1} cannot be replayed: {exc}") from None
        self.entries += 1

    def _result(self, result: HandResult) -> None:
        if self.is_over:
            raise KeeperError("a result after the end of the game")
        dealer = self.dealer
        if self.match is not None:
            self.match.record(result)
            if self.match.game is not self._games[-1]:
                self._games.append(self.match.game)
        else:
            self.game.record(result)
        self._dealers[-1].append(dealer)
        if len(self._dealers) < len(self._games):
            self._dealers.append([])
        self.expected = next_dealer(self.rules, dealer, result)
        self._override = None

    # -- sheets ----------------------------------------------------------------------------

    def sheet(self, number: int | None = None) -> ScoreSheet:
        """The sheet of game ``number`` (1-based; the current game by default), with the
        dealers who really dealt."""
        index = (number or self.game_number) - 1
        game = self._games[index]
        sheet = game.sheet(self.names)
        if self.match is not None:
            sheet = replace(sheet, settles=False)
        dealers = self._dealers[index]
        lines = tuple(
            replace(line, dealer=dealer) for line, dealer in zip(sheet.lines, dealers, strict=True)
        )
        first = dealers[0] if dealers else self.dealer
        cuts = self.setup.cuts if index == 0 else ()
        return replace(sheet, lines=lines, first_dealer=first, cuts=cuts)

    def hand_upcards(self, number: int | None = None) -> dict[int, Card]:
        """The upcard of each hand of game ``number`` (the current game by default) that
        gave one, by hand number."""
        game = number or self.game_number
        return {h: card for (g, h), card in self.upcards.items() if g == game}

    def match_sheet(self) -> MatchSheet | None:
        if self.match is None:
            return None
        sheet = self.match.sheet(self.names)
        games = tuple(self.sheet(n) for n in range(1, len(sheet.games) + 1))
        return replace(sheet, games=games)

    def match_totals(self) -> tuple[int, int]:
        return self.match.totals if self.match is not None else (0, 0)

    def final_data(self) -> dict[str, Any]:
        """The summary stored with a finished game (or match)."""
        if self.match is not None:
            final = self.match.final()
            sheet = self.match_sheet()
            assert sheet is not None
            return {
                "mode": "match",
                "winner": final.winner,
                "net": final.net,
                "totals": list(final.totals),
                "stake": str(final.stake),
                "settlement": str(final.settlement),
                "sheet": sheet.to_dict(),
            }
        game_final = self.game.final()
        return {
            "mode": "game",
            "winner": game_final.winner,
            "net": game_final.net,
            "totals": [p.total for p in game_final.players],
            "stake": str(game_final.stake),
            "settlement": str(game_final.settlement),
            "sheet": self.sheet().to_dict(),
        }

    def with_names(self, text: str) -> str:
        """``text`` with "seat 0" and "seat 1" replaced by the players' names."""
        return re.sub(r"\b[Ss]eat ([01])\b", lambda m: self.names[int(m.group(1))], text)
