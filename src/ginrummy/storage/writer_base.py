"""What every part of :class:`~ginrummy.storage.writer.Writer` stands on: the transaction's
session, the game's row locked once per transaction, the flush that reports a clash, and the
checks of what a caller gives (names, seats, token hashes, times, JSON).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from .errors import ConflictError, NotFoundError
from .models import (
    GameRow,
    HandRow,
)

_HEX64 = re.compile(r"[0-9a-f]{64}")


class WriterBase:
    """The session and the row locking of :class:`~ginrummy.storage.writer.Writer` (see its
    docstring); each part of the write interface is a subclass of this."""

    def __init__(self, session: Session) -> None:
        self._session = session
        #: Whether to lock rows (SQLite has no FOR UPDATE: its writers already take turns).
        self._lock_rows = session.get_bind().dialect.name != "sqlite"
        self._locked: set[str] = set()

    # -- helpers -------------------------------------------------------------------------

    def _game(self, game_id: str) -> GameRow:
        """The game's row, locked for this transaction (see the class docstring)."""
        if not isinstance(game_id, str):
            raise NotFoundError(f"there is no game {game_id!r}")
        lock = self._for_update() if game_id not in self._locked else None
        row = self._session.get(GameRow, game_id, with_for_update=lock)
        if row is None:
            raise NotFoundError(f"there is no game {game_id!r}")
        if lock:
            self._locked.add(game_id)
        return row

    def _for_update(self) -> bool | None:
        """``with_for_update`` for a row this transaction is about to change."""
        return True if self._lock_rows else None

    def _hand(self, game_id: str, number: int) -> tuple[GameRow, HandRow]:
        game = self._game(game_id)
        row = self._session.get(HandRow, (game_id, number))
        if row is None:
            raise NotFoundError(f"game {game_id} has no hand {number!r}")
        return game, row

    def _flush(self, why: str) -> None:
        try:
            self._session.flush()
        except IntegrityError as exc:
            raise ConflictError(why) from exc


def _name(name: object) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ValueError(f"a name must be non-empty text, not {name!r}")
    name = name.strip()
    if len(name) > 64:
        raise ValueError(f"a name has at most 64 characters: {name[:20]!r}...")
    return name


def _open(game: GameRow, what: str) -> GameRow:
    """``game`` if it is open; :class:`ConflictError` if it is over or closed (a write that
    was on its way as it closed: the game is kept as it ended)."""
    if game.status != "open":
        raise ConflictError(f"game {game.id} is {game.status}: it {what}")
    return game


def _hashes(*values: str) -> None:
    for value in values:
        if not isinstance(value, str) or not _HEX64.fullmatch(value):
            raise ValueError("a token hash is the 64 lowercase hex digits of a SHA-256")


def _seat(seat: object) -> int:
    if isinstance(seat, bool) or seat not in (0, 1):
        raise ValueError(f"a seat is 0 or 1, not {seat!r}")
    return int(seat)


def _aware(when: datetime) -> datetime:
    if not isinstance(when, datetime) or when.tzinfo is None:
        raise ValueError(f"a time must be a timezone-aware datetime, not {when!r}")
    return when


def _json(data: Mapping[str, Any], what: str) -> dict[str, Any]:
    """A JSON-safe deep copy of ``data`` (so later changes by the caller are not stored)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{what} must be a mapping, not {type(data).__name__}")
    try:
        copy = json.loads(json.dumps(dict(data), allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{what} must be JSON data: {exc}") from None
    assert isinstance(copy, dict)
    return copy


def options_hold(options: Mapping[str, Any] | None, items: Mapping[str, Any] | None) -> bool:
    """Whether a game's ``options`` hold every one of ``items`` (none given: False)."""
    return bool(items) and all((options or {}).get(k) == v for k, v in (items or {}).items())


def seat_moves(options: Mapping[str, Any] | None) -> list[int]:
    """How many times each seat of a game moved to another browser (:meth:`Writer.move_seat`),
    from its stored options."""
    stored = (options or {}).get("seat_moves")
    if not isinstance(stored, list) or len(stored) != 2:
        return [0, 0]
    return [int(n) if isinstance(n, int) else 0 for n in stored]
