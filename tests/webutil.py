"""Helpers for the web tests: an app in memory, a live server in a subprocess, card searching.

``card_tokens`` finds every card mentioned anywhere in a message: it walks the JSON, splits each
string (keys too) into words, and reads a word as cards when it is made of nothing but
two-character cards ("Kh", "5s6s7s"), so meld strings count card by card and English words such
as "The" do not count as the ten of hearts.

``hidden_cards`` is what a seat may not know: the stock and the opponent's cards that are not
public (taken from the pile, laid down after a knock, laid off).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import time
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import anyio
import httpx

with warnings.catch_warnings():  # Starlette would rather have httpx2; httpx works the same
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient, WebSocketTestSession

from ginrummy.engine import DECK, ActionKind, Hand
from ginrummy.storage import Store
from ginrummy.web import manager as web_manager
from ginrummy.web.app import create_app
from ginrummy.web.security import PLAYER_COOKIE

CARDS = frozenset(str(c) for c in DECK)
ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
_WORD = re.compile(r"[0-9A-Za-z]+")


# -- finding cards in messages -----------------------------------------------------------------


@functools.lru_cache(maxsize=65536)
def word_cards(word: str) -> tuple[str, ...]:
    """The cards a word is made of, or () when it is not made of cards only.

    >>> word_cards("5s6s7s"), word_cards("Kh"), word_cards("The"), word_cards("As2")
    (('5s', '6s', '7s'), ('Kh',), (), ())
    """
    if len(word) < 2 or len(word) % 2:
        return ()
    chunks = tuple(word[i : i + 2] for i in range(0, len(word), 2))
    return chunks if all(c in CARDS for c in chunks) else ()


def cards_in_text(text: str) -> set[str]:
    """Every card named in a text (a JSON text: its keys and string values alike).

    >>> sorted(cards_in_text('{"melds": ["5s6s7s"], "knock Qd": "The end", "n": 10}'))
    ['5s', '6s', '7s', 'Qd']
    """
    found: set[str] = set()
    for word in set(_WORD.findall(text)):
        found.update(word_cards(word))
    return found


def card_tokens(obj: Any, skip: frozenset[tuple[str, ...]] = frozenset()) -> dict[str, str]:
    """Every card named anywhere in ``obj``: card -> the JSON path where it was first found.

    ``skip`` lists paths (tuples of keys, list positions as "*") not to search.

    >>> card_tokens({"a": ["Kh 5s6s7s", {"knock Qd": "The end"}], "n": 3})
    {'Kh': 'a/0', '5s': 'a/0', '6s': 'a/0', '7s': 'a/0', 'Qd': 'a/1/knock Qd'}
    """
    found: dict[str, str] = {}

    def text(s: str, where: str) -> None:
        for word in _WORD.findall(s):
            for card in word_cards(word):
                found.setdefault(card, where)

    def walk(value: Any, path: tuple[str, ...], where: str) -> None:
        if path in skip:
            return
        if isinstance(value, str):
            text(value, where)
        elif isinstance(value, dict):
            for k, v in value.items():
                text(str(k), f"{where}/{k}".lstrip("/"))
                walk(v, (*path, str(k)), f"{where}/{k}".lstrip("/"))
        elif isinstance(value, (list, tuple)):
            for i, v in enumerate(value):
                walk(v, (*path, "*"), f"{where}/{i}".lstrip("/"))

    walk(obj, (), "")
    return found


# Card-like text that is not about the deal: the table's id (random letters, split by its "-"
# and "_" into words such as "5s3h"), and the score sheet's cut for the first deal (two cards of
# a separate virtual cut drawn from the game's own seed, not from the deal's deck).
NOT_THE_DEAL = frozenset({("table", "id"), ("table", "sheet", "cuts")})


def _blank(value: Any, paths: frozenset[tuple[str, ...]], path: tuple[str, ...] = ()) -> Any:
    if path in paths:
        return None
    if isinstance(value, dict) and any(p[: len(path)] == path for p in paths):
        return {k: _blank(v, paths, (*path, str(k))) for k, v in value.items()}
    return value


def public_mask(hand: Hand) -> int:
    """Cards both seats (and spectators) may know while the hand is being played."""
    mask = hand.known_cards[0] | hand.known_cards[1]
    for card in hand.discard_pile:
        mask |= card.bit
    for meld in hand.table_melds:
        mask |= meld.mask
    knock = hand.knock_arrangement
    if knock is not None:
        mask |= knock.deadwood_cards.mask
        for meld in knock.melds:
            mask |= meld.mask
    for card, _ in hand.layoffs:
        mask |= card.bit
    return mask


def hidden_cards(hand: Hand, seat: int | None) -> set[str]:
    """What ``seat`` (None: a spectator) must not be told before the hand is over."""
    secret = hand.stock.mask
    for other in (0, 1):
        if other != seat:
            secret |= hand.hand_mask(other)
    secret &= ~public_mask(hand)
    # The knocker discards face down: the card stays his secret until the hand is over,
    # unless everyone saw him take it from the pile.
    knocked = hand.knock_card
    if knocked is not None and hand.knocker != seat and not hand.is_over:
        taken = any(e.action.kind is ActionKind.TAKE and e.card == knocked for e in hand.events)
        if not taken:
            secret |= knocked.bit
    return {str(c) for c in DECK if secret & c.bit}


def leaks(message: dict[str, Any], hand: Hand, seat: int | None) -> dict[str, str]:
    """Hidden cards the message names (card -> where); {} when none."""
    secret = hidden_cards(hand, seat)
    if not cards_in_text(json.dumps(_blank(message, NOT_THE_DEAL))) & secret:  # quick
        return {}
    named = card_tokens(message, NOT_THE_DEAL)  # slow: says where
    return {c: where for c, where in named.items() if c in secret}


# -- choosing moves --------------------------------------------------------------------------


RANK_VALUE = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


def pick(view: dict[str, Any], rng: random.Random, knock_bias: float = 0.7) -> str:
    """A random legal move from a seat's view, played with some sense so that hands end
    sooner: knocks and gins are preferred, and it mostly discards its highest deadwood."""
    legal: list[str] = view["legal_actions"]
    if not legal:
        raise AssertionError("no legal action to pick from")
    ends = [a for a in legal if a.split()[0] in ("knock", "gin", "biggin")]
    if ends and rng.random() < knock_bias:
        return rng.choice(ends)
    if rng.random() < 0.8:
        dead = list(view.get("arrangement", {}).get("deadwood", []))
        dead.sort(key=lambda c: -RANK_VALUE[c[0]])
        for card in dead:
            if f"discard {card}" in legal:
                return f"discard {card}"
    return rng.choice(legal)


def going_on(view: dict[str, Any], rng: random.Random) -> str:
    """A random legal move that does not end the hand (the deals are real shuffles: a test
    that needs a hand still being played must not knock it to an end by chance)."""
    legal = [a for a in view["legal_actions"] if a.split()[0] not in ("knock", "gin", "biggin")]
    return rng.choice(legal)


# -- the app in memory -------------------------------------------------------------------------


#: The database the stores of :func:`app_client` and :func:`new_store` open. A test module
#: runs on each database with ``pytestmark = pytest.mark.usefixtures("on_each_database")``
#: (tests/conftest.py), which sets this per test: SQLite in memory, or a PostgreSQL schema.
STORE_URL = "sqlite://"


def new_store() -> Store:
    """A store on the test's database (:data:`STORE_URL`); the caller closes it."""
    return Store(STORE_URL)


