"""A seat at a table of a running ``ginrummy serve``, over the web page's own WebSocket protocol.

The link is the one a browser opens: a seat link or an invite link,
``http://host:8000/t/<table>#s=<token>``. As the page does, this opens ``/ws/<table>`` and
sends the token in a ``hello`` message (never in the socket's URL, so it is in no log), then
passes on every message the server sends. A dropped connection is opened again (the server
keeps the table), and when the players move on to a rematch the seat follows it to the new
table, where its token holds too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import secrets
import time
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import parse_qs, urlsplit

from .session import Message

#: The socket's own limit on messages (a state with a long score sheet is well under it).
MAX_MESSAGE = 1 << 22
#: Seconds between tries to reconnect a lost socket: the first, doubled each time up to the last.
RETRY_FIRST, RETRY_MAX = 0.5, 8.0


class JoinError(Exception):
    """The table cannot be joined: a bad link, an unreachable server, a seat it refuses.
    ``gone``: the server has no such table (asking again would find none either)."""

    def __init__(self, message: str, *, gone: bool = False) -> None:
        super().__init__(message)
        self.gone = gone


#: The name of the server's player cookie (``ginrummy.web.security.PLAYER_COOKIE``).
PLAYER_COOKIE = "ginrummy_player"
#: The close code of a server that has no such table.
NO_SUCH_TABLE = 4404


@dataclass(frozen=True)
class SeatLink:
    """What a seat link says: where the server's sockets are, the table and the seat's token."""

    base: str  # ws://host:port (and any path prefix)
    table: str
    token: str

    @property
    def socket_url(self) -> str:
        # As the page does, ask for the history in parts: each state then holds only the moves
        # this screen has not had (RemoteSession._joined puts them together).
        return f"{self.base}/ws/{self.table}?history=delta"

    def at(self, table: str) -> SeatLink:
        return SeatLink(self.base, table, self.token)

    @property
    def page_url(self) -> str:
        """The link as a browser opens it (``http(s)://host/t/<table>#s=<token>``)."""
        return f"http{self.base[2:]}/t/{self.table}#s={self.token}"


def parse_link(url: str) -> SeatLink:
    """Read an invite or seat link: ``http(s)://host/t/<table>#s=<token>`` (or ``?s=``)."""
    text = url.strip()
    try:
        parts = urlsplit(text)
        port = parts.port  # raises for a port that is not a number
    except ValueError as exc:
        raise JoinError(f"{url!r} is not a link to a table ({exc})") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise JoinError(
            f"{url!r} is not a link to a table: give the seat or invite link a browser opens, "
            "http://host:port/t/<table>#s=<token>"
        )
    prefix, marker, table = parts.path.rpartition("/t/")
    table = table.strip("/")
    if not marker or not table or "/" in table:
        raise JoinError(f"{url!r} is not a link to a table (no /t/<table> in it)")
    found = parse_qs(parts.fragment).get("s") or parse_qs(parts.query).get("s")
    if not found or not found[0]:
        raise JoinError(
            "that link has no seat in it (a watch link): use your seat link or the invite "
            "link, which end in #s=..."
        )
    scheme = "wss" if parts.scheme == "https" else "ws"
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    netloc = host if port is None else f"{host}:{port}"
    return SeatLink(f"{scheme}://{netloc}{prefix}", table, found[0])


class RemoteSession:
    """One seat of a served table (see the module's docstring). Use :meth:`join`."""

    def __init__(self, link: SeatLink, *, open_timeout: float = 10.0) -> None:
        self.link = link
        self.open_timeout = open_timeout
        self.label = f"table {link.table} on {link.base.split('://', 1)[1]}"
        self._ws: Any = None
        #: This terminal's player id, sent as a browser's cookie: between people the server
        #: keeps a seat in one browser (one player id) at a time, and gives none to a socket
        #: without one. One per session, so its reconnects keep the seat.
        self.player = secrets.token_urlsafe(18)
        self._first: list[Message] = []
        self._saw_open = False
        self._closed = False
        #: The hand's history so far, and how many states held only its newest moves.
        self._history: list[Any] | None = None
        self.parts = 0
        #: The server's clock less this machine's, from the pong asked for at each connection
        #: (its time taken as the middle of the round trip; the shortest trip's kept): the
        #: move clock counts by the server's time, whatever this machine's clock says.
        self.skew = 0.0
        self._ping_at: float | None = None
        self._trip = math.inf

    @classmethod
    async def join(cls, url: str, *, open_timeout: float = 10.0) -> RemoteSession:
        """Connect and take the seat; raises :class:`JoinError` saying why it cannot."""
        session = cls(parse_link(url), open_timeout=open_timeout)
        session._first = await session._connect()
        return session

    async def _connect(self) -> list[Message]:
        """Open the socket, say hello with the seat's token, and read up to the seat's state
        (the messages read on the way, that state last)."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import (
            ConnectionClosed,
            InvalidHandshake,
            InvalidURI,
            WebSocketException,
        )

        url = self.link.socket_url
        try:
            ws = await connect(
                url,
                proxy=None,
                open_timeout=self.open_timeout,
                max_size=MAX_MESSAGE,
                additional_headers={"Cookie": f"{PLAYER_COOKIE}={self.player}"},
            )
        except InvalidURI as exc:
            raise JoinError(f"{url} is not a WebSocket address: {exc}") from None
        except InvalidHandshake as exc:
            raise JoinError(f"{url} refused the connection: {exc}") from None
        except (OSError, TimeoutError, WebSocketException) as exc:
            reason = str(exc) or type(exc).__name__
            raise JoinError(f"cannot reach {self.link.base.split('://', 1)[1]}: {reason}") from None
        try:
            # A server that refuses the table may have closed already: its error is still
            # there to be read.
            with contextlib.suppress(ConnectionClosed):
                await ws.send(json.dumps({"type": "hello", "token": self.link.token}))
                self._ping_at, self._trip = time.monotonic(), math.inf
                await ws.send(json.dumps({"type": "ping"}))
            read: list[Message] = []
            while True:
                message = await self._read(ws)
                if message["type"] == "pong":
                    self._pong(message)
                    continue
                if message["type"] == "error":
                    why = str(message.get("message", "the server refused the seat"))
                    with contextlib.suppress(TimeoutError):  # its close says whether for good
                        await asyncio.wait_for(ws.wait_closed(), 1.0)
                    raise JoinError(why, gone=ws.close_code == NO_SUCH_TABLE)
                if message["type"] == "seat":  # the invite opened: the seat's own token
                    self.link = replace(self.link, token=str(message["token"]))
                    message = {"type": "seat", "url": self.link.page_url}
                read.append(message)
                if message["type"] == "state" and message["table"].get("seat") is not None:
                    self._ws = ws
                    return [m for m in read if m["type"] != "state"] + [message]
        except BaseException:
            await ws.close()
            raise

    async def _read(self, ws: Any) -> Message:
        from websockets.exceptions import ConnectionClosed

        try:
            raw = await asyncio.wait_for(ws.recv(), self.open_timeout)
        except ConnectionClosed as exc:
            raise JoinError(f"the server closed the connection ({exc})") from None
        except TimeoutError:
            raise JoinError("the server did not answer in time") from None
        data = json.loads(raw)
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            raise JoinError("the server sent something that is not a message")
        if not self._joined(data):
            raise JoinError("the server sent part of a history this screen never had")
        return data

    def _pong(self, message: Message) -> None:
        """Measure the server's clock against this machine's from the pong to our ping."""
        now = message.get("now")
        if self._ping_at is None or not isinstance(now, (int, float)) or isinstance(now, bool):
            return
        trip, self._ping_at = time.monotonic() - self._ping_at, None
        if trip <= self._trip:
            self._trip = trip
            self.skew = float(now) - (time.time() - trip / 2)

    def _joined(self, message: Message) -> bool:
        """Put a state's history together: one that holds only the newest moves
        (``view.history_from``, the number of moves before them) gets the earlier ones from the
        last state. False when this session does not have them."""
        view = message.get("view") if message.get("type") == "state" else None
        if not isinstance(view, dict):
            return True
        start = view.pop("history_from", None)
        if start is not None:
            earlier = self._history
            if not isinstance(start, int) or earlier is None or len(earlier) < start:
                return False
            view["history"] = earlier[:start] + list(view.get("history") or [])
            self.parts += 1
        history = view.get("history")
        self._history = history if isinstance(history, list) else None
        return True

    # -- the session ----------------------------------------------------------------------------

    async def start(self) -> None:
        """Nothing to do: :meth:`join` is connected already."""

    async def send(self, message: Message) -> None:
        from websockets.exceptions import ConnectionClosed

        if self._ws is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await self._ws.send(json.dumps(message))

    async def receive(self) -> Message:
        from websockets.exceptions import ConnectionClosed

        while True:
            if self._first:
                message = self._first.pop(0)
            elif self._closed:
                return {"type": "closed"}
            elif self._ws is None:  # lost, and said so: back once the server is
                await self._reconnect()
                if self._closed:
                    # why, where the server said (the table is no more), then the end
                    return self._first.pop(0) if self._first else {"type": "closed"}
                return {"type": "connection", "connected": True}
            else:
                try:
                    raw = await self._ws.recv()
                except ConnectionClosed:
                    self._ws = None  # said at once; the next receive reconnects
                    return {"type": "connection", "connected": False}
                try:
                    message = json.loads(raw)
                except ValueError:
                    continue
                if not isinstance(message, dict):
                    continue
                if message.get("type") == "pong":
                    self._pong(message)
                    continue
                if not self._joined(message):  # ask for the whole state again
                    await self.send({"type": "state"})
                    continue
            if message.get("type") == "state" and await self._follow(message):
                continue
            if message.get("type") == "moved_away":
                # The seat was opened in another browser: said, and the session ends here (a
                # reconnect would send the token again, and take the seat back unasked).
                self._closed = True
                with contextlib.suppress(Exception):
                    await self._ws.close()
                self._ws = None
                return {"type": "error", "message": str(message.get("message"))}
            return message

    async def _follow(self, state: Message) -> bool:
        """Follow the players to a rematch (as the page does): True when this state was of
        the old table and the seat is now at the new one."""
        table = state["table"]
        if not table.get("over"):
            self._saw_open = True
        rematch = table.get("rematch")
        if not rematch or not self._saw_open or rematch == self.link.table:
            return False
        old, self.link = self.link, self.link.at(str(rematch))
        self.label = f"table {self.link.table} on {self.link.base.split('://', 1)[1]}"
        with contextlib.suppress(Exception):
            await self._ws.close()
        try:
            self._first = await self._connect()
        except JoinError:
            self.link = old
            return False
        self._saw_open = False
        return True

    async def _reconnect(self) -> None:
        """Open the socket again, waiting longer after each failure (half a second, doubled
        up to 8), for as long as it takes, as the page does: a server restarted, or a database
        away for a while, is waited for, until the session is closed."""
        wait = RETRY_FIRST
        while not self._closed:
            await asyncio.sleep(wait)
            try:
                self._first = await self._connect()
                return
            except JoinError as exc:
                if exc.gone:  # the table is no more: said, and the session ends
                    self._first = [{"type": "error", "message": str(exc)}]
                    self._closed = True
                    return
                wait = min(wait * 2, RETRY_MAX)

    async def close(self) -> None:
        self._closed = True
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
            self._ws = None
