"""The ASGI app: pages, a small JSON API, and one WebSocket per seat at ``/ws/{table}``.

Every page and answer carries the headers of :data:`SECURITY_HEADERS`; posts must be JSON from
this site's own pages, and sockets must come from them (their ``Origin``), or from the origins
given as ``allowed_origins``. Nothing here reads or writes the database in the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import math
import secrets
from collections.abc import AsyncIterator, Mapping, Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine import GinRummyError, Rules
from ..storage import PlayerStats, SeatedGame
from .limits import Buckets
from .manager import ABANDON_AFTER_DAYS, Client, Limits, Manager
from .protocol import ProtocolError, clean_name, parse_message
from .tables import LEVELS, Options, replay_hand, token_hash

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
#: New tables an address may open: this many a minute on average, up to TABLE_BURST at once.
TABLES_PER_MINUTE = 6.0
TABLE_BURST = 20.0
#: Reads of saved games (lists, statistics, replays) one address may ask for: this many a
#: second on average, up to READ_BURST at once.
READS_PER_SECOND = 2.0
READ_BURST = 20.0
#: A request refused for being over a limit is answered no sooner than the address may ask
#: again, up to this many seconds: a client that asks again as soon as it is refused is then
#: refused a few times a second, not hundreds, and costs the other tables next to nothing.
SLOW_REFUSAL = 1.0
# Stakes the settlement arithmetic handles exactly (Decimal's default context has 28 digits and
# raises Overflow past 1E+999999, which would break every later state message of the table).
MAX_STAKE = Decimal(1_000_000)
STAKE_STEP = Decimal("0.0001")
log = logging.getLogger("ginrummy.web")


def create_app(
    store: Any = None,
    *,
    db_url: str | None = None,
    computer_delay: float = 0.4,
    seed: int | None = None,
    tables_per_minute: float = TABLES_PER_MINUTE,
    allowed_origins: Sequence[str] = (),
    abandon_after_days: float = ABANDON_AFTER_DAYS,
    limits: Limits | None = None,
) -> Starlette:
    """The web app over ``store`` (else a Store on ``db_url``). ``allowed_origins`` lists
    origins besides the server's own (``https://example.com``) that may open sockets and post."""
    if store is None:
        from ..storage import Store

        store = Store(db_url)
    manager = Manager(
        store,
        computer_delay=computer_delay,
        seed=seed,
        abandon_after_days=abandon_after_days,
        limits=limits,
    )
    origins = frozenset(o.rstrip("/").lower() for o in allowed_origins)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # Tables are loaded when someone comes back to them: start-up reads nothing.
        tasks = [
            asyncio.ensure_future(_every(1.0, manager.tick, "move clock")),
            asyncio.ensure_future(_every(3600.0, manager.abandon_stale, "abandoning", first=0)),
        ]
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            manager.close()

    def page(name: str) -> Any:
        async def handler(request: Request) -> Response:
            response = FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
            if player_key(request.cookies) is None:
                # An anonymous player id: whose games and statistics these are, no account
                # needed. Only its hash is stored; it never leaves this site (SameSite, no JS).
                response.set_cookie(
                    PLAYER_COOKIE,
                    secrets.token_urlsafe(18),
                    max_age=PLAYER_COOKIE_AGE,
                    httponly=True,
                    samesite="lax",
                    secure=request.url.scheme == "https",
                )
            return response

        return handler

    async def presets(request: Request) -> Response:
        return JSONResponse(
            {
                "presets": [
                    {
                        "name": n,
                        "description": Rules.preset(n).describe(match=False),
                        "match_target": Rules.preset(n).match_target,
                        "rules": Rules.preset(n).to_dict(),
                    }
                    for n in Rules.presets()
                ],
                "levels": list(LEVELS),
            }
        )

    creators = Buckets(tables_per_minute / 60.0, TABLE_BURST)
    readers = Buckets(READS_PER_SECOND, READ_BURST)

    async def create(request: Request) -> Response:
        refused = _refuse_post(request, origins)
        if refused is not None:
            return refused
        if tables_per_minute > 0 and not creators.take(_address(request)):
            return await _refuse_slowly(
                creators,
                _address(request),
                "too many new games from your address; try again in a minute",
            )
        data = await _json_body(request, MAX_BODY)
        if isinstance(data, Response):
            return data
        try:
            if not isinstance(data, dict):
                raise ProtocolError("send a JSON object")
            rules, options, names = _table_settings(data)
            created = await manager.create(rules, options, names)
        except (ProtocolError, GinRummyError) as exc:
            return _error(str(exc), 400)
        table = created.table
        owner = player_key(request.cookies)
        if owner is not None:
            await manager.db(_claim, store, table.id, 0, owner)
        # Links carry the seat's token after "#": browsers never send that part to a server,
        # so it stays out of request lines, logs and Referer headers.
        out = {
            "id": table.id,
            "seat": 0,
            "token": created.tokens[0],
            "url": f"/t/{table.id}#s={created.tokens[0]}",
            "watch": f"/t/{table.id}",
        }
        if created.tokens[1]:
            out["invite"] = f"/t/{table.id}#s={created.tokens[1]}"
        return JSONResponse(out)

    async def seats(request: Request) -> list[SeatedGame] | Response:
        """The games a browser holds seats at, with its seat: the body lists its tables,
        ``{"tables": [{"id": ..., "token": ...}, ...]}`` (or just the list)."""
        refused = _refuse_post(request, origins)
        if refused is not None:
            return refused
        if not readers.take(_address(request)):
            return await _refuse_slowly(readers, _address(request), TOO_MANY_READS)
        data = await _json_body(request, 32 * MAX_BODY)
        if isinstance(data, Response):
            return data
        items = data.get("tables") if isinstance(data, dict) else data
        if not isinstance(items, list):
            return _error("send a JSON object with a list of tables", 400)
        pairs = []
        for item in items[:MAX_TABLES]:
            if isinstance(item, dict):
                table_id, token = item.get("id"), item.get("token")
                if isinstance(table_id, str) and isinstance(token, str) and len(token) <= 200:
                    pairs.append((table_id[:32], token_hash(token)))
        found: list[SeatedGame] = await manager.db(store.seated_games, pairs)
        owner = player_key(request.cookies)
        if owner is not None:  # and every game this browser's player sat at
            known = {g.id for g in found}
            owned = await manager.db(store.owned_games, owner)
            found += [g for g in owned if g.id not in known]
            found.sort(key=lambda g: (g.updated_at, g.created_at), reverse=True)
        return found

    async def mine(request: Request) -> Response:
        found = await seats(request)
        if isinstance(found, Response):
            return found
        out = []
        for game in found:
            table = manager.tables.get(game.id)
            if game.status == "open" and table is not None and not table.finished:
                out.append(_open_summary(table, game.seat))
            else:
                out.append(_game_summary(game))
        return JSONResponse(out)

    async def history(request: Request) -> Response:
        found = await seats(request)
        if isinstance(found, Response):
            return found
        page, per_page = _paging(request)
        done = [g for g in found if g.status != "open"]
        pages = max(1, -(-len(done) // per_page))
        chunk = done[(page - 1) * per_page : page * per_page]
        return JSONResponse(
            {
                "games": [_game_summary(g) for g in chunk],
                "page": page,
                "pages": pages,
                "total": len(done),
            }
        )

    async def stats(request: Request) -> Response:
        found = await seats(request)
        if isinstance(found, Response):
            return found
        # Games where undo was used, and abandoned ones, do not count.
        games = [g for g in found if g.status == "finished" and not g.options.get("undo_used")]
        groups: dict[tuple[str, str], list[tuple[str, int]]] = {}
        for game in games:
            groups.setdefault(_group(game), []).append((game.id, game.seat))

        def tallies() -> dict[tuple[str, str], PlayerStats]:
            return {key: store.seat_stats(pairs) for key, pairs in groups.items()}

        by_group = await manager.db(tallies)  # each game's hands read once
        out = {
            f.name: sum(getattr(t, f.name) for t in by_group.values())
            for f in dataclasses.fields(PlayerStats)
            if f.name != "name"
        }
        out["not_counted"] = sum(1 for g in found if g.status != "open") - len(games)
        out["by"] = _breakdown(games)
        for row in out["by"]:  # each group's hands, gins and undercuts too
            tally = by_group[(row["against"], row["rules"])]
            row.update(
                hands=tally.hands, gins=tally.gins, undercuts=tally.undercuts, points=tally.points
            )
        out["series"] = _series(games)
        return JSONResponse(out)

    async def replay(request: Request) -> Response:
        # Whoever knows a game's id (its players, and whoever they gave the table's link)
        # may watch it; once it is over, that includes every deal and every card.
        game_id = request.path_params["table"][:32]
        if not readers.take(_address(request)):
            return await _refuse_slowly(readers, _address(request), TOO_MANY_READS)

        def load() -> dict[str, Any] | None:
            stored = store.load_game(game_id)
            if stored is None or stored.game.kind != "online":
                return None
            if stored.game.status == "open":
                return {}
            return _replay(stored)

        found = await manager.db(load)
        if found is None:
            return _error("no such game", 404)
        if not found:
            return _error("a game can be replayed once it is finished", 403)
        return JSONResponse(found)

    async def socket(ws: WebSocket) -> None:
        table_id = ws.path_params["table"][:32]
        if not _origin_ok(ws.headers, origins):
            # Refuse the handshake: another site's page may not play with this browser's seat.
            await ws.close(code=1008)
            return
        address = ws.client.host if ws.client is not None else ""
        # Browsers send the seat's token in a first "hello" message; other clients may put it
        # in the URL (which is then theirs to keep out of logs).
        token = ws.query_params.get("token")
        await ws.accept()
        table = await manager.find(table_id)
        if table is None:
            await ws.send_json({"type": "error", "message": "no such table (it may be over)"})
            await ws.close(code=4404)
            return
        seat = await manager.seat_for(table_id, token)
        if token and seat is None:
            await ws.send_json(
                {"type": "error", "message": "that seat link is not valid; watching as a spectator"}
            )
        refusal = manager.may_join(table_id, seat, address)
        if refusal is not None:
            await ws.send_json({"type": "error", "message": refusal})
            await ws.close(code=4429)
            return
        owner = player_key(ws.cookies)
        if seat is not None and owner is not None:
            await manager.db(_claim, store, table_id, seat, owner)
        client = Client(table_id, seat, ws.send_json, address)
        manager.join(client)
        said_hello = False
        try:
            await ws.send_json(table.state_for(seat))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if not manager.allow(client):
                    await ws.send_json({"type": "error", "message": "too many messages: slow down"})
                    continue
                try:
                    msg = parse_message(raw)
                    if msg["type"] == "hello":
                        if said_hello:
                            raise ProtocolError("say hello once, as the first message")
                        said_hello = True
                        await _hello(manager, client, table, msg["token"], owner)
                        continue
                    said_hello = True
                    await manager.handle(client, msg)
                except (ProtocolError, GinRummyError) as exc:
                    await ws.send_json({"type": "error", "message": str(exc)})
        except WebSocketDisconnect:
            pass
        finally:
            manager.leave(client)

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table}", page("table.html")),
        Route("/history", page("history.html")),
        Route("/replay/{table}", page("replay.html")),
        Route("/learn", page("learn.html")),
        Route("/api/presets", presets),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/mine", mine, methods=["POST"]),
        Route("/api/history", history, methods=["POST"]),
        Route("/api/replay/{table}", replay),
        Route("/api/stats", stats, methods=["POST"]),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])
    app.state.manager = manager
    app.state.store = store
    return app


