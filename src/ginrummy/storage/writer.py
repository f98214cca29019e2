"""The write operations, all inside the one transaction they are given: the one place the
write interface is declared.

:class:`~ginrummy.storage.store.Store` has each of these methods as a transaction of its own
(``store.add_player(name)``); a caller that needs several writes to happen together uses
``Store.transaction()``, which yields a :class:`Writer` on one transaction. Code that only
writes (the web's tables) takes a ``Writer``.

The writes come in parts, each a class of its own module on :class:`.writer_base.WriterBase`
(the session, the row locks, the checks of what is given): the players, games, hands and
scorekeeper entries here, the seats and invites in :mod:`.seats`, and the leases of many server
instances in :mod:`.leases`.
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Integer, String, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..engine.cards import Card, Cards, to_cards
from ..engine.errors import GinRummyError
from ..engine.results import HandResult
from ..engine.rules import Rules
from ..engine.serial import result_to_dict
from .convert import entry_info, player_info
from .errors import ConflictError, NotFoundError
from .leases import Leases
from .models import (
    GAME_KINDS,
    ActionRow,
    EntryRow,
    GameRow,
    HandRow,
    LeaseRow,
    Player,
    UTCDateTime,
    utcnow,
)
from .saved import EntryInfo, PlayerInfo
from .seats import Seats
from .writer_base import _aware, _json, _name, _open, _seat, options_hold, seat_moves

__all__ = ["ENTRY_KINDS", "Writer", "new_game_id", "options_hold", "seat_moves"]

ENTRY_KINDS = ("result", "irregularity", "note")
_ID_BYTES = 6  # 8 url-safe characters
_INT64 = 1 << 63

# add_action's two statements, made once (bound parameters, not literals): building and
# keying them afresh cost more than running them. The update changes an open game only: its
# row count says whether the game takes moves still.
_TOUCH_GAME: Final = (
    update(GameRow)
    .where(GameRow.id == bindparam("game"), GameRow.status == "open")
    .values(updated_at=bindparam("now", type_=UTCDateTime()))
)
_ADD_ACTION: Final = insert(ActionRow).from_select(
    ["game_id", "hand_number", "seq", "seat", "action", "created_at"],
    select(
        bindparam("game", type_=String()),
        bindparam("hand", type_=Integer()),
        bindparam("seq", type_=Integer()),
        bindparam("seat", type_=Integer()),
        bindparam("text", type_=String()),
        bindparam("now", type_=UTCDateTime()),
    ).where(
        HandRow.game_id == bindparam("game"),
        HandRow.number == bindparam("hand"),
        HandRow.ended_at.is_(None),
    ),
)


def new_game_id() -> str:
    """A short, url-safe random id (8 characters), never starting with "-" so that it can be
    given as a command-line argument."""
    while True:
        game_id = secrets.token_urlsafe(_ID_BYTES)
        if not game_id.startswith("-"):
            return game_id


class Writer(Seats, Leases):
    """The write operations, all inside one transaction (see :meth:`Store.transaction`).

    The session must not autoflush: each method flushes once, at its end, so that a clash is
    reported by the method that caused it, as a :class:`ConflictError`.

    Two transactions writing the same game take turns, so that no acknowledged move is lost or
    stored twice and ``seq`` numbers never clash. SQLite does this for the whole database
    (``BEGIN IMMEDIATE``). On other databases every method locks its game's row before it
    reads anything (``SELECT ... FOR UPDATE``, once per game and transaction), and the
    statements after it see what the previous writer committed (READ COMMITTED reads afresh
    at each statement). Row locks rather than the alternatives: SERIALIZABLE would have to
    retry whole transactions, which only the caller of :meth:`Store.transaction` could
    replay; an advisory lock per game would need a hash of the game id and guard nothing
    against a writer that forgets it, whereas every write to a game goes through its row.
    Games are independent, so writers of different games never wait for each other.
    """

    # -- players -------------------------------------------------------------------------

    def add_player(self, name: str) -> PlayerInfo:
        name = _name(name)
        player = Player(name=name)
        self._session.add(player)
        self._flush(f"there is already a player called {name!r}")
        return player_info(player)

    def ensure_player(self, name: str) -> PlayerInfo:
        """The player called ``name``, added if new."""
        name = _name(name)
        found = self._session.scalar(select(Player).where(Player.name == name))
        if found is not None:
            return player_info(found)
        try:
            with self._session.begin_nested():  # a clash undoes only this insert
                return self.add_player(name)
        except ConflictError:
            # Another transaction added the same name since we looked, and has committed:
            # the unique index made this insert wait for it. Its player is the one.
            found = self._session.scalar(select(Player).where(Player.name == name))
            if found is None:
                raise
            return player_info(found)

    # -- games ---------------------------------------------------------------------------

    def create_game(
        self,
        kind: str,
        rules: Rules,
        names: Sequence[str],
        *,
        seed: int | None = None,
        player_ids: Sequence[int | None] = (None, None),
        options: Mapping[str, Any] | None = None,
        seats: Iterable[tuple[int, str]] = (),
        game_id: str | None = None,
        created_at: datetime | None = None,
    ) -> str:
        """Add an open game and return its id. ``seats`` are ``(seat, token_hash)`` pairs to
        store with it; ``created_at`` (aware) is when it was started, if not now (a game
        imported)."""
        if kind not in GAME_KINDS:
            raise ValueError(f"a game's kind is one of {', '.join(GAME_KINDS)}, not {kind!r}")
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules, not {type(rules).__name__}")
        if isinstance(names, str) or len(names) != 2:
            raise ValueError("a game needs two names, seat 0's first")
        if isinstance(player_ids, str) or len(player_ids) != 2:
            raise ValueError("player_ids needs one entry (or None) per seat")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not -_INT64 <= seed < _INT64
        ):
            raise ValueError(f"the seed must be a 64-bit whole number, not {seed!r}")
        if game_id is None:
            game_id = new_game_id()
            while self._session.get(GameRow, game_id) is not None:
                game_id = new_game_id()
        elif not re.fullmatch(r"[A-Za-z0-9_-]{1,16}", game_id):
            raise ValueError(f"a game id is 1 to 16 url-safe characters, not {game_id!r}")
        now = utcnow()
        started = now if created_at is None else _aware(created_at)
        row = GameRow(
            id=game_id,
            kind=kind,
            status="open",
            rules=rules.to_dict(),
            seed=seed,
            name0=_name(names[0]),
            name1=_name(names[1]),
            player0_id=player_ids[0],
            player1_id=player_ids[1],
            options=_json(options or {}, "options"),
            created_at=started,
            updated_at=now,
        )
        self._session.add(row)
        self._flush(f"there is already a game {game_id!r}, or a player id does not exist")
        for seat, token_hash in seats:
            self.set_seat(game_id, seat, token_hash)
        return game_id

    def update_options(self, game_id: str, changes: Mapping[str, Any]) -> dict[str, Any]:
        """Merge ``changes`` into the game's options and return them all."""
        row = self._game(game_id)
        row.options = {**row.options, **_json(changes, "options")}
        row.updated_at = utcnow()
        self._flush("could not update the options")
        return dict(row.options)

    def rename_seat(self, game_id: str, seat: int, name: str) -> None:
        """Give a seat of the game another name (the invited player says who they are)."""
        _seat(seat)
        row = _open(self._game(game_id), "takes no more names")
        if seat == 0:
            row.name0 = _name(name)
        else:
            row.name1 = _name(name)
        row.updated_at = utcnow()
        self._flush("could not rename the seat")

    def finish_game(
        self, game_id: str, final: Mapping[str, Any], *, winner: int | None = None
    ) -> None:
        """Close the game with its final summary. The winning seat is ``winner``, else
        ``final["winner"]`` when that is a seat, else nobody (an even game)."""
        row = self._game(game_id)
        if row.status != "open":
            raise ConflictError(f"game {game_id} is already {row.status}")
        if winner is None and final.get("winner") in (0, 1):
            winner = int(final["winner"])
        if winner is not None:
            _seat(winner)
        row.final = _json(final, "final")
        row.winner = winner
        row.status = "finished"
        row.updated_at = utcnow()
        self._flush("could not finish the game")

    def abandon_game(self, game_id: str) -> None:
        row = self._game(game_id)
        if row.status != "open":
            raise ConflictError(f"game {game_id} is already {row.status}")
        row.status = "abandoned"
        row.updated_at = utcnow()
        self._flush("could not abandon the game")

    def abandon_stale(
        self,
        kind: str,
        before: datetime,
        *,
        holder: str | None = None,
        held: Mapping[str, int] | None = None,
        spare: Mapping[str, Any] | None = None,
    ) -> list[str]:
        """Close as abandoned the open games of ``kind`` last changed before ``before``, but
        for those whose options hold every item of ``spare`` (another program's games).

        With many server instances (``holder``: this one's id; ``held``: the epochs of the
        leases it holds), it closes only the games it holds at those epochs and those nobody
        holds a live lease on; a game held live by another instance is that one's to close.
        A game nobody holds is taken and let go at once (:meth:`take_lease`), which fences it
        as every write is fenced: an instance that stalled past its lease on it can write to
        it no more."""
        if kind not in GAME_KINDS:
            raise ValueError(f"a game's kind is one of {', '.join(GAME_KINDS)}, not {kind!r}")
        stale = (GameRow.kind == kind, GameRow.status == "open", GameRow.updated_at < before)
        # Locked in id order, so a game moved meanwhile is seen as moved (and left open) and
        # two of these never wait for each other in a circle.
        rows = self._session.execute(
            select(GameRow.id, GameRow.options).where(*stale).order_by(GameRow.id).with_for_update()
        ).all()
        self._locked.update(row.id for row in rows)
        ids = [row.id for row in rows if not options_hold(row.options, spare)]
        if holder is not None:
            ids = [game_id for game_id in ids if self._may_close(game_id, holder, held or {})]
        if ids:
            self._session.execute(
                update(GameRow)
                .where(GameRow.id.in_(ids), *stale)
                .values(status="abandoned", updated_at=utcnow())
            )
        return ids

    def _may_close(self, game_id: str, holder: str, held: Mapping[str, int]) -> bool:
        """Whether ``holder`` may close the game (its row locked already): it holds the
        game's lease at the epoch it was given, or nobody holds a live one, and then it takes
        the lease for no time at all (the epoch grows if another held it last)."""
        epoch = held.get(game_id)
        if epoch is not None:
            row = self._session.get(LeaseRow, game_id)
            return row is not None and row.holder == holder and row.epoch == epoch
        return self.take_lease(game_id, holder, 0) is not None

    def reopen_game(self, game_id: str) -> None:
        """Open a finished or abandoned game again, forgetting its final and winner."""
        row = self._game(game_id)
        row.status, row.final, row.winner = "open", None, None
        row.updated_at = utcnow()
        self._flush("could not reopen the game")

    # -- online hands --------------------------------------------------------------------

    def start_hand(
        self,
        game_id: str,
        number: int,
        dealer: int,
        deck: Cards | Iterable[Card] | str,
        salt: str,
        commitment: str,
        *,
        game_number: int = 1,
    ) -> None:
        """Store a new hand with its deck (52 distinct cards, top first)."""
        if isinstance(number, bool) or not isinstance(number, int) or number < 1:
            raise ValueError(f"hands are numbered from 1, not {number!r}")
        if isinstance(game_number, bool) or not isinstance(game_number, int) or game_number < 1:
            raise ValueError(f"games are numbered from 1, not {game_number!r}")
        _seat(dealer)
        try:
            cards = to_cards(deck)
        except GinRummyError as exc:
            raise ValueError(f"bad deck: {exc}") from None
        if len(cards) != 52:
            raise ValueError(f"a deck has 52 cards, not {len(cards)}")
        for label, text in (("salt", salt), ("commitment", commitment)):
            if not isinstance(text, str) or not 0 < len(text) <= 128:
                raise ValueError(f"the {label} must be text of 1 to 128 characters")
        game = _open(self._game(game_id), "takes no more hands")
        if self._session.get(HandRow, (game_id, number)) is not None:
            raise ConflictError(f"hand {number} of game {game_id} was already started")
        self._session.add(
            HandRow(
                game_id=game_id,
                number=number,
                game_number=game_number,
                dealer=dealer,
                deck=str(cards),
                salt=salt,
                commitment=commitment,
            )
        )
        game.updated_at = utcnow()
        self._flush(f"hand {number} of game {game_id} could not be stored")

    def add_action(
        self, game_id: str, hand_number: int, seq: int, seat: int | None, text: str
    ) -> None:
        """Store one action of a hand. ``seq`` orders them; a seq already stored is refused,
        and so is an action of a game that is no longer open (finished, or closed as
        abandoned, perhaps while the move was on its way): :class:`ConflictError`."""
        if isinstance(seq, bool) or not isinstance(seq, int) or seq < 0:
            raise ValueError(f"seq must be a whole number of at least 0, not {seq!r}")
        if seat is not None:
            _seat(seat)
        if not isinstance(text, str) or not 0 < len(text) <= 200:
            raise ValueError("an action is text of 1 to 200 characters")
        # Two plain statements instead of loading the game and the hand: this is the web app's
        # hottest write. The update comes first: it locks the game's row (see the class
        # docstring), so the insert, which happens only while the hand is still being played,
        # sees a finish_hand that committed while it waited; and it changes the row only
        # while the game is open, seen after any close that committed while it waited.
        # Both on the session's connection, as Core statements: the ORM's bulk-update path
        # would cost more than the statement (nothing of the game is loaded to keep in step).
        now = utcnow()
        connection = self._session.connection()
        if connection.execute(_TOUCH_GAME, {"game": game_id, "now": now}).rowcount:
            self._locked.add(game_id)
        else:
            _open(self._game(game_id), "takes no more moves")  # or NotFoundError
        params = {
            "game": game_id,
            "hand": hand_number,
            "seq": seq,
            "seat": seat,
            "text": text,
            "now": now,
        }
        try:
            # The row count is the answer here, and SQLAlchemy keeps an INSERT's only when
            # asked (without it, psycopg's reads -1).
            inserted = connection.execute(
                _ADD_ACTION, params, execution_options={"preserve_rowcount": True}
            )
        except IntegrityError as exc:
            raise ConflictError(
                f"hand {hand_number} of game {game_id} already has an action {seq}"
            ) from exc
        if not inserted.rowcount:
            self._hand(game_id, hand_number)  # raises NotFoundError for a missing game or hand
            raise ConflictError(f"hand {hand_number} of game {game_id} is over")

    def remove_actions(self, game_id: str, hand_number: int, *, keep: int) -> int:
        """Take back actions: keep the hand's first ``keep`` actions (in seq order), delete the
        rest, and return how many went. The actions of a hand that is over are final."""
        if isinstance(keep, bool) or not isinstance(keep, int) or keep < 0:
            raise ValueError(f"keep is a whole number of at least 0, not {keep!r}")
        game, hand = self._hand(game_id, hand_number)
        _open(game, "takes nothing back")
        if hand.result is not None:
            raise ConflictError(f"hand {hand_number} of game {game_id} is over")
        doomed = self._session.scalars(
            select(ActionRow)
            .where(ActionRow.game_id == game_id, ActionRow.hand_number == hand_number)
            .order_by(ActionRow.seq)
            .offset(keep)
        ).all()
        for row in doomed:
            self._session.delete(row)
        if doomed:
            game.updated_at = utcnow()
        self._flush("could not remove the actions")
        return len(doomed)

    def finish_hand(
        self, game_id: str, number: int, result: HandResult | Mapping[str, Any]
    ) -> None:
        """Store how the hand ended (a ``HandResult`` or its ``serial.result_to_dict`` form)."""
        data = result_to_dict(result) if isinstance(result, HandResult) else result
        game, hand = self._hand(game_id, number)
        _open(game, "takes no more results")
        if hand.result is not None:
            raise ConflictError(f"hand {number} of game {game_id} is already over")
        hand.result = _json(data, "result")
        hand.ended_at = utcnow()
        game.updated_at = utcnow()
        self._flush(f"hand {number} of game {game_id} could not be finished")

    # -- scorekeeper entries -------------------------------------------------------------

    def add_entry(
        self,
        game_id: str,
        kind: str,
        data: Mapping[str, Any],
        *,
        created_at: datetime | None = None,
    ) -> int:
        """Append an entry and return its seq (1, 2, ...); ``created_at`` (aware) is when it
        was told, if not now (an entry imported)."""
        if kind not in ENTRY_KINDS:
            raise ValueError(f"an entry's kind is one of {', '.join(ENTRY_KINDS)}, not {kind!r}")
        game = self._game(game_id)
        if game.status != "open":
            raise ConflictError(f"game {game_id} is {game.status}")
        last = self._session.scalar(
            select(func.max(EntryRow.seq)).where(EntryRow.game_id == game_id)
        )
        seq = (last or 0) + 1
        told = utcnow() if created_at is None else _aware(created_at)
        self._session.add(
            EntryRow(game_id=game_id, seq=seq, kind=kind, data=_json(data, "data"), created_at=told)
        )
        game.updated_at = utcnow()
        self._flush(f"entry {seq} of game {game_id} was written at the same time elsewhere")
        return seq

    def remove_last_entry(self, game_id: str) -> EntryInfo | None:
        """Remove the newest entry and return it (None when there are none)."""
        game = self._game(game_id)
        row = self._session.scalar(
            select(EntryRow)
            .where(EntryRow.game_id == game_id)
            .order_by(EntryRow.seq.desc())
            .limit(1)
        )
        if row is None:
            return None
        entry = entry_info(row)
        self._session.delete(row)
        game.updated_at = utcnow()
        self._flush("could not remove the entry")
        return entry

    def rewrite_entries(self, game_id: str, changes: Mapping[int, Mapping[str, Any]]) -> None:
        """Replace the data of the entries whose seq is a key of ``changes`` (their kind and
        time stay): a scorekeeper's correction of an earlier hand."""
        game = self._game(game_id)
        rows = {
            row.seq: row
            for row in self._session.scalars(
                select(EntryRow).where(EntryRow.game_id == game_id, EntryRow.seq.in_(changes))
            )
        }
        missing = sorted(set(changes) - set(rows))
        if missing:
            raise NotFoundError(f"game {game_id} has no entry {missing[0]}")
        for seq, data in changes.items():
            rows[seq].data = _json(data, "data")
        game.updated_at = utcnow()
        self._flush("could not rewrite the entries")

    def delete_game(self, game_id: str) -> None:
        """Delete the game and everything stored under it (hands, actions, entries, seats)."""
        self._session.delete(self._game(game_id))
        self._flush(f"could not delete game {game_id}")
