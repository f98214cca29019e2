"""The PostgreSQL the tests run on: where it is, whether it answers, and a connection to it for
making and dropping the tests' schemas (tests/conftest.py holds the fixtures)."""

from __future__ import annotations

import functools
import os
from typing import Any

from sqlalchemy.engine import make_url

POSTGRES_ENV = "GINRUMMY_TEST_POSTGRES"
DEFAULT_POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
REQUIRE_ENV = "GINRUMMY_REQUIRE_SERVICES"
UNREACHABLE = "is not reachable: its tests are skipped"


def postgres_url() -> str:
    return os.environ.get(POSTGRES_ENV, "").strip() or DEFAULT_POSTGRES


def _where(url: str) -> str:
    parsed = make_url(url.replace("postgres://", "postgresql://", 1))
    return f"{parsed.host or 'localhost'}:{parsed.port or 5432}"


@functools.cache
def postgres_missing() -> str | None:
    """Why the test PostgreSQL cannot be used (None: it can), asked once per process."""
    url = postgres_url()
    where = f"PostgreSQL at {_where(url)} {UNREACHABLE}"
    try:
        import psycopg
    except ImportError:
        return f"{where} (psycopg is not installed: pip install 'ginrummy[postgres]')"
    try:
        with psycopg.connect(_libpq(url), connect_timeout=3) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"{where} ({first})"
    return None


def _libpq(url: str) -> str:
    """A URL as libpq reads it (no SQLAlchemy driver name)."""
    scheme, rest = url.split("://", 1)
    return "postgresql://" + rest if scheme.startswith("postgres") else url


def admin() -> Any:
    import psycopg

    return psycopg.connect(_libpq(postgres_url()), autocommit=True, connect_timeout=3)
