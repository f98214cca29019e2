"""The score sheet of a game or a match, as data, as paper-like text, as JSON and as CSV.

Each hand gets a line: its number, the dealer, who won and how (knock, gin, big gin, undercut,
dead hand, or tie for a tied knock that scores nothing), the points and every game column's
running totals. As on paper, the text form shows a player's new total only on the
hands he won, and underlines it (a line of dashes beneath it): the underlines are the boxes.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from .cards import Card
from .errors import GinRummyError
from .results import ResultKind
from .scoring import GameFinal, Pair

if TYPE_CHECKING:
    from .game import Game
    from .match import Match, MatchFinal

Names = tuple[str, str]
DEFAULT_NAMES: Names = ("Player 1", "Player 2")
_Row = Callable[[str, Sequence[str]], str]

_HOW = {
    ResultKind.KNOCK: "knock",
    ResultKind.GIN: "gin",
    ResultKind.BIG_GIN: "big gin",
    ResultKind.UNDERCUT: "undercut",
    ResultKind.DEAD: "dead hand",
}


@dataclass(frozen=True, slots=True)
class SheetLine:
    """One hand. ``columns`` and ``closed`` are 1-based game numbers (always 1 unless Hollywood);
    ``totals`` holds every column's running totals after the hand."""

    number: int
    dealer: int
    winner: int | None
    how: str
    points: int
    multiplier: int
    columns: tuple[int, ...]
    closed: tuple[int, ...]
    totals: tuple[Pair, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "winner": self.winner,
            "how": self.how,
            "points": self.points,
            "multiplier": self.multiplier,
            "columns": list(self.columns),
            "closed": list(self.closed),
            "totals": [list(t) for t in self.totals],
        }


