"""Serving an ASGI app with uvicorn, hardened against floods of connections.

What uvicorn alone leaves open, and what this module adds:

* Connections: uvicorn accepts every connection and keeps it as long as the client likes. Here
  a connection over the total cap, or over the cap for its client address, is never read from:
  it is held, unread, for about ``REFUSED_HOLD`` seconds (each a random time between half and
  one and a half of it) and then reset (at once, where more than ``MAX_HELD`` are held
  already). A client that reconnects as soon as it is turned away would otherwise make the
  server accept and reset hundreds of connections a second, and resetting them all at the same
  moment would bring them back all at once. A refused connection costs no more than that: the
  HTTP machinery is set up only for connections let in. A WebSocket
  counts until its socket closes (uvicorn hands an upgraded connection to another protocol
  object; both release the same slot).
  Addresses trusted as proxies (``forwarded_allow_ips``) are exempt from the per-address cap,
  since every client behind the proxy arrives from its address.
* Slow requests: uvicorn times out idle keep-alive connections between requests, but waits
  forever for a request that has begun and not finished. Here a connection must send a whole
  request (head and body; the app accepts small bodies only) within ``header_timeout`` seconds of
  connecting, or of its first byte after the previous response, or it is closed.
* File descriptors: the soft limit on open files is raised to the hard limit, so that the caps
  are reached before the process runs out of descriptors.
* Proxy headers: uvicorn trusts ``X-Forwarded-For``/``-Proto`` from 127.0.0.1 (or
  ``$FORWARDED_ALLOW_IPS``) by default. Here nobody is trusted unless named.
* Access log: off unless asked for; then one line a request, method, path and status, never the
  query string (seat tokens travel there).
* Stopping: uvicorn waits, on SIGTERM, for every connection to close, however long that
  takes; one whose client reads nothing never does. Here it waits ``SHUTDOWN_TIMEOUT``
  seconds, then cancels what is left and stops.
* The garbage collector: set so that its full collections, which walk every object the
  sockets and tables keep, come once a minute from a thread rather than every few seconds
  (:mod:`.collector`).
"""

from __future__ import annotations

import asyncio
import errno
import ipaddress
import logging
import random
import socket
import sys
import urllib.parse
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from uvicorn.server import ServerState

from . import collector
from .security import address_key

MAX_CONNECTIONS = 2000
MAX_CONNECTIONS_PER_ADDRESS = 64
HEADER_TIMEOUT = 10.0
KEEP_ALIVE_TIMEOUT = 5
WS_MAX_SIZE = 65536
BACKLOG = 2048
REFUSED_HOLD = 30.0
MAX_HELD = 4096
#: Seconds a stopping server (SIGTERM) waits for its connections to close after telling them
#: to: one whose client reads nothing never closes, and would keep it from stopping for good.
#: Whatever is still running then is cancelled; the leases are let go of as always.
SHUTDOWN_TIMEOUT = 5
#: The states in which h11 is still waiting for (the rest of) the client's request.
_RECEIVING = (h11.IDLE, h11.SEND_BODY)

access_log = logging.getLogger("ginrummy.access")


class ListenError(Exception):
    """The listening socket could not be made; the message says why in one line."""


# -- the listening socket ----------------------------------------------------------------------