def unlimited_rate(monkeypatch: Any) -> None:
    """Lift the per-seat and per-address limits (tests send faster than people)."""
    monkeypatch.setattr(web_manager, "DEFAULT_LIMITS", web_manager.UNLIMITED)


class Browser(TestClient):
    """A TestClient whose sockets come from a browser that opened a page: they carry its
    player cookie (``player``), as between people a seat needs one, unless the test set one
    of its own in ``cookies`` or made ``player`` None (a browser without cookies). Its other
    requests carry only the cookies the test set."""

    player: str | None = "test-browser"

    def websocket_connect(
        self, url: str, subprotocols: Sequence[str] | None = None, **kwargs: Any
    ) -> WebSocketTestSession:
        if self.player is not None and PLAYER_COOKIE not in self.cookies:
            headers = dict(kwargs.pop("headers", None) or {})
            headers.setdefault("cookie", f"{PLAYER_COOKIE}={self.player}")
            kwargs["headers"] = headers
        return super().websocket_connect(url, subprotocols, **kwargs)


@contextlib.contextmanager
def app_client(
    seed: int | None = 1, store: Store | None = None, **kwargs: Any
) -> Iterator[Browser]:
    """A TestClient (lifespan started) on an app with a store of its own on the test's database
    (:data:`STORE_URL`), or on ``store``, which the caller closes."""
    owned = store is None
    store = new_store() if store is None else store
    kwargs.setdefault("tables_per_minute", 0)  # tests open tables faster than people
    app = create_app(store, computer_delay=0, seed=seed, **kwargs)
    try:
        with Browser(app) as client:
            yield client
    finally:
        if owned:
            store.close()


