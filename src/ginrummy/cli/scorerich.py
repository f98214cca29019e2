"""The scorekeeper's Rich view: the sheet as a table, with colour on a terminal.

On paper the winner of a hand underlines his new total, and the underlines are his boxes; here
that total is bold and underlined, and a "Boxes" row counts them. Without a terminal Rich
prints the same tables without colour.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TextIO

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..engine.rules import Rules
from ..engine.scoring import GameFinal
from ..engine.sheet import ScoreSheet
from ..scorekeeper.keeper import Keeper
from ..scorekeeper.report import (
    boxes_so_far,
    final_lines,
    match_lines,
    ruling_lines,
    sheet_title,
)
from ..scorekeeper.saved import ListedGame
from .scoreview import listed_cells

PIPE_WIDTH = 120
_FINAL_ROWS = (
    ("Hand points", "hand_points"),
    ("Boxes", "boxes"),
    ("Game bonus", "game_bonus"),
    ("Shutout", "shutout"),
    ("Total", "total"),
)


class RichView:
    def __init__(self, out: TextIO | None = None) -> None:
        self.console = Console(file=out, highlight=False)
        if not self.console.is_terminal and "COLUMNS" not in os.environ:
            # A pipe or a file has no width: leave room for Hollywood's six score columns.
            self.console.width = PIPE_WIDTH

    def say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    def error(self, text: str) -> None:
        self.console.print(Text(f"error: {text}", style="bold red"), soft_wrap=True)

    def sheet(self, keeper: Keeper, number: int | None = None) -> None:
        number = number or keeper.game_number
        sheet = keeper.sheet(number)
        self.console.print()
        self.console.print(_table(keeper, sheet, number))
        for line in final_lines(keeper, sheet):
            self.console.print(Text(line, style="bold" if sheet.final else ""), soft_wrap=True)
        rulings = ruling_lines(keeper, number)
        if rulings:
            self.console.print(Text("Rulings:", style="bold"))
            for line in rulings:
                self.console.print(Text(f"  {line}", style="yellow"), soft_wrap=True)
        self.console.print()

    def match(self, keeper: Keeper) -> None:
        for line in match_lines(keeper):
            self.console.print(Text(line, style="bold cyan"), soft_wrap=True)

    def rules(self, rules: Rules, *, match: bool) -> None:
        name = rules.replace(stake=0).preset_name()  # a stake is said below it
        self.console.print(Text(f"Rules{f' ({name})' if name else ''}:", style="bold"))
        for line in rules.describe(match=match).splitlines():
            self.console.print(Text(f"  {line}"))

    def games(self, games: Sequence[ListedGame]) -> None:
        if not games:
            self.console.print("No saved games.")
            return
        table = Table(box=box.SIMPLE_HEAD, title="Saved games", title_justify="left")
        for header in ("ID", "Updated", "Players", "Mode"):
            table.add_column(header, no_wrap=True)
        table.add_column("Hands", justify="right")
        table.add_column("Result", no_wrap=True)
        for game in games:
            style = "green" if game.status.startswith("open") else ""
            table.add_row(*listed_cells(game), style=style)
        self.console.print(table)


def _table(keeper: Keeper, sheet: ScoreSheet, number: int) -> Table:
    names, count = sheet.names, sheet.column_count
    table = Table(
        title=sheet_title(keeper, number),
        title_justify="left",
        title_style="bold",
        box=box.SIMPLE_HEAD,
        caption=f"First dealer: {names[sheet.first_dealer]}",
        caption_justify="left",
    )
    table.add_column("Hand", justify="right")
    table.add_column("Dealer")
    upcards = keeper.hand_upcards(number) if keeper.rules.oklahoma else None
    if upcards is not None:
        table.add_column("Up")
    table.add_column("Result", no_wrap=True)
    for column in range(1, count + 1):
        for name in names:
            header = name if count == 1 else f"{name}\ng{column}"
            table.add_column(header, justify="right")
    for line in sheet.lines:
        cells: list[Text] = []
        for column in range(count):
            for seat in (0, 1):
                total = line.totals[column][seat]
                boxed = seat == line.winner and column + 1 in line.columns
                cells.append(Text(str(total), style="bold underline" if boxed else "dim"))
        # Under Hollywood "game 1 over" goes under the result: so wide a column left too little
        # room at 80 columns for the rest, whose headers were cut ("Deal…").
        result = sheet.result_text(line, closed=count == 1)
        if count > 1 and line.closed:
            result += "\n" + ", ".join(f"game {g} over" for g in line.closed)
        style = "" if line.winner is None else ("green" if line.winner == 0 else "magenta")
        up = [] if upcards is None else [str(upcards.get(line.number, ""))]
        table.add_row(str(line.number), names[line.dealer], *up, Text(result, style=style), *cells)
    table.add_section()
    blank = ["", ""] if upcards is None else ["", "", ""]
    if sheet.final is None:
        wins = boxes_so_far(sheet)
        table.add_row(*blank, "Boxes so far", *[str(w[s]) for w in wins for s in (0, 1)])
    else:
        _final_rows(table, sheet.final, blank)
    return table


def _final_rows(table: Table, final: GameFinal, blank: list[str]) -> None:
    table.add_row(
        *blank, "Hands won", *[str(p.hands_won) for c in final.columns for p in c.players]
    )
    for label, attr in _FINAL_ROWS:
        cells = [str(getattr(p, attr)) for c in final.columns for p in c.players]
        style = "bold" if attr == "total" else ""
        table.add_row(*blank, label, *cells, style=style)