#: At most this many of a browser's tables are looked at by one request.
MAX_TABLES = 500
PER_PAGE = 20
MAX_PER_PAGE = 100


async def _hello(
    manager: Manager, client: Client, table: Any, token: str, owner: str | None
) -> None:
    """A socket says which seat it holds (its token in a message, not in the URL); the seat
    becomes its player's (``owner``) unless it is someone's already."""
    seat = await manager.seat_for(client.table_id, token)
    if seat is None:
        raise ProtocolError("that seat link is not valid; watching as a spectator")
    if owner is not None:
        await manager.db(_claim, manager.store, client.table_id, seat, owner)
    if seat != client.seat:
        refusal = manager.may_join(client.table_id, seat, client.address)
        if refusal is not None:
            raise ProtocolError(refusal)
        manager.reseat(client, seat)
    await client.send(table.state_for(seat))


async def _every(seconds: float, job: Any, what: str, first: float | None = None) -> None:
    await asyncio.sleep(seconds if first is None else first)
    while True:
        try:
            await job()
        except Exception:
            log.exception(what)
        await asyncio.sleep(seconds)


PLAYER_COOKIE = "ginrummy_player"
PLAYER_COOKIE_AGE = 2 * 365 * 24 * 3600


def player_key(cookies: Mapping[str, str]) -> str | None:
    """The stored form of the browser's anonymous player id (None without a valid one)."""
    value = cookies.get(PLAYER_COOKIE)
    if not value or len(value) > 64 or not value.replace("-", "").replace("_", "").isalnum():
        return None
    return token_hash(value)


