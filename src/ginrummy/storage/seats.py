"""The seats of a game between people: the tokens' hashes, the browser each seat lives in,
the invite that gives the second seat, and what a rematch carries over. A part of
:class:`~ginrummy.storage.writer.Writer`.
"""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy import select

from .errors import NotFoundError
from .models import (
    GameRow,
    SeatRow,
    utcnow,
)
from .writer_base import _HEX64, WriterBase, _hashes, _seat, seat_moves


class Seats(WriterBase):
    """The seats' writes (see :class:`~ginrummy.storage.writer.Writer` for the transaction)."""

    # -- seats ---------------------------------------------------------------------------

    def set_seat(
        self, game_id: str, seat: int, token_hash: str, player_id: int | None = None
    ) -> None:
        """Store (or replace) a seat's token hash and player."""
        _seat(seat)
        if not isinstance(token_hash, str) or not _HEX64.fullmatch(token_hash):
            raise ValueError("a token hash is the 64 lowercase hex digits of a SHA-256")
        game = self._game(game_id)
        row = self._session.get(SeatRow, (game_id, seat))
        if row is None:
            self._session.add(
                SeatRow(game_id=game_id, seat=seat, token_hash=token_hash, player_id=player_id)
            )
        else:
            row.token_hash, row.player_id = token_hash, player_id
        game.updated_at = utcnow()
        self._flush(f"seat {seat} of game {game_id} could not be stored (unknown player id?)")

    def claim_seat(self, game_id: str, seat: int, owner: str) -> bool:
        """Mark the seat as the player ``owner``'s (a SHA-256 hex digest) unless it is someone's
        already; says whether it is ``owner``'s now."""
        _seat(seat)
        if not isinstance(owner, str) or not _HEX64.fullmatch(owner):
            raise ValueError("an owner is the 64 lowercase hex digits of a SHA-256")
        row = self._session.get(SeatRow, (game_id, seat), with_for_update=self._for_update())
        if row is None:
            raise NotFoundError(f"game {game_id} has no seat {seat}")
        if row.owner is None:
            row.owner = owner
            self._flush("could not claim the seat")
        return row.owner == owner

    def move_seat(self, game_id: str, seat: int, owner: str) -> int:
        """The seat moves to the player ``owner`` (a SHA-256 hex digest): its token was opened
        in his browser while the seat was another's. Seat tokens are bearer tokens, and a
        player may move his seat from one device to another, so the move is made, but counted
        in the game's options (``seat_moves``, per seat): the table shows both players that
        the seat's cards were open in another browser. Returns how many times the seat has
        moved (unchanged, and nothing written, when it is ``owner``'s already)."""
        _seat(seat)
        _hashes(owner)
        game = self._game(game_id)  # the game's row first, as every writer locks them
        row = self._session.get(SeatRow, (game_id, seat), with_for_update=self._for_update())
        if row is None:
            raise NotFoundError(f"game {game_id} has no seat {seat}")
        moves = seat_moves(game.options)
        if row.owner == owner:
            return moves[seat]
        row.owner = owner
        moves[seat] += 1
        game.options = {**game.options, "seat_moves": moves}
        game.updated_at = utcnow()
        self._flush(f"seat {seat} of game {game_id} could not be moved")
        return moves[seat]

    def take_invite(
        self,
        game_id: str,
        seat: int,
        invite_hash: str,
        token_hash: str,
        owner: str | None = None,
    ) -> bool | None:
        """The seat's invite (the token its link was sent out with, whose hash is
        ``invite_hash``) exchanged for the token of the player who opens it (``token_hash``),
        once, so that whoever sent the link cannot use it again. True: exchanged now; False:
        ``invite_hash`` is not the seat's token any more (another player took the invite
        first); None: the seat has no invite open (its token stays as it is). The game's
        options list the seats whose invite is open (``invites``), and keep the hashes of the
        invites taken (``spent_invites``: a later opener is told why the link holds no seat).
        The seat becomes the opener's player's (``owner``, as :meth:`claim_seat`) in the same
        step, so that :meth:`retake_invite` knows him even if he never heard of his token."""
        _seat(seat)
        _hashes(invite_hash, token_hash)
        game = self._game(game_id)  # the game's row first, as every writer locks them
        row = self._session.get(SeatRow, (game_id, seat), with_for_update=self._for_update())
        if row is None:
            raise NotFoundError(f"game {game_id} has no seat {seat}")
        invites = [s for s in game.options.get("invites", ()) if s != seat]
        if len(invites) == len(game.options.get("invites", ())):
            return None
        if row.token_hash != invite_hash:
            return False
        row.token_hash = token_hash
        if owner is not None and row.owner is None:
            _hashes(owner)
            row.owner = owner
        spent = [*game.options.get("spent_invites", ()), invite_hash]
        game.options = {**game.options, "invites": invites, "spent_invites": spent}
        game.updated_at = utcnow()
        self._follow_rematches(game, seat, invite_hash, token_hash, owner)
        self._flush(f"seat {seat} of game {game_id} could not be taken")
        return True

    def retake_invite(
        self, game_id: str, seat: int, invite_hash: str, owner: str, token_hash: str
    ) -> bool:
        """The seat's spent invite opened again by the player who took it (``owner``, the
        seat's claimed player): the seat's token becomes ``token_hash``, whose token only he
        is told, and any earlier one holds no more. So a friend whose browser never heard of
        the token it was given (his socket dropped in that instant) gets his seat back by
        opening the invite again, and nobody else can. False (nothing changed): the invite
        was not the seat's, or the seat is not ``owner``'s."""
        _seat(seat)
        _hashes(invite_hash, token_hash, owner)
        game = self._game(game_id)
        if invite_hash not in game.options.get("spent_invites", ()):
            return False
        row = self._session.get(SeatRow, (game_id, seat), with_for_update=self._for_update())
        if row is None or row.owner != owner:
            return False
        before, row.token_hash = row.token_hash, token_hash
        game.updated_at = utcnow()
        self._follow_rematches(game, seat, before, token_hash, owner)
        self._flush(f"seat {seat} of game {game_id} could not be taken")
        return True

    def rematch_seats(self, game_id: str) -> tuple[list[tuple[int, str]], dict[str, Any]]:
        """What a rematch of the game keeps of its seats, read under the game's lock (so no
        invite is taken between this and the rematch's writing, in the same transaction):
        the seats and their token hashes, and options for the rematch. A seat whose invite
        nobody has taken yet holds no token at the rematch (a random hash, nobody's) until the
        invite is taken here, at the table its link names (:meth:`take_invite` carries the
        new token on): the rematch's options keep the invite's hash (``pending_invites``).
        They keep the count of the seats' moves to other browsers too (``seat_moves``,
        :meth:`move_seat`): the same seats play on, so their warning does."""
        game = self._game(game_id)
        rows = self._session.scalars(
            select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
        ).all()
        open_invites = game.options.get("invites", ())
        waiting = game.options.get("pending_invites", {})  # a rematch of a rematch
        seats: list[tuple[int, str]] = []
        pending: dict[str, str] = {}
        for row in rows:
            if not row.token_hash:
                continue
            if row.seat in open_invites or str(row.seat) in waiting:
                pending[str(row.seat)] = waiting.get(str(row.seat), row.token_hash)
                seats.append((row.seat, secrets.token_hex(32)))
            else:
                seats.append((row.seat, row.token_hash))
        carried: dict[str, Any] = {"pending_invites": pending} if pending else {}
        moves = seat_moves(game.options)
        if any(moves):
            carried["seat_moves"] = moves
        return seats, carried

    def carry_owners(self, game_id: str, rematch_id: str) -> list[str | None]:
        """The rematch's seats become the browsers' that owned them at ``game_id`` (each
        seat's player, :meth:`claim_seat`), but a seat still waiting for its invite there,
        which its opener claims: a browser other than its owner opening a seat at the
        rematch moves it, seen, as it would have at the game. Returns the owners by seat."""
        owners: list[str | None] = [None, None]
        rows = self._session.scalars(select(SeatRow).where(SeatRow.game_id == game_id)).all()
        pending = self._game(rematch_id).options.get("pending_invites", {})
        for row in rows:
            if row.owner is None or str(row.seat) in pending:
                continue
            new = self._session.get(SeatRow, (rematch_id, row.seat))
            if new is not None and new.owner is None:
                new.owner = owners[row.seat] = row.owner
        self._flush(f"the seats of game {rematch_id} could not be given their owners")
        return owners

    def _follow_rematches(
        self, game: GameRow, seat: int, old_hash: str, new_hash: str, owner: str | None
    ) -> None:
        """A seat's token changed (``old_hash`` to ``new_hash``) at ``game``: so it does at
        each rematch after it where the seat still had the old one (a rematch keeps the
        seats' tokens) or waited for that invite to be taken (:meth:`rematch_seats`)."""
        seen = {game.id}
        following = game.options.get("rematch")
        while isinstance(following, str) and following not in seen:
            seen.add(following)
            later = self._game(following)
            row = self._session.get(SeatRow, (following, seat), with_for_update=self._for_update())
            if row is None:
                return
            pending = dict(later.options.get("pending_invites", {}))
            if pending.get(str(seat)) == old_hash:
                del pending[str(seat)]
                later.options = {**later.options, "pending_invites": pending}
            elif row.token_hash != old_hash:
                return
            row.token_hash = new_hash
            if owner is not None and row.owner is None:
                row.owner = owner
            following = later.options.get("rematch")