@dataclass(frozen=True, slots=True)
class ScoreSheet:
    """A game's sheet. ``final`` is ``None`` while the game is on."""

    names: Names
    game_target: int
    column_count: int
    first_dealer: int
    cuts: tuple[tuple[Card, Card], ...]
    lines: tuple[SheetLine, ...]
    final: GameFinal | None
    stake: Decimal
    #: False for a game of a match, which settles the stake once for the match.
    settles: bool = True
    #: Each column's box bonuses so far (added at the game's end), seat 0's first.
    boxes: tuple[Pair, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "game_target": self.game_target,
            "columns": self.column_count,
            "first_dealer": self.first_dealer,
            "cuts": [[str(a), str(b)] for a, b in self.cuts],
            "hands": [line.to_dict() for line in self.lines],
            "final": None if self.final is None else self.final.to_dict(),
            "stake": str(self.stake),
            "settles": self.settles,
            "boxes": [list(pair) for pair in self.boxes],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def to_csv(self) -> str:
        return _game_csv(self)

    def to_text(self) -> str:
        return _game_text(self)

    def result_text(self, line: SheetLine, *, closed: bool = True) -> str:
        """A hand's result in the words of the text form's Result column: ``"Ann knock +24"``,
        ``"Bob gin +45 (x2), game over"``, ``"dead hand"``, ``"tie, no score"``."""
        if line.winner is None:
            return "dead hand" if line.how == "dead hand" else "tie, no score"
        text = f"{self.names[line.winner]} {line.how} +{line.points}"
        if line.multiplier != 1:
            text += f" (x{line.multiplier})"
        for number in line.closed if closed else ():
            text += ", game over" if self.column_count == 1 else f", game {number} over"
        return text

    def __str__(self) -> str:
        return self.to_text()


def game_sheet(game: Game, names: Names = DEFAULT_NAMES, *, settles: bool = True) -> ScoreSheet:
    """The sheet of ``game`` with the players called ``names`` (seat 0's first)."""
    lines = []
    for entry, line in zip(game.hands, game.tally.lines, strict=True):
        result = entry.result
        how = (
            _HOW[result.kind]
            if result.winner is not None or result.kind is ResultKind.DEAD
            else "tie"
        )
        lines.append(
            SheetLine(
                entry.number,
                entry.dealer,
                result.winner,
                how,
                result.points,
                result.multiplier,
                tuple(i + 1 for i in line.columns),
                tuple(i + 1 for i in line.closed),
                line.totals,
            )
        )
    final = game.final() if game.is_over else None
    return ScoreSheet(
        _check_names(names),
        game.rules.game_target,
        len(game.columns),
        game.first_dealer,
        game.cuts,
        tuple(lines),
        final,
        game.rules.stake,
        settles,
        tuple(column.boxes for column in game.columns),
    )


def _check_names(names: Sequence[str]) -> Names:
    if len(names) != 2 or not all(isinstance(n, str) and n.strip() for n in names):
        raise GinRummyError(f"a sheet needs two player names, not {names!r}")
    return (names[0].strip(), names[1].strip())


# -- text ------------------------------------------------------------------------------------


def _game_text(sheet: ScoreSheet) -> str:
    names, count = sheet.names, sheet.column_count
    # Hollywood's six columns are narrower, so that with short names they fit 80 columns.
    width = max(7 if count == 1 else 5, *(len(n) for n in names))
    # Under Hollywood "game 1 over" goes on the line under the result, which it would widen.
    results = [sheet.result_text(line, closed=count == 1) for line in sheet.lines]
    overs = [", ".join(f"game {g} over" for g in line.closed if count > 1) for line in sheet.lines]
    rw = max([len("Result"), *(len(r) for r in results + overs)])
    dw = max(len("Dealer"), width)
    left = 4 + 2 + dw + 2 + rw

    def row(label: str, cells: Sequence[str]) -> str:
        return (label.ljust(left) + "".join("  " + c.rjust(width) for c in cells)).rstrip()

    title = f"Gin rummy: {names[0]} v {names[1]}, game to {sheet.game_target}"
    out = [title + (" (Hollywood: three games)" if count == 3 else "")]
    first = names[sheet.first_dealer]
    cut = "; ".join(f"{a} v {b}" for a, b in sheet.cuts)
    out.append(f"First dealer: {first}" + (f" (cut {cut})" if cut else ""))
    out.append("")
    if count > 1:  # each game's name over its two columns
        games = "".join("  " + f"Game {g}".center(2 * width + 2) for g in range(1, count + 1))
        out.append((" " * left + games).rstrip())
    header = f"{'Hand':>4}  {'Dealer':<{dw}}  {'Result':<{rw}}"
    out.append(row(header, [n for _ in range(count) for n in names]))
    out.append("-" * (left + count * 2 * (width + 2)))
    for line, text, over in zip(sheet.lines, results, overs, strict=True):
        cells, marks = [], []
        for col in range(count):
            scored = col + 1 in line.columns
            for seat in (0, 1):
                figure = str(line.totals[col][seat]) if scored and seat == line.winner else ""
                cells.append(figure)
                marks.append("-" * len(figure))
        label = f"{line.number:>4}  {names[line.dealer]:<{dw}}  {text:<{rw}}"
        out.append(row(label, cells))
        if line.winner is not None:
            out.append(row(f"{'':4}  {'':<{dw}}  {over}" if over else "", marks))
    out.append("-" * (left + count * 2 * (width + 2)))
    if sheet.final is None:
        totals = [str(t[s]) for t in _current_totals(sheet) for s in (0, 1)]
        out.append(row("Running totals", totals))
        out.append(f"Game in progress: first to {sheet.game_target}.")
        return "\n".join(out)
    return "\n".join(out + _final_text(sheet, sheet.final, row))


def _current_totals(sheet: ScoreSheet) -> tuple[Pair, ...]:
    return sheet.lines[-1].totals if sheet.lines else ((0, 0),) * sheet.column_count


def _final_text(sheet: ScoreSheet, final: GameFinal, row: _Row) -> list[str]:
    names = sheet.names
    rows = [
        ("Hand points", "hand_points"),
        ("Hands won", "hands_won"),
        ("Boxes", "boxes"),
        ("Game bonus", "game_bonus"),
        ("Shutout", "shutout"),
        ("Total", "total"),
    ]
    out = []
    for label, attr in rows:
        cells = [str(getattr(p, attr)) for c in final.columns for p in c.players]
        out.append(row(label, cells))
    if sheet.column_count > 1:
        for c in final.columns:
            lead = names[0] if c.balance >= 0 else names[1]
            out.append(f"Game {c.number}: {names[c.winner]} won; {lead} +{abs(c.balance)}")
    if final.winner is None:
        out.append("Net: even, nobody is paid.")
        return out
    winner, loser = names[final.winner], names[1 - final.winner]
    out.append(f"Net: {winner} +{final.net}")
    if final.stake and sheet.settles:
        out.append(f"Stake {final.stake} a point: {loser} pays {winner} {final.settlement}")
    return out


# -- CSV -------------------------------------------------------------------------------------


def _player_headers(sheet: ScoreSheet) -> list[str]:
    if sheet.column_count == 1:
        return list(sheet.names)
    return [f"{n} game {g}" for g in range(1, sheet.column_count + 1) for n in sheet.names]


def _game_csv(sheet: ScoreSheet) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        ["hand", "dealer", "winner", "how", "points", "multiplier", *_player_headers(sheet)]
    )
    names = sheet.names
    for line in sheet.lines:
        winner = "" if line.winner is None else names[line.winner]
        totals = [t[s] for t in line.totals for s in (0, 1)]
        writer.writerow(
            [
                line.number,
                names[line.dealer],
                winner,
                line.how,
                line.points,
                line.multiplier,
                *totals,
            ]
        )
    final = sheet.final
    if final is not None:
        for attr in ("hand_points", "hands_won", "boxes", "game_bonus", "shutout", "total"):
            cells = [getattr(p, attr) for c in final.columns for p in c.players]
            writer.writerow([attr.replace("_", " "), "", "", "", "", "", *cells])
        winner = "" if final.winner is None else names[final.winner]
        writer.writerow(["net", "", winner, "", final.net, ""])
        if sheet.settles:
            writer.writerow(["settlement", "", winner, "", str(final.settlement), ""])
    return buffer.getvalue()


