"""The repository: every read and write of saved games goes through :class:`Store`.

>>> from ginrummy.engine.rules import Rules
>>> store = Store("sqlite://")
>>> game_id = store.create_game("scorekeeper", Rules(), ("Ann", "Bob"))
>>> store.add_entry(game_id, "result", {"hand": 1})
1
>>> store.get_game(game_id).names
('Ann', 'Bob')
>>> store.close()

The write methods are declared once, in :class:`.Writer`; a Store has each of them as a
transaction of its own: it all happens or, on any error, none of it does. To make several writes
one transaction, use :meth:`Store.transaction`, which yields the :class:`.Writer` itself::

    with store.transaction() as tx:
        tx.add_action(game_id, 3, 41, 0, "knock Kd")
        tx.finish_hand(game_id, 3, result)
        tx.finish_game(game_id, final)

Reads return plain frozen records (:mod:`.saved`), or None for a game that does not exist;
writes to a missing game or hand raise :class:`.NotFoundError`, and writes that clash with what
is stored (a second action with the same ``seq``, a hand started twice) raise
:class:`.ConflictError`. Bad arguments raise ``ValueError`` before anything is written.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from datetime import datetime
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import ColumnElement, Engine, and_, false, or_, select
from sqlalchemy.exc import DatabaseError, DataError, InterfaceError, OperationalError
from sqlalchemy.orm import Session, selectinload, sessionmaker

from ..engine.results import ResultKind
from .convert import entry_info, game_info, hand_info, player_info, seat_info
from .database import WRITE, is_memory, make_engine, migrate, resolve_url
from .errors import DatabaseUnavailable, InvalidData, refusal
from .models import (
    GAME_KINDS,
    GAME_STATUSES,
    ActionRow,
    GameRow,
    HandRow,
    LeaseRow,
    Player,
    SeatRow,
)
from .saved import GameInfo, PlayerInfo, PlayerStats, SavedGame, SeatedGame
from .writer import Writer, options_hold

P = ParamSpec("P")
R = TypeVar("R")


def _own_transaction(
    write: Callable[Concatenate[Writer, P], R],
) -> Callable[Concatenate[Store, P], R]:
    """``Writer``'s method ``write`` as a method of :class:`Store` that runs it in a transaction
    of its own: the write interface is declared once, in :class:`.Writer`."""

    @functools.wraps(write)
    def method(store: Store, /, *args: P.args, **kwargs: P.kwargs) -> R:
        with store.transaction() as tx:
            return write(tx, *args, **kwargs)

    return method


class Store:
    """Saved games in a database: ``url`` (any SQLAlchemy URL), else ``$GINRUMMY_DATABASE_URL``,
    else SQLite in the user's data directory. The schema is migrated to the newest revision on
    opening (``migrate=False`` skips that)."""

    def __init__(self, url: str | None = None, *, migrate_schema: bool = True) -> None:
        self.url = resolve_url(url)
        self.engine: Engine = make_engine(self.url)
        if migrate_schema:
            try:
                migrate(self.engine)
            except BaseException:
                self.engine.dispose()
                raise
        # An in-memory database is one connection: threads must take turns with it.
        self._lock: AbstractContextManager[Any] = (
            threading.RLock() if is_memory(self.url) else nullcontext()
        )
        self._read = sessionmaker(self.engine, expire_on_commit=False)
        self._write = sessionmaker(
            self.engine.execution_options(**{WRITE: True}),
            expire_on_commit=False,
            autoflush=False,
        )

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Ask the database a trivial question; raises (SQLAlchemy's errors) when it cannot
        answer. What a readiness check runs."""
        with self._lock, self.engine.connect() as connection:
            connection.exec_driver_sql("SELECT 1")

    def __enter__(self) -> Store:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({self.engine.url.render_as_string(hide_password=True)!r})"

    @contextmanager
    def transaction(self) -> Iterator[Writer]:
        """One transaction: committed when the block ends, rolled back if it raises. A lost
        database raises :class:`DatabaseUnavailable`: lost before the commit, nothing was
        written; lost during it, the error is ``in_doubt`` (the commit may have happened)."""
        with self._lock, self._write() as session:
            with _lost():
                session.begin()
                try:
                    yield Writer(session)
                except BaseException:
                    with suppress(Exception):  # a dead connection is discarded regardless
                        session.rollback()
                    raise
            with _lost(in_doubt=True):
                session.commit()

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        with self._lock, self._read() as session, _lost():
            yield session

    # -- writes (one transaction each) ---------------------------------------------------
    # Writer's methods, each run in a transaction of its own: their signatures and documentation
    # are Writer's, declared there once.

    add_player = _own_transaction(Writer.add_player)
    ensure_player = _own_transaction(Writer.ensure_player)
    create_game = _own_transaction(Writer.create_game)
    update_options = _own_transaction(Writer.update_options)
    rename_seat = _own_transaction(Writer.rename_seat)
    finish_game = _own_transaction(Writer.finish_game)
    abandon_game = _own_transaction(Writer.abandon_game)
    abandon_stale = _own_transaction(Writer.abandon_stale)
    reopen_game = _own_transaction(Writer.reopen_game)
    set_seat = _own_transaction(Writer.set_seat)
    claim_seat = _own_transaction(Writer.claim_seat)
    move_seat = _own_transaction(Writer.move_seat)
    take_invite = _own_transaction(Writer.take_invite)
    retake_invite = _own_transaction(Writer.retake_invite)
    rematch_seats = _own_transaction(Writer.rematch_seats)
    carry_owners = _own_transaction(Writer.carry_owners)
    start_hand = _own_transaction(Writer.start_hand)
    add_action = _own_transaction(Writer.add_action)
    remove_actions = _own_transaction(Writer.remove_actions)
    finish_hand = _own_transaction(Writer.finish_hand)
    add_entry = _own_transaction(Writer.add_entry)
    remove_last_entry = _own_transaction(Writer.remove_last_entry)
    rewrite_entries = _own_transaction(Writer.rewrite_entries)
    delete_game = _own_transaction(Writer.delete_game)
    take_lease = _own_transaction(Writer.take_lease)
    renew_leases = _own_transaction(Writer.renew_leases)
    release_lease = _own_transaction(Writer.release_lease)
    check_lease = _own_transaction(Writer.check_lease)

    # -- reads ---------------------------------------------------------------------------

    def player(self, name: str) -> PlayerInfo | None:
        with self._reading() as session:
            row = session.scalar(select(Player).where(Player.name == name))
            return None if row is None else player_info(row)

    def list_players(self) -> list[PlayerInfo]:
        """Every player, by name in code-point order (sorted here: databases' collations
        order text differently, PostgreSQL's by the locale it was created with)."""
        with self._reading() as session:
            players = [player_info(p) for p in session.scalars(select(Player))]
        return sorted(players, key=lambda p: p.name)

    def get_game(self, game_id: str) -> GameInfo | None:
        with self._reading() as session:
            row = session.get(GameRow, game_id)
            return None if row is None else game_info(row)

    def list_games(
        self,
        kind: str | None = None,
        status: str | None = None,
        *,
        limit: int | None = None,
    ) -> list[GameInfo]:
        """Games, the most recently changed first, optionally of one kind and status."""
        if kind is not None and kind not in GAME_KINDS:
            raise ValueError(f"a game's kind is one of {', '.join(GAME_KINDS)}, not {kind!r}")
        if status is not None and status not in GAME_STATUSES:
            raise ValueError(f"a status is one of {', '.join(GAME_STATUSES)}, not {status!r}")
        query = select(GameRow).order_by(GameRow.updated_at.desc(), GameRow.created_at.desc())
        if kind is not None:
            query = query.where(GameRow.kind == kind)
        if status is not None:
            query = query.where(GameRow.status == status)
        if limit is not None:
            query = query.limit(limit)
        with self._reading() as session:
            return [game_info(row) for row in session.scalars(query)]

    def stale_games(
        self, kind: str, before: datetime, *, spare: Mapping[str, Any] | None = None
    ) -> list[str]:
        """The open games of ``kind`` last changed before ``before`` (but for those whose
        options hold every item of ``spare``): those that :meth:`.Writer.abandon_stale` would
        close now (at most; never one not among them, as a game's status and time of change
        never go back)."""
        stale = (GameRow.kind == kind, GameRow.status == "open", GameRow.updated_at < before)
        with self._reading() as session:
            rows = session.execute(select(GameRow.id, GameRow.options).where(*stale)).all()
            return [row.id for row in rows if not options_hold(row.options, spare)]

    def lease_holders(self, game_ids: Iterable[str]) -> dict[str, tuple[str, datetime]]:
        """Who holds each game's lease, until when (games never leased are missing)."""
        wanted = sorted(set(game_ids))
        if not wanted:
            return {}
        with self._reading() as session:
            rows = session.scalars(select(LeaseRow).where(LeaseRow.game_id.in_(wanted)))
            return {row.game_id: (row.holder, row.expires) for row in rows}

    def seat_for_token(self, game_id: str, token_hash: str) -> int | None:
        """The seat whose token hashes to ``token_hash``, or None."""
        with self._reading() as session:
            seat = session.scalar(
                select(SeatRow.seat).where(
                    SeatRow.game_id == game_id, SeatRow.token_hash == token_hash
                )
            )
            return seat

    def seat_owner(self, game_id: str, seat: int) -> str | None:
        """The player the seat is claimed by (:meth:`Writer.claim_seat`), or None."""
        with self._reading() as session:
            owner: str | None = session.scalar(
                select(SeatRow.owner).where(SeatRow.game_id == game_id, SeatRow.seat == seat)
            )
            return owner

    def friend_game(self, game_id: str) -> bool:
        """Whether the game is played between two people (its ``mode``): a read, for a seat
        asked for by a browser without a player cookie (refused at such a table)."""
        return self._options(game_id).get("mode") == "friend"

    def seat_used(self, game_id: str, seat: int, *, invited: bool = False) -> bool:
        """Whether the seat has played a move, or (``invited``: it is the seat sent out as an
        invite) had its invite taken. Read of a seat nobody owns: one so used was held by a
        browser without a player cookie (before seats needed one), which saw its cards."""
        if invited:
            options = self._options(game_id)
            if options.get("spent_invites") and seat not in options.get("invites", ()):
                return True
        with self._reading() as session:
            found = session.scalar(
                select(ActionRow.seq)
                .where(ActionRow.game_id == game_id, ActionRow.seat == seat)
                .limit(1)
            )
            return found is not None

    def invite_open(self, game_id: str, seat: int) -> bool:
        """Whether the seat's invite has not been taken yet (:meth:`Writer.take_invite`): a
        read, so that the seat's own token costs no write each time it connects."""
        return seat in self._options(game_id).get("invites", ())

    def spent_invite(self, game_id: str, token_hash: str) -> bool:
        """Whether ``token_hash`` is that of an invite of the game someone has already taken
        (:meth:`Writer.take_invite`)."""
        return token_hash in self._options(game_id).get("spent_invites", ())

    def _options(self, game_id: str) -> dict[str, Any]:
        """The game's stored options (empty for no such game)."""
        with self._reading() as session:
            options = session.scalar(select(GameRow.options).where(GameRow.id == game_id))
            return options if isinstance(options, dict) else {}

    def seat_hashes(self, game_id: str) -> list[tuple[int, str]]:
        """The game's seats and their token hashes, seat 0 first."""
        with self._reading() as session:
            rows = session.execute(
                select(SeatRow.seat, SeatRow.token_hash)
                .where(SeatRow.game_id == game_id)
                .order_by(SeatRow.seat)
            )
            return [(int(seat), str(digest)) for seat, digest in rows]

    def seated_games(
        self, tokens: Sequence[tuple[str, str]], *, kind: str = "online"
    ) -> list[SeatedGame]:
        """The games of ``kind`` that the (game id, seat token hash) pairs sit at, each with
        its seat, the most recently changed first: one query of the few columns a list
        shows, whatever the number of pairs (callers bound it)."""
        pairs = {(g, t) for g, t in tokens if isinstance(g, str) and isinstance(t, str)}
        if not pairs:
            return []
        query = _seated_query(kind).where(
            GameRow.id.in_({g for g, _ in pairs}), SeatRow.token_hash.in_({t for _, t in pairs})
        )
        with self._reading() as session:
            return [
                _seated_game(r) for r in session.execute(query) if (r.id, r.token_hash) in pairs
            ]

    def owned_games(
        self, owner: str, *, kind: str = "online", limit: int = 1000
    ) -> list[SeatedGame]:
        """The games of ``kind`` with a seat claimed by ``owner`` (see
        :meth:`Writer.claim_seat`), most recently changed first, at most ``limit``."""
        query = _seated_query(kind).where(SeatRow.owner == owner).limit(limit)
        with self._reading() as session:
            return [_seated_game(r) for r in session.execute(query)]

    def seat_stats(self, seats: Sequence[tuple[str, int]], name: str = "") -> PlayerStats:
        """The record of whoever sat at these (game id, seat) pairs: finished games, hands
        and points from that seat's side."""
        wanted = dict(seats)
        with self._reading() as session:
            games = session.scalars(
                select(GameRow)
                .where(GameRow.id.in_(set(wanted)))
                .options(selectinload(GameRow.hands), selectinload(GameRow.entries))
            ).all()
            tally = _StatsTally()
            for game in games:
                tally.game(game, wanted[game.id])
            return tally.stats(name)

    def load_game(self, game_id: str) -> SavedGame | None:
        """The game with its seats, hands (with their actions) and entries."""
        with self._reading() as session:
            row = session.scalar(
                select(GameRow)
                .where(GameRow.id == game_id)
                .options(
                    selectinload(GameRow.seats),
                    selectinload(GameRow.hands).selectinload(HandRow.actions),
                    selectinload(GameRow.entries),
                )
            )
            if row is None:
                return None
            return SavedGame(
                game_info(row),
                tuple(seat_info(s) for s in row.seats),
                tuple(hand_info(h) for h in row.hands),
                tuple(entry_info(e) for e in row.entries),
            )

    def player_stats(self, name: str) -> PlayerStats:
        """The record of the player called ``name`` (all zeros for a stranger)."""
        with self._reading() as session:
            player = session.scalar(select(Player).where(Player.name == name))
            pid = None if player is None else player.id
            games = session.scalars(
                select(GameRow)
                .where(or_(_seated(0, pid, name), _seated(1, pid, name)))
                .options(selectinload(GameRow.hands), selectinload(GameRow.entries))
            ).all()
            tally = _StatsTally()
            for game in games:
                seat = 0 if _sits(game, 0, pid, name) else 1
                tally.game(game, seat)
            return tally.stats(name)


