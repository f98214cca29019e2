"""One WebSocket per seat (or spectator) at ``/ws/{table}``: the messages of
:mod:`ginrummy.web.protocol` in, each seat's own state out.

A socket must come from this site's pages (or an allowed origin). It watches as a spectator
until it shows a seat's token: browsers send it in a first ``hello`` message, other clients may
put it in the URL (which is then theirs to keep out of logs). The manager does the rest.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from starlette.routing import BaseRoute, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...engine import GinRummyError
from ...storage import DatabaseUnavailable, LeaseLost, StorageError
from ..cluster import MOVED, Cluster
from ..context import Context, context_of
from ..manager import Client, Manager
from ..protocol import (
    COOKIES_NEEDED,
    TOO_MANY_MESSAGES,
    ProtocolError,
    encode,
    is_table_id,
    parse_message,
)
from ..security import address, origin_ok, player_key
from ..tables import INVITED

#: The close code for a socket the database cannot serve now: "try again later" (pages
#: reconnect by themselves).
TRY_LATER = 1013


async def send(ws: WebSocket, msg: dict[str, Any]) -> None:
    """Send one message (as :func:`~ginrummy.web.protocol.encode` writes it)."""
    await ws.send_text(encode(msg))


async def socket(ws: WebSocket) -> None:
    context = context_of(ws)
    if not origin_ok(ws.headers, context.origins):
        # Refuse the handshake: another site's page may not play with this browser's seat.
        await ws.close(code=1008)
        return
    try:
        await _serve(ws, context)
    except DatabaseUnavailable as exc:  # while the socket was being set up: say so, and close
        with contextlib.suppress(Exception):
            await send(ws, {"type": "error", "message": str(exc)})
            await ws.close(code=TRY_LATER)


async def _serve(ws: WebSocket, context: Context) -> None:
    manager = context.manager
    table_id = ws.path_params["table"][:32]
    where = address(ws)
    # Browsers send the seat's token in a first "hello" message; other clients may put it
    # in the URL (which is then theirs to keep out of logs).
    token = ws.query_params.get("token")
    await ws.accept()
    if not is_table_id(table_id):  # nothing to ask the database about
        await send(ws, {"type": "error", "message": "no such table (it may be over)"})
        await ws.close(code=4404)
        return
    cluster = manager.cluster
    holder = None
    if cluster is not None:  # many instances: is the table held here, or where?
        try:
            holder = await cluster.place(table_id)
        except ProtocolError as exc:
            await send(ws, {"type": "error", "message": str(exc)})
            await ws.close(code=MOVED)
            return
    try:
        table = await manager.find(table_id) if holder is None else None
    except LeaseLost:  # taken over by another instance while it was read: reconnect there
        await ws.close(code=MOVED)
        return
    if table is None and holder is None:
        await send(ws, {"type": "error", "message": "no such table (it may be over)"})
        await ws.close(code=4404)
        return
    owner = player_key(ws.cookies)
    # Refused at once where its address has as many sockets as it may: before its token
    # takes an invite or moves a seat to this browser, which would then never hold it.
    refusal = manager.may_join(table_id, None, where, owner)
    if refusal is not None:
        await send(ws, {"type": "error", "message": refusal})
        await ws.close(code=4429)
        return
    seat, fresh, why = await _seat_of(manager, table_id, token, owner)
    if fresh is not None:
        await send(ws, seat_message(table_id, fresh))
    if why is not None:
        await send(ws, {"type": "error", "message": why})
    moves = 0 if seat is None or owner is None else await context.take_seat(table_id, seat, owner)
    # From the check of the limits to the socket counted (manager.join, below or in _relay),
    # nothing waits: sockets opened together are each counted before the next is checked.
    refusal = manager.may_join(table_id, seat, where, owner)
    if refusal is not None:
        await send(ws, {"type": "error", "message": refusal})
        await ws.close(code=4429)
        return
    client = Client(
        table_id,
        seat,
        functools.partial(send, ws),
        where,
        close=functools.partial(ws.close, MOVED),
        deltas=ws.query_params.get("history") == "delta",
        owner=owner,
        seat_moves=moves,
    )
    if cluster is not None and holder is not None:
        await _relay(context, cluster, client, holder, ws, owner)
        return
    manager.join(client)
    try:
        # Read again now that the socket is counted: while its seat was being looked up, the
        # table may have been let go of (idle) and read again, or moved to another instance.
        try:
            table = await manager.find(table_id)
        except LeaseLost:  # taken over while it was read: reconnect there (if not closed yet)
            with contextlib.suppress(Exception):
                await ws.close(code=MOVED)
            return
        if table is None:
            await send(ws, {"type": "error", "message": "the table moved: reconnecting"})
            await ws.close(code=MOVED)
            return
        await send(ws, manager.state_message(table, client))
        async for msg, received in _messages(ws, client, manager):
            try:
                if msg["type"] == "hello":
                    try:
                        await _hello(context, client, msg["token"], owner)
                    except DatabaseUnavailable:
                        await _try_hello_later(ws)
                        return
                    continue
                await manager.handle(client, msg)
                context.metrics.observe_round_trip(msg["type"], time.perf_counter() - received)
            except (ProtocolError, GinRummyError, DatabaseUnavailable) as exc:
                await send(ws, {"type": "error", "message": str(exc)})
            except LeaseLost:  # another instance took the table over: reconnect there
                assert cluster is not None
                await cluster.drop(table_id)
                break
            except StorageError as exc:  # the store refused it (say, the game closed meanwhile)
                logging.getLogger("ginrummy.web").warning("table %s: %s", table_id, exc)
                await send(ws, {"type": "error", "message": str(exc)})
    except WebSocketDisconnect:
        pass
    finally:
        manager.leave(client)


async def _messages(
    ws: WebSocket, client: Client, manager: Manager
) -> AsyncIterator[tuple[dict[str, Any], float]]:
    """Each message the socket sends, parsed, with when it came, until it closes. One over
    the limits, malformed, or a second ``hello`` is answered with an error and skipped.

    A socket's first message, if a ``hello``, is not counted against the rates: it is part of
    opening the socket (as a token in the URL is), and the address's rate may have been spent
    by its other pages, which must not make a reloaded page watch its own table."""
    said_hello = False
    while True:
        message = await ws.receive()
        received = time.perf_counter()
        if message["type"] == "websocket.disconnect":
            return
        raw = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        opening = not said_hello and _is_hello(raw)
        if not opening and not manager.allow(client):
            await send(ws, {"type": "error", "message": TOO_MANY_MESSAGES})
            continue
        try:
            msg = parse_message(raw)
            if msg["type"] == "hello" and said_hello:
                raise ProtocolError("say hello once, as the first message")
        except ProtocolError as exc:
            await send(ws, {"type": "error", "message": str(exc)})
            continue
        said_hello = True
        yield msg, received


def _is_hello(raw: str | bytes) -> bool:
    """Whether a message is a well-formed ``hello``."""
    try:
        return bool(parse_message(raw)["type"] == "hello")
    except ProtocolError:
        return False


async def _relay(
    context: Context,
    cluster: Cluster,
    client: Client,
    holder: str,
    ws: WebSocket,
    owner: str | None,
) -> None:
    """A socket whose table another instance holds: its seat and limits are checked here,
    its messages are applied there, and what it is sent comes from there."""
    manager = context.manager
    messages = _messages(ws, client, manager)

    async def receive() -> dict[str, Any] | None:
        async for msg, _received in messages:
            if msg["type"] != "hello":
                return {"op": "msg", "msg": msg}
            try:
                seat = await _check_hello(context, client, msg["token"], owner)
            except DatabaseUnavailable:
                await _try_hello_later(ws)
                return None
            except (ProtocolError, GinRummyError) as exc:
                await send(ws, {"type": "error", "message": str(exc)})
                continue
            except StorageError as exc:  # the store refused it: say so, keep the socket
                logging.getLogger("ginrummy.web").warning("table %s: %s", client.table_id, exc)
                await send(ws, {"type": "error", "message": str(exc)})
                continue
            return {"op": "seat", "seat": seat, "owner": owner, "moves": client.seat_moves}
        return None

    manager.join(client)  # counted here, against this instance's limits per seat and address
    try:
        await cluster.relay(client, holder, receive, functools.partial(send, ws))
    except WebSocketDisconnect:
        pass
    finally:
        manager.leave(client)
    with contextlib.suppress(Exception):
        await ws.close(MOVED)


async def _try_hello_later(ws: WebSocket) -> None:
    """A hello the database could not answer refuses no seat: no error is sent (a page
    waiting for its seat would take it for a refusal, and watch for good), and the socket is
    closed to be opened again later, when the page says hello again."""
    with contextlib.suppress(Exception):
        await ws.close(code=TRY_LATER)


async def _hello(context: Context, client: Client, token: str, owner: str | None) -> None:
    """A socket says which seat it holds (its token in a message, not in the URL); the seat
    becomes its player's (``owner``), moved here if it was another browser's
    (:meth:`Context.take_seat`)."""
    await _check_hello(context, client, token, owner)
    table = await context.manager.get(client.table_id)  # as it is now, not as it was
    await client.send(context.manager.state_message(table, client, whole=True))


async def _check_hello(context: Context, client: Client, token: str, owner: str | None) -> int:
    """The seat a hello's token is for, taken for ``owner``, the socket moved to it."""
    manager = context.manager
    seat, fresh, why = await _seat_of(manager, client.table_id, token, owner)
    if fresh is not None:
        await client.send(seat_message(client.table_id, fresh))
    if seat is None:
        raise ProtocolError(why or NOT_VALID)
    if owner is not None:
        client.seat_moves = await context.take_seat(client.table_id, seat, owner)
    if seat != client.seat:
        refusal = manager.may_join(client.table_id, seat, client.address, owner, joined=True)
        if refusal is not None:
            raise ProtocolError(refusal)
        manager.reseat(client, seat)
    return seat


