"""Saved games: players, games of both kinds, online hands with every action, and the
scorekeeper's entries, in SQLite by default or any database SQLAlchemy reaches.

Use :class:`Store`; it hands out the frozen records of :mod:`.saved`. The schema is kept
by the Alembic migrations shipped in ``migrations/`` and brought up to date on opening.
"""

from .database import ENV_VAR, default_path, resolve_url
from .errors import (
    ConflictError,
    DatabaseUnavailable,
    InvalidData,
    LeaseLost,
    NotFoundError,
    StorageError,
)
from .saved import (
    ActionInfo,
    EntryInfo,
    GameInfo,
    HandInfo,
    PlayerInfo,
    PlayerStats,
    SavedGame,
    SeatedGame,
    SeatInfo,
)
from .store import Store
from .writer import ENTRY_KINDS, Writer, new_game_id

__all__ = [
    "ENTRY_KINDS",
    "ENV_VAR",
    "ActionInfo",
    "ConflictError",
    "DatabaseUnavailable",
    "EntryInfo",
    "GameInfo",
    "HandInfo",
    "InvalidData",
    "LeaseLost",
    "NotFoundError",
    "PlayerInfo",
    "PlayerStats",
    "SavedGame",
    "SeatInfo",
    "SeatedGame",
    "StorageError",
    "Store",
    "Writer",
    "default_path",
    "new_game_id",
    "resolve_url",
]