def listen(host: str, port: int, backlog: int = BACKLOG) -> socket.socket:
    """A TCP socket listening on ``host``:``port`` (raises :class:`ListenError` saying why not)."""
    if not 1 <= port <= 65535:
        raise ListenError(f"port {port} is outside 1..65535")
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except (socket.gaierror, UnicodeError) as exc:
        reason = exc.strerror if isinstance(exc, socket.gaierror) else str(exc)
        raise ListenError(f"cannot listen on {host!r}: {reason}") from None
    # IPv4 first, as uvicorn does: "localhost" should mean 127.0.0.1 where both resolve.
    found.sort(key=lambda info: info[0] != socket.AF_INET)
    family, kind, proto, _, address = found[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(backlog)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise ListenError(f"port {port} on {host} is in use") from None
        if exc.errno == errno.EACCES:
            raise ListenError(
                f"no permission to listen on port {port} on {host}"
                + (" (ports below 1024 need privileges)" if port < 1024 else "")
            ) from None
        raise ListenError(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    return sock


def raise_open_file_limit() -> int:
    """Raise this process's soft limit on open files to its hard limit; returns the new soft
    limit (-1 where the platform has no such limit)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - Windows
        return -1
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    # An unlimited hard limit cannot be the soft one on Linux (fs.nr_open) or macOS (OPEN_MAX):
    # try large finite values instead.
    wanted = [hard] if hard != resource.RLIM_INFINITY else [1 << 20, 1 << 16, 10240]
    for limit in wanted:
        if soft != resource.RLIM_INFINITY and limit <= soft:
            break
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, hard))
        except (ValueError, OSError):
            continue
        return limit
    return soft


# -- who is trusted with proxy headers ---------------------------------------------------------


@dataclass(frozen=True)
class Trusted:
    """Addresses trusted to send ``X-Forwarded-For``/``-Proto``: IP addresses, networks
    (``10.0.0.0/8``), or ``*`` for every client."""

    everyone: bool = False
    networks: tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...] = ()

    @classmethod
    def parse(cls, text: str | None) -> Trusted:
        """From a comma-separated list; raises ValueError naming an entry that is neither an
        address nor a network.

        >>> Trusted.parse("127.0.0.1, 10.0.0.0/8").allows("10.1.2.3")
        True
        >>> Trusted.parse("").allows("127.0.0.1"), Trusted.parse("*").allows("203.0.113.9")
        (False, True)
        """
        items = [item.strip() for item in (text or "").split(",") if item.strip()]
        if "*" in items:
            return cls(everyone=True)
        networks: list[ipaddress.IPv4Network | ipaddress.IPv6Network] = []
        for item in items:
            try:
                net = ipaddress.ip_network(item)  # an address is a /32 or /128
            except ValueError:
                raise ValueError(
                    f"{item!r} is not an IP address or network (such as 10.0.0.0/8)"
                ) from None
            networks.append(net)
            if isinstance(net, ipaddress.IPv4Network):  # as a dual-stack socket sees it
                mapped = f"::ffff:{net.network_address}/{96 + net.prefixlen}"
                networks.append(ipaddress.ip_network(mapped))
        return cls(networks=tuple(networks))

    def __bool__(self) -> bool:
        return self.everyone or bool(self.networks)

    def allows(self, host: str) -> bool:
        if self.everyone:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in net for net in self.networks)

    def for_uvicorn(self) -> list[str]:
        """The list to give uvicorn's ``forwarded_allow_ips`` (never None: that would mean
        ``$FORWARDED_ALLOW_IPS`` or 127.0.0.1)."""
        return ["*"] if self.everyone else [str(net) for net in self.networks]


# -- counting connections ----------------------------------------------------------------------


class ConnectionLimits:
    """Open connections, in total and per client address, keyed by their transport.

    ``total`` or ``per_address`` 0 means no cap of that kind; ``exempt(address)`` says whether an
    address is free of the per-address cap (a trusted proxy).
    """

    def __init__(
        self,
        total: int = MAX_CONNECTIONS,
        per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
        exempt: Callable[[str], bool] = lambda _address: False,
    ) -> None:
        self.total = total
        self.per_address = per_address
        self.exempt = exempt
        self.open: dict[object, str] = {}
        self.by_address: Counter[str] = Counter()
        self.held = 0  # refused connections held unread

    def admit(self, key: object, host: str) -> bool:
        """Count a new connection from ``host`` in, or say False when it is over a cap (it
        is not counted). An IPv6 host counts with its /64 network (:func:`address_key`)."""
        if self.total and len(self.open) >= self.total:
            return False
        address = address_key(host)
        if (
            self.per_address
            and self.by_address[address] >= self.per_address
            and not self.exempt(host)
        ):
            return False
        self.open[key] = address
        self.by_address[address] += 1
        return True

    def release(self, key: object) -> None:
        """Count a connection out (again: nothing happens)."""
        address = self.open.pop(key, None)
        if address is None:
            return
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


def _peer_host(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    if isinstance(peer, (tuple, list)) and peer:
        return str(peer[0])
    return ""


#: Messages a WebSocket may have waiting for the app before the server stops reading it.
READ_AHEAD = 8


def protocol_classes(
    limits: ConnectionLimits, header_timeout: float, refused_hold: float = REFUSED_HOLD
) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's h11 and WebSocket protocols, counting their connections in ``limits`` and
    closing a connection that does not send a whole request within ``header_timeout``."""

    class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
        def connection_lost(self, exc: Exception | None) -> None:
            try:
                super().connection_lost(exc)
            finally:
                limits.release(self.transport)

        def send_receive_event_to_app(self) -> None:
            # uvicorn stops reading a socket at each message until the app has taken it and
            # then starts again: two changes to the event loop's selector a message, a seventh
            # of a busy server's time. Here reading stops only once READ_AHEAD messages wait
            # (the app takes them one at a time; the seat's rate limit applies as before).
            paused = self.read_paused
            self.read_paused = True  # uvicorn's own pause, skipped
            try:
                super().send_receive_event_to_app()
            finally:
                self.read_paused = paused
            if not paused and self.queue.qsize() >= READ_AHEAD:
                self.read_paused = True
                self.transport.pause_reading()

    class GuardedH11Protocol(H11Protocol):
        def __init__(
            self,
            config: uvicorn.Config,
            server_state: ServerState,
            app_state: dict[str, Any],
            _loop: asyncio.AbstractEventLoop | None = None,
        ) -> None:
            # uvicorn's own set-up waits until the connection is let in (connection_made)
            self._setup = (config, server_state, app_state, _loop)
            self.refused = False
            self.held = False
            self.upgraded = False
            self.request_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if not limits.admit(transport, _peer_host(transport)):
                self.refused = True  # nothing is ever read from it
                if limits.held >= MAX_HELD:
                    transport.abort()
                    return
                limits.held += 1
                self.held = True
                transport.pause_reading()
                hold = refused_hold * (0.5 + random.random())
                asyncio.get_running_loop().call_later(hold, transport.abort)
                return
            super().__init__(*self._setup)
            super().connection_made(transport)
            self._expect_request()

        def connection_lost(self, exc: Exception | None) -> None:
            if self.refused:
                if self.held:
                    self.held = False
                    limits.held -= 1
                return
            self._stop_timer()
            try:
                super().connection_lost(exc)
            finally:
                limits.release(self.transport)

        def data_received(self, data: bytes) -> None:
            if self.refused:
                return
            super().data_received(data)
            if self.upgraded:
                return
            if self.conn.their_state in _RECEIVING and not self.transport.is_closing():
                self._expect_request()  # a request begun and not finished (or none yet)
            else:
                self._stop_timer()

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self.upgraded = True
            self._stop_timer()
            super().handle_websocket_upgrade(event)

        def on_response_complete(self) -> None:
            self._stop_timer()  # keep-alive's own timeout runs until the next request begins
            super().on_response_complete()

        def _expect_request(self) -> None:
            if self.request_timer is None:
                self.request_timer = self.loop.call_later(header_timeout, self._too_slow)

        def _stop_timer(self) -> None:
            if self.request_timer is not None:
                self.request_timer.cancel()
                self.request_timer = None

        def _too_slow(self) -> None:
            self.request_timer = None
            if not self.upgraded and not self.transport.is_closing():
                self.transport.close()

    return GuardedH11Protocol, GuardedWebSocketProtocol


# -- the access log ----------------------------------------------------------------------------


def _loggable(path: str) -> str:
    """A path fit for one log line: percent-encoded, so no control characters, and short."""
    quoted = urllib.parse.quote(path, safe="/:@!$&'()*+,;=-._~")
    return quoted if len(quoted) <= 200 else quoted[:200] + "..."


class AccessLog:
    """ASGI middleware: one line a request, ``METHOD /path STATUS``; never the query string."""

    def __init__(self, app: Any, logger: logging.Logger = access_log) -> None:
        self.app = app
        self.logger = logger

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        kind = scope.get("type")
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        path = _loggable(str(scope.get("path", "")))
        logged = False

        def line(status: int) -> None:
            nonlocal logged
            if not logged:
                logged = True
                self.logger.info("%s %s %d", method, path, status)

        async def logging_send(message: Any) -> None:
            what = message.get("type")
            if what in ("http.response.start", "websocket.http.response.start"):
                line(int(message.get("status", 0)))
            elif what == "websocket.accept":
                line(101)
            elif what == "websocket.close":
                line(403)  # closed before accepting: uvicorn answers 403
            await send(message)

        try:
            await self.app(scope, receive, logging_send)
        except BaseException:
            line(500)
            raise


def _log_to(stream: Any) -> None:
    if not access_log.handlers:
        handler = logging.StreamHandler(stream)
        handler.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
        access_log.addHandler(handler)
    access_log.setLevel(logging.INFO)
    access_log.propagate = False


# -- serving -----------------------------------------------------------------------------------


def serve(
    app: Any,
    sockets: Sequence[socket.socket],
    *,
    max_connections: int = MAX_CONNECTIONS,
    max_connections_per_address: int = MAX_CONNECTIONS_PER_ADDRESS,
    header_timeout: float = HEADER_TIMEOUT,
    refused_hold: float = REFUSED_HOLD,
    forwarded_allow_ips: Trusted | None = None,
    log_access: bool = False,
    ws_compression: bool = True,
) -> None:
    """Serve ``app`` on listening ``sockets`` until SIGINT or SIGTERM (see the module docstring).
    ``ws_compression`` offers permessage-deflate to the WebSocket clients that ask for it."""
    collector.quiet()
    trusted = forwarded_allow_ips or Trusted()
    limits = ConnectionLimits(max_connections, max_connections_per_address, trusted.allows)
    http, ws = protocol_classes(limits, header_timeout, refused_hold)
    if log_access:
        _log_to(sys.stdout)
        app = AccessLog(app)
    config = uvicorn.Config(
        app,
        http=http,
        ws=ws,
        ws_max_size=WS_MAX_SIZE,
        ws_per_message_deflate=ws_compression,
        log_level="warning",
        access_log=False,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted.for_uvicorn(),
        timeout_keep_alive=KEEP_ALIVE_TIMEOUT,
        timeout_graceful_shutdown=SHUTDOWN_TIMEOUT,
        backlog=BACKLOG,
    )
    uvicorn.Server(config).run(sockets=list(sockets))
