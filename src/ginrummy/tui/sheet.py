"""The score sheet and the final summary as lines of text, from the table's ``sheet`` and
``final`` in a state message (a game's sheet, or a match's: each game's sheet and the match
lines), the same data the web page draws its sheet from (``engine/sheet.py``'s ``to_dict``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .words import Namer, final_line, marked_names

COUNTS = {2: "two", 3: "three", 4: "four"}
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


def game_sheet_lines(
    sheet: Mapping[str, Any], names: Sequence[str], width: int | None = None
) -> list[str]:
    """One game's sheet: a line a hand, with every column's running totals, in a column a
    player where that fits ``width``. Otherwise, and always under Hollywood (six named columns
    do not fit 80), a game's scores are one cell, "12–30", the first name's first as the title
    line writes them; where even that does not fit, a hand takes two lines: its result, then
    the scores."""
    columns = int(sheet.get("columns") or 1)
    hands = sheet.get("hands") or []
    out = [f"Game to {sheet.get('game_target', '?')}"]
    if columns > 1:
        out[0] += f", {COUNTS.get(columns, columns)} games scored at once (Hollywood)"
    results = [_result_cells(line, names) for line in hands]
    pairs = [[_pair(pair) for pair in line["totals"]] for line in hands]
    head = ["#", "Won by", "How", "Points"]
    lines: list[str] = []
    if columns == 1:
        rows = [[*head, *names[:2]]]
        for cells, line in zip(results, hands, strict=True):
            rows.append([*cells, *map(str, line["totals"][0])])
        lines = _table(rows, 3)
    if not _fits(lines, width):
        out.append(f"Each score: {names[0]} – {names[1]}")
        scores = ["Score"] if columns == 1 else [f"Game {g}" for g in range(1, columns + 1)]
        rows = [[*head, *scores], *(r + p for r, p in zip(results, pairs, strict=True))]
        lines = _table(rows, 3)
    if not _fits(lines, width):
        lines = []
        for line, cells in zip(hands, pairs, strict=True):
            winner = line.get("winner")
            won = "" if winner is None else f"{names[winner]}: "
            points = "" if winner is None else f" +{line['points']}"
            lines.append(f"{line['number']}. {won}{line['how']}{points}")
            if columns > 1:
                cells = [f"g{g} {cell}" for g, cell in enumerate(cells, 1)]
            lines.append("   " + "  ".join(cells))
    out += lines
    if not hands:
        out.append("No hands scored yet.")
    elif not sheet.get("final") and any(any(pair) for pair in sheet.get("boxes") or []):
        out.append(boxes_line(sheet["boxes"], names))
    return out


def _result_cells(line: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    winner = line.get("winner")
    won = "—" if winner is None else str(names[winner])
    return [str(line["number"]), won, str(line["how"]), str(line["points"])]


def _fits(lines: Sequence[str], width: int | None) -> bool:
    """Whether lines of a table are all there (the Hollywood sheet is never drawn with a
    column a player) and none is wider than ``width``."""
    return bool(lines) and (width is None or max(map(len, lines)) <= width)


def _pair(pair: Sequence[int]) -> str:
    return f"{pair[0]}–{pair[1]}"


def boxes_line(boxes: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    """The boxes (line bonuses) a game's players have earned so far, column by column."""

    def each(pair: Sequence[int]) -> str:
        return f"{names[0]} {pair[0]}, {names[1]} {pair[1]}"

    if len(boxes) == 1:
        text = each(boxes[0])
    else:
        text = "; ".join(f"game {i}: {each(pair)}" for i, pair in enumerate(boxes, 1))
    return f"Boxes so far, added when the game ends: {text}."


def sheet_lines(table: Mapping[str, Any], width: int | None = None) -> list[str]:
    """The table's score sheet: a game's, or a match's games and its running match points;
    narrower than ``width`` where it can be (see :func:`game_sheet_lines`)."""
    sheet = table.get("sheet") or {}
    names = marked_names(table)
    if "games" not in sheet:
        return game_sheet_lines(sheet, names, width)
    out: list[str] = []
    games = sheet.get("games") or []
    for number, game in enumerate(games, 1):
        out.append(f"Game {number}")
        out += game_sheet_lines(game, names, width)
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
    if len(rows) == 1:
        return [*out, "No game finished yet."]
    lines = _table(rows, 2)
    if width is not None and max(len(x) for x in lines) > width:  # the match points as a pair
        pairs = [[*row[:3], f"{row[3]}–{row[4]}"] for row in rows[1:]]
        lines = _table([["Game", "Won by", "Net", "Points"], *pairs], 2)
        out.append(f"Match points: {names[0]} – {names[1]}")
    return out + lines


def final_lines(
    table: Mapping[str, Any], n: Namer, *, headings: bool = True, width: int | None = None
) -> list[str]:
    """Once a game is over: its summary rows and who wins it by how much. Once the match is
    over: the same for its last game (as said at the end of every other game of the match),
    then who wins the match by how much. ``headings``: each part under "Game over" or "Match
    over" (and a blank line between them). Where a column a player is wider than ``width``
    (a long name), each row's totals are one cell, "12–30", the first name's first."""
    final = table.get("final")
    if not final:
        return []
    if "games" not in final:
        return _game_final_lines(final, table, n, headings, width)
    games = final.get("games") or []
    out = _game_final_lines(games[-1], table, n, headings, width) if games else []
    if headings:
        out += [""] * bool(out) + ["Match over"]
    out.append(final_line(final, n, "match"))
    return out


def final_sentences(table: Mapping[str, Any], n: Namer) -> list[str]:
    """Who wins by how much, once it is over: the game; the last game, then the match. The
    stake is settled by the game, or in a match once by the match (never by its games)."""
    final = table.get("final")
    if not final:
        return []
    if "games" not in final:
        return [final_line(final, n, "game", settles=not in_match(table))]
    games = final.get("games") or []
    last = [final_line(games[-1], n, "game", settles=False)] if games else []
    return [*last, final_line(final, n, "match")]


def _game_final_lines(
    final: Mapping[str, Any],
    table: Mapping[str, Any],
    n: Namer,
    heading: bool,
    width: int | None = None,
) -> list[str]:
    out = ["Game over"] if heading else []
    players = final.get("players")
    if players:
        names = marked_names(table)
        rows = [["", names[0], names[1]]]
        rows += [[label, str(players[0][key]), str(players[1][key])] for label, key in FINAL_ROWS]
        lines = _table(rows, 1)
        if not _fits(lines, width):
            out.append(f"Each total: {names[0]} – {names[1]}")
            pairs = [
                [label, _pair((players[0][key], players[1][key]))] for label, key in FINAL_ROWS
            ]
            lines = _table(pairs, 1)
        out += lines
    out.append(final_line(final, n, "game", settles=not in_match(table)))
    return out


def in_match(table: Mapping[str, Any]) -> bool:
    """Whether the table plays a match (whose games settle no stake of their own)."""
    return bool((table.get("options") or {}).get("match"))
