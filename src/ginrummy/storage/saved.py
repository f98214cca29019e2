"""Saved games as the store hands them out: plain frozen records, never ORM objects.

JSON fields (``options``, ``final``, hand results, entry data) are fresh copies owned by the
caller.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from ..engine.results import HandResult
from ..engine.rules import Rules
from ..engine.serial import result_from_dict


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    id: int
    name: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's row: who plays it under which rules, and where it stands."""

    id: str
    kind: str
    status: str
    rules: Rules
    seed: int | None
    names: tuple[str, str]
    player_ids: tuple[int | None, int | None]
    options: dict[str, Any]
    winner: int | None
    final: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime

    @property
    def is_open(self) -> bool:
        return self.status == "open"


@dataclass(frozen=True, slots=True)
class SeatedGame:
    """What a list of someone's games shows: a game's row without its rules, and their seat."""

    id: str
    status: str
    names: tuple[str, str]
    options: dict[str, Any]
    winner: int | None
    #: The finished game's summary (its final's ``"final"`` part: winner, net, totals, ...),
    #: not its whole score sheet; None while the game is open.
    summary: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    seat: int


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    token_hash: str
    player_id: int | None
    created_at: datetime
    #: Whose seat it is (:meth:`~ginrummy.storage.writer.Writer.claim_seat`): the hash of a
    #: browser's player cookie, or None.
    owner: str | None = None


@dataclass(frozen=True, slots=True)
class ActionInfo:
    seq: int
    seat: int | None
    text: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class HandInfo:
    """An online hand. ``deck`` is the 52 cards top first: keep it secret until the hand ends."""

    number: int
    game_number: int
    dealer: int
    deck: str
    salt: str
    commitment: str
    result: dict[str, Any] | None
    started_at: datetime
    ended_at: datetime | None
    actions: tuple[ActionInfo, ...]

    @property
    def hand_result(self) -> HandResult | None:
        return None if self.result is None else result_from_dict(self.result)


@dataclass(frozen=True, slots=True)
class EntryInfo:
    """One thing the scorekeeper was told, ``seq`` from 1 in the order it was told."""

    seq: int
    kind: str
    data: dict[str, Any]
    created_at: datetime


@dataclass(frozen=True, slots=True)
class SavedGame:
    """A game with everything stored under it."""

    game: GameInfo
    seats: tuple[SeatInfo, ...]
    hands: tuple[HandInfo, ...]
    entries: tuple[EntryInfo, ...]


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's record over every stored game he sat in (by player id, or by name where the
    seat has no player).

    ``games`` counts finished games, ``wins`` and ``losses`` those he won and lost (a game
    finished even is neither); hands count every scored or dead
    hand (online hands and scorekeeper results alike); ``gins`` include big gins; ``undercuts``
    are the hands he won by undercutting; ``points`` are the hand points he scored.
    """

    name: str
    games: int
    wins: int
    hands: int
    hands_won: int
    gins: int
    undercuts: int
    points: int
    losses: int = 0

    @property
    def average_points(self) -> float:
        """Hand points scored per hand played (0 with no hands)."""
        return self.points / self.hands if self.hands else 0.0
