"""The database schema as SQLAlchemy 2 typed ORM classes.

These classes never leave the storage layer: :class:`~ginrummy.storage.store.Store` turns rows
into the frozen records of :mod:`.saved`. The schema itself is created and changed only by the
Alembic migrations in ``migrations/versions``; a test checks that the two agree.

Tables:

* ``players``: people known by a unique name.
* ``games``: one row per game (or match) of either kind. ``kind`` is ``scorekeeper`` (real cards,
  results entered by hand) or ``online`` (played in the engine, e.g. through the web app);
  ``status`` is ``open``, ``finished`` or ``abandoned``. ``rules`` is ``Rules.to_dict()``;
  ``options`` holds everything else the interface needs to go on (mode, opponent, clock...);
  ``final`` the final summary or score sheet, and ``winner`` the winning seat, once finished.
* ``seats``: for online games, each seat's secret token (its SHA-256 hex) and its player.
* ``hands``: online hands: dealer, the 52-card deck (secret until the hand ends), the salt and
  commitment published for it, and the result once it ends.
* ``actions``: every action of every online hand, in order (``seq``), each in its own row.
* ``entries``: what the scorekeeper was told, in order: hand results, irregularities, notes.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, ClassVar

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    Dialect,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

GAME_KINDS = ("scorekeeper", "online")
GAME_STATUSES = ("open", "finished", "abandoned")

#: Constraint names follow one convention so migrations can refer to them on every database.
NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored as naive UTC (portable to every database) and read back aware."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("timestamps must be timezone-aware")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


def _in(column: str, values: tuple[str, ...]) -> str:
    return f"{column} IN ({', '.join(repr(v) for v in values)})"


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSON, datetime: UTCDateTime}


class Player(Base):
    __tablename__ = "players"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (
        CheckConstraint(_in("kind", GAME_KINDS), name="kind"),
        CheckConstraint(_in("status", GAME_STATUSES), name="status"),
        CheckConstraint("winner IN (0, 1)", name="winner"),
        Index("ix_games_kind_status_updated_at", "kind", "status", "updated_at"),
    )

    id: Mapped[str] = mapped_column(String(16), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), default="open")
    rules: Mapped[dict[str, Any]]
    seed: Mapped[int | None] = mapped_column(BigInteger)
    name0: Mapped[str] = mapped_column(String(64))
    name1: Mapped[str] = mapped_column(String(64))
    player0_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    player1_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    options: Mapped[dict[str, Any]]
    winner: Mapped[int | None] = mapped_column(Integer)
    final: Mapped[dict[str, Any] | None]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow)

    seats: Mapped[list[SeatRow]] = relationship(
        order_by="SeatRow.seat", cascade="all, delete-orphan", passive_deletes=True
    )
    hands: Mapped[list[HandRow]] = relationship(
        order_by="HandRow.number", cascade="all, delete-orphan", passive_deletes=True
    )
    entries: Mapped[list[EntryRow]] = relationship(
        order_by="EntryRow.seq", cascade="all, delete-orphan", passive_deletes=True
    )


class SeatRow(Base):
    __tablename__ = "seats"
    __table_args__ = (CheckConstraint("seat IN (0, 1)", name="seat"),)

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    token_hash: Mapped[str] = mapped_column(String(64))
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id", ondelete="SET NULL"))
    #: The SHA-256 of the anonymous player id of the browser that took the seat (its cookie):
    #: whose games and statistics these are, without accounts.
    owner: Mapped[str | None] = mapped_column(String(64), index=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class HandRow(Base):
    __tablename__ = "hands"
    __table_args__ = (
        CheckConstraint("dealer IN (0, 1)", name="dealer"),
        CheckConstraint("number >= 1", name="number"),
        CheckConstraint("game_number >= 1", name="game_number"),
    )

    game_id: Mapped[str] = mapped_column(
        ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_number: Mapped[int] = mapped_column(Integer, default=1)
    dealer: Mapped[int] = mapped_column(Integer)
    deck: Mapped[str] = mapped_column(Text)
    salt: Mapped[str] = mapped_column(String(128))
    commitment: Mapped[str] = mapped_column(String(128))
    result: Mapped[dict[str, Any] | None]
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    ended_at: Mapped[datetime | None]

    actions: Mapped[list[ActionRow]] = relationship(
        order_by="ActionRow.seq", cascade="all, delete-orphan", passive_deletes=True
    )


class ActionRow(Base):
    __tablename__ = "actions"
    __table_args__ = (
        ForeignKeyConstraint(
            ["game_id", "hand_number"], ["hands.game_id", "hands.number"], ondelete="CASCADE"
        ),
        UniqueConstraint("game_id", "hand_number", "seq"),
        CheckConstraint("seat IN (0, 1)", name="seat"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(String(16))
    hand_number: Mapped[int] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(200))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class EntryRow(Base):
    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, Any]]
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class LeaseRow(Base):
    """Which server instance applies a game's moves, until when (many instances sharing one
    database; see :meth:`~ginrummy.storage.writer.Writer.take_lease`). ``epoch`` grows by one
    each time the game changes hands: a write names the epoch it was planned under and is
    refused once the game has moved on (a fencing token)."""

    __tablename__ = "leases"

    game_id: Mapped[str] = mapped_column(
        String(16), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    holder: Mapped[str] = mapped_column(String(64))
    epoch: Mapped[int] = mapped_column(BigInteger)
    expires: Mapped[datetime]
