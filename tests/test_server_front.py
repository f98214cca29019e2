"""The server front of ``ginrummy serve`` against floods: connection caps, the request timeout,
open-file limits and proxy headers, each on a real server in a subprocess.

The client address the app sees is observed through the table-creation rate limit: one
address may open 20 games at once, the 21st is answered 429.
"""

from __future__ import annotations

import contextlib
import json
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from websockets.sync.client import connect

from frontutil import (
    Server,
    closed_count,
    eventually,
    half_requests,
    is_closed,
    request,
)
from webutil import LiveServer, post_table

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX sockets and signals")

FLOOD = 1100
OTHER = "127.0.0.2"  # another client: all of 127.0.0.0/8 is the loopback on Linux
#: For tests of the caps: half-sent requests stay open however slowly the test runs.
LONG = ("--header-timeout", "300")
# A connection over the caps is held unread (30 s by default) before it is reset: shorter here.
SHORT_HOLD = ("--refused-hold", "2")


def can_bind(address: str) -> bool:
    try:
        with socket.socket() as s:
            s.bind((address, 0))
    except OSError:
        return False
    return True


@pytest.fixture
def many_files() -> Iterator[None]:
    """Let this process hold the flood's sockets: soft open-file limit up to the hard one."""
    resource = pytest.importorskip("resource")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = FLOOD + 200
    if hard != resource.RLIM_INFINITY and hard < wanted:
        pytest.skip(f"the hard open-file limit {hard} is under {wanted}")
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def usual_file_limit() -> None:
    """In the server's child process: the common default soft limit of 1024 open files."""
    import resource

    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    low = 1024 if hard == resource.RLIM_INFINITY else min(1024, hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (low, hard))


def create(port: int, forwarded_for: str | None = None) -> int:
    headers = {"X-Forwarded-For": forwarded_for} if forwarded_for else {}
    status, _ = request(
        port, "/api/tables", method="POST", body={"mode": "friend"}, headers=headers
    )
    return status


# -- floods of connections -------------------------------------------------------------------


@pytest.mark.skipif(not can_bind(OTHER), reason=f"cannot use {OTHER} as a source address")
def test_a_flood_of_half_requests_does_not_keep_others_out(
    tmp_path: Path, many_files: None
) -> None:
    # Default settings, under the soft open-file limit most systems start a server with: the
    # flood's extra connections are held unread and reset (per-address cap), the rest wait out the
    # request timeout, and a client at another address is served meanwhile.
    with Server(tmp_path, *SHORT_HOLD, preexec=usual_file_limit) as server:
        limits = Path(f"/proc/{server.pid}/limits")
        if limits.exists():  # Linux: the soft limit was raised to the hard one
            line = next(x for x in limits.read_text().splitlines() if "open files" in x)
            soft, hard = line.split()[3:5]
            assert soft == hard, line
        with half_requests(server.port, FLOOD) as flood:
            started = time.monotonic()
            status, body = request(server.port, source=OTHER, timeout=30)
            assert status == 200 and b"presets" in body
            assert time.monotonic() - started < 20
            # The per-address cap (64) closed the rest of the flood without reading it.
            assert eventually(lambda: closed_count(flood) >= FLOOD - 64), closed_count(flood)
        # Once the flood is gone, the flooding address is served again too.
        assert request(server.port)[0] == 200


def test_caps_on_connections_per_address_and_in_all(tmp_path: Path) -> None:
    with Server(tmp_path, *LONG, *SHORT_HOLD, "--max-connections-per-address", "5") as server:
        time.sleep(1)  # the readiness probe's connection is let go
        with half_requests(server.port, 8) as socks:
            # the three over the cap are held a few seconds, unread, before they are reset: a
            # client that reconnects as soon as it is turned away cannot make the server spin
            assert closed_count(socks) == 0
            assert eventually(lambda: closed_count(socks) == 3), closed_count(socks)
            assert not any(is_closed(s) for s in socks[:5])
        # Closed connections give their places back.
        with half_requests(server.port, 5) as socks:
            time.sleep(1)
            assert closed_count(socks) == 0
    with Server(
        tmp_path,
        *LONG,
        *SHORT_HOLD,
        "--max-connections",
        "4",
        "--max-connections-per-address",
        "0",
    ) as server:
        time.sleep(1)
        with half_requests(server.port, 6) as socks:
            assert eventually(lambda: closed_count(socks) == 2), closed_count(socks)


