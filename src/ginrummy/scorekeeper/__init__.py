"""The scorekeeper: the score of a game played with real cards, kept from what the players say.

The players say how each hand ended (``"ann knock 7 bob 23"``, ``"bob gin 41"``, ``"dead"``)
or what went wrong (``"wrong dealer"``); the scorekeeper turns that into the engine's results and
rulings, stores every entry, and keeps the sheet, boxes, bonuses and settlement by the engine's
rules. Any interface (the command line's ``ginrummy score`` today) asks the questions and shows
the answers; everything else is here:

* :mod:`.keeper`: :class:`Setup` (what a game is) and :class:`Keeper` (where it stands, rebuilt
  from the entries; who deals).
* :mod:`.entries`: the entry language, :func:`parse_entry`.
* :mod:`.newgame`: the answers that set a game up (names, game or match, the first dealer).
* :mod:`.session`: :class:`Session`, one game in a store: entries saved, then taken.
* :mod:`.saved`: saved games read back: their sheets, the list, exports as JSON or CSV.
* :mod:`.exchange` and :mod:`.importing`: a game written out whole (JSON or CSV), and read
  back into the same game.
* :mod:`.report`: what to say about a game, in lines of plain English.

This layer imports the engine and (for types only) storage: it is handed a store, so importing
it needs no database package. Rules are read from words by the engine (``Rules.from_words``).

Without a store, a game is a :class:`Keeper` told entries:

>>> from ginrummy.engine import Rules
>>> keeper = Keeper(Setup(("Ann", "Bob"), Rules.from_words("classic"), "game", first_dealer=0))
>>> entry = parse_entry("ann knock 7 bob 23", keeper)
>>> entry.summary
'Ann knocks with 7, Bob has 23: Ann scores 16.'
>>> keeper.apply("result", keeper.result_data(entry.result, "ann knock 7 bob 23"))
>>> sheet = keeper.sheet()
>>> sheet.result_text(sheet.lines[0]), keeper.names[keeper.dealer]
('Ann knock +16', 'Ann')

A :class:`Session` does the same through a store, saving each entry before it is taken.
"""

from .entries import (
    Command,
    EditEntry,
    Entry,
    IrregularityEntry,
    ResultEntry,
    help_text,
    parse_entry,
)
from .errors import (
    EntryError,
    ImportFileError,
    KeeperError,
    MissingGameError,
    ScorekeeperError,
    SetupError,
)
from .exchange import GameRecord
from .importing import read_game
from .keeper import Keeper, Ruled, Setup
from .saved import (
    EXPORT_FORMATS,
    ListedGame,
    export_text,
    keeper_of,
    listed_games,
    record_of,
    sheet_of,
)
from .session import Session, find_game, latest_open_game

__all__ = [
    "EXPORT_FORMATS",
    "Command",
    "EditEntry",
    "Entry",
    "EntryError",
    "GameRecord",
    "ImportFileError",
    "IrregularityEntry",
    "Keeper",
    "KeeperError",
    "ListedGame",
    "MissingGameError",
    "ResultEntry",
    "Ruled",
    "ScorekeeperError",
    "Session",
    "Setup",
    "SetupError",
    "export_text",
    "find_game",
    "help_text",
    "keeper_of",
    "latest_open_game",
    "listed_games",
    "parse_entry",
    "read_game",
    "record_of",
    "sheet_of",
]
