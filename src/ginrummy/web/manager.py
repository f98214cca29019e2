"""The table manager: creates and restores tables, applies seats' messages, runs the computer,
and tells every connected seat its own state. Knows nothing of HTTP; the app joins it to sockets.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..agents.hints import hint
from ..engine import GinRummyError, IllegalActionError, Rules, parse_cards
from ..engine.game import Game
from ..engine.match import Match
from .dealing import Deal
from .protocol import ProtocolError
from .tables import (
    COMPUTER_SEAT,
    LEVELS,
    Options,
    Table,
    computer_action,
    new_token,
    rebuild_hand,
    token_hash,
)

log = logging.getLogger("ginrummy.web")
Send = Callable[[dict[str, Any]], Awaitable[None]]


@dataclass(eq=False)
class Client:
    table_id: str
    seat: int | None
    send: Send
    tokens: float = 30.0  # a new socket starts with a full burst (app.BURST)
    last: float = field(default_factory=time.monotonic)
    hinting: bool = False  # a hint is being worked out for this socket


@dataclass
class Created:
    table: Table
    tokens: tuple[str, str | None]


#: Seconds a table stays in memory with nobody connected and nothing to do; it is loaded from
#: the store again when someone comes back.
IDLE_SECONDS = 900.0


class Manager:
    def __init__(
        self,
        store: Any,
        *,
        computer_delay: float = 0.4,
        seed: int | None = None,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.store = store
        self.idle_seconds = idle_seconds
        #: The tables in memory: the open ones at start-up, and any played or watched lately.
        self.tables: dict[str, Table] = {}
        self.clients: dict[str, set[Client]] = {}
        self.computer_delay = computer_delay
        self._rng = random.Random(seed) if seed is not None else None
        self._agent_rng = random.Random(seed)
        self._tasks: set[asyncio.Task[None]] = set()
        self._thinking: dict[str, asyncio.Future[None]] = {}

    # -- tables -------------------------------------------------------------------------------

    def create(self, rules: Rules, options: Options, names: tuple[str, str]) -> Created:
        if options.mode not in ("computer", "friend"):
            raise ProtocolError("mode must be computer or friend")
        if options.mode == "computer" and options.level not in LEVELS:
            raise ProtocolError(f"level must be one of {', '.join(LEVELS)}")
        if options.match and not rules.match_target:
            rules = rules.replace(match_target=500)
        seed = random.SystemRandom().randrange(1 << 63)
        scoring: Game | Match = Match(rules, seed) if options.match else Game(rules, seed)
        tokens: list[str | None] = [
            new_token(),
            None if options.mode == "computer" else new_token(),
        ]
        seats = [(seat, token_hash(t)) for seat, t in enumerate(tokens) if t is not None]
        game_id = self.store.create_game(
            "online", rules, names, seed=seed, options=options.to_dict(), seats=seats
        )
        table = Table(game_id, rules, names, options, scoring)
        table.new_hand(self.store, self._rng)
        self.tables[game_id] = table
        return Created(table, (tokens[0] or "", tokens[1]))

    def restore(self) -> int:
        """Rebuild every open online table from the store (after a restart)."""
        count = 0
        for summary in self.store.list_games(kind="online", status="open"):
            try:
                self.tables[summary.id] = self._load(summary.id)
                count += 1
            except (GinRummyError, ValueError) as exc:  # pragma: no cover - corrupt row
                log.error("could not restore table %s: %s", summary.id, exc)
        return count

    def _load(self, game_id: str) -> Table:
        stored = self.store.load_game(game_id)
        if stored is None:
            raise ProtocolError("no such table")
        info = stored.game
        rules = info.rules
        options = Options.from_dict(info.options or {})
        scoring: Game | Match = Match(rules, info.seed) if options.match else Game(rules, info.seed)
        table = Table(game_id, rules, info.names, options, scoring)
        for h in stored.hands:
            hand = rebuild_hand(rules, h.dealer, h.deck, [a.text for a in h.actions])
            table.hand = hand
            table.hand_number = h.number
            table.deal = Deal(parse_cards(h.deck), h.salt, h.commitment)
            if hand.is_over:
                scoring.finish_hand(hand)
        table.finished = scoring.is_over
        table.touch()
        return table

    def find(self, table_id: str) -> Table | None:
        """The table, from memory or else from the store (an idle table that was let go)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        game = self.store.get_game(table_id)
        if game is None or game.kind != "online":
            return None
        table = self.tables[table_id] = self._load(table_id)
        return table

    def get(self, table_id: str) -> Table:
        table = self.find(table_id)
        if table is None:
            raise ProtocolError("no such table")
        return table

    def evict_idle(self, now: float | None = None) -> int:
        """Let go of tables nobody has touched for ``idle_seconds``: no socket connected, no
        computer thinking, no move clock running. Every move is already in the store, so
        nothing is lost; :meth:`find` loads them again. Returns how many were let go."""
        now = time.monotonic() if now is None else now
        idle = [
            table_id
            for table_id, table in self.tables.items()
            if not self.clients.get(table_id)
            and table_id not in self._thinking
            and (table.deadline is None or table.finished)
            and now - table.updated > self.idle_seconds
        ]
        for table_id in idle:
            del self.tables[table_id]
            self.clients.pop(table_id, None)
        return len(idle)

    def seat_for(self, table_id: str, token: str | None) -> int | None:
        if not token:
            return None
        seat: int | None = self.store.seat_for_token(table_id, token_hash(token))
        return seat

    # -- connections ------------------------------------------------------------------------

    def join(self, client: Client) -> None:
        self.clients.setdefault(client.table_id, set()).add(client)
        table = self.tables.get(client.table_id)
        if table is not None:
            self.kick(table)

    def leave(self, client: Client) -> None:
        group = self.clients.get(client.table_id)
        if group is not None:
            group.discard(client)

    async def broadcast(self, table: Table) -> None:
        # One message per seat, however many sockets it has; worked out again if the table
        # changes while a send waits, so that no socket is sent an older state after a newer.
        states: dict[int | None, dict[str, Any]] = {}
        for client in list(self.clients.get(table.id, ())):
            state = states.get(client.seat)
            if state is None or state["version"] != table.version:
                state = states[client.seat] = table.state_for(client.seat)
            try:
                await client.send(state)
            except Exception:
                self.leave(client)

    # -- messages ----------------------------------------------------------------------------

    async def handle(self, client: Client, msg: dict[str, Any]) -> None:
        """Apply one validated client message. Raises ProtocolError / GinRummyError."""
        table = self.get(client.table_id)
        kind = msg["type"]
        if kind == "ping":
            await client.send({"type": "pong"})
            return
        if kind == "state":
            await client.send(table.state_for(client.seat))
            return
        if client.seat is None:
            raise ProtocolError("spectators cannot act: open the game with your seat's link")
        seat = client.seat
        if kind == "action":
            if table.vs_computer and seat == COMPUTER_SEAT:
                raise ProtocolError("that seat is the computer's")
            table.act(self.store, seat, msg["action"])
        elif kind == "next":
            table.new_hand(self.store, self._rng)
        elif kind == "undo":
            self._undo(table, seat)
        elif kind == "hint":
            await client.send({"type": "hints", "hints": await self._hints(table, client)})
            return
        else:  # pragma: no cover - the protocol layer checks types
            raise ProtocolError(f"unknown message type {kind!r}")
        await self.after_change(table)

    async def after_change(self, table: Table) -> None:
        await self.broadcast(table)
        self.kick(table)

    def kick(self, table: Table) -> None:
        """Start the computer's turns at this table unless they are already running."""
        if table.computer_to_move() and table.id not in self._thinking:
            task = asyncio.ensure_future(self._computer_turns(table))
            self._thinking[table.id] = task
            self._tasks.add(task)
            task.add_done_callback(lambda t: self._done(t, table.id))

    def _done(self, task: asyncio.Task[None], table_id: str) -> None:
        self._tasks.discard(task)
        self._stop_thinking(table_id, task)
        if not task.cancelled() and task.exception() is not None:
            log.error("computer player failed at table %s", table_id, exc_info=task.exception())

    def _stop_thinking(self, table_id: str, task: asyncio.Future[None] | None) -> None:
        if task is not None and self._thinking.get(table_id) is task:
            del self._thinking[table_id]

    async def _computer_turns(self, table: Table) -> None:
        try:
            while table.computer_to_move():
                version = table.version
                await asyncio.sleep(self.computer_delay)
                if table.version != version:
                    continue  # the person moved (undo): look again
                action = await asyncio.to_thread(computer_action, table, self._agent_rng)
                if table.version != version:
                    continue
                table.act(self.store, COMPUTER_SEAT, str(action))
                await self.broadcast(table)
        finally:
            # At once, not in the done callback a loop turn later: a move the person makes in
            # between must start the computer's next turns (kick), or the table would stall.
            self._stop_thinking(table.id, asyncio.current_task())

    def _undo(self, table: Table, seat: int) -> None:
        if not table.can_undo(seat):
            raise IllegalActionError("nothing of yours to undo in this hand")
        hand = table.hand
        assert hand is not None
        # Back to just before this seat's last action. The store goes first: if it fails, the
        # hand in memory still matches what is stored.
        keep = max(i for i, e in enumerate(hand.events) if e.seat == seat)
        self.store.remove_actions(table.id, table.hand_number, keep=keep)
        while len(hand.events) > keep:
            hand.undo()
        table.touch()

    async def _hints(self, table: Table, client: Client) -> list[dict[str, Any]]:
        seat = client.seat
        hand = table.hand
        if seat is None or hand is None or hand.current_player != seat:
            raise IllegalActionError("hints are given on your turn")
        if client.hinting:
            raise ProtocolError("a hint is being worked out: wait for it")
        view = hand.view(seat, table.game.totals)  # a frozen snapshot: safe in another thread
        # The expert thinks for a while (300 ms by default): in a thread, as the computer's
        # moves are, so that every other table goes on meanwhile; one at a time per socket.
        client.hinting = True
        try:
            found = await asyncio.to_thread(hint, view, rng=random.Random(0))
        finally:
            client.hinting = False
        return [
            {"action": str(h.action), "score": round(float(h.score), 2), "reason": h.reason}
            for h in found
        ]

    async def tick(self) -> None:
        """Move clock: a seat out of time gets the computer's move. Idle tables are let go."""
        self.evict_idle()
        now = time.time()
        for table in list(self.tables.values()):
            hand = table.hand
            if table.deadline is None or hand is None or hand.is_over or now < table.deadline:
                continue
            seat = hand.current_player
            assert seat is not None
            agent_action = await asyncio.to_thread(_timeout_action, table, seat)
            table.act(self.store, seat, agent_action)
            await self.after_change(table)


def _timeout_action(table: Table, seat: int) -> str:
    from ..agents import get_agent

    hand = table.hand
    assert hand is not None
    agent = get_agent("simple")
    return str(agent.act(hand.view(seat, table.game.totals), random.Random(0)))