def recv(
    ws: Any, timeout: float = 20.0, *, presence: bool = False, seat: bool = False
) -> dict[str, Any]:
    """The next message on a TestClient socket, failing (not hanging) after ``timeout``;
    messages that a seat came or went are read past unless ``presence``, and the one that
    gives the opener of an invite the seat's own token unless ``seat``."""
    while True:
        data = _recv(ws, timeout)
        kind = data.get("type")
        if (presence or kind != "presence") and (seat or kind != "seat"):
            return data


def _recv(ws: Any, timeout: float) -> dict[str, Any]:
    rx = getattr(ws, "_send_rx", None)
    if rx is None:  # pragma: no cover - another Starlette version: no timeout
        return dict(ws.receive_json())

    async def get() -> Any:
        with anyio.fail_after(timeout):
            return await rx.receive()

    message = ws.portal.call(get)
    if message["type"] == "websocket.close":
        raise AssertionError(f"socket closed: {message}")
    text = message.get("text")
    if text is None:
        text = message["bytes"].decode()
    data = json.loads(text)
    assert isinstance(data, dict)
    return data


def sync(ws: Any) -> list[dict[str, Any]]:
    """Everything the server sent this socket so far: send a ping, read up to the pong."""
    ws.send_json({"type": "ping"})
    out: list[dict[str, Any]] = []
    while True:
        msg = recv(ws)
        if msg["type"] == "pong":
            return out
        out.append(msg)


def manager_of(client: Any) -> web_manager.Manager:
    """The table manager of a TestClient's app."""
    manager: web_manager.Manager = client.app.state.manager
    return manager


def store_of(client: Any) -> Store:
    """The store of a TestClient's app."""
    store: Store = client.app.state.store
    return store


def new_table(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 200, response.text
    data = response.json()
    assert isinstance(data, dict)
    return data


def invite_token(created: dict[str, Any]) -> str:
    """The invite's token, as its link has it: it takes the friend's seat once."""
    return str(created["invite"]).split("#s=", 1)[1]


def friend_token(client: TestClient, created: dict[str, Any]) -> str:
    """Open the invite of ``created`` (a friend table) as the friend would, and return the
    seat's own token the server gives in its place (the invite opens nothing more)."""
    with client.websocket_connect(f"/ws/{created['id']}") as ws:
        ws.send_json({"type": "hello", "token": invite_token(created)})
        while True:
            message = recv(ws, seat=True)
            if message["type"] == "seat":
                assert message["url"] == f"/t/{created['id']}#s={message['token']}"
                return str(message["token"])


# -- a live server in a subprocess -----------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """``ginrummy serve`` on a free loopback port and a SQLite file (or the database
    ``db_url``); kill it and start again."""

    def __init__(
        self,
        db_path: Path,
        *,
        computer_delay: float = 0.0,
        db_url: str | None = None,
        args: Sequence[str] = (),
        module: str = "ginrummy.cli.main",
    ) -> None:
        self.db_url = db_url or f"sqlite:///{db_path}"
        self.module = module  # run as ``python -m`` (tests/stacked_serve.py deals a known deck)
        self.log_path = db_path.with_suffix(".log")
        self.computer_delay = computer_delay
        self.args = list(args)  # more options of ``ginrummy serve`` (--broker ...)
        self.port = 0
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 40.0) -> None:
        for _attempt in range(3):
            self.port = free_port()
            env = dict(os.environ, PYTHONUNBUFFERED="1")
            path = [str(ROOT / "src"), env.get("PYTHONPATH", "")]
            if self.module != "ginrummy.cli.main":
                path.insert(1, str(ROOT / "tests"))
            env["PYTHONPATH"] = os.pathsep.join(path)
            with open(self.log_path, "ab") as log:
                self.proc = subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        self.module,
                        "serve",
                        "--host",
                        "127.0.0.1",
                        "--port",
                        str(self.port),
                        "--db",
                        self.db_url,
                        "--computer-delay",
                        str(self.computer_delay),
                        *self.args,
                    ],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    env=env,
                )
            if self._wait_ready(timeout):
                return
            self.kill()
        raise AssertionError(f"the server did not start; its log:\n{self.log()}")

    def _wait_ready(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.proc is not None
            if self.proc.poll() is not None:
                return False
            try:
                if httpx.get(f"{self.url}/api/presets", timeout=2).status_code == 200:
                    return True
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        return False

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flushing; what the store committed is all that is left."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def log(self) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    def __enter__(self) -> LiveServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()


@contextlib.contextmanager
def running_instances(
    tmp_path: Path, db_url: str, broker_url: str, lease: str, count: int = 3
) -> Iterator[list[LiveServer]]:
    """``count`` server instances on one database and one broker, killed at the end."""
    servers = [
        LiveServer(
            tmp_path / f"instance{i}.db",
            db_url=db_url,
            args=["--broker", broker_url, "--lease-seconds", lease, "--think-workers", "0"],
        )
        for i in range(count)
    ]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.kill()


class Joined:
    """A socket's history as a page keeps it (``?history=delta``): the whole one, or the last
    one's first ``history_from`` events and the new ones."""

    def __init__(self) -> None:
        self.history: list[dict[str, Any]] | None = None
        self.parts = 0  # states that held only new moves

    def take(self, msg: dict[str, Any]) -> list[dict[str, Any]] | None:
        """The history once ``msg`` (a state) is joined to what came before it."""
        view = msg["view"]
        if view is None or "history" not in view:
            self.history = None
            return None
        start = view.get("history_from")
        if start is None:
            self.history = list(view["history"])
        else:
            assert start > 0 and self.history is not None and len(self.history) >= start
            self.history = self.history[:start] + view["history"]
            self.parts += 1
        return self.history