NOT_VALID = "that seat link is not valid; watching as a spectator"
SPENT = (
    "that invite has been opened already: it takes a seat once (ask who sent it for a new "
    "game if it was meant for you); watching as a spectator"
)


async def _seat_of(
    manager: Manager, table_id: str, token: str | None, owner: str | None
) -> tuple[int | None, str | None, str | None]:
    """The seat ``token`` holds at the table (None: none, and at a table between people for
    a browser without a player cookie, ``owner`` None); where it was the seat's invite
    opened now for the first time, the seat's new token (:meth:`Manager.take_invite`), which
    only this socket is told; and where a token holds no seat, why, as the socket is told. An
    invite another player has taken holds no seat, but for the browser's player (``owner``)
    who took it: he is given a new token for the seat again (:meth:`Manager.retake_invite`),
    in case the first never reached his page."""
    seat = await manager.seat_for(table_id, token)
    if not token:
        return seat, None, None
    if seat is not None and owner is None and await manager.friend_table(table_id):
        # A seat lives in the browser whose player cookie owns it: a browser without one
        # could hold it unseen beside its owner. (Checked before an invite is taken: it stays
        # open for a browser that can take it.)
        return None, None, COOKIES_NEEDED
    if seat is None:  # only the friend's seat is sent out as an invite
        if not await manager.spent_invite(table_id, token):
            return None, None, NOT_VALID
        again = (
            None if owner is None else await manager.retake_invite(table_id, INVITED, token, owner)
        )
        return (None, None, SPENT) if again is None else (INVITED, again, None)
    if seat != INVITED:
        return seat, None, None
    held = await manager.take_invite(table_id, seat, token, owner)
    if held is False:  # another opener was first: the invite is spent
        return None, None, SPENT
    return seat, held if isinstance(held, str) else None, None


def seat_message(table_id: str, token: str) -> dict[str, Any]:
    """The message that gives a socket the token of the seat whose invite it opened: its
    page keeps it (and its link) in place of the invite, which holds no more."""
    return {"type": "seat", "token": token, "url": f"/t/{table_id}#s={token}"}


ROUTES: list[BaseRoute] = [WebSocketRoute("/ws/{table}", socket)]
