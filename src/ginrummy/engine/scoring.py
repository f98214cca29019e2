"""Scoring a game from its hand results: running totals, end-of-game bonuses, net and stake.

Everything here is pure. A :class:`Tally` is immutable and :meth:`Tally.add` returns a new one,
so a game keeps one tally per hand and undoes a hand by dropping the last.

A standard game has one score *column*; Hollywood scoring keeps three at once. Both use the same
rule: each win enters the winner into the first open column he has not scored in yet, and is
also scored in every open column he has already entered. So a player's first win is scored in
game 1, his second in games 1 and 2, his third and later in all three; and a player who was
shut out of a game that has closed makes his first entry in the next open game.

The decisions this module makes where RULES.md leaves room:

* Box bonuses count the hands won *in the column* (a Hollywood column only counts the hands
  scored in it). With ``oklahoma_double_boxes`` a doubled hand's box is doubled too.
* ``shutout = "double"`` doubles the winner's whole score for the game: hand points, game bonus
  and boxes (the modern school). ``PlayerFinal.shutout`` holds the amount added.
* The net of a game is the difference between the final totals. It is credited to the player
  with the larger total, which is the player who reached the target except in the rare game
  where the loser's boxes outweigh the winner's bonus; equal totals credit nobody.
  In Hollywood the nets of the three games are added up.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from typing import Any

from .errors import (
    GinRummyError,
    IllegalActionError,
    InvalidNotationError,
    check_int,
    check_seat,
)
from .results import HandResult
from .rules import Rules

Pair = tuple[int, int]


def _plus(pair: Pair, seat: int, amount: int) -> Pair:
    return (pair[0] + amount, pair[1]) if seat == 0 else (pair[0], pair[1] + amount)


def money(amount: Decimal) -> Decimal:
    """``amount`` as money is written: with two decimals, more only where the stake has more
    (124 and 124.5 are 124.00 and 124.50; a stake of a tenth of a cent keeps its three). The
    one place an amount is made money: every sheet, sentence and view writes what it gives.
    Nothing paid (no stake, or an even game) stays 0, which no sentence writes as a sum.

    >>> money(Decimal("124.5")), money(Decimal("248")), money(Decimal("0.248")), money(Decimal(0))
    (Decimal('124.50'), Decimal('248.00'), Decimal('0.248'), Decimal('0'))
    """
    exponent = amount.as_tuple().exponent
    if amount and isinstance(exponent, int) and exponent > -2 and amount.adjusted() < 20:
        return amount.quantize(Decimal("0.01"))
    return amount


def box_value(rules: Rules, result: HandResult) -> int:
    """The box (line) bonus the winner of ``result`` earns for it at the end of the game."""
    return rules.box_bonus * (result.multiplier if rules.oklahoma_double_boxes else 1)


@dataclass(frozen=True, slots=True)
class Column:
    """One game's score column: the only one in a standard game, one of three in Hollywood.

    ``points`` count toward the target; ``boxes`` are added at the end. ``winner`` is the player
    who reached the target, which closes the column.
    """

    number: int
    points: Pair = (0, 0)
    wins: Pair = (0, 0)
    boxes: Pair = (0, 0)
    winner: int | None = None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "points": list(self.points),
            "wins": list(self.wins),
            "boxes": list(self.boxes),
            "winner": self.winner,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Column:
        """The column :meth:`to_dict` wrote. Raises ``InvalidNotationError`` on anything else."""
        try:

            def pair(key: str) -> Pair:
                first, second = data[key]
                return (check_int(first, key), check_int(second, key))

            winner = data["winner"]
            return cls(
                check_int(data["number"], "the column's number"),
                pair("points"),
                pair("wins"),
                pair("boxes"),
                None if winner is None else check_seat(winner, "the column's winner"),
            )
        except GinRummyError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise InvalidNotationError(f"bad score column: {exc!r}") from None


@dataclass(frozen=True, slots=True)
class Line:
    """What one hand did to the score: the columns it was scored in, the columns it closed, and
    every column's running totals after it."""

    result: HandResult
    columns: tuple[int, ...]
    closed: tuple[int, ...]
    totals: tuple[Pair, ...]


@dataclass(frozen=True, slots=True)
class PlayerFinal:
    """One player's end-of-game score (in one column, or summed over the columns)."""

    hand_points: int
    hands_won: int
    boxes: int
    game_bonus: int
    shutout: int

    @property
    def total(self) -> int:
        return self.hand_points + self.boxes + self.game_bonus + self.shutout

    def __add__(self, other: PlayerFinal) -> PlayerFinal:
        return PlayerFinal(
            self.hand_points + other.hand_points,
            self.hands_won + other.hands_won,
            self.boxes + other.boxes,
            self.game_bonus + other.game_bonus,
            self.shutout + other.shutout,
        )

    def to_dict(self) -> dict[str, int]:
        return {
            "hand_points": self.hand_points,
            "hands_won": self.hands_won,
            "boxes": self.boxes,
            "game_bonus": self.game_bonus,
            "shutout": self.shutout,
            "total": self.total,
        }


@dataclass(frozen=True, slots=True)
class ColumnFinal:
    """A finished column: ``winner`` reached the target and took the game bonus; ``shutout``
    says the loser won no hand in it (whether or not the rules reward that)."""

    number: int
    winner: int
    shutout: bool
    players: tuple[PlayerFinal, PlayerFinal]

    @property
    def totals(self) -> Pair:
        return (self.players[0].total, self.players[1].total)

    @property
    def balance(self) -> int:
        """Player 1's total minus player 2's (seat 0 minus seat 1)."""
        return self.players[0].total - self.players[1].total

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            "shutout": self.shutout,
            "players": [p.to_dict() for p in self.players],
            "balance": self.balance,
        }


