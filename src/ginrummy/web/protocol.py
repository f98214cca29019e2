"""Validation of client messages: JSON objects keyed by ``type``, small, and well formed.

Client to server::

    {"type": "action", "action": "discard Kh"}   a move, in the engine's action text
    {"type": "next"}                              deal the next hand (after a hand ends)
    {"type": "undo"}                              take back your last move (against the computer)
    {"type": "hint"}                              rank your legal moves
    {"type": "state"}                             send my state again
    {"type": "ping"}
    {"type": "hello", "token": "..."}            the seat's token, sent first instead of in the URL

Server to client: ``state`` (your view and the table), ``hints``, ``pong`` and ``error``
(``{"type": "error", "message": "..."}``; nothing changed).
"""

from __future__ import annotations

import json
from typing import Any

MAX_MESSAGE_BYTES = 2048
TYPES = {
    "action": {"action"},
    "next": set(),
    "undo": set(),
    "hint": set(),
    "state": set(),
    "ping": set(),
    "hello": {"token"},
}


class ProtocolError(ValueError):
    """A message that is not valid; the connection stays open and nothing changes."""


def parse_message(raw: str | bytes) -> dict[str, Any]:
    if isinstance(raw, bytes):
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ProtocolError(f"message too large (over {MAX_MESSAGE_BYTES} bytes)")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("messages must be UTF-8 JSON text") from None
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise ProtocolError(f"message too large (over {MAX_MESSAGE_BYTES} bytes)")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("messages must be JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is a JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in TYPES:
        raise ProtocolError(f"unknown message type; types are: {', '.join(sorted(TYPES))}")
    fields = TYPES[kind]
    extra = set(data) - fields - {"type", "id"}
    if extra:
        raise ProtocolError(f"unexpected field(s) in {kind!r}: {', '.join(sorted(extra))}")
    for name in fields:
        value = data.get(name)
        if not isinstance(value, str) or not value.strip() or len(value) > 200:
            raise ProtocolError(f"{kind!r} needs a text field {name!r}")
    return data
