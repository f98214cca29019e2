"""How the scorekeeper shows things: Rich tables when Rich is installed, plain text otherwise.

:func:`make_view` picks one. Both views print to standard output, messages and errors alike,
so a transcript of a piped session reads in order.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Protocol, TextIO

from ..engine.rules import Rules
from ..engine.sheet import ScoreSheet
from .keeper import Keeper, Ruled, settlement_text


@dataclass(frozen=True, slots=True)
class GameRow:
    """One line of ``ginrummy score --list``."""

    id: str
    updated: str
    players: str
    mode: str
    hands: int
    status: str


class View(Protocol):
    def say(self, text: str, style: str = "") -> None: ...

    def error(self, text: str) -> None: ...

    def sheet(self, keeper: Keeper, number: int | None = None) -> None: ...

    def match(self, keeper: Keeper) -> None: ...

    def rules(self, rules: Rules) -> None: ...

    def games(self, rows: Sequence[GameRow]) -> None: ...


def make_view(plain: bool = False, out: TextIO | None = None) -> View:
    """The Rich view unless ``plain`` or Rich is missing."""
    if not plain:
        try:
            from .scorerich import RichView
        except ImportError:
            pass
        else:
            return RichView(out)
    return PlainView(out)


# -- words shared by both views ----------------------------------------------------------------


def boxes_so_far(sheet: ScoreSheet) -> list[tuple[int, int]]:
    """Hands won so far in each column, per seat."""
    wins = [[0, 0] for _ in range(sheet.column_count)]
    for line in sheet.lines:
        if line.winner is not None:
            for column in line.columns:
                wins[column - 1][line.winner] += 1
    return [(a, b) for a, b in wins]


def game_rulings(keeper: Keeper, number: int) -> list[Ruled]:
    return [r for r in keeper.rulings if r.game == number]


def ruling_lines(keeper: Keeper, number: int) -> list[str]:
    return [
        f"Hand {r.hand}: {keeper.with_names(r.explanation)}" for r in game_rulings(keeper, number)
    ]


def sheet_title(keeper: Keeper, number: int) -> str:
    names = keeper.names
    title = f"{names[0]} v {names[1]}"
    if keeper.match is not None:
        title = f"Game {number} of the match: {title}"
    hollywood = " (Hollywood: three games at once)" if keeper.rules.hollywood else ""
    return f"{title}, game to {keeper.rules.game_target}{hollywood}"


def final_lines(keeper: Keeper, sheet: ScoreSheet) -> list[str]:
    """The net and, for a single game, the settlement; in progress, who needs what."""
    final = sheet.final
    if final is None:
        totals = sheet.lines[-1].totals if sheet.lines else ((0, 0),) * sheet.column_count
        text = ", ".join(f"{keeper.names[s]} {totals[0][s]}" for s in (0, 1))
        if sheet.column_count > 1:
            text = "; ".join(
                f"game {c + 1}: " + ", ".join(f"{keeper.names[s]} {t[s]}" for s in (0, 1))
                for c, t in enumerate(totals)
            )
        return [f"Running totals: {text} (first to {sheet.game_target})."]
    stake = final.stake if sheet.settles else Decimal(0)
    return [settlement_text(keeper.names, final.winner, final.net, stake)]


def match_lines(keeper: Keeper) -> list[str]:
    sheet = keeper.match_sheet()
    if sheet is None:
        return []
    names = keeper.names
    out = []
    for line in sheet.lines:
        who = "even" if line.winner is None else f"{names[line.winner]} +{line.net}"
        out.append(
            f"Game {line.number}: {who}; match points {names[0]} {line.totals[0]}, "
            f"{names[1]} {line.totals[1]}"
        )
    if sheet.final is None:
        zero, one = keeper.match_totals()
        out.append(
            f"Match to {sheet.match_target}: {names[0]} {zero}, {names[1]} {one} after "
            f"{len(sheet.lines)} game{'s' if len(sheet.lines) != 1 else ''}."
        )
    else:
        final = sheet.final
        out.append(f"{names[final.winner]} wins the match by {final.net}.")
        if final.stake:
            out.append(
                f"At {final.stake} a point, {names[final.loser]} pays {names[final.winner]} "
                f"{final.settlement}."
            )
    return out


# -- plain text --------------------------------------------------------------------------------


class PlainView:
    """The engine's paper-like sheet and plain lines: no colour, ASCII only."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out

    def _print(self, text: str = "") -> None:
        print(text, file=self.out or sys.stdout, flush=True)

    def say(self, text: str, style: str = "") -> None:
        self._print(text)

    def error(self, text: str) -> None:
        self._print(f"error: {text}")

    def sheet(self, keeper: Keeper, number: int | None = None) -> None:
        number = number or keeper.game_number
        sheet = keeper.sheet(number)
        self._print()
        if keeper.match is not None:
            self._print(f"== Game {number} of the match ==")
        text = sheet.to_text()
        if sheet.final is not None:
            # The engine's text already ends with the net (and, for a single game, the stake).
            self._print(text)
        else:
            self._print(text)
            wins = boxes_so_far(sheet)
            boxes = "; ".join(", ".join(f"{keeper.names[s]} {w[s]}" for s in (0, 1)) for w in wins)
            self._print(f"Boxes so far: {boxes}")
        rulings = ruling_lines(keeper, number)
        if rulings:
            self._print("Rulings:")
            for line in rulings:
                self._print(f"  {line}")
        self._print()

    def match(self, keeper: Keeper) -> None:
        for line in match_lines(keeper):
            self._print(line)

    def rules(self, rules: Rules) -> None:
        name = rules.preset_name()
        self._print(f"Rules{f' ({name})' if name else ''}:")
        for line in rules.describe().splitlines():
            self._print(f"  {line}")

    def games(self, rows: Sequence[GameRow]) -> None:
        if not rows:
            self._print("No saved games.")
            return
        headers = ("ID", "Updated", "Players", "Mode", "Hands", "Result")
        table = [
            headers,
            *((r.id, r.updated, r.players, r.mode, str(r.hands), r.status) for r in rows),
        ]
        widths = [max(len(row[i]) for row in table) for i in range(len(headers))]
        for row in table:
            self._print(
                "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            )
