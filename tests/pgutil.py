"""The PostgreSQL the tests run on: where it is, whether it answers, a connection to it for
making and dropping the tests' schemas (tests/conftest.py holds the fixtures), and a relay to
it that a test can cut (:class:`Outage`)."""

from __future__ import annotations

import contextlib
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


class Outage:
    """A TCP relay between a server under test and PostgreSQL that can cut it off: ``cut()``
    closes every connection through it and turns new ones away (closed at once, as a database
    that went down does) until ``restore()``. A real outage of those connections alone: the
    database and everyone else's connections to it are untouched."""

    def __init__(self, target: tuple[str, int]) -> None:
        import socket
        import threading

        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.down = False
        self._open: set[Any] = set()
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, url: str) -> str:
        """``url`` (a PostgreSQL URL) through this relay."""
        parsed = make_url(url.replace("postgres://", "postgresql://", 1))
        return parsed.set(host="127.0.0.1", port=self.port).render_as_string(hide_password=False)

    def cut(self) -> None:
        with self._lock:
            self.down = True
            for sock in self._open:
                with contextlib.suppress(OSError):
                    sock.shutdown(2)  # SHUT_RDWR: both ends see the connection end
            self._open.clear()

    def restore(self) -> None:
        with self._lock:
            self.down = False

    def close(self) -> None:
        self.cut()
        self.listener.close()

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self._lock:
                if self.down:
                    client.close()
                    continue
                try:
                    upstream = socket.create_connection(self.target, timeout=5)
                except OSError:
                    client.close()
                    continue
                upstream.settimeout(None)
                self._open.update((client, upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, source: Any, sink: Any) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)
            for sock in (source, sink):
                with contextlib.suppress(OSError):
                    sock.shutdown(2)
                sock.close()
