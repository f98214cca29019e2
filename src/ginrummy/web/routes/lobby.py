"""The lobby's API: the rule presets and levels to choose from, and opening a new table.

``POST /api/tables`` takes the lobby's choices as a JSON object (mode, level, preset, rule
options, stake, match, clock, hints, names) and answers with the new table's id and the seat
links; each address may open only so many tables a minute.
"""

from __future__ import annotations

import logging
from decimal import Decimal, InvalidOperation
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ...engine import GinRummyError, Rules
from ...storage import StorageError
from ..context import context_of
from ..protocol import ProtocolError, clean_name, plain_text
from ..security import (
    MAX_BODY,
    address,
    error,
    json_body,
    player_key,
    refuse_post,
    refuse_slowly,
)
from ..tables import LEVELS, Options

# Stakes the settlement arithmetic handles exactly (Decimal's default context has 28 digits and
# raises Overflow past 1E+999999, which would break every later state message of the table).
MAX_STAKE = Decimal(1_000_000)
#: The highest targets a table may be opened with (the presets play to 100 or 150, matches to 500).
MAX_GAME_TARGET = 1000
MAX_MATCH_TARGET = 10_000
STAKE_STEP = Decimal("0.0001")


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


async def create(request: Request) -> Response:
    context = context_of(request)
    refused = refuse_post(request, context.origins)
    if refused is not None:
        return refused
    creators = context.creators
    if creators is not None and not creators.take(address(request)):
        return await refuse_slowly(
            creators,
            address(request),
            "too many new games from your address; try again in a minute",
        )
    data = await json_body(request, MAX_BODY)
    if isinstance(data, Response):
        return data
    try:
        if not isinstance(data, dict):
            raise ProtocolError("send a JSON object")
        rules, options, names = _table_settings(data)
        created = await context.manager.create(rules, options, names)
    except (ProtocolError, GinRummyError) as exc:
        return error(str(exc), 400)
    table = created.table
    owner = player_key(request.cookies)
    if owner is not None:
        try:
            await context.claim(table.id, 0, owner)
        except StorageError as exc:  # the table is made: its links must reach the player
            # (the seat is claimed again when its socket opens)
            logging.getLogger("ginrummy.web").warning("table %s: claim: %s", table.id, exc)
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


def _text(data: dict[str, Any], key: str, default: str, limit: int = 40) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise ProtocolError(f"{key} must be text")
    value = plain_text(value, key)[:limit]
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
    if rules.game_target > MAX_GAME_TARGET or rules.match_target > MAX_MATCH_TARGET:
        # A game to a billion points would never end, and hold its table for ever.
        raise ProtocolError(
            f"a game is played to at most {MAX_GAME_TARGET} points, "
            f"a match to at most {MAX_MATCH_TARGET}"
        )
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
    # how the history names these rules: the preset, and what was changed of it
    label = rules.label(preset)
    options = Options(mode, level, match, clock, hints, preset=label)
    return rules, options, (name, other)


ROUTES: list[BaseRoute] = [
    Route("/api/presets", presets),
    Route("/api/tables", create, methods=["POST"]),
]