def _seated_query(kind: str) -> Any:
    """The columns a list of someone's games shows, a row per seat, newest first."""
    return (
        select(
            GameRow.id,
            GameRow.status,
            GameRow.name0,
            GameRow.name1,
            GameRow.options,
            GameRow.winner,
            # only the summary: the whole score sheet would cost more to decode than the rest
            GameRow.final["final"].label("summary"),
            GameRow.created_at,
            GameRow.updated_at,
            SeatRow.seat,
            SeatRow.token_hash,
        )
        .join(SeatRow, SeatRow.game_id == GameRow.id)
        .where(GameRow.kind == kind)
        .order_by(GameRow.updated_at.desc(), GameRow.created_at.desc())
    )


def _seated_game(r: Any) -> SeatedGame:
    return SeatedGame(
        r.id,
        r.status,
        (r.name0, r.name1),
        dict(r.options or {}),
        r.winner,
        r.summary,
        r.created_at,
        r.updated_at,
        r.seat,
    )


class _StatsTally:
    def __init__(self) -> None:
        self.games = self.wins = self.losses = 0
        self.hands = self.hands_won = self.gins = self.undercuts = self.points = 0

    def game(self, game: GameRow, seat: int) -> None:
        if game.status == "finished":
            self.games += 1
            if game.winner == seat:
                self.wins += 1
            elif game.winner == 1 - seat:
                self.losses += 1
        results = [h.result for h in game.hands if h.result is not None]
        results += [
            e.data["result"]
            for e in game.entries
            if e.kind == "result" and isinstance(e.data.get("result"), dict)
        ]
        for result in results:
            self.hand(result, seat)

    def hand(self, result: Mapping[str, Any], seat: int) -> None:
        self.hands += 1
        if result.get("winner") != seat:
            return
        self.hands_won += 1
        self.points += int(result.get("points", 0))
        kind = result.get("kind")
        if kind in (ResultKind.GIN.value, ResultKind.BIG_GIN.value):
            self.gins += 1
        elif kind == ResultKind.UNDERCUT.value:
            self.undercuts += 1

    def stats(self, name: str) -> PlayerStats:
        return PlayerStats(
            name,
            self.games,
            self.wins,
            self.hands,
            self.hands_won,
            self.gins,
            self.undercuts,
            self.points,
            self.losses,
        )


