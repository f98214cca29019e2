"""A scorekeeper game written out whole, as JSON or CSV, so that it can be read back
(:mod:`.importing`) into the very same game.

Both forms hold everything: the players, the rules (every option), single game or match, the
first dealer and the cut, the game's status and when it was started, every entry as it was
typed with its date (and the hand's upcard, the dealer, who won, how and the points; for an
irregularity the ruling), and what the entries add up to: each game's sheet, its final rows
and net, and the match's standing. Dates are UTC, to the second (``2026-03-01T20:09:00Z``).

CSV has one header, and every row is as long as it: the first cell says what the row is
(``setting``, ``rule``, ``entry``, ``total``, ``match``), and the cells that do not apply
are empty. The score columns at the end are the players (``Ann game 1`` and so on in
Hollywood): the running totals after a hand, a game's final rows, and the match points.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..engine.sheet import ScoreSheet
from .keeper import Keeper, Setup

FORMAT = "ginrummy-score"
VERSION = 1
DATE_FORMAT = "%Y-%m-%dT%H:%M:%SZ"
STATUSES = ("open", "finished", "abandoned")
#: The CSV's columns before the score columns.
COLUMNS = (
    "record",
    "name",
    "value",
    "game",
    "hand",
    "date",
    "dealer",
    "text",
    "upcard",
    "winner",
    "how",
    "points",
    "multiplier",
    "ruling",
)
FINAL_ROWS = ("hand_points", "hands_won", "boxes", "game_bonus", "shutout", "total")


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A scorekeeper game as it is written out: its setup, status, start and entries
    (kind, data, when told)."""

    setup: Setup
    status: str
    started: datetime
    entries: tuple[tuple[str, Mapping[str, Any], datetime], ...]

    def keeper(self) -> Keeper:
        return Keeper.replay(self.setup, ((kind, data) for kind, data, _ in self.entries))


def date_text(when: datetime) -> str:
    return when.astimezone(UTC).strftime(DATE_FORMAT)


def parse_date(text: str) -> datetime:
    """A date as :func:`date_text` writes it; raises ``ValueError``."""
    return datetime.strptime(text, DATE_FORMAT).replace(tzinfo=UTC)


# -- JSON ----------------------------------------------------------------------------------------


def to_json(record: GameRecord) -> str:
    return json.dumps(document(record), indent=1) + "\n"


def document(record: GameRecord) -> dict[str, Any]:
    """The whole game as JSON-safe data."""
    keeper = record.keeper()
    setup, names = record.setup, keeper.names
    match = keeper.match_sheet()
    return {
        "format": FORMAT,
        "version": VERSION,
        "players": list(names),
        "mode": setup.mode,
        "first_dealer": names[setup.first_dealer],
        "cuts": [[str(a), str(b)] for a, b in setup.cuts],
        "status": record.status,
        "started": date_text(record.started),
        "rules": setup.rules.to_dict(),
        "entries": [_entry(keeper, kind, data, when) for kind, data, when in record.entries],
        "games": [
            {
                **keeper.sheet(n).to_dict(),
                "upcards": {str(h): str(c) for h, c in sorted(keeper.hand_upcards(n).items())},
            }
            for n in _numbers(keeper)
        ],
        "match": None
        if match is None
        else {
            "match_target": match.match_target,
            "lines": [line.to_dict() for line in match.lines],
            "final": None if match.final is None else _match_final(match.final.to_dict()),
        },
    }


def _match_final(final: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in final.items() if k != "games"}  # the games are above


def _numbers(keeper: Keeper) -> list[int]:
    """The games with a sheet to show: every game with hands, and always the first."""
    return [n for n, g in enumerate(keeper.games, 1) if g.hands or n == 1]


