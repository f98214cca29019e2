"""The score sheet and the final summary as lines of text, from the table's ``sheet`` and
``final`` in a state message (a game's sheet, or a match's: each game's sheet and the match
lines), the same data the web page draws its sheet from (``engine/sheet.py``'s ``to_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .words import Namer, final_line, marked_names

FINAL_ROWS = (
    ("Hand points", "hand_points"),
    ("Boxes", "boxes"),
    ("Game bonus", "game_bonus"),
    ("Shutout", "shutout"),
    ("Total", "total"),
)


def _table(rows: Sequence[Sequence[str]], right: int) -> list[str]:
    """Rows as aligned columns: the first ``right`` columns left-aligned, the rest right."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for row in rows:
        cells = [
            cell.ljust(w) if i < right else cell.rjust(w)
            for i, (cell, w) in enumerate(zip(row, widths, strict=True))
        ]
        out.append("  ".join(cells).rstrip())
    return out


def game_sheet_lines(sheet: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """One game's sheet: a line a hand, with every column's running totals."""
    columns = int(sheet.get("columns") or 1)
    head = ["#", "Won by", "How", "Points"]
    for game in range(columns):
        suffix = f" g{game + 1}" if columns > 1 else ""
        head += [f"{names[0]}{suffix}", f"{names[1]}{suffix}"]
    rows = [head]
    for line in sheet.get("hands") or []:
        winner = line.get("winner")
        row = [
            str(line["number"]),
            "—" if winner is None else str(names[winner]),
            str(line["how"]),
            str(line["points"]),
        ]
        for pair in line["totals"]:
            row += [str(pair[0]), str(pair[1])]
        rows.append(row)
    out = [f"Game to {sheet.get('game_target', '?')}"]
    out += _table(rows, 3)
    if not sheet.get("hands"):
        out.append("No hands scored yet.")
    elif not sheet.get("final") and any(any(pair) for pair in sheet.get("boxes") or []):
        out.append(boxes_line(sheet["boxes"], names))
    return out


def boxes_line(boxes: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    """The boxes (line bonuses) a game's players have earned so far, column by column."""

    def each(pair: Sequence[int]) -> str:
        return f"{names[0]} {pair[0]}, {names[1]} {pair[1]}"

    if len(boxes) == 1:
        text = each(boxes[0])
    else:
        text = "; ".join(f"game {i}: {each(pair)}" for i, pair in enumerate(boxes, 1))
    return f"Boxes so far, added when the game ends: {text}."


def sheet_lines(table: Mapping[str, Any]) -> list[str]:
    """The table's score sheet: a game's, or a match's games and its running match points."""
    sheet = table.get("sheet") or {}
    names = marked_names(table)
    if "games" not in sheet:
        return game_sheet_lines(sheet, names)
    out: list[str] = []
    games = sheet.get("games") or []
    for number, game in enumerate(games, 1):
        out.append(f"Game {number}")
        out += game_sheet_lines(game, names)
        out.append("")
    rows = [["Game", "Won by", "Net", names[0], names[1]]]
    for line in sheet.get("lines") or []:
        winner = line.get("winner")
        rows.append(
            [
                str(line["number"]),
                "even" if winner is None else names[winner],
                str(line["net"]),
                str(line["totals"][0]),
                str(line["totals"][1]),
            ]
        )
    out.append(f"Match to {sheet.get('match_target', '?')}")
    out += _table(rows, 2) if len(rows) > 1 else ["No game finished yet."]
    return out


def final_lines(table: Mapping[str, Any], n: Namer) -> list[str]:
    """Once a game (or the match) is over: the summary rows and who wins by how much."""
    final = table.get("final")
    if not final:
        return []
    names = marked_names(table)
    what = "match" if "games" in final else "game"
    out = ["Match over" if what == "match" else "Game over"]
    players = final.get("players")
    if players:
        rows = [["", names[0], names[1]]]
        rows += [[label, str(players[0][key]), str(players[1][key])] for label, key in FINAL_ROWS]
        out += _table(rows, 1)
    out.append(final_line(final, n, what))
    return out
