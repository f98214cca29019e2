"""How ``ginrummy score`` shows things: the :class:`View` it talks to, and the plain-text one.

The Rich one (tables, colour) is in :mod:`.scorerich`; ``score.make_view`` picks it when Rich
is installed. Both views print to standard output, messages and errors alike, so a transcript
of a piped session reads in order. What they say comes from ``ginrummy.scorekeeper.report``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Protocol, TextIO

from ..engine.rules import Rules
from ..scorekeeper.keeper import Keeper
from ..scorekeeper.report import boxes_so_far, match_lines, ruling_lines, upcard_line
from ..scorekeeper.saved import ListedGame


class View(Protocol):
    def say(self, text: str, style: str = "") -> None: ...

    def error(self, text: str) -> None: ...

    def sheet(self, keeper: Keeper, number: int | None = None) -> None: ...

    def match(self, keeper: Keeper) -> None: ...

    def rules(self, rules: Rules, *, match: bool) -> None: ...

    def games(self, games: Sequence[ListedGame]) -> None: ...


# -- what both views show -----------------------------------------------------------------------


def listed_cells(game: ListedGame) -> tuple[str, str, str, str, str, str]:
    """A saved game's cells in the list: id, when it changed (local time), players, mode,
    hands and result."""
    updated = game.updated.astimezone().strftime("%Y-%m-%d %H:%M")
    players = f"{game.names[0]} v {game.names[1]}"
    return (game.id, updated, players, game.mode, str(game.hands), game.status)


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
            each = [", ".join(f"{keeper.names[s]} {w[s]}" for s in (0, 1)) for w in wins]
            if len(each) > 1:  # Hollywood: which game's boxes
                each = [f"game {g}: {text}" for g, text in enumerate(each, 1)]
            boxes = "; ".join(each)
            self._print(f"Boxes so far: {boxes}")
        upcards = upcard_line(keeper, number)
        if upcards:
            self._print(upcards)
        rulings = ruling_lines(keeper, number)
        if rulings:
            self._print("Rulings:")
            for line in rulings:
                self._print(f"  {line}")
        self._print()

    def match(self, keeper: Keeper) -> None:
        for line in match_lines(keeper):
            self._print(line)

    def rules(self, rules: Rules, *, match: bool) -> None:
        name = rules.replace(stake=0).preset_name()  # a stake is said below it
        self._print(f"Rules{f' ({name})' if name else ''}:")
        for line in rules.describe(match=match).splitlines():
            self._print(f"  {line}")

    def games(self, games: Sequence[ListedGame]) -> None:
        if not games:
            self._print("No saved games.")
            return
        headers = ("ID", "Updated", "Players", "Mode", "Hands", "Result")
        table = [headers, *(listed_cells(game) for game in games)]
        widths = [max(len(row[i]) for row in table) for i in range(len(headers))]
        for row in table:
            self._print(
                "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            )