def _claim(store: Any, game_id: str, seat: int, owner: str) -> None:
    with store.transaction() as tx:
        tx.claim_seat(game_id, seat, owner)


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else ""


def _origin_ok(headers: Any, allowed: frozenset[str]) -> bool:
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


def _refuse_post(request: Request, allowed: frozenset[str]) -> Response | None:
    """Posts change things: only JSON (which a page on another site cannot send without the
    browser asking this server first), and only from this site's pages."""
    if not _origin_ok(request.headers, allowed):
        return _error("requests from other sites are refused", 403)
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        return _error("send JSON (Content-Type: application/json)", 415)
    return None


async def _json_body(request: Request, limit: int) -> Any:
    body = await _read_body(request, limit)
    if body is None:
        return _error("request too large", 413)
    try:
        return json.loads(body or b"{}")
    except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep
        return _error("send a JSON object", 400)


def _paging(request: Request) -> tuple[int, int]:
    def number(name: str, default: int, top: int) -> int:
        text = request.query_params.get(name, "")
        return max(1, min(top, int(text))) if text.isdigit() and len(text) < 9 else default

    return number("page", 1, 1_000_000), number("per_page", PER_PAGE, MAX_PER_PAGE)


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


async def _read_body(request: Request, limit: int) -> bytes | None:
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