class SeatSocket:
    """A real WebSocket client for one seat (or a spectator) of a live server.

    It keeps under the server's rate limit (10 messages a second) by spacing its sends.
    """

    GAP = 0.11

    def __init__(
        self,
        server: LiveServer,
        table_id: str,
        token: str | None = None,
        *,
        deltas: bool = False,
        player: str = "test-browser",
    ) -> None:
        from websockets.sync.client import connect

        query = "&".join(
            ([f"token={token}"] if token else []) + (["history=delta"] if deltas else [])
        )
        query = f"?{query}" if query else ""
        #: Its history, joined up from parts as a page does (``?history=delta``).
        self.joined = Joined()
        self.ws = connect(
            f"{server.ws_url}/ws/{table_id}{query}",
            proxy=None,
            open_timeout=20,
            max_size=1 << 22,
            # As a browser that opened a page: between people a seat needs a player cookie.
            additional_headers={"Cookie": f"{PLAYER_COOKIE}={player}"},
        ).__enter__()  # the connection, opened; close() closes it
        self.sent = 0.0
        self.last: dict[str, Any] | None = None

    def send(self, msg: dict[str, Any]) -> None:
        wait = self.sent + self.GAP - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self.ws.send(json.dumps(msg))
        self.sent = time.monotonic()

    def recv(
        self, timeout: float = 30.0, *, presence: bool = False, seat: bool = False
    ) -> dict[str, Any]:
        """The next message (read past those that a seat came or went, unless ``presence``,
        and the one that gives the opener of an invite the seat's token, unless ``seat``)."""
        data = json.loads(self.ws.recv(timeout=timeout))
        assert isinstance(data, dict)
        if data.get("type") == "presence" and not presence:
            return self.recv(timeout, presence=presence, seat=seat)
        if data.get("type") == "seat" and not seat:
            return self.recv(timeout, presence=presence, seat=seat)
        if data.get("type") == "state":
            history = self.joined.take(data)
            if history is not None:  # the state as a page holds it: the whole history
                data["view"].pop("history_from", None)
                data["view"]["history"] = history
            self.last = data
        return data

    def state(self) -> dict[str, Any]:
        """Ask for this seat's state again (reading past any broadcasts on the way)."""
        self.send({"type": "state"})
        self.send({"type": "ping"})
        state = None
        while (msg := self.recv())["type"] != "pong":
            if msg["type"] == "state":
                state = msg
        assert state is not None
        return state

    def act(self, action: str) -> None:
        self.send({"type": "action", "action": action})
        self.last = None

    def until_my_turn(self) -> dict[str, Any]:
        """Read states until this seat is to move or the hand is over (the computer moves)."""
        msg = self.last if self.last is not None else self.recv()
        while msg["type"] != "state" or not (
            msg["view"]["phase"] == "over" or msg["view"]["current_player"] == msg["view"]["seat"]
        ):
            msg = self.recv()
        return msg

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


def post_table(server: LiveServer, **body: Any) -> dict[str, Any]:
    response = httpx.post(f"{server.url}/api/tables", json=body, timeout=30)
    assert response.status_code == 200, response.text
    data = response.json()
    assert isinstance(data, dict)
    return data


def live_friend_token(server: LiveServer, created: dict[str, Any]) -> str:
    """:func:`friend_token` on a live server: open the invite of ``created`` and return the
    seat's own token the server gives in its place."""
    opener = SeatSocket(server, created["id"])
    try:
        opener.send({"type": "hello", "token": invite_token(created)})
        while (message := opener.recv(seat=True))["type"] != "seat":
            pass
        return str(message["token"])
    finally:
        opener.close()
