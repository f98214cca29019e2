"""Where the database is, how to connect to it, and bringing its schema up to date.

The URL is, first found: the one given, ``$GINRUMMY_DATABASE_URL``, or SQLite in the user's
data directory (``platformdirs.user_data_dir("ginrummy")/ginrummy.db``, which follows
``XDG_DATA_HOME`` on Linux). A value without ``://`` is the path of a SQLite file. PostgreSQL
URLs (``postgresql://`` or ``postgres://``, as ``psql`` and most hosts write them) are read
with psycopg 3 (``postgresql+psycopg://``), the driver the ``postgres`` extra installs.

SQLite gets foreign keys, WAL mode for files with ``synchronous=FULL`` (a commit is on disk
before it returns), a busy timeout, and real transactions: Python's
``sqlite3`` module otherwise begins transactions late and never around DDL, so here every
transaction starts with an explicit ``BEGIN`` (``BEGIN IMMEDIATE`` for writes, so that two
writers queue up instead of failing halfway).

PostgreSQL runs at its default isolation, READ COMMITTED, and writers queue up per game instead
of per database: each write locks its game's row first (``SELECT ... FOR UPDATE``, see
:class:`~.writer.Writer`). Migrations hold an advisory lock, so that servers started together
on one database upgrade it once, one after the other.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from platformdirs import user_data_dir
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.pool import StaticPool

from .errors import StorageError

ENV_VAR = "GINRUMMY_DATABASE_URL"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
#: The execution option that makes a SQLite transaction ``BEGIN IMMEDIATE``.
WRITE = "ginrummy_write"
#: The key of the PostgreSQL advisory lock held while migrating (any fixed 64-bit number).
MIGRATION_LOCK = 0x67696E72756D6D79  # "ginrummy"
#: The schemes PostgreSQL's own tools write, read with psycopg 3.
_POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def default_path() -> Path:
    return Path(user_data_dir("ginrummy", appauthor=False)) / "ginrummy.db"


def sqlite_url(path: str | Path) -> str:
    """The URL of the SQLite file at ``path`` (``~`` expanded, made absolute).

    >>> sqlite_url("/srv/games/ginrummy.db")
    'sqlite:////srv/games/ginrummy.db'
    """
    database = str(Path(path).expanduser().absolute())
    return URL.create("sqlite", database=database).render_as_string(hide_password=False)


def resolve_url(url: str | None = None) -> str:
    """The URL to use: ``url``, else the environment variable, else the default SQLite file.

    A value without ``://`` is a SQLite file path rather than a URL:

    >>> resolve_url("/tmp/games.db"), resolve_url("sqlite://")
    ('sqlite:////tmp/games.db', 'sqlite://')
    """
    for value in (url, os.environ.get(ENV_VAR, "").strip()):
        if value:
            return with_driver(value) if "://" in value else sqlite_url(value)
    return sqlite_url(default_path())


def with_driver(url: str) -> str:
    """``url`` with psycopg 3 named as the driver where it names PostgreSQL without one
    (SQLAlchemy would pick psycopg2, and knows no ``postgres://`` at all).

    >>> with_driver("postgres://u@db.example/games")
    'postgresql+psycopg://u@db.example/games'
    >>> with_driver("postgresql://u@db/g"), with_driver("postgresql+psycopg2://u@db/g")
    ('postgresql+psycopg://u@db/g', 'postgresql+psycopg2://u@db/g')
    """
    for scheme in _POSTGRES_SCHEMES:
        if url.lower().startswith(scheme):
            return "postgresql+psycopg://" + url[len(scheme) :]
    return url


def is_postgresql(url: str | URL) -> bool:
    """Whether ``url`` is a PostgreSQL database (any driver)."""
    return make_url(url).get_backend_name() == "postgresql"


def sqlite_file(url: str | URL) -> Path | None:
    """The file a SQLite URL names; None for in-memory SQLite, URI filenames and other databases.

    >>> sqlite_file("sqlite:////srv/g.db"), sqlite_file("sqlite://"), sqlite_file("postgresql://h/db")
    (PosixPath('/srv/g.db'), None, None)
    """
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or is_memory(parsed):
        return None
    if str(parsed.query.get("uri", "")).lower() in ("true", "1"):
        return None
    return Path(parsed.database or "").expanduser()


def is_memory(url: str | URL) -> bool:
    """Whether ``url`` is an in-memory SQLite database (one connection, shared by threads)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return False
    database = parsed.database or ""
    return database in ("", ":memory:") or "mode=memory" in str(parsed.query)


def make_engine(url: str) -> Engine:
    """An engine for ``url``, set up as the module docstring says."""
    parsed = make_url(with_driver(url))
    if parsed.get_backend_name() != "sqlite":
        # pre-ping: a connection the database closed (a restart, a failover) is replaced
        # before use instead of failing the move that drew it from the pool.
        engine = create_engine(parsed, pool_pre_ping=True)
        if parsed.get_backend_name() == "postgresql":
            event.listen(engine, "connect", _postgresql_session)
        return engine
    memory = is_memory(parsed)
    kwargs: dict[str, Any] = {}
    if memory:
        # One shared connection, or every connection would see its own empty database.
        kwargs = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
    else:
        Path(parsed.database or "").expanduser().parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(parsed, **kwargs)

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA foreign_keys = ON")
            cursor.execute("PRAGMA busy_timeout = 10000")
            if not memory:
                cursor.execute("PRAGMA journal_mode = WAL")
                # FULL: each commit is on disk (the WAL synced) before it returns, so a move
                # acknowledged to a player survives a power cut, not only a killed process.
                cursor.execute("PRAGMA synchronous = FULL")
        finally:
            cursor.close()

    @event.listens_for(engine, "begin")
    def _on_begin(connection: Connection) -> None:
        write = connection.get_execution_options().get(WRITE, False)
        connection.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")

    return engine


#: How long a PostgreSQL transaction may sit idle (its client sending nothing) before the
#: server ends the session: a process stopped or hung mid-transaction would otherwise keep its
#: game's row locked, and every write to that game (and the batches that hold it) waiting,
#: for good. The store's transactions send their statements one after the other, with no
#: wait between them (no player, no network call), so this cuts none of them short.
IDLE_IN_TRANSACTION_SECONDS = 60


def _postgresql_session(dbapi_connection: Any, _record: Any) -> None:
    """Each new PostgreSQL connection: the idle-in-transaction limit, set for the session
    (committed, or the pool's rollback on return would undo it)."""
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute(
            "SET SESSION idle_in_transaction_session_timeout = "
            f"{IDLE_IN_TRANSACTION_SECONDS * 1000}"
        )
    finally:
        cursor.close()
    dbapi_connection.commit()


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    return config


def head() -> str | None:
    """The newest schema revision shipped with the package."""
    return ScriptDirectory.from_config(_config()).get_current_head()


def current(engine: Engine) -> str | None:
    """The database's schema revision (None for an empty database)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def migrate(engine: Engine, revision: str = "head") -> None:
    """Upgrade the schema to ``revision`` in one transaction (nothing to do when up to date)."""
    config = _config()
    with engine.execution_options(**{WRITE: True}).begin() as connection:
        _lock_for_migration(connection)
        config.attributes["connection"] = connection
        _refuse_unknown_revision(config, connection)
        command.upgrade(config, revision)


def _refuse_unknown_revision(config: Config, connection: Connection) -> None:
    """A database at a revision this package does not ship was upgraded by a newer version
    (then this one was put back, or is still running elsewhere): it cannot be read safely, and
    Alembic would only say it cannot find the revision."""
    found = MigrationContext.configure(connection).get_current_revision()
    script = ScriptDirectory.from_config(config)
    if found is not None and found not in {r.revision for r in script.walk_revisions()}:
        raise StorageError(
            f"the database's schema is at revision {found!r}, written by a newer version of "
            f"ginrummy than this one (which knows up to {script.get_current_head()!r}): "
            "upgrade ginrummy to the version that wrote it"
        )


def downgrade(engine: Engine, revision: str) -> None:
    """Downgrade the schema to ``revision`` (``"base"`` drops every table)."""
    config = _config()
    with engine.execution_options(**{WRITE: True}).begin() as connection:
        _lock_for_migration(connection)
        config.attributes["connection"] = connection
        command.downgrade(config, revision)


def _lock_for_migration(connection: Connection) -> None:
    """On PostgreSQL, wait for any other process migrating the same database: two servers
    started at once would otherwise both find it empty and both create the tables (SQLite's
    ``BEGIN IMMEDIATE`` already makes them take turns). The lock ends with the transaction."""
    if connection.dialect.name == "postgresql":
        connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