def test_a_websocket_counts_until_its_socket_closes(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    with Server(tmp_path, *LONG, *SHORT_HOLD, "--max-connections-per-address", "2") as server:
        status, body = request(server.port, "/api/tables", method="POST", body={"mode": "friend"})
        assert status == 200
        created = json.loads(body)
        url = f"ws://127.0.0.1:{server.port}/ws/{created['id']}?token={created['token']}"
        time.sleep(1)
        with connect(url, proxy=None, open_timeout=20) as ws:
            ws.send('{"type": "ping"}')
            while '"pong"' not in str(ws.recv(timeout=20)):
                pass
            # The upgraded connection holds one of the address's two places.
            with half_requests(server.port, 2) as socks:
                assert eventually(lambda: closed_count(socks) == 1), closed_count(socks)
                assert not is_closed(socks[0])
        # ... and gives it back when its socket closes.
        time.sleep(1)
        with half_requests(server.port, 2) as socks:
            time.sleep(1)
            assert closed_count(socks) == 0


# -- the request timeout -----------------------------------------------------------------------


def test_a_half_sent_request_is_closed_after_the_header_timeout(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    with Server(tmp_path, "--header-timeout", "2") as server:
        status, body = request(server.port, "/api/tables", method="POST", body={"mode": "friend"})
        assert status == 200
        created = json.loads(body)
        url = f"ws://127.0.0.1:{server.port}/ws/{created['id']}?token={created['token']}"
        with connect(url, proxy=None, open_timeout=20) as ws:
            started = time.monotonic()
            with half_requests(server.port, 1) as (half,), half_requests(server.port, 1) as (slow,):
                # One byte at a time does not hold a connection open either.
                def trickle() -> bool:
                    with contextlib.suppress(OSError):
                        slow.send(b"X")
                    return is_closed(slow, 0.3)

                assert eventually(lambda: is_closed(half, 0.5), timeout=30)
                assert eventually(trickle, timeout=30)
                assert time.monotonic() - started > 1.5  # not at once: after the timeout
            # A WebSocket, its request long complete, stays open past the timeout.
            time.sleep(max(0.0, started + 4.5 - time.monotonic()))
            ws.send('{"type": "ping"}')
            while '"pong"' not in str(ws.recv(timeout=20)):
                pass
        # A whole request on a fresh connection is answered as usual.
        assert request(server.port)[0] == 200


# -- proxy headers -------------------------------------------------------------------------------


def test_x_forwarded_for_is_ignored_by_default(tmp_path: Path) -> None:
    with Server(tmp_path) as server:
        statuses = [create(server.port, f"10.0.0.{i}") for i in range(21)]
    assert statuses[:20] == [200] * 20
    assert statuses[20] == 429, "each X-Forwarded-For value got its own allowance"


def test_x_forwarded_for_is_honoured_from_a_trusted_proxy(tmp_path: Path) -> None:
    with Server(
        tmp_path, *LONG, "--forwarded-allow-ips", "127.0.0.1", "--max-connections-per-address", "2"
    ) as server:
        assert [create(server.port, f"10.0.0.{i}") for i in range(25)] == [200] * 25
        statuses = [create(server.port, "10.9.9.9") for _ in range(21)]
        assert statuses[:20] == [200] * 20 and statuses[20] == 429
        # The proxy's own address is free of the per-address cap.
        time.sleep(1)
        with half_requests(server.port, 5) as socks:
            time.sleep(1)
            assert closed_count(socks) == 0


# -- WebSocket compression -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "offered"), [((), "permessage-deflate"), (("--no-ws-compression",), None)]
)
def test_websocket_compression_is_offered_unless_turned_off(
    tmp_path: Path, args: tuple[str, ...], offered: str | None
) -> None:
    server = LiveServer(tmp_path / "games.db", args=args)
    server.start()
    try:
        table = post_table(server, mode="friend")
        url = f"{server.ws_url}/ws/{table['id']}"
        with connect(url, compression="deflate", proxy=None, open_timeout=20) as ws:
            extensions = ws.response.headers.get("Sec-WebSocket-Extensions")
        assert (extensions or "").split(";")[0] == (offered or "")
    finally:
        server.kill()


def test_a_burst_of_messages_on_one_socket_is_read_ahead_and_answered_in_order(
    tmp_path: Path,
) -> None:
    """The server goes on reading a socket while a few of its messages wait for the app
    (READ_AHEAD), then stops until they are taken: every message of a burst several times
    that long is answered, once and in order."""
    from ginrummy.web.server import READ_AHEAD

    server = LiveServer(tmp_path / "games.db")
    server.start()
    try:
        table = post_table(server, mode="friend")
        url = f"{server.ws_url}/ws/{table['id']}"
        with connect(url, proxy=None, open_timeout=20) as ws:
            assert json.loads(ws.recv(timeout=20))["type"] == "state"
            kinds = ["ping", "state"] * (3 * READ_AHEAD // 2)  # within the burst allowed
            for kind in kinds:
                ws.send(json.dumps({"type": kind}))
            answers = [json.loads(ws.recv(timeout=20))["type"] for _ in kinds]
        assert answers == ["pong" if k == "ping" else "state" for k in kinds]
    finally:
        server.kill()
