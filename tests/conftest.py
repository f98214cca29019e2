"""The databases the storage and web tests run on: SQLite, and a real PostgreSQL server.

PostgreSQL is the one at ``$GINRUMMY_TEST_POSTGRES`` (default
``postgresql://postgres@127.0.0.1:5432/test``, as on the development and CI machines). Each
test there gets a schema of its own, made for it and dropped after it, so tests running in
parallel (``-n 2``) never see each other's rows. Where the server cannot be reached its tests
are skipped, and the run ends with one line saying so; with ``GINRUMMY_REQUIRE_SERVICES=1``
(which ``.ci/run`` sets) they fail instead, so CI never passes without them.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from brokerutil import REDIS_SERVER, OwnRedis, redis_missing, redis_url
from pgutil import REQUIRE_ENV, UNREACHABLE, admin, postgres_missing, postgres_url

#: The databases a test parametrised on ``db_url`` or ``store_url`` runs on.
DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgresql)]


def _unavailable(reason: str) -> None:
    """Skip the test for want of a service, or fail it where services are required (CI)."""
    if os.environ.get(REQUIRE_ENV, "") not in ("", "0"):
        unreachable = reason.replace(f": {UNREACHABLE.split(': ')[1]}", "")
        pytest.fail(f"{unreachable}, and {REQUIRE_ENV} is set: its tests fail", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def broker_url() -> Iterator[str]:
    """The test Redis (``$GINRUMMY_TEST_REDIS``, default redis://127.0.0.1:6379/0), for the
    tests of many server instances; each test's instances talk on channels of their own."""
    reason = redis_missing()
    if reason is not None:
        _unavailable(reason)
    yield redis_url()


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[OwnRedis]:
    """A redis-server of the test's own (started; the test may kill and restart it), for the
    tests of a broker that goes away: the shared test Redis is never touched."""
    if not os.access(REDIS_SERVER, os.X_OK):
        _unavailable(f"Redis at {REDIS_SERVER} {UNREACHABLE} (the redis-server program)")
    server = OwnRedis(tmp_path)
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
def postgres_schema_url() -> Iterator[str]:
    """The URL of a fresh, empty schema in the test PostgreSQL database (its search path and
    application name are the schema), dropped with everything in it afterwards."""
    reason = postgres_missing()
    if reason is not None:
        _unavailable(reason)
    schema = f"test_{secrets.token_hex(6)}"
    with admin() as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    base = postgres_url()
    joiner = "&" if "?" in base else "?"
    url = f"{base}{joiner}options={quote(f'-csearch_path={schema}')}&application_name={schema}"
    try:
        yield url
    finally:
        with admin() as connection:
            # A connection the test left open (a killed server's, a store never closed) would
            # hold the drop up: end them first; they are this test's alone.
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s AND pid <> pg_backend_pid()",
                (schema,),
            )
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind that outlives a process: a SQLite file, a
    PostgreSQL schema."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    url: str = request.getfixturevalue("postgres_schema_url")
    return url


@pytest.fixture(params=DATABASES)
def store_url(request: pytest.FixtureRequest) -> str:
    """A fresh, empty database of each kind, the quickest there is: SQLite in memory, a
    PostgreSQL schema."""
    if request.param == "sqlite":
        return "sqlite://"
    url: str = request.getfixturevalue("postgres_schema_url")
    return url


@pytest.fixture
def on_each_database(store_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The web tests' stores (tests/webutil.py) open ``store_url``: a module using this
    fixture runs on each database."""
    import webutil

    monkeypatch.setattr(webutil, "STORE_URL", store_url)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "postgresql: runs on the PostgreSQL at $GINRUMMY_TEST_POSTGRES"
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """One line a service (PostgreSQL, Redis), not one a test, when tests were skipped for
    want of it."""
    said: set[str] = set()
    for report in terminalreporter.stats.get("skipped", []):
        longrepr = getattr(report, "longrepr", None)
        reason = longrepr[2] if isinstance(longrepr, tuple) and len(longrepr) == 3 else ""
        if UNREACHABLE in str(reason):
            line = str(reason).removeprefix("Skipped: ").split(" (")[0]
            if line not in said:
                said.add(line)
                terminalreporter.write_line(line, yellow=True)
