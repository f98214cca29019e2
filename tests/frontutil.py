"""Helpers for the server-front tests: ``ginrummy serve`` in a subprocess, plain HTTP by hand.

Everything here uses the standard library (``http.client``, raw sockets), so that a test can
choose the source address of each connection and send half a request.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
HALF_REQUEST = b"GET / HTTP/1.1\r\nHost: x\r\n"  # the head never ends: no blank line


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def serve_env(tmp: Path) -> dict[str, str]:
    """The environment for ``ginrummy serve``: this checkout first on the path, and a data
    directory of its own (nothing may touch the user's)."""
    env = dict(os.environ, PYTHONUNBUFFERED="1", XDG_DATA_HOME=str(tmp / "data"))
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("GINRUMMY_DATABASE_URL", None)
    env.pop("GINRUMMY_BROKER_URL", None)
    env.pop("FORWARDED_ALLOW_IPS", None)
    return env


def serve_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "ginrummy.cli.main", "serve", *args]


def run_serve(tmp: Path, *args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """``ginrummy serve ARGS`` that is expected to stop by itself (an error)."""
    return subprocess.run(
        serve_command(*args),
        capture_output=True,
        text=True,
        env=serve_env(tmp),
        cwd=tmp,
        timeout=timeout,
    )


def request(
    port: int,
    path: str = "/api/presets",
    *,
    method: str = "GET",
    body: Any = None,
    headers: dict[str, str] | None = None,
    source: str | None = None,
    timeout: float = 20.0,
) -> tuple[int, bytes]:
    """One request on its own connection (closed afterwards): (status, body)."""
    conn = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=timeout, source_address=(source, 0) if source else None
    )
    try:
        data = None if body is None else json.dumps(body).encode()
        sent = {"Connection": "close", **(headers or {})}
        if data is not None:
            sent["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=sent)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def is_closed(sock: socket.socket, wait: float = 0.0) -> bool:
    """Whether the server has closed ``sock`` (end of file or reset), waiting up to ``wait``."""
    sock.settimeout(wait if wait > 0 else 0.0)
    try:
        return sock.recv(1) == b""
    except (BlockingIOError, TimeoutError):
        return False
    except OSError:  # reset
        return True


def eventually(check: Callable[[], bool], timeout: float = 30.0, every: float = 0.1) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        if check():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(every)


class Server:
    """``ginrummy serve`` on a free loopback port with a SQLite file in ``tmp``; its output
    goes to ``serve.log`` there."""

    def __init__(
        self,
        tmp: Path,
        *args: str,
        db: str | None = None,
        preexec: Callable[[], None] | None = None,
    ) -> None:
        self.tmp = tmp
        self.args = list(args)
        self.db = db if db is not None else f"sqlite:///{tmp / 'front.db'}"
        self.preexec = preexec
        self.log_path = tmp / "serve.log"
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 60.0) -> Server:
        for _attempt in range(3):
            self.port = free_port()
            command = serve_command("--port", str(self.port), "--db", self.db, *self.args)
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen(
                    command,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=serve_env(self.tmp),
                    cwd=self.tmp,
                    preexec_fn=self.preexec,
                )
            if self._wait_ready(timeout):
                return self
            self.stop()
            if "in use" not in self.log():
                break
        raise AssertionError(f"the server did not start; its log:\n{self.log()}")

    def _wait_ready(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                return False
            with contextlib.suppress(OSError, http.client.HTTPException):
                if request(self.port, timeout=5)[0] == 200:
                    return True
            time.sleep(0.2)
        return False

    def stop(self) -> None:
        """SIGTERM (a graceful stop, flushing the log), then SIGKILL if it lingers."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        self.proc = None

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")
        except OSError:
            return ""

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


@contextlib.contextmanager
def half_requests(
    port: int, count: int, *, source: str | None = None, timeout: float = 30.0
) -> Iterator[list[socket.socket]]:
    """``count`` connections that each send half a request head and wait; closed afterwards.
    A connection the server refuses while it is being made is still returned (closed)."""
    socks: list[socket.socket] = []
    try:
        for _ in range(count):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socks.append(sock)
            sock.settimeout(timeout)
            if source:
                sock.bind((source, 0))
            sock.connect(("127.0.0.1", port))
            with contextlib.suppress(OSError):  # refused at once: reset before the send
                sock.sendall(HALF_REQUEST)
        yield socks
    finally:
        for sock in socks:
            sock.close()


def closed_count(socks: Sequence[socket.socket]) -> int:
    return sum(1 for sock in socks if is_closed(sock))
