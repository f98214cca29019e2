"""Rows to records: the only place ORM objects turn into what callers see."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from ..engine.errors import GinRummyError
from ..engine.rules import Rules
from .errors import StorageError
from .models import EntryRow, GameRow, HandRow, Player, SeatRow
from .saved import ActionInfo, EntryInfo, GameInfo, HandInfo, PlayerInfo, SeatInfo


def _copy(data: Mapping[str, Any] | None) -> dict[str, Any] | None:
    return None if data is None else json.loads(json.dumps(data))


def player_info(row: Player) -> PlayerInfo:
    return PlayerInfo(row.id, row.name, row.created_at)


def game_info(row: GameRow) -> GameInfo:
    try:
        rules = Rules.from_dict(row.rules)
    except GinRummyError as exc:
        raise StorageError(f"game {row.id} has rules this version cannot read: {exc}") from None
    return GameInfo(
        id=row.id,
        kind=row.kind,
        status=row.status,
        rules=rules,
        seed=row.seed,
        names=(row.name0, row.name1),
        player_ids=(row.player0_id, row.player1_id),
        options=_copy(row.options) or {},
        winner=row.winner,
        final=_copy(row.final),
        created_at=row.created_at,
        updated_at=row.updated_at,
    )


def seat_info(row: SeatRow) -> SeatInfo:
    return SeatInfo(row.seat, row.token_hash, row.player_id, row.created_at, row.owner)


def hand_info(row: HandRow) -> HandInfo:
    return HandInfo(
        number=row.number,
        game_number=row.game_number,
        dealer=row.dealer,
        deck=row.deck,
        salt=row.salt,
        commitment=row.commitment,
        result=_copy(row.result),
        started_at=row.started_at,
        ended_at=row.ended_at,
        actions=tuple(ActionInfo(a.seq, a.seat, a.action, a.created_at) for a in row.actions),
    )


def entry_info(row: EntryRow) -> EntryInfo:
    return EntryInfo(row.seq, row.kind, _copy(row.data) or {}, row.created_at)
