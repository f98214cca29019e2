"""The ASGI app: pages, a small JSON API, and one WebSocket per seat at ``/ws/{table}``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Sequence
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..engine import GinRummyError, Rules
from ..engine.serial import result_to_dict
from .manager import Client, Manager
from .protocol import ProtocolError, parse_message
from .tables import LEVELS, Options, rebuild_hand, token_hash

STATIC = Path(__file__).parent / "static"
MAX_BODY = 4096
RATE = 10.0  # messages per second a socket may send on average
BURST = 30.0
#: New tables an address may open: this many a minute on average, up to TABLE_BURST at once.
TABLES_PER_MINUTE = 6.0
TABLE_BURST = 20.0
#: An open game nobody has moved in for this many days is closed as abandoned.
ABANDON_AFTER_DAYS = 30.0
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
) -> Starlette:
    if store is None:
        from ..storage import Store

        store = Store(db_url)
    manager = Manager(store, computer_delay=computer_delay, seed=seed)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        restored = manager.restore()
        log.info("restored %d open tables", restored)
        for table in manager.tables.values():
            manager.kick(table)
        clock = asyncio.ensure_future(_clock(manager))
        try:
            yield
        finally:
            clock.cancel()

    def page(name: str) -> Any:
        async def handler(request: Request) -> Response:
            return FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})

        return handler

    async def presets(request: Request) -> Response:
        return JSONResponse(
            {
                "presets": [
                    {
                        "name": n,
                        "description": Rules.preset(n).describe(match=False),
                        "match_target": Rules.preset(n).match_target,
                    }
                    for n in Rules.presets()
                ],
                "levels": list(LEVELS),
            }
        )

    # Per client address: [tokens, last refill]. Bounded: addresses that have refilled to a
    # full burst are forgotten when the map grows large.
    creators: dict[str, list[float]] = {}

    def may_create(address: str) -> bool:
        if tables_per_minute <= 0:
            return True
        now = time.monotonic()
        bucket = creators.get(address)
        if bucket is None:
            if len(creators) > 10_000:
                full = (TABLE_BURST * 60.0) / tables_per_minute
                for key in [k for k, (_, last) in creators.items() if now - last > full]:
                    del creators[key]
            bucket = creators[address] = [TABLE_BURST, now]
        bucket[0] = min(TABLE_BURST, bucket[0] + (now - bucket[1]) * tables_per_minute / 60.0)
        bucket[1] = now
        if bucket[0] < 1:
            return False
        bucket[0] -= 1
        return True

    async def create(request: Request) -> Response:
        address = request.client.host if request.client is not None else ""
        if not may_create(address):
            return _error("too many new games from your address; try again in a minute", 429)
        body = await _read_body(request, MAX_BODY)
        if body is None:
            return _error("request too large", 413)
        try:
            data = json.loads(body or b"{}")
        except (ValueError, RecursionError):  # not JSON, not UTF-8, or nested too deep
            return _error("send a JSON object", 400)
        try:
            if not isinstance(data, dict):
                raise ProtocolError("send a JSON object")
            rules, options, names = _table_settings(data)
            created = manager.create(rules, options, names)
        except (ProtocolError, GinRummyError) as exc:
            return _error(str(exc), 400)
        table = created.table
        out = {
            "id": table.id,
            "seat": 0,
            "token": created.tokens[0],
            "url": f"/t/{table.id}?s={created.tokens[0]}",
        }
        if created.tokens[1]:
            out["invite"] = f"/t/{table.id}?s={created.tokens[1]}"
        response = JSONResponse(out)
        response.set_cookie(
            f"gr_{table.id}", created.tokens[0], max_age=90 * 86400, httponly=True, samesite="lax"
        )
        return response

    async def mine(request: Request) -> Response:
        body = await _read_body(request, 32 * MAX_BODY)
        if body is None:
            return _error("request too large", 413)
        try:
            items = json.loads(body or b"[]")
        except (ValueError, RecursionError):
            return _error("send a JSON list", 400)
        out = []
        if isinstance(items, list):
            for item in items[:200]:
                if not isinstance(item, dict):
                    continue
                table_id, token = item.get("id"), item.get("token")
                if not isinstance(table_id, str) or not isinstance(token, str):
                    continue
                info = _summary(manager, store, table_id, token)
                if info is not None:
                    out.append(info)
        return JSONResponse(out)

    async def history(request: Request) -> Response:
        games = store.list_games(kind="online", status="finished")
        return JSONResponse([_game_summary(g) for g in games[:200]])

    async def replay(request: Request) -> Response:
        game_id = request.path_params["table"]
        stored = store.load_game(game_id)
        if stored is None or stored.game.kind != "online":
            return _error("no such game", 404)
        if stored.game.status != "finished":
            return _error("a game can be replayed once it is finished", 403)
        return JSONResponse(_replay(stored))

    async def stats(request: Request) -> Response:
        name = request.query_params.get("name", "")[:40]
        if not name:
            return _error("give a player name", 400)
        return JSONResponse(_plain(store.player_stats(name)))

    async def socket(ws: WebSocket) -> None:
        table_id = ws.path_params["table"]
        token = ws.query_params.get("token") or ws.cookies.get(f"gr_{table_id}")
        await ws.accept()
        table = manager.find(table_id)
        if table is None:
            await ws.send_json({"type": "error", "message": "no such table (it may be over)"})
            await ws.close(code=4404)
            return
        seat = manager.seat_for(table_id, token)
        if token and seat is None:
            await ws.send_json(
                {"type": "error", "message": "that seat link is not valid; watching as a spectator"}
            )
        client = Client(table_id, seat, ws.send_json)
        manager.join(client)
        try:
            await ws.send_json(table.state_for(seat))
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if not _allow(client):
                    await ws.send_json({"type": "error", "message": "too many messages: slow down"})
                    continue
                try:
                    msg = parse_message(raw)
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
        Route("/api/presets", presets),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/mine", mine, methods=["POST"]),
        Route("/api/history", history),
        Route("/api/replay/{table}", replay),
        Route("/api/stats", stats),
        WebSocketRoute("/ws/{table}", socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.manager = manager
    app.state.store = store
    return app


async def _clock(manager: Manager) -> None:
    while True:
        await asyncio.sleep(1.0)
        try:
            await manager.tick()
        except Exception:
            log.exception("move clock")


def _allow(client: Client) -> bool:
    now = time.monotonic()
    client.tokens = min(BURST, client.tokens + (now - client.last) * RATE)
    client.last = now
    if client.tokens < 1:
        return False
    client.tokens -= 1
    return True


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


def _error(message: str, status: int) -> Response:
    return JSONResponse({"type": "error", "message": message}, status_code=status)


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
    name = _text(data, "name", "You")
    other = "Computer (" + level + ")" if mode == "computer" else _text(data, "opponent", "Friend")
    return rules, Options(mode, level, match, clock), (name, other)


def _summary(manager: Manager, store: Any, table_id: str, token: str) -> dict[str, Any] | None:
    seat = manager.seat_for(table_id, token) if table_id in manager.tables else None
    table = manager.tables.get(table_id)
    if table is not None and seat is not None and not table.finished:
        return {
            "id": table_id,
            "seat": seat,
            "names": list(table.names),
            "status": "open",
            "scores": list(table.game.totals),
            "hand_number": table.hand_number,
            "your_turn": table.hand is not None and table.hand.current_player == seat,
            "url": f"/t/{table_id}?s={token}",
        }
    game = store.get_game(table_id)
    if game is None or game.kind != "online":
        return None
    if store.seat_for_token(table_id, token_hash(token)) is None:
        return None
    return _game_summary(game)


def _game_summary(game: Any) -> dict[str, Any]:
    final = game.final or {}
    return {
        "id": game.id,
        "names": list(game.names),
        "status": game.status,
        "created": game.created_at.isoformat(),
        "final": final.get("final"),
        "url": f"/replay/{game.id}",
    }


def _replay(stored: Any) -> dict[str, Any]:
    rules = stored.game.rules
    hands = []
    for h in stored.hands:
        texts = [a.text for a in h.actions]
        steps = []
        hand = rebuild_hand(rules, h.dealer, h.deck, [])
        steps.append(_step(hand, None))
        for text in texts:
            event = hand.apply(text)
            steps.append(
                _step(
                    hand,
                    f"{event.seat}: {event.action}"
                    + (f" ({event.card})" if event.action.card is None and event.card else ""),
                )
            )
        hands.append(
            {
                "number": h.number,
                "dealer": h.dealer,
                "deck": "".join(h.deck.split()),  # the committed form: no spaces
                "salt": h.salt,
                "commitment": h.commitment,
                "steps": steps,
                "result": None if hand.result is None else result_to_dict(hand.result),
            }
        )
    final = stored.game.final or {}
    return {
        "id": stored.game.id,
        "names": list(stored.game.names),
        "rules": rules.to_dict(),
        "hands": hands,
        "final": final,
    }


def _step(hand: Any, label: str | None) -> dict[str, Any]:
    return {
        "label": label,
        "hands": [str(hand.cards(0)), str(hand.cards(1))],
        "pile": " ".join(map(str, hand.discard_pile)),
        "stock": hand.stock_count,
        "melds": [str(m) for m in hand.table_melds],
        "phase": hand.phase.value,
    }


def _plain(value: Any) -> Any:
    if hasattr(value, "__dataclass_fields__"):
        return {k: _plain(getattr(value, k)) for k in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)
