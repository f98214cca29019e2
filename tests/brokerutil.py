"""The Redis the many-instance tests run on: where it is, and whether it answers (the fixture
is ``broker_url`` in tests/conftest.py; a missing Redis is one skip line, or a failure where
``GINRUMMY_REQUIRE_SERVICES`` is set, exactly as a missing PostgreSQL); and a Redis of a test's
own, to be killed and restarted (the fixture ``own_redis``)."""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pgutil import UNREACHABLE

REDIS_ENV = "GINRUMMY_TEST_REDIS"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def redis_url() -> str:
    return os.environ.get(REDIS_ENV, "").strip() or DEFAULT_REDIS


@functools.cache
def redis_missing() -> str | None:
    """Why the test Redis cannot be used (None: it can), asked once per process."""
    url = redis_url()
    parts = urlsplit(url)
    where = f"Redis at {parts.hostname or '127.0.0.1'}:{parts.port or 6379} {UNREACHABLE}"
    try:
        import redis
    except ImportError:
        return f"{where} (redis-py is not installed: pip install 'ginrummy[broker]')"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except (OSError, redis.RedisError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"{where} ({first})"
    return None


REDIS_SERVER = "/usr/bin/redis-server"


class OwnRedis:
    """A Redis server of a test's own, on a free loopback port and a temporary folder, that
    the test may kill and start again on the same port (never the machine's shared one)."""

    def __init__(self, folder: Path) -> None:
        from webutil import free_port

        self.folder = folder
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 20.0) -> None:
        import redis

        with open(self.folder / "redis.log", "ab") as log:
            self.proc = subprocess.Popen(
                [
                    *(REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"),
                    *("--save", "", "--appendonly", "no", "--dir", str(self.folder)),
                ],
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                break
            try:
                redis.Redis.from_url(self.url, socket_connect_timeout=1).ping()
                return
            except redis.RedisError:
                time.sleep(0.05)
        log_text = (self.folder / "redis.log").read_text(errors="replace")[-2000:]
        raise AssertionError(f"redis-server did not start on port {self.port}:\n{log_text}")

    def kill(self) -> None:
        """SIGKILL: the broker is gone at once, with every connection to it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        self.proc = None


class SilentCut:
    """A TCP relay to a broker that can drop its connections silently: ``sever()`` closes
    the broker's side of each (the broker sees its client gone) and leaves the client's side
    open and quiet, as a firewall or NAT that forgot an idle connection does; connections
    made after it pass as before."""

    def __init__(self, target: tuple[str, int]) -> None:
        import socket
        import threading

        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self._upstream: set[Any] = set()
        self._kept: list[Any] = []  # the clients' sides of severed connections, never closed
        self._lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def sever(self) -> None:
        import socket

        with self._lock:
            for sock in self._upstream:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self._upstream.clear()

    def close(self) -> None:
        self.sever()
        self.listener.close()
        for sock in self._kept:
            with contextlib.suppress(OSError):
                sock.close()

    def _accept(self) -> None:
        import socket
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._upstream.add(upstream)
                self._kept.append(client)
            threading.Thread(target=self._pump, args=(client, upstream), daemon=True).start()
            threading.Thread(target=self._pump, args=(upstream, client), daemon=True).start()

    def _pump(self, source: Any, sink: Any) -> None:
        # An end of either side stops the pump and nothing more: the client's side is never
        # closed here, so its owner hears nothing of a severed connection.
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
