"""What every route relies on to be safe on the open internet, kept in one place so that no
route does it its own way: the security headers on every answer, posts only as JSON from this
site's own pages (sockets too: their ``Origin``), bodies read no further than their limit,
refusals over a rate limit answered slowly, errors as ``{"type": "error", "message": ...}``,
and the browser's anonymous player id (only its hash is ever stored).
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import math
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .limits import Buckets
from .tables import token_hash

#: The most a post's body may hold, in bytes (a list of tables may be 32 times that).
MAX_BODY = 4096
#: A request refused for being over a limit is answered no sooner than the address may ask
#: again, up to this many seconds: a client that asks again as soon as it is refused is then
#: refused a few times a second, not hundreds, and costs the other tables next to nothing.
SLOW_REFUSAL = 1.0
TOO_MANY_READS = "too many requests from your address; try again in a moment"

PLAYER_COOKIE = "ginrummy_player"
PLAYER_COOKIE_AGE = 2 * 365 * 24 * 3600


def player_key(cookies: Mapping[str, str]) -> str | None:
    """The stored form of the browser's anonymous player id (None without a valid one)."""
    value = cookies.get(PLAYER_COOKIE)
    if not value or len(value) > 64 or not value.replace("-", "").replace("_", "").isalnum():
        return None
    return token_hash(value)


def address(conn: HTTPConnection) -> str:
    """The client's address as the per-address limits count it (:func:`address_key`)."""
    return address_key(conn.client.host if conn.client is not None else "")


def address_key(host: str) -> str:
    """What the per-address limits count by: an IPv4 address as it is, and one seen through
    a dual-stack socket (``::ffff:a.b.c.d``) as that IPv4 address; an IPv6 address by its /64
    network, since a home or a phone is given a whole /64 and may take any address in it
    (counted one by one, every cap would be one new address away). Anything else as it is.

    >>> address_key("2001:db8::1"), address_key("2001:db8::ffff:2"), address_key("::ffff:10.0.0.1")
    ('2001:db8::/64', '2001:db8::/64', '10.0.0.1')
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv4Address):
        return host
    if ip.ipv4_mapped is not None:
        return str(ip.ipv4_mapped)
    return str(ipaddress.IPv6Network((ip, 64), strict=False))


def origin_ok(headers: Any, allowed: frozenset[str]) -> bool:
    """Whether a request's Origin (if it sent one: browsers always do for sockets and posts)
    is the server's own (its Host) or one of ``allowed``."""
    origin = headers.get("origin")
    if origin is None:
        return True  # not a browser: a script or a tool, which no other site can drive
    origin = origin.rstrip("/").lower()
    if origin in allowed:
        return True
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc == headers.get("host", "").lower()


def refuse_post(request: Request, allowed: frozenset[str]) -> Response | None:
    """Posts change things: only JSON (which a page on another site cannot send without the
    browser asking this server first), and only from this site's pages."""
    if not origin_ok(request.headers, allowed):
        return error("requests from other sites are refused", 403)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return error("send JSON (Content-Type: application/json)", 415)
    return None


async def json_body(request: Request, limit: int) -> Any:
    """The body as JSON (``{}`` when empty), or the error Response to answer with."""
    body = await read_body(request, limit)
    if body is None:
        return error("request too large", 413)
    try:
        return json.loads(body or b"{}")
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep
        return error("send a JSON object", 400)


async def read_body(request: Request, limit: int) -> bytes | None:
    """The request body, or None once it passes ``limit`` bytes (read no further than that)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def error(message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    # A message may quote what the client sent, lone surrogates too (JSON's "\ud800"),
    # which UTF-8 cannot encode: they are answered as "?", not as a server error.
    message = message.encode("utf-8", "replace").decode("utf-8")
    return JSONResponse({"type": "error", "message": message}, status_code=status, headers=headers)


async def refuse_slowly(buckets: Buckets, key: str, message: str) -> Response:
    """429, sent once ``key`` may ask again (at most SLOW_REFUSAL seconds from now), saying
    when in ``Retry-After``."""
    await asyncio.sleep(min(SLOW_REFUSAL, buckets.wait(key)))
    retry = max(1, math.ceil(buckets.wait(key)))
    return error(message, 429, {"Retry-After": str(retry)})


#: Sent with every page and answer: no inline script, no framing, no sniffing, no referrer.
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


class SecurityHeaders:
    """ASGI middleware adding :data:`SECURITY_HEADERS` to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", ()), *SECURITY_HEADERS]
            await send(message)

        await self.app(scope, receive, with_headers)
