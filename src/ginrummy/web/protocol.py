"""Validation of client messages: JSON objects keyed by ``type``, small, and well formed.

Client to server::

    {"type": "action", "action": "discard Kh"}   a move, in the engine's action text
    {"type": "next"}                              deal the next hand (after a hand ends;
                                                  between people once both have asked)
    {"type": "undo"}                              take back your last move (against the computer)
    {"type": "hint"}                              rank your legal moves
    {"type": "state"}                             send my state again
    {"type": "ping"}
    {"type": "hello", "token": "..."}            the seat's token, sent first instead of in the URL
    {"type": "name", "name": "Bob"}               your seat's name (until the game is over)
    {"type": "rematch"}                           once the game is over: the same seats, a new table
    {"type": "review"}                            the expert's review of your play of the hand just
                                                  over (between people: once the game is over)

Server to client: ``state`` (your view and the table), ``hints``, ``review``, ``pong``
(``{"type": "pong", "now": 1765000000.25}``: the server's time, by which a page counts the
deadlines in its states, whatever its own clock says), ``presence``
(``{"type": "presence", "connected": [true, false]}``: a seat came or went; states carry it
too) and ``error`` (``{"type": "error", "message": "..."}``; nothing changed). After a
rematch every state of the old table names the new one (``table.rematch``); the seats'
tokens hold there too.

Between people a seat lives in one browser at a time (the one whose player cookie owns it).
When its token is opened in another browser the seat moves there, and each socket still on
it from the browser it left is made a spectator and sent ``moved_away``
(``{"type": "moved_away", "message": "..."}``): its page must not send the token again by
itself, or it would take the seat back. Every state says how many times each seat has moved
(``table.seat_moves``, ``[0, 1]``): a seat's own page then warns that its cards were open in
another browser before it, and the other's that the seat moved. A socket without a player
cookie watches: it is told so in an ``error`` (:data:`COOKIES_NEEDED`).

A seat's state carries the hand's history so far (``view.history``). A socket opened with
``?history=delta`` (as the pages do) is sent it in parts: while a hand is played, a state may
hold only the events the socket has not had yet, and then says where they start
(``view.history_from``: the number of events before them, which the client keeps). The first
state on a socket, the answer to ``state`` or ``hello``, each new hand and the hand's end
(when the knocker's discard turns face up) always hold the whole history.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any, TypeGuard

import orjson

MAX_MESSAGE_BYTES = 2048
TYPES = {
    "action": {"action"},
    "next": set(),
    "undo": set(),
    "hint": set(),
    "state": set(),
    "ping": set(),
    "hello": {"token"},
    "name": {"name"},
    "rematch": set(),
    "review": set(),
}
NAME_LENGTH = 40


def encode(msg: dict[str, Any]) -> str:
    """A server message as compact JSON text. (orjson: the state messages are the server's
    hottest output, and this encodes them several times faster than the json module.)"""
    return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()


#: What a socket over its seat's or its address's message rate is told.
TOO_MANY_MESSAGES = "too many messages: slow down"


#: What a socket of a seat that moved to another browser is told (``moved_away``).
MOVED_AWAY = "this seat was opened in another browser; watching as a spectator"
#: Why a socket without a player cookie may not take a seat between people.
COOKIES_NEEDED = (
    "seats need cookies enabled: this browser sent no player cookie, so the seat could not be "
    "kept to it; watching as a spectator"
)


class ProtocolError(ValueError):
    """A message that is not valid; the connection stays open and nothing changes."""


#: A table's id as the server makes them (``storage.new_game_id``: url-safe base64); anything
#: else names no table, and is answered so without asking the database.
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def is_table_id(value: object) -> TypeGuard[str]:
    """Whether ``value`` could be a table's id (see :data:`TABLE_ID`)."""
    return isinstance(value, str) and TABLE_ID.fullmatch(value) is not None


def plain_text(value: str, what: str) -> str:
    """``value`` with its runs of white space made one space; ProtocolError if it holds a
    control character (a NUL, which PostgreSQL cannot store) or a mark that changes the
    direction of the text (it would turn the words after it around on other screens)."""
    text = " ".join(value.split())
    if any(c in _BIDI or unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise ProtocolError(f"{what} cannot hold control characters")
    return text


#: The marks and embeddings that change the direction of the text after them.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def clean_name(value: object, default: str | None = None) -> str:
    """A player's name as given: text, spaces collapsed, at most NAME_LENGTH characters
    (``default`` where none is given; raises ProtocolError for anything else)."""
    if value is None and default is not None:
        return default
    if not isinstance(value, str):
        raise ProtocolError("a name must be text")
    name = plain_text(value, "a name")[:NAME_LENGTH]
    if not name:
        if default is not None:
            return default
        raise ProtocolError("a name cannot be empty")
    return name


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
        if not _unicode(value):
            raise ProtocolError(f"{kind!r}: {name!r} is not text (a lone surrogate escape)")
    # A client's request id, kept as sent: only what can be encoded again (to relay the
    # message to another instance), not nesting, numbers past 64 bits or lone surrogates.
    if not _plain_id(data.get("id")):
        raise ProtocolError("a message's 'id' is a number or a short text")
    return data


def _plain_id(value: object) -> bool:
    if value is None or isinstance(value, (bool, float)):
        return True
    if isinstance(value, int):
        return -(1 << 63) <= value < 1 << 63
    return isinstance(value, str) and len(value) <= 200 and _unicode(value)


def _unicode(value: str) -> bool:
    """Whether ``value`` is text UTF-8 can hold: JSON's ``\\ud800`` escapes make lone
    surrogates, which no token hashes, no database stores and no message encodes."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