def _error(message: str, status: int, headers: dict[str, str] | None = None) -> Response:
    return JSONResponse({"type": "error", "message": message}, status_code=status, headers=headers)


TOO_MANY_READS = "too many requests from your address; try again in a moment"


async def _refuse_slowly(buckets: Buckets, key: str, message: str) -> Response:
    """429, sent once ``key`` may ask again (at most SLOW_REFUSAL seconds from now), saying
    when in ``Retry-After``."""
    await asyncio.sleep(min(SLOW_REFUSAL, buckets.wait(key)))
    retry = max(1, math.ceil(buckets.wait(key)))
    return _error(message, 429, {"Retry-After": str(retry)})


def _text(data: dict[str, Any], key: str, default: str, limit: int = 40) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ProtocolError(f"{key} must be text")
    value = " ".join(value.split())[:limit]
    return value or default


def _table_settings(data: dict[str, Any]) -> tuple[Rules, Options, tuple[str, str]]:
    mode = _text(data, "mode", "computer")
    level = _text(data, "level", "intermediate")
    preset = _text(data, "preset", "standard")
    overrides = data.get("options", {})
    if not isinstance(overrides, dict) or len(overrides) > 40:
        raise ProtocolError("options must be an object of rule options")
    stake = data.get("stake")
    if stake not in (None, ""):
        try:
            overrides["stake"] = str(Decimal(str(stake)))
        except InvalidOperation:
            raise ProtocolError("the stake must be a number") from None
    rules = Rules.preset(preset, **overrides)
    if rules.stake > MAX_STAKE or rules.stake != rules.stake.quantize(STAKE_STEP):
        raise ProtocolError(f"the stake must be 0 to {MAX_STAKE} a point, in steps of {STAKE_STEP}")
    match = data.get("match", False)
    clock = data.get("clock", 0)
    if not isinstance(match, bool):
        raise ProtocolError("match must be true or false")
    if not isinstance(clock, int) or isinstance(clock, bool) or not 0 <= clock <= 600:
        raise ProtocolError("clock must be 0 to 600 seconds per move")
    hints = data.get("hints", mode == "computer")
    if not isinstance(hints, bool):
        raise ProtocolError("hints must be true or false")
    # Nobody is called "You": each seat's own page says "you" of itself ("You win the hand").
    name = clean_name(data.get("name"), "Player 1")
    other = (
        "Computer (" + level + ")"
        if mode == "computer"
        else clean_name(data.get("opponent"), "Player 2")
    )
    label = preset if rules == Rules.preset(preset) else f"{preset}, changed"
    options = Options(mode, level, match, clock, hints, preset=label)
    return rules, options, (name, other)