# -- the match -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One finished game of a match: who was credited its net, and the match points after it."""

    number: int
    winner: int | None
    net: int
    totals: Pair

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            "net": self.net,
            "totals": list(self.totals),
        }


@dataclass(frozen=True, slots=True)
class MatchSheet:
    """A match's sheet: every game's sheet, the match lines, and the final once it is over."""

    names: Names
    match_target: int
    games: tuple[ScoreSheet, ...]
    lines: tuple[MatchLine, ...]
    final: MatchFinal | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "names": list(self.names),
            "match_target": self.match_target,
            "games": [g.to_dict() for g in self.games],
            "lines": [line.to_dict() for line in self.lines],
            "final": None if self.final is None else self.final.to_dict(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    def to_csv(self) -> str:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(["game", "winner", "net", *self.names])
        for line in self.lines:
            winner = "" if line.winner is None else self.names[line.winner]
            writer.writerow([line.number, winner, line.net, *line.totals])
        if self.final is not None:
            final = self.final
            writer.writerow(["match", self.names[final.winner], final.net, *final.totals])
            writer.writerow(["settlement", self.names[final.winner], str(final.settlement)])
        return buffer.getvalue()

    def to_text(self) -> str:
        names = self.names
        out = []
        for number, game in enumerate(self.games, 1):
            out += [f"== Game {number} ==", game.to_text(), ""]
        width = max(7, *(len(n) for n in names))
        out.append(f"Match to {self.match_target}")
        out.append(f"{'Game':>4}  {'Net':>12}  {names[0]:>{width}}  {names[1]:>{width}}")
        for line in self.lines:
            net = "even" if line.winner is None else f"{names[line.winner]} +{line.net}"
            zero, one = line.totals
            out.append(f"{line.number:>4}  {net:>12}  {zero:>{width}}  {one:>{width}}")
        if self.final is None:
            out.append("Match in progress.")
        else:
            winner, loser = names[self.final.winner], names[self.final.loser]
            out.append(f"{winner} wins the match by {self.final.net}.")
            if self.final.stake:
                out.append(
                    f"Stake {self.final.stake} a point: {loser} pays {winner} "
                    f"{self.final.settlement}"
                )
        return "\n".join(out)

    def __str__(self) -> str:
        return self.to_text()


def match_sheet(match: Match, names: Names = DEFAULT_NAMES) -> MatchSheet:
    names = _check_names(names)
    shown = [g for g in match.games if g.hands or g is match.games[0]]
    games = tuple(game_sheet(g, names, settles=False) for g in shown)
    lines = []
    points = [0, 0]
    for number, game in enumerate(match.finished, 1):
        final = game.final()
        if final.winner is not None:
            points[final.winner] += final.net
        lines.append(MatchLine(number, final.winner, final.net, (points[0], points[1])))
    final_ = match.final() if match.is_over else None
    return MatchSheet(names, match.rules.match_target, games, tuple(lines), final_)
