"""Saved games read back for the scorekeeper: a game's state and sheet, the list of saved games,
and a sheet to export.

A scorekeeper game's sheet is rebuilt from its entries; an online game's from its hands'
results, so the list and the exports cover both kinds. A scorekeeper game is exported whole
(:mod:`.exchange`), to be imported again; an online game, its sheet. The store is passed in
(these functions need no database package of their own).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from ..engine.game import Game
from ..engine.match import Match
from ..engine.serial import result_from_dict
from ..engine.sheet import MatchSheet, ScoreSheet
from .errors import KeeperError
from .exchange import GameRecord, to_csv, to_json
from .keeper import Keeper, Setup

if TYPE_CHECKING:
    from ..storage import GameInfo, SavedGame, Store

ExportFormat = Literal["json", "csv"]
EXPORT_FORMATS: tuple[ExportFormat, ...] = ("json", "csv")


@dataclass(frozen=True, slots=True)
class ListedGame:
    """A saved game as the list of saved games shows it."""

    id: str
    updated: datetime
    names: tuple[str, str]
    #: ``game`` or ``match``, after the kind for games not kept by the scorekeeper.
    mode: str
    hands: int
    #: ``open``, ``abandoned``, ``even``, or who won by how much: ``"Ann won +120"``.
    status: str


def is_edit(kind: str, data: Mapping[str, Any]) -> bool:
    """Whether a stored entry is the record of an edit, kept for undo: a note that changes no
    score, and is left out of an export (which holds the entries as they now are)."""
    return kind == "note" and isinstance(data.get("edit"), Mapping)


def keeper_of(saved: SavedGame) -> Keeper:
    """A scorekeeper game's state, replayed from its stored entries."""
    game = saved.game
    try:
        setup = Setup.from_stored(game.names, game.rules, game.options)
        return Keeper.replay(setup, ((e.kind, e.data) for e in saved.entries))
    except KeeperError as exc:
        raise KeeperError(f"game {game.id}: {exc}") from None


def sheet_of(saved: SavedGame) -> ScoreSheet | MatchSheet:
    """The sheet of a saved game: from the scorekeeper's entries, or an online game's hands."""
    game = saved.game
    if game.kind == "scorekeeper":
        keeper = keeper_of(saved)
        match = keeper.match_sheet()
        return match if match is not None else keeper.sheet()
    first = saved.hands[0].dealer if saved.hands else 0
    seed = game.seed or 0
    scored: Game | Match
    if game.options.get("mode") == "match" and game.rules.match_target:
        scored = Match(game.rules, seed, first_dealer=first)
    else:
        scored = Game(game.rules, seed, first_dealer=first)
    for hand in saved.hands:
        if hand.result is not None and not scored.is_over:
            scored.record(result_from_dict(hand.result))
    return scored.sheet(game.names)


def record_of(saved: SavedGame) -> GameRecord:
    """A scorekeeper game as :mod:`.exchange` writes it out."""
    game = saved.game
    try:
        setup = Setup.from_stored(game.names, game.rules, game.options)
    except KeeperError as exc:
        raise KeeperError(f"game {game.id}: {exc}") from None
    entries = tuple(
        (e.kind, e.data, e.created_at) for e in saved.entries if not is_edit(e.kind, e.data)
    )
    return GameRecord(setup, game.status, game.created_at, entries)


def export_text(saved: SavedGame, form: ExportFormat) -> str:
    """A saved game as JSON (ending in a newline) or CSV: a scorekeeper game whole, to be
    imported again (see :mod:`.exchange`); an online game's sheet."""
    if saved.game.kind == "scorekeeper":
        record = record_of(saved)
        keeper_of(saved)  # entries that cannot be replayed name the game
        return to_json(record) if form == "json" else to_csv(record)
    sheet = sheet_of(saved)
    return sheet.to_json() + "\n" if form == "json" else sheet.to_csv()


def listed_games(store: Store) -> list[ListedGame]:
    """Every saved game of both kinds, the latest first."""
    listed = []
    for game in store.list_games():
        saved = store.load_game(game.id)
        if saved is None:
            continue
        hands = (
            sum(1 for e in saved.entries if e.kind == "result")
            if game.kind == "scorekeeper"
            else sum(1 for h in saved.hands if h.result is not None)
        )
        listed.append(
            ListedGame(game.id, game.updated_at, game.names, _mode(game), hands, _status(game))
        )
    return listed


def _mode(game: GameInfo) -> str:
    mode = str(game.options.get("mode", "game"))
    return mode if game.kind == "scorekeeper" else f"{game.kind} {mode}"


def _status(game: GameInfo) -> str:
    if game.status != "finished" or game.final is None:
        return game.status
    winner = game.winner
    if winner is None:
        return "even"
    net = game.final.get("net")
    return f"{game.names[winner]} won" + (f" +{net}" if net is not None else "")