def _open_summary(table: Any, seat: int) -> dict[str, Any]:
    return {
        "id": table.id,
        "seat": seat,
        "names": list(table.names),
        "status": "open",
        "scores": list(table.game.totals),
        "hand_number": table.hand_number,
        "your_turn": table.hand is not None and table.hand.current_player == seat,
        "url": f"/t/{table.id}",
    }


def _outcome(game: SeatedGame) -> tuple[int, int]:
    """(+1 won, -1 lost, 0 even; the net points from this seat's side) of a finished game."""
    final = game.summary or {}
    net = int(final.get("net") or 0)
    if game.winner is None:
        return 0, 0
    return (1, net) if game.winner == game.seat else (-1, -net)


def _opponent(game: SeatedGame) -> str:
    options = game.options
    return str(options.get("level", "")) if options.get("mode") == "computer" else "a person"


def _group(game: SeatedGame) -> tuple[str, str]:
    """Whom the game was against (the computer's level, or a person) and under which rules."""
    return _opponent(game), str(game.options.get("preset") or "other")


def _breakdown(games: list[SeatedGame]) -> list[dict[str, Any]]:
    """Finished games and wins by opponent (the computer's level, or a person) and rules."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for game in games:
        key = _group(game)
        row = rows.setdefault(key, {"against": key[0], "rules": key[1], "games": 0, "wins": 0})
        row["games"] += 1
        row["wins"] += _outcome(game)[0] == 1
    return sorted(rows.values(), key=lambda r: (-r["games"], r["against"], r["rules"]))


def _series(games: list[SeatedGame]) -> list[dict[str, Any]]:
    """Each finished game's result, oldest first (for a chart of results over time)."""
    out = []
    for game in sorted(games, key=lambda g: g.updated_at):
        result, net = _outcome(game)
        out.append(
            {"id": game.id, "date": game.updated_at.isoformat(), "result": result, "net": net}
        )
    return out


def _game_summary(game: SeatedGame) -> dict[str, Any]:
    return {
        "id": game.id,
        "seat": game.seat,
        "names": list(game.names),
        "status": game.status,
        "created": game.created_at.isoformat(),
        "updated": game.updated_at.isoformat(),
        "final": game.summary,
        "undo_used": bool(game.options.get("undo_used")),
        "url": f"/t/{game.id}" if game.status == "open" else f"/replay/{game.id}",
    }


def _replay(stored: Any) -> dict[str, Any]:
    rules = stored.game.rules
    hands = []
    for h in stored.hands:
        played = replay_hand(rules, h.dealer, h.deck, [a.text for a in h.actions])
        played.update(
            number=h.number,
            deck="".join(h.deck.split()),  # the committed form: no spaces
            salt=h.salt,
            commitment=h.commitment,
        )
        hands.append(played)
    final = stored.game.final or {}
    return {
        "id": stored.game.id,
        "status": stored.game.status,
        "undo_used": bool(stored.game.options.get("undo_used")),
        "names": list(stored.game.names),
        "rules": rules.to_dict(),
        "hands": hands,
        "final": final,
    }
