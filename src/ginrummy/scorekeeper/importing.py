"""A scorekeeper game read back from the JSON or CSV that :mod:`.exchange` writes.

The game is rebuilt from what was typed: each entry's text is read again as at the prompt
(an irregularity's with the seat that dealt), so a file cannot smuggle in a score that its
entries do not give. Everything else in the file (the dealers, points, totals, rulings, the
status) is then checked against the rebuilt game, and the first difference is an
:class:`ImportFileError` naming the line (CSV) or the field (JSON). Nothing is stored here:
:meth:`Session.imported` stores the game read.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..engine.cards import Card
from ..engine.errors import GinRummyError
from ..engine.rules import Rules
from ..engine.rulings import parse_irregularity
from .entries import ResultEntry, parse_entry
from .errors import ImportFileError, ScorekeeperError
from .exchange import (
    COLUMNS,
    FORMAT,
    STATUSES,
    VERSION,
    GameRecord,
    csv_rows,
    document,
    parse_date,
)
from .keeper import MODES, Keeper, Setup
from .newgame import check_name


@dataclass(frozen=True, slots=True)
class _Told:
    """One entry as a file gives it; ``where`` names it in an error."""

    where: str
    kind: str
    text: str
    when: datetime
    dealt_by: int | None


def read_game(text: str, form: str) -> GameRecord:
    """The game in ``text``, a file in ``form`` (``json`` or ``csv``)."""
    return _from_json(text) if form == "json" else _from_csv(text)


# -- what both forms share -----------------------------------------------------------------------


def _fail(where: str, why: object) -> ImportFileError:
    return ImportFileError(f"{where}: {why}")


def _setup(where: Mapping[str, str], values: Mapping[str, Any], rules: Rules) -> Setup:
    names: list[str] = []
    for i, name in enumerate(values["players"]):
        try:
            names.append(check_name(str(name), names[0] if i else None))
        except ScorekeeperError as exc:
            raise _fail(where["players"][i], exc) from None
    pair = (names[0], names[1])
    mode = values["mode"]
    if mode not in MODES:
        raise _fail(where["mode"], f"the mode is game or match, not {mode!r}")
    if mode == "match" and not rules.match_target:
        raise _fail(where["mode"], "these rules play no match (match_target is 0)")
    dealer = _seat(where["first_dealer"], values["first_dealer"], pair)
    cuts = []
    for i, cut in enumerate(values["cuts"]):
        try:
            a, b = (Card.parse(str(c)) for c in cut)
        except (GinRummyError, TypeError, ValueError):
            raise _fail(where["cuts"][i], f"a cut is two cards, not {cut!r}") from None
        cuts.append((a, b))
    return Setup(pair, rules, str(mode), dealer, tuple(cuts))


def _seat(where: str, name: object, names: tuple[str, str]) -> int:
    if isinstance(name, str) and name in names:
        return names.index(name)
    raise _fail(where, f"{name!r} is neither {names[0]} nor {names[1]}")


def _date(where: str, text: object) -> datetime:
    try:
        return parse_date(str(text))
    except ValueError:
        raise _fail(where, f"{text!r} is not a date like 2026-03-01T20:09:00Z") from None


def _rebuild(
    setup: Setup, status: object, where: str, started: datetime, told: Iterable[_Told]
) -> GameRecord:
    """The game the entries give, each read again as typed."""
    if status not in STATUSES:
        raise _fail(where, f"the status is one of {', '.join(STATUSES)}, not {status!r}")
    keeper = Keeper(setup)
    entries: list[tuple[str, Mapping[str, Any], datetime]] = []
    for entry in told:
        data = _entry_data(keeper, entry)
        keeper.apply(entry.kind, data)
        entries.append((entry.kind, data, entry.when))
    if status == "abandoned" and keeper.is_over:
        raise _fail(where, "a game that is over cannot be abandoned")
    rebuilt = "abandoned" if status == "abandoned" else "finished" if keeper.is_over else "open"
    return GameRecord(setup, rebuilt, started, tuple(entries))


def _entry_data(keeper: Keeper, entry: _Told) -> Mapping[str, Any]:
    if keeper.is_over:
        raise _fail(entry.where, "an entry after the end of the game")
    if entry.kind == "result":
        try:
            parsed = parse_entry(entry.text, keeper)
        except ScorekeeperError as exc:
            raise _fail(entry.where, f"{entry.text!r}: {exc}") from None
        if not isinstance(parsed, ResultEntry):
            raise _fail(entry.where, f"{entry.text!r} is not a hand's result")
        return keeper.result_data(parsed.result, entry.text, parsed.upcard)
    if entry.kind == "irregularity" and entry.dealt_by is not None:
        try:
            ruling = parse_irregularity(entry.text, entry.dealt_by)
        except GinRummyError as exc:
            raise _fail(entry.where, f"{entry.text!r}: {exc}") from None
        return keeper.ruling_data(ruling, entry.text, entry.dealt_by)
    raise _fail(entry.where, f"an entry is a result or an irregularity, not {entry.kind!r}")


# -- JSON ----------------------------------------------------------------------------------------


def _from_json(text: str) -> GameRecord:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(f"line {exc.lineno}", f"not JSON ({exc.msg})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise _fail("format", f"not a {FORMAT} file (export one with 'ginrummy score --export')")
    if doc.get("version") != VERSION:
        raise _fail("version", f"version {VERSION} is read, not {doc.get('version')!r}")
    fields = ("players", "mode", "first_dealer", "cuts", "status", "started", "rules", "entries")
    for field in fields:
        if field not in doc:
            raise _fail(field, "missing")
    players, cuts, entries = doc["players"], doc["cuts"], doc["entries"]
    if not isinstance(players, list) or len(players) != 2:
        raise _fail("players", f"two names, not {players!r}")
    if not isinstance(cuts, list):
        raise _fail("cuts", f"a list of cuts, not {cuts!r}")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise _fail("entries", "a list of entries, each an object")
    try:
        rules = Rules.from_dict(doc["rules"])
    except (GinRummyError, TypeError, ValueError) as exc:
        raise _fail("rules", exc) from None
    where = {f: f for f in fields} | {
        "players": ["players[0]", "players[1]"],
        "cuts": [f"cuts[{i}]" for i in range(len(cuts))],
    }
    setup = _setup(where, doc, rules)  # type: ignore[arg-type]
    told = [_json_entry(f"entries[{i}]", e, setup.names) for i, e in enumerate(entries)]
    record = _rebuild(setup, doc["status"], "status", _date("started", doc["started"]), told)
    difference = _difference(doc, document(record), "")
    if difference is not None:
        raise difference
    return record


def _json_entry(where: str, entry: Mapping[str, Any], names: tuple[str, str]) -> _Told:
    kind, text = entry.get("kind"), entry.get("text")
    if not isinstance(text, str):
        raise _fail(f"{where}.text", f"the entry as typed, not {text!r}")
    dealt_by = None
    if kind == "irregularity":
        dealt_by = _seat(f"{where}.dealt_by", entry.get("dealt_by"), names)
    return _Told(where, str(kind), text, _date(f"{where}.date", entry.get("date")), dealt_by)


def _difference(given: object, rebuilt: object, path: str) -> ImportFileError | None:
    """Where ``given`` (the file) first differs from ``rebuilt`` (what its entries give)."""
    if isinstance(rebuilt, dict) and isinstance(given, dict):
        for key in [*rebuilt, *(k for k in given if k not in rebuilt)]:
            if key not in given or key not in rebuilt:
                why = "missing" if key not in given else "not a field of this file"
                return _fail(f"{path}.{key}".lstrip("."), why)
            found = _difference(given[key], rebuilt[key], f"{path}.{key}")
            if found is not None:
                return found
        return None
    if isinstance(rebuilt, list) and isinstance(given, list) and len(given) == len(rebuilt):
        for i, (a, b) in enumerate(zip(given, rebuilt, strict=True)):
            found = _difference(a, b, f"{path}[{i}]")
            if found is not None:
                return found
        return None
    if given == rebuilt and type(given) is type(rebuilt):
        return None
    return _fail(path.lstrip("."), f"the file says {given!r}, but its entries give {rebuilt!r}")


# -- CSV -----------------------------------------------------------------------------------------


def _from_csv(text: str) -> GameRecord:
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(rows[0][: len(COLUMNS)]) != COLUMNS:
        raise _fail("line 1", f"not a {FORMAT} CSV (its header starts {','.join(COLUMNS[:4])})")
    width = len(rows[0])
    settings: dict[str, Any] = {"cuts": []}
    where: dict[str, Any] = {"cuts": []}
    changes: list[str] = []
    entries: list[dict[str, str]] = []
    for number, row in enumerate(rows[1:], 2):
        line = f"line {number}"
        if len(row) != width:
            raise _fail(line, f"{len(row)} cells, but the header has {width}")
        cells = dict(zip(COLUMNS, row, strict=False))
        kind, name, value = cells["record"], cells["name"], cells["value"]
        if kind == "setting":
            if name == "cut":
                settings["cuts"].append(value.split())
                where["cuts"].append(line)
            else:
                settings[name], where[name] = value, line
        elif kind == "rule":
            try:
                Rules.from_changes("standard", [f"{name}={value}"])
            except (GinRummyError, ValueError) as exc:
                raise _fail(line, exc) from None
            changes.append(f"{name}={value}")
        elif kind == "entry":
            entries.append({**cells, "where": line})
        elif kind not in ("total", "match"):
            raise _fail(line, f"unknown record {kind!r}")
    needed = ("format", "player 1", "player 2", "mode", "first dealer", "status", "started")
    for name in needed:
        if name not in settings:
            raise _fail("line 2", f"the setting {name!r} is missing")
    if settings["format"] != f"{FORMAT} {VERSION}":
        raise _fail(
            where["format"], f"the format is {FORMAT} {VERSION}, not {settings['format']!r}"
        )
    rules = Rules.from_changes("standard", changes)
    values = {
        "players": [settings["player 1"], settings["player 2"]],
        "mode": settings["mode"],
        "first_dealer": settings["first dealer"],
        "cuts": settings["cuts"],
    }
    places = {
        "players": [where["player 1"], where["player 2"]],
        "mode": where["mode"],
        "first_dealer": where["first dealer"],
        "cuts": where["cuts"],
    }
    setup = _setup(places, values, rules)
    told = [_csv_entry(e, setup.names) for e in entries]
    started = _date(where["started"], settings["started"])
    record = _rebuild(setup, settings["status"], where["status"], started, told)
    _compare_rows(rows, csv_rows(record))
    return record


def _csv_entry(cells: Mapping[str, str], names: tuple[str, str]) -> _Told:
    where = cells["where"]
    dealt_by = None
    if cells["name"] == "irregularity":
        dealt_by = _seat(where, cells["dealer"], names)
    return _Told(where, cells["name"], cells["text"], _date(where, cells["date"]), dealt_by)


def _compare_rows(given: Sequence[Sequence[str]], rebuilt: Sequence[Sequence[str]]) -> None:
    header = rebuilt[0]
    for number, (a, b) in enumerate(zip(given, rebuilt, strict=False), 1):
        for column, (x, y) in enumerate(zip(a, b, strict=False)):
            if x != y:
                raise _fail(
                    f"line {number}",
                    f"{header[column]} is {x!r} in the file, but its entries give {y!r}",
                )
        if len(a) != len(b):
            raise _fail(f"line {number}", f"{len(a)} cells, but its entries give {len(b)}")
    if len(given) != len(rebuilt):
        number = min(len(given), len(rebuilt)) + 1
        why = "is not what its entries give" if len(given) > len(rebuilt) else "is missing"
        raise _fail(f"line {number}", f"this line {why}")
