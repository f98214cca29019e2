"""The leases by which many server instances share one database: each game is applied by
one instance at a time, and every write of a game is fenced by its lease's epoch. A part of
:class:`~ginrummy.storage.writer.Writer`.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import timedelta
from typing import Final

from sqlalchemy import bindparam, select, tuple_, update

from .errors import LeaseLost, NotFoundError
from .models import (
    GameRow,
    LeaseRow,
    utcnow,
)
from .writer_base import WriterBase

#: Leases renewed by one statement (two parameters each, well under every database's limit).
RENEW_BATCH = 500

# check_lease's: the game's row locked (SQLite has no FOR UPDATE, and SQLAlchemy leaves it
# out there: its writers take turns anyway), and the lease read.
_LOCK_GAME: Final = select(GameRow.id).where(GameRow.id == bindparam("game")).with_for_update()
_LEASE_OF: Final = select(LeaseRow.holder, LeaseRow.epoch).where(
    LeaseRow.game_id == bindparam("game")
)


class Leases(WriterBase):
    """The leases' writes (see :class:`~ginrummy.storage.writer.Writer` for the transaction)."""

    # -- leases (many server instances, one database) -------------------------------------

    def take_lease(self, game_id: str, holder: str, seconds: float) -> int | None:
        """Make ``holder`` the instance that applies the game's moves for ``seconds``: the
        lease's epoch (a fencing token for :meth:`check_lease`), or None while another
        holder's lease has not expired. Taken from a holder whose lease ran out, the epoch
        grows by one, so that every write the old holder planned is refused from then on.

        The game's row is locked first, as for every write to the game, so that taking a
        lease and a write checking it take turns: a write that passed its check is committed
        before the lease can change hands."""
        self._game(game_id)
        now = utcnow()
        row = self._session.get(LeaseRow, game_id)
        until = now + timedelta(seconds=seconds)
        if row is None:
            self._session.add(LeaseRow(game_id=game_id, holder=holder, epoch=1, expires=until))
        elif row.holder == holder:
            row.expires = until
        elif row.expires <= now:
            row.holder, row.epoch, row.expires = holder, row.epoch + 1, until
        else:
            return None
        self._flush("the lease changed meanwhile")
        epoch = 1 if row is None else row.epoch
        return epoch

    def renew_leases(self, holder: str, epochs: Mapping[str, int], seconds: float) -> list[str]:
        """Extend ``holder``'s leases (game id -> epoch) by ``seconds`` from now; the games
        whose lease has changed hands since are returned (their tables must be let go).

        One statement for up to ``RENEW_BATCH`` leases, not one each: an instance renews every
        lease it holds every second, and a renewal that takes longer than the lease lets the
        other instances take its tables over."""
        until = utcnow() + timedelta(seconds=seconds)
        pairs = sorted(epochs.items())
        renewed: set[str] = set()
        for start in range(0, len(pairs), RENEW_BATCH):
            batch = pairs[start : start + RENEW_BATCH]
            still = tuple_(LeaseRow.game_id, LeaseRow.epoch).in_(batch)
            rows = self._session.execute(
                update(LeaseRow)
                .where(LeaseRow.holder == holder, still)
                .values(expires=until)
                .returning(LeaseRow.game_id),
                execution_options={"synchronize_session": False},
            )
            renewed.update(rows.scalars())
        return [game_id for game_id, _epoch in pairs if game_id not in renewed]

    def release_lease(self, game_id: str, holder: str, epoch: int) -> None:
        """Let the game go: its lease expires now, so any instance may take it at once."""
        self._session.execute(
            update(LeaseRow)
            .where(LeaseRow.game_id == game_id, LeaseRow.holder == holder, LeaseRow.epoch == epoch)
            .values(expires=utcnow())
        )

    def check_lease(self, game_id: str, holder: str, epoch: int) -> None:
        """Refuse (:class:`LeaseLost`) a write to the game unless ``holder`` still holds its
        lease at ``epoch``; the game's row stays locked to the end of the transaction, so the
        lease cannot change hands before the write commits. An expired lease nobody has taken
        over still counts: no other instance can have written meanwhile."""
        # Core statements made once, not the ORM: with many instances this check comes with
        # every move.
        connection = self._session.connection()
        if game_id not in self._locked:
            if connection.execute(_LOCK_GAME, {"game": game_id}).first() is None:
                raise NotFoundError(f"there is no game {game_id!r}")
            self._locked.add(game_id)
        row = connection.execute(_LEASE_OF, {"game": game_id}).first()
        if row is None or row.holder != holder or row.epoch != epoch:
            raise LeaseLost(f"game {game_id} is now applied by another server instance")