def _seated(seat: int, pid: int | None, name: str) -> ColumnElement[bool]:
    """SQL for: the player with id ``pid`` (or, at a seat without a player, called ``name``)
    sits at ``seat``."""
    player_id = GameRow.player0_id if seat == 0 else GameRow.player1_id
    seat_name = GameRow.name0 if seat == 0 else GameRow.name1
    by_id = player_id == pid if pid is not None else false()
    return or_(by_id, and_(player_id.is_(None), seat_name == name))


def _sits(game: GameRow, seat: int, pid: int | None, name: str) -> bool:
    player_id = game.player0_id if seat == 0 else game.player1_id
    seat_name = game.name0 if seat == 0 else game.name1
    if player_id is not None:
        return player_id == pid
    return seat_name == name


@contextmanager
def _lost(*, in_doubt: bool = False) -> Iterator[None]:
    """The driver's errors of a database that cannot be reached (or whose connection broke)
    as :class:`DatabaseUnavailable`, in one line fit for a player; the driver's own message
    stays on the exception's cause, for the log."""
    try:
        yield
    except DataError as exc:  # a value the database cannot hold (not a lost connection)
        raise InvalidData(f"the database cannot store that: {_first_line(exc.orig)}") from exc
    except DatabaseError as exc:
        # A database that takes no writes (full, read-only: a standby, a disk out of room)
        # refused the statement or the commit, which is then rolled back: not in doubt. The
        # driver files these under different classes (psycopg: a read-only transaction is an
        # InternalError, a full disk an OperationalError): told by their code, not their class.
        why = refusal(exc.orig)
        if why is not None:
            raise DatabaseUnavailable(
                f"the database takes no changes just now ({why}): try again later"
            ) from exc
        if not isinstance(exc, OperationalError):
            raise
        raise _unreachable(in_doubt) from exc
    except InterfaceError as exc:
        raise _unreachable(in_doubt) from exc


def _unreachable(in_doubt: bool) -> DatabaseUnavailable:
    message = (
        "the database went away as a change was being saved: it may or may not have been"
        if in_doubt
        else "the database cannot be reached just now: try again in a moment"
    )
    return DatabaseUnavailable(message, in_doubt=in_doubt)


def _first_line(error: BaseException | None) -> str:
    return str(error).strip().splitlines()[0] if error is not None and str(error).strip() else "?"
