"""The store's errors. Bad arguments raise plain ``ValueError`` instead, before any write."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of the store's own errors."""


class NotFoundError(StorageError, LookupError):
    """The game, hand or player named does not exist."""


class ConflictError(StorageError):
    """The write clashes with what is already stored."""


class InvalidData(StorageError, ValueError):
    """The database refused a value as one it cannot store (PostgreSQL and a NUL character,
    say): nothing was written. Callers check what they store; this is the backstop."""


class LeaseLost(StorageError):
    """A write for a game whose lease this instance no longer holds (another instance has
    taken the game over): nothing was written."""


class DatabaseUnavailable(StorageError):
    """The database could not be reached, or the connection to it failed on the way. Nothing
    was written, unless ``in_doubt``: the connection failed as the transaction was being
    committed, so it may have been (read the database again once it answers)."""

    def __init__(self, message: str, *, in_doubt: bool = False) -> None:
        super().__init__(message)
        self.in_doubt = in_doubt


#: SQLite's primary result codes for a database that cannot be written (``sqlite3.h``):
#: SQLITE_READONLY, SQLITE_FULL.
SQLITE_REFUSALS = {8: "it is read-only", 13: "it is full"}
#: PostgreSQL's SQLSTATEs for the same: disk_full, read_only_sql_transaction.
SQLSTATE_REFUSALS = {"53100": "it is full", "25006": "it is read-only"}


def refusal(exc: BaseException | None) -> str | None:
    """Why the driver's error ``exc`` says the database takes no writes at all (full,
    read-only), or None for any other error (a conflict, a lost connection: not the disk)."""
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return SQLITE_REFUSALS.get(code & 0xFF)
    state = getattr(exc, "sqlstate", None)
    return SQLSTATE_REFUSALS.get(state) if isinstance(state, str) else None
