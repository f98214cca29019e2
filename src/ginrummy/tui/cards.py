"""Cards drawn with box characters, three lines tall, in groups that share their borders::

    ╭───┬───┬───╮ ╭───┬───╮
    │ A♠│ 2♠│ 3♠│ │ K♦│ 9♥│
    ╰───┴───┴───╯ ╰───┴───╯

Hearts and diamonds are red, spades and clubs black, on a white card; a face-down card is a
blue back. Where the terminal has no colours the selected card is still shown reversed. Each
drawing says which columns each card takes, so a mouse click can find its card.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from rich.style import Style
from rich.text import Text

from ..engine.cards import Card

FACE = Style(color="#111111", bgcolor="#f8f8f2")
RED = Style(color="#c1121f", bgcolor="#f8f8f2")
BACK = Style(color="#93c5fd", bgcolor="#1e3a8a")
EDGE = Style(color="#9ca3af")
SELECTED = Style(reverse=True, bold=True)
DRAWN = Style(underline=True, bold=True)
DIM = Style(dim=True)
#: Columns one card takes beyond the first border.
CELL = 4
ROWS = 3


def label(card: str) -> str:
    """A card's three columns: ``" K♦"``, ``"10♥"``."""
    return Card.parse(card).pretty().rjust(3)


def face_style(card: str) -> Style:
    return RED if card[1] in "hd" else FACE


@dataclass
class Drawing:
    """Rows of three lines of text and where each card is: (first column, last column + 1,
    card, row)."""

    lines: list[Text] = field(default_factory=lambda: [Text(), Text(), Text()])
    spans: list[tuple[int, int, str, int]] = field(default_factory=list)

    @property
    def width(self) -> int:
        return self.lines[0].cell_len

    def card_at(self, x: int, y: int = 0) -> str | None:
        for start, end, card, row in self.spans:
            if start <= x < end and row == y // ROWS:
                return card
        return None

    def gap(self, width: int = 1) -> None:
        for line in self.lines:
            line.append(" " * width)

    def text(self) -> Text:
        return Text("\n").join(self.lines)


class Joined(list[str | None]):
    """Cards laid off on the group before it (at the showdown, and while the defender lays
    off): drawn after a "+" instead of a gap, ``│ J♥│+│10♥│``."""


def group_width(count: int) -> int:
    """The columns a group of ``count`` cards takes."""
    return 1 + CELL * count


def fit_rows(
    groups: Sequence[Sequence[str | None]], width: int
) -> list[list[Sequence[str | None]]]:
    """The groups in rows that fit ``width`` columns: a group goes whole onto the next row
    when it does not fit where it would start, and is split only when wider than a row."""
    per_row = max(1, (width - 1) // CELL)
    rows: list[list[Sequence[str | None]]] = [[]]
    used = 0
    for group in (g for g in groups if g):
        rest = list(group)
        joined = isinstance(group, Joined)  # its "+" takes a column even first in a row
        while rest:
            gap = 1 if used or joined else 0
            room = (width - used - gap - 1) // CELL
            if used and room < min(len(rest), per_row):
                rows.append([])
                used, gap = 0, 1 if joined else 0
                room = (width - gap - 1) // CELL
            part: Sequence[str | None] = rest[: max(1, room)]
            rest = rest[max(1, room) :]
            if joined:
                part, joined = Joined(part), False
            rows[-1].append(part)
            used += gap + group_width(len(part))
    return rows


def draw_groups(
    groups: Sequence[Sequence[str | None]],
    *,
    selected: str | None = None,
    marked: str | None = None,
    dimmed: str | None = None,
    drawing: Drawing | None = None,
    width: int | None = None,
) -> Drawing:
    """Groups of cards side by side (``None`` is a card face down); ``selected`` is shown
    reversed, ``marked`` (the card just drawn) underlined, ``dimmed`` faint. With ``width``,
    in as many rows as it takes to fit that many columns."""
    if width is not None and width > 0 and drawing is None:
        rows = fit_rows(groups, width)
        out = Drawing(lines=[])
        for number, row in enumerate(rows):
            part = draw_groups(row, selected=selected, marked=marked, dimmed=dimmed)
            out.lines += part.lines
            out.spans += [(start, end, card, number) for start, end, card, _ in part.spans]
        return out if out.lines else Drawing()
    out = drawing if drawing is not None else Drawing()
    top, middle, bottom = out.lines
    for number, group in enumerate(g for g in groups if g):
        if isinstance(group, Joined):  # laid off on the group before
            for line, mark in zip(out.lines, (" ", "+", " "), strict=True):
                line.append(mark, EDGE)
        elif number or out.width:
            out.gap()
        top.append("╭" + "┬".join("───" for _ in group) + "╮", EDGE)
        bottom.append("╰" + "┴".join("───" for _ in group) + "╯", EDGE)
        middle.append("│", EDGE)
        for card in group:
            start = middle.cell_len
            if card is None:
                middle.append("▒▒▒", BACK)
            else:
                style = face_style(card)
                if card == selected:
                    style += SELECTED
                if card == marked:
                    style += DRAWN
                if card == dimmed:
                    style += DIM
                middle.append(label(card), style)
            middle.append("│", EDGE)
            if card is not None:
                out.spans.append((start - 1, start + 3, card, 0))
    return out
