"""A browser's saved games: its open games (``/api/mine``), its finished ones a page at a time
(``/api/history``), its statistics (``/api/stats``), and the replay of any finished game
(``/api/replay/{table}``).

There are no accounts: a browser's games are those whose seat links it posts (its list of
tables) and those its anonymous player cookie sat at. Every read runs in the database threads,
and each address may ask for only so many a second.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...storage import PlayerStats, SavedGame, SeatedGame
from ..context import context_of
from ..protocol import is_table_id
from ..security import (
    MAX_BODY,
    TOO_MANY_READS,
    address,
    error,
    json_body,
    player_key,
    refuse_post,
    refuse_slowly,
)
from ..tables import Table, replay_hand, token_hash

#: At most this many of a browser's tables are looked at by one request.
MAX_TABLES = 500
PER_PAGE = 20
MAX_PER_PAGE = 100


async def seats(request: Request) -> list[SeatedGame] | Response:
    """The games a browser holds seats at, with its seat: the body lists its tables,
    ``{"tables": [{"id": ..., "token": ...}, ...]}`` (or just the list)."""
    context = context_of(request)
    refused = refuse_post(request, context.origins)
    if refused is not None:
        return refused
    if not context.readers.take(address(request)):
        return await refuse_slowly(context.readers, address(request), TOO_MANY_READS)
    data = await json_body(request, 32 * MAX_BODY)
    if isinstance(data, Response):
        return data
    items = data.get("tables") if isinstance(data, dict) else data
    if not isinstance(items, list):
        return error("send a JSON object with a list of tables", 400)
    pairs = []
    for item in items[:MAX_TABLES]:
        if isinstance(item, dict):
            table_id, token = item.get("id"), item.get("token")
            if is_table_id(table_id) and isinstance(token, str) and len(token) <= 200:
                pairs.append((table_id[:32], token_hash(token)))
    store, manager = context.store, context.manager
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
    tables = context_of(request).manager.tables
    out = []
    for game in found:
        table = tables.get(game.id)
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
    context = context_of(request)
    # Games where undo was used, and abandoned ones, do not count.
    games = [g for g in found if g.status == "finished" and not g.options.get("undo_used")]
    groups: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for game in games:
        groups.setdefault(_group(game), []).append((game.id, game.seat))

    def tallies() -> dict[tuple[str, str], PlayerStats]:
        return {key: context.store.seat_stats(pairs) for key, pairs in groups.items()}

    by_group = await context.manager.db(tallies)  # each game's hands read once
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
    context = context_of(request)
    game_id = request.path_params["table"][:32]
    if not context.readers.take(address(request)):
        return await refuse_slowly(context.readers, address(request), TOO_MANY_READS)
    if not is_table_id(game_id):
        return error("no such game", 404)

    def load() -> dict[str, Any] | None:
        stored = context.store.load_game(game_id)
        if stored is None or stored.game.kind != "online":
            return None
        if stored.game.status == "open":
            return {}
        return _replay(stored)

    found = await context.manager.db(load)
    if found is None:
        return error("no such game", 404)
    if not found:
        return error("a game can be replayed once it is finished", 403)
    return JSONResponse(found)


def _paging(request: Request) -> tuple[int, int]:
    def number(name: str, default: int, top: int) -> int:
        text = request.query_params.get(name, "")
        return max(1, min(top, int(text))) if text.isdigit() and len(text) < 9 else default

    return number("page", 1, 1_000_000), number("per_page", PER_PAGE, MAX_PER_PAGE)


def _open_summary(table: Table, seat: int) -> dict[str, Any]:
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
        # the rules' name, as the record by opponent and rules gives it ("" for none stored)
        "rules": str(game.options.get("preset") or ""),
        "url": f"/t/{game.id}" if game.status == "open" else f"/replay/{game.id}",
    }


def _replay(stored: SavedGame) -> dict[str, Any]:
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


ROUTES: list[BaseRoute] = [
    Route("/api/mine", mine, methods=["POST"]),
    Route("/api/history", history, methods=["POST"]),
    Route("/api/replay/{table}", replay),
    Route("/api/stats", stats, methods=["POST"]),
]