def _entry(keeper: Keeper, kind: str, data: Mapping[str, Any], when: datetime) -> dict[str, Any]:
    names = keeper.names
    out: dict[str, Any] = {
        "date": date_text(when),
        "kind": kind,
        "game": data.get("game"),
        "hand": data.get("hand"),
        "text": data.get("text"),
    }
    if kind == "result":
        result = data["result"]
        winner = result.get("winner")
        out |= {
            "dealer": names[int(data["dealer"])],
            "upcard": data.get("upcard"),
            "winner": None if winner is None else names[int(winner)],
            "how": result["kind"],
            "points": result["points"],
            "multiplier": result.get("multiplier", 1),
        }
    elif kind == "irregularity":
        out |= {
            "dealt_by": names[int(data["dealt_by"])],
            "ruling": keeper.with_names(str(data["ruling"]["explanation"])),
        }
    return out


# -- CSV -----------------------------------------------------------------------------------------


def to_csv(record: GameRecord) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(csv_rows(record))
    return buffer.getvalue()


def csv_rows(record: GameRecord) -> list[list[str]]:
    """The CSV's rows, the header first; every row as long as the header."""
    keeper = record.keeper()
    doc = document(record)
    names = keeper.names
    columns = keeper.sheet(1).column_count
    scores = (
        list(names)
        if columns == 1
        else [f"{n} game {c}" for c in range(1, columns + 1) for n in names]
    )
    width = len(COLUMNS) + len(scores)

    def row(scores: Sequence[object] = (), **cells: object) -> list[str]:
        out = ["" if cells.get(c) is None else _cell(cells[c]) for c in COLUMNS]
        values = [_cell(v) for v in scores]
        return out + values + [""] * (width - len(out) - len(values))

    rows = [[*COLUMNS, *scores]]
    settings: list[tuple[str, object]] = [
        ("format", f"{FORMAT} {VERSION}"),
        ("player 1", names[0]),
        ("player 2", names[1]),
        ("mode", doc["mode"]),
        ("first dealer", doc["first_dealer"]),
        *(("cut", f"{a} {b}") for a, b in doc["cuts"]),
        ("status", doc["status"]),
        ("started", doc["started"]),
    ]
    rows += [row(record="setting", name=k, value=v) for k, v in settings]
    rows += [row(record="rule", name=k, value=v) for k, v in doc["rules"].items()]
    for entry in doc["entries"]:
        totals: Sequence[int] = ()
        if entry["kind"] == "result":
            line = keeper.sheet(entry["game"]).lines[entry["hand"] - 1]
            totals = [t[s] for t in line.totals for s in (0, 1)]
        cells = {k: v for k, v in entry.items() if k not in ("kind", "dealt_by")}
        cells["dealer"] = entry.get("dealer", entry.get("dealt_by"))
        rows.append(row(totals, record="entry", name=entry["kind"], **cells))
    for number in _numbers(keeper):
        rows += _final_rows(keeper.sheet(number), number, row)
    if doc["match"] is not None:
        for line in doc["match"]["lines"]:
            winner = None if line["winner"] is None else names[line["winner"]]
            rows.append(
                row(
                    record="match",
                    game=line["number"],
                    winner=winner,
                    points=line["net"],
                    scores=line["totals"],
                )
            )
        final = doc["match"]["final"]
        if final is not None:
            rows.append(
                row(
                    record="match",
                    name="result",
                    value=final["settlement"],
                    winner=names[final["winner"]],
                    points=final["net"],
                    scores=final["totals"],
                )
            )
    return rows


def _final_rows(sheet: ScoreSheet, number: int, row: Any) -> list[list[str]]:
    final = sheet.final
    if final is None:
        return []
    out = [
        row(
            record="total",
            name=attr.replace("_", " "),
            game=number,
            scores=[getattr(p, attr) for c in final.columns for p in c.players],
        )
        for attr in FINAL_ROWS
    ]
    winner = None if final.winner is None else sheet.names[final.winner]
    settlement = str(final.settlement) if sheet.settles else None
    out.append(
        row(
            record="total",
            name="net",
            value=settlement,
            game=number,
            winner=winner,
            points=final.net,
        )
    )
    return out


def _cell(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