@dataclass(frozen=True, slots=True)
class GameFinal:
    """The end of a game: every column's final, and the net and its settlement.

    ``winner`` is the player credited with the net (the larger total; ``None`` when even) and
    ``settlement`` is what the other player pays him: ``net * stake``.
    """

    columns: tuple[ColumnFinal, ...]
    stake: Decimal

    @property
    def players(self) -> tuple[PlayerFinal, PlayerFinal]:
        """Each player's score summed over the columns (the one column of a standard game)."""
        first, *rest = self.columns
        zero, one = first.players
        for column in rest:
            zero, one = zero + column.players[0], one + column.players[1]
        return (zero, one)

    @property
    def balance(self) -> int:
        return sum(c.balance for c in self.columns)

    @property
    def winner(self) -> int | None:
        balance = self.balance
        return None if balance == 0 else (0 if balance > 0 else 1)

    @property
    def loser(self) -> int | None:
        winner = self.winner
        return None if winner is None else 1 - winner

    @property
    def net(self) -> int:
        return abs(self.balance)

    @property
    def settlement(self) -> Decimal:
        return money(self.net * self.stake)

    def to_dict(self) -> dict[str, Any]:
        return {
            "columns": [c.to_dict() for c in self.columns],
            "players": [p.to_dict() for p in self.players],
            "winner": self.winner,
            "net": self.net,
            "stake": str(self.stake),
            "settlement": str(self.settlement),
        }


@dataclass(frozen=True, slots=True)
class Tally:
    """The score of a game after some hands. Start with :meth:`start`, then :meth:`add`."""

    rules: Rules
    columns: tuple[Column, ...]
    #: The columns each player has scored in so far (0-based).
    entered: tuple[frozenset[int], frozenset[int]] = (frozenset(), frozenset())
    lines: tuple[Line, ...] = ()

    @classmethod
    def start(cls, rules: Rules) -> Tally:
        count = 3 if rules.hollywood else 1
        return cls(rules, tuple(Column(n) for n in range(1, count + 1)))

    @property
    def is_over(self) -> bool:
        return all(c.is_over for c in self.columns)

    @property
    def totals(self) -> Pair:
        """Hand points summed over the columns: a standard game's running totals."""
        return (sum(c.points[0] for c in self.columns), sum(c.points[1] for c in self.columns))

    def targets(self, winner: int) -> tuple[int, ...]:
        """The columns a win by ``winner`` would be scored in now."""
        return column_targets(self.columns, self.entered[winner])

    def add(self, result: HandResult) -> Tally:
        """The tally after one more hand. Raises ``IllegalActionError`` once the game is over."""
        if self.is_over:
            raise IllegalActionError("the game is over")
        winner = result.winner
        if winner is None:
            line = Line(result, (), (), tuple(c.points for c in self.columns))
            return replace(self, lines=(*self.lines, line))
        if winner not in (0, 1) or result.points < 0:
            raise GinRummyError(f"not a valid hand result: {result!r}")
        targets = self.targets(winner)
        columns = list(self.columns)
        closed: list[int] = []
        box = box_value(self.rules, result)
        for i in targets:
            col = columns[i]
            points = _plus(col.points, winner, result.points)
            reached = points[winner] >= self.rules.game_target
            if reached:
                closed.append(i)
            columns[i] = Column(
                col.number,
                points,
                _plus(col.wins, winner, 1),
                _plus(col.boxes, winner, box),
                winner if reached else None,
            )
        entered = list(self.entered)
        entered[winner] = entered[winner] | set(targets)
        line = Line(result, targets, tuple(closed), tuple(c.points for c in columns))
        return Tally(self.rules, tuple(columns), (entered[0], entered[1]), (*self.lines, line))

    def final(self) -> GameFinal:
        """The end-of-game score. Raises ``IllegalActionError`` while the game is still on."""
        if not self.is_over:
            raise IllegalActionError("the game is not over")
        return GameFinal(tuple(column_final(self.rules, c) for c in self.columns), self.rules.stake)


def column_targets(columns: Sequence[Column], entered: Collection[int]) -> tuple[int, ...]:
    """The columns (0-based) a win is scored in, for a player who has scored in ``entered``:
    every open one of those, and the first open column he has not scored in yet."""
    open_ = [i for i, c in enumerate(columns) if not c.is_over]
    already = [i for i in open_ if i in entered]
    new = [i for i in open_ if i not in entered][:1]
    return tuple(sorted(already + new))


def column_final(rules: Rules, column: Column) -> ColumnFinal:
    """Apply the end-of-game bonuses to a closed column."""
    winner = column.winner
    if winner is None:
        raise IllegalActionError(f"game {column.number} is not over")
    shutout = column.wins[1 - winner] == 0
    players: list[PlayerFinal] = []
    for seat in (0, 1):
        bonus = rules.game_bonus if seat == winner else 0
        base = column.points[seat] + column.boxes[seat] + bonus
        extra = 0
        if seat == winner and shutout:
            extra = {"bonus": rules.shutout_bonus, "double": base, "none": 0}[rules.shutout]
        players.append(
            PlayerFinal(column.points[seat], column.wins[seat], column.boxes[seat], bonus, extra)
        )
    return ColumnFinal(column.number, winner, shutout, (players[0], players[1]))
