"""The table manager: creates and loads tables, applies seats' messages, runs the computer,
and tells every connected seat its own state. Knows nothing of HTTP; the app joins it to sockets.

Nothing here waits on the database in the event loop: every read and write runs in a small
pool of threads (:meth:`Manager.db`); the computer players, hints and reviews think in worker
processes (:mod:`.thinking`, ``think_workers``; with none, in threads of this process); and a
table's changes are made one at a time under its lock, stored before anyone is told.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from ..agents import get_agent
from ..agents.hints import hint
from ..agents.review import review_hand
from ..engine import GinRummyError, IllegalActionError, Rules
from ..engine.game import Game
from ..engine.match import Match
from ..engine.views import PlayerView
from ..storage import DatabaseUnavailable, StorageError, Store, Writer
from ..storage.models import utcnow
from .batching import GroupCommit
from .limits import Buckets
from .protocol import MOVED_AWAY, ProtocolError, clean_name
from .tables import (
    ABANDONED,
    COMPUTER_SEAT,
    INVITED,
    LEVELS,
    TERMINAL_MARK,
    HistoryMark,
    Options,
    Position,
    Step,
    Table,
    computer_agent,
    computer_payload,
    is_terminal,
    new_token,
    replay_hand,
    table_of,
    think,
    token_hash,
)
from .thinking import (
    THINK_TIMEOUT,
    ThinkError,
    ThinkPool,
    ThinkTimeout,
    hint_dicts,
    think_budget,
)

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("ginrummy.web")
Send = Callable[[dict[str, Any]], Awaitable[None]]
T = TypeVar("T")


@dataclass(eq=False)
class Client:
    table_id: str
    seat: int | None
    send: Send
    address: str = ""
    #: Closes the socket, which then reconnects (when its table moves to another instance).
    close: Callable[[], Awaitable[None]] | None = None
    #: The socket asked for its history in parts (``?history=delta``): each state it is sent
    #: holds only the events it has not had (:meth:`Manager.state_message`).
    deltas: bool = False
    #: What it holds of the hand's history (:meth:`Table.history_mark`).
    mark: HistoryMark | None = None
    #: Whose browser it is (the hash of its player cookie; None: it sent none).
    owner: str | None = None
    #: How many times its seat had moved to another browser when it took it (the store's
    #: count, :meth:`~ginrummy.storage.writer.Writer.move_seat`): the table's count is kept
    #: at least that (a move made as the table was in memory on another instance).
    seat_moves: int = 0


@dataclass
class Created:
    table: Table
    tokens: tuple[str, str | None]


#: Seconds a table stays in memory with nobody connected and nothing to do; it is loaded from
#: the store again when someone comes back.
IDLE_SECONDS = 900.0
#: An open game nobody has moved in for this many days is closed as abandoned.
ABANDON_AFTER_DAYS = 30.0
#: Seconds a socket may take to take one message before it is let go of and closed: one whose
#: reader stopped (every buffer on the way full) would otherwise hold up everyone it is sent
#: to along with it, and the computer's moves.
SEND_TIMEOUT = 10.0
#: What a seat is told when the database could not store its move.
NOT_SAVED = "the database cannot be reached just now: your move was not made; try again in a moment"
#: ... and when the database went away as its move was being stored.
IN_DOUBT = "the database went away as your move was being saved: reconnecting shows whether it was"


@dataclass(frozen=True)
class Limits:
    """What one seat or one address may do, however many sockets it opens."""

    seat_rate: float = 10.0  # messages a second, on average, per seat (all its sockets)
    seat_burst: float = 30.0
    address_rate: float = 20.0  # messages a second per address (all its tables)
    address_burst: float = 60.0
    hints_per_minute: float = 20.0  # per seat; and one hint at a time per seat
    hint_burst: float = 5.0
    hints_at_once_per_address: int = 2
    sockets_per_seat: int = 8
    sockets_per_address: int = 32


DEFAULT_LIMITS = Limits()
#: No limits at all: for tests and benchmarks that send faster than people.
UNLIMITED = Limits(1e9, 1e9, 1e9, 1e9, 1e9, 1e9, 1_000_000, 1_000_000, 1_000_000)


class Manager:
    def __init__(
        self,
        store: Store,
        *,
        computer_delay: float = 0.4,
        seed: int | None = None,
        idle_seconds: float = IDLE_SECONDS,
        abandon_after_days: float = ABANDON_AFTER_DAYS,
        limits: Limits | None = None,
        think_workers: int = 0,
        think_timeout: float = THINK_TIMEOUT,
    ) -> None:
        self.store = store
        #: The worker processes the computer, hints and reviews think in (started on first
        #: use); None: they think in threads of this process, as small setups and tests do.
        self.thinking = (
            ThinkPool(think_workers, timeout=think_timeout) if think_workers > 0 else None
        )
        self.idle_seconds = idle_seconds
        self.abandon_after = timedelta(days=abandon_after_days)
        self.limits = limits or DEFAULT_LIMITS
        #: The tables in memory: those played or watched lately, loaded on first access.
        self.tables: dict[str, Table] = {}
        #: With many instances (``--broker``): the leases that say which tables this one
        #: holds; every write of a table checks its lease. None: the only instance.
        self.cluster: Cluster | None = None
        self.clients: dict[str, set[Client]] = {}
        self.computer_delay = computer_delay
        self._rng = random.Random(seed) if seed is not None else None
        self._agent_rng = random.Random(seed)
        self._tasks: set[asyncio.Task[Any]] = set()
        self._thinking: dict[str, asyncio.Future[None]] = {}
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self._timeouts: set[str] = set()
        self._pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ginrummy-db")
        #: The tables' writes, many to a transaction when they come together: in at most two
        #: of the database threads at once, which leaves the others to reads (loading a
        #: table, a seat's token).
        self.writes = GroupCommit(self._in_thread, self.store.transaction, concurrency=2)
        #: Moves stored and made since start (read by ``/metrics``).
        self.actions_applied = 0
        lim = self.limits
        self._seat_msgs = Buckets(lim.seat_rate, lim.seat_burst)
        self._address_msgs = Buckets(lim.address_rate, lim.address_burst)
        self._seat_hints = Buckets(lim.hints_per_minute / 60.0, lim.hint_burst)
        self._hinting: set[tuple[str, int]] = set()
        self._address_hints: dict[str, int] = {}
        self._seat_sockets: dict[tuple[str, int], int] = {}
        self._address_sockets: dict[str, int] = {}
        self.send_timeout = SEND_TIMEOUT

    def close(self) -> None:
        """Stop the thinking workers and the database threads: writes not yet started are
        dropped (nobody was told of them), the one running finishes, so the store may be
        closed after this returns (closing it under a running write crashes SQLite's
        driver)."""
        if self.thinking is not None:
            self.thinking.close()
        self._pool.shutdown(wait=True, cancel_futures=True)

    def db_queue_length(self) -> int:
        """Store calls waiting for a database thread, and tables' writes waiting for a
        transaction (for ``/metrics``)."""
        return self._pool._work_queue.qsize() + self.writes.waiting

    async def think(self, kind: str, payload: dict[str, Any]) -> Any:
        """A job's answer from the worker processes; raises :class:`ThinkError` (a
        :class:`ThinkTimeout` when it took longer than the pool's limit)."""
        pool = self.thinking
        assert pool is not None
        future = pool.submit(kind, payload)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), pool.timeout)
        except TimeoutError:  # the pool stops the worker, if one had started on it
            raise ThinkTimeout(f"the {kind} took too long") from None

    async def db(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run a store call in the database threads, never in the event loop."""
        return await self._in_thread(functools.partial(fn, *args, **kwargs))

    async def _in_thread(self, fn: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, fn)

    # -- tables -------------------------------------------------------------------------------

    async def create(
        self,
        rules: Rules,
        options: Options,
        names: tuple[str, str],
        *,
        after: str | None = None,
    ) -> Created:
        """A new table, stored. ``after`` is the table whose rematch this is: it keeps that
        table's seats (their tokens, and an invite not taken yet), read and marked so in the
        same transaction, and no new tokens are made, none returned (the caller holds that
        table's lock and has checked it has no rematch yet)."""
        if options.mode not in ("computer", "friend"):
            raise ProtocolError("mode must be computer or friend")
        if options.mode == "computer" and options.level not in LEVELS:
            raise ProtocolError(f"level must be one of {', '.join(LEVELS)}")
        if options.mode == "computer":
            options.hints = True
            # No move clock against the computer: the clock's move is the simple player's,
            # which must play no seat of a game that counts as one against the computer's
            # level. Set here, where every new table (the lobby's, a rematch) is made,
            # whatever the page sent.
            options.clock = 0
        elif options.hints and rules.stake:
            raise ProtocolError("a game for stakes has no hints")
        if options.match and not rules.match_target:
            rules = rules.replace(match_target=500)
        seed = random.SystemRandom().randrange(1 << 63)
        scoring: Game | Match = Match(rules, seed) if options.match else Game(rules, seed)
        tokens: list[str | None] = [None, None]
        stored = options.to_dict()
        seats: list[tuple[int, str]] = []
        if after is None:
            tokens = [new_token(), None if options.mode == "computer" else new_token()]
            seats = [(seat, token_hash(t)) for seat, t in enumerate(tokens) if t is not None]
            if tokens[INVITED] is not None:
                # The invite is sent through its opener, who must not keep a way in: the
                # first to open it gets a token of their own for the seat (take_invite).
                stored["invites"] = [INVITED]
        table = Table("", rules, names, options, scoring)
        deal = table.next_deal(self._rng)

        before = None if after is None else self.tables.get(after)

        def write() -> str:
            with self.store.transaction() as tx:
                kept, carried = ([], {}) if after is None else tx.rematch_seats(after)
                if str(INVITED) in carried.get("pending_invites", {}):
                    # the invite nobody took is still sent from the table its link names
                    origin = after if before is None else before.invite_from or after
                    table.invite_from = origin
                    carried = {**carried, "invite_table": origin}
                game_id: str = tx.create_game(
                    "online",
                    rules,
                    names,
                    seed=seed,
                    options={**stored, **carried},
                    seats=seats or kept,
                )
                table.id = game_id
                if tokens[INVITED] is not None:
                    table.invite_from = game_id
                if self.cluster is not None:
                    self.cluster.created(tx, game_id)
                table.write_deal(tx, deal)
                if after is not None:
                    if self.cluster is not None:  # the old table must still be ours
                        self.cluster.fence(tx, after)
                    tx.update_options(after, {"rematch": game_id})
                return game_id

        try:
            game_id = await self.db(write)
        except Exception as exc:
            if self.cluster is not None and table.id:  # its lease may have been recorded
                in_doubt = isinstance(exc, DatabaseUnavailable) and exc.in_doubt
                self.cluster.not_created(table.id, in_doubt=in_doubt)
            raise
        table.start(deal)
        self.tables[game_id] = table
        return Created(table, (tokens[0] or "", tokens[1]))

    def _load(self, game_id: str) -> Table | None:
        """The table as stored (run in a database thread), or None for no such online game.
        A game played in the terminal (in the same database) is not the server's to open: it
        would play the computer's moves into it beside the terminal."""
        stored = self.store.load_game(game_id)
        if stored is None or stored.game.kind != "online" or is_terminal(stored.game.options):
            return None
        return table_of(stored)

    async def find(self, table_id: str) -> Table | None:
        """The table, from memory or else loaded from the store (once, however many ask);
        None where there is none, or another instance holds it."""
        if self.cluster is not None and not self.cluster.holds(table_id):
            return None
        table = self.tables.get(table_id)
        if table is not None:
            return table
        loading = self._loading.get(table_id)
        if loading is None:
            loading = asyncio.ensure_future(self._load_into_memory(table_id))
            self._loading[table_id] = loading
            loading.add_done_callback(lambda _: self._loading.pop(table_id, None))
        return await asyncio.shield(loading)

    async def _load_into_memory(self, table_id: str) -> Table | None:
        try:
            table = await self.db(self._load, table_id)
        except (GinRummyError, ValueError) as exc:  # a corrupt row: say so, serve the rest
            log.error("could not load table %s: %s", table_id, exc)
            return None
        if table is None:
            return None
        kept = self.tables.setdefault(table_id, table)
        if kept is table:
            # Sockets that joined while the table was out of memory (it was let go of as they
            # were opening, or reloaded after a write in doubt) are there: each seat's socket
            # counts, and the computer, if it is to move, is started as joining would have.
            for client in self.clients.get(table_id, ()):
                self._presence(table, client.seat, +1)
            self._demote(table)  # those of a seat that moved to another browser meanwhile
            if self.clients.get(table_id):
                self.kick(table)
        return kept

    async def get(self, table_id: str) -> Table:
        table = await self.find(table_id)
        if table is None:
            raise ProtocolError("no such table")
        return table

    def evict_idle(self, now: float | None = None) -> int:
        """Let go of tables nobody has touched for ``idle_seconds``: no socket connected, no
        computer thinking, no move clock running, no change being stored. Every move is
        already in the store, so nothing is lost; :meth:`find` loads them again."""
        now = time.monotonic() if now is None else now
        idle = [
            table_id
            for table_id, table in self.tables.items()
            if not self.clients.get(table_id)
            and table_id not in self._thinking
            and not table.lock.locked()
            and (table.deadline is None or table.finished)
            and now - table.updated > self.idle_seconds
        ]
        for table_id in idle:
            del self.tables[table_id]
            self.clients.pop(table_id, None)
        return len(idle)

    async def abandon_stale(self) -> int:
        """Close as abandoned the open games nobody has moved in for ``abandon_after``."""
        before = utcnow() - self.abandon_after
        fence: dict[str, Any] = {}
        if self.cluster is not None:  # only this instance's tables, and those nobody holds
            fence = {"holder": self.cluster.id, "held": dict(self.cluster.epochs)}
        # Those it may close, read first: should its answer be lost (in doubt), each of them
        # in memory may have been closed, and is let go of, to be read again.
        # A game played in the terminal (in the same database) is the terminal's to close.
        spare = TERMINAL_MARK
        stale = await self.db(self.store.stale_games, "online", before, spare=spare)
        try:
            closed: list[str] = await self.db(
                self.store.abandon_stale, "online", before, spare=spare, **fence
            )
        except DatabaseUnavailable as exc:
            if exc.in_doubt:
                for game_id in stale:
                    table = self.tables.get(game_id)
                    if table is not None:
                        async with table.lock:
                            if self.tables.get(game_id) is table:
                                self._in_doubt(table, exc)
            raise
        for game_id in closed:
            table = self.tables.get(game_id)
            if table is None:
                continue
            # Under the table's lock, as every change of it: a move being stored meanwhile
            # is refused by the store (the game is closed) or done before this, never made
            # on a table that changed under it.
            async with table.lock:
                if self.tables.get(game_id) is not table or table.abandoned:
                    continue  # let go of (read again as stored: closed), or closed already
                table.finished = table.abandoned = True
                table.touch(clock=False)
            await self.broadcast(table)
        return len(closed)

    async def seat_for(self, table_id: str, token: str | None) -> int | None:
        if not token or len(token) > 200:
            return None
        seat: int | None = await self.db(self.store.seat_for_token, table_id, token_hash(token))
        return seat

    async def friend_table(self, table_id: str) -> bool:
        """Whether the table is played between two people (from memory, else the store)."""
        table = self.tables.get(table_id)
        if table is not None:
            return not table.vs_computer
        friend: bool = await self.db(self.store.friend_game, table_id)
        return friend

    async def spent_invite(self, table_id: str, token: str) -> bool:
        """Whether ``token`` was an invite of the table that someone has already taken."""
        if len(token) > 200:
            return False
        spent: bool = await self.db(self.store.spent_invite, table_id, token_hash(token))
        return spent

    async def take_invite(
        self, table_id: str, seat: int, token: str, owner: str | None = None
    ) -> str | bool:
        """Whether ``token`` (which :meth:`seat_for` found to be ``seat``'s) still holds the
        seat: True when it is the seat's own token; a new token for the seat when it was the
        seat's invite, opened now for the first time (the invite holds no more: whoever sent
        it cannot take the seat back or look at its cards; the seat becomes the browser's
        player's, ``owner``); False when it was the invite and another player has just
        taken it."""
        if not await self.db(self.store.invite_open, table_id, seat):
            return True  # taken long ago (or never sent): no write for the seat's own token
        fresh = new_token()
        taken: bool | None = await self.db(
            self.store.take_invite, table_id, seat, token_hash(token), token_hash(fresh), owner
        )
        if taken is None:
            return True
        if taken:
            self._invite_taken(table_id)
        return fresh if taken else False

    def _invite_taken(self, table_id: str) -> None:
        """The invite of ``table_id`` is taken: neither that table nor its rematches (held
        here) offer it to its sender any more."""
        seen: set[str] = set()
        following: str | None = table_id
        while following is not None and following not in seen:
            seen.add(following)
            table = self.tables.get(following)
            if table is None:
                return
            table.invite_from = None
            following = table.options.rematch

    async def retake_invite(self, table_id: str, seat: int, token: str, owner: str) -> str | None:
        """A new token for ``seat`` when ``token``, a spent invite (:meth:`spent_invite`: ask
        that first, a read, before this write), is opened again by the player who took it
        (``owner``), who may never have been told the token he was given; None otherwise (the
        invite is someone else's now)."""
        fresh = new_token()
        again: bool = await self.db(
            self.store.retake_invite, table_id, seat, token_hash(token), owner, token_hash(fresh)
        )
        return fresh if again else None

    # -- connections ------------------------------------------------------------------------

    def may_join(self, table_id: str, seat: int | None, address: str) -> str | None:
        """Why another socket may not open (None: it may)."""
        if self._address_sockets.get(address, 0) >= self.limits.sockets_per_address:
            return "too many open connections from your address"
        if seat is not None and self._seat_sockets.get((table_id, seat), 0) >= (
            self.limits.sockets_per_seat
        ):
            return "this seat has too many open connections: close some tabs"
        return None

    def join(self, client: Client) -> None:
        self.clients.setdefault(client.table_id, set()).add(client)
        _count(self._address_sockets, client.address, +1)
        if client.seat is not None:
            _count(self._seat_sockets, (client.table_id, client.seat), +1)
        table = self.tables.get(client.table_id)
        if table is not None:
            self._take_seat(table, client)
            self._presence(table, client.seat, +1)
            self.kick(table)

    def _take_seat(self, table: Table, client: Client) -> None:
        """Between people a seat lives in one browser at a time: the socket joining a seat
        (its token just checked, the seat claimed or moved to its browser in the store) makes
        the seat its browser's, and every socket of the seat from another browser a
        spectator, told why at once (:meth:`_demote`). Its page takes the seat back only when
        asked to, which moves it again, visibly. Against the computer nothing changes: there
        is nobody to hide the cards from."""
        seat = client.seat
        if seat is None or table.vs_computer:
            return
        changed = client.seat_moves > table.moves[seat]
        table.moves[seat] = max(table.moves[seat], client.seat_moves)
        if client.owner != table.owners[seat]:
            changed = changed or table.owners[seat] is not None
            table.owners[seat] = client.owner
        self._demote(table)
        if changed:  # both seats are shown that the seat moved
            table.version += 1
            self._spawn(self.broadcast(table))

    def _demote(self, table: Table) -> None:
        """Make a spectator of each socket of the table seated in a browser other than its
        seat's owner's, and tell it so: it stops being sent the seat's cards now."""
        for other in list(self.clients.get(table.id, ())):
            seat = other.seat
            if seat is None or table.vs_computer or other.owner == table.owners[seat]:
                continue
            self.reseat(other, None)
            self._spawn(self._deliver([(other, {"type": "moved_away", "message": MOVED_AWAY})]))

    def leave(self, client: Client) -> None:
        group = self.clients.get(client.table_id)
        if group is None or client not in group:
            return
        group.discard(client)
        if not group:  # not kept for a table no socket has (a relayed one is never evicted)
            del self.clients[client.table_id]
        _count(self._address_sockets, client.address, -1)
        if client.seat is not None:
            _count(self._seat_sockets, (client.table_id, client.seat), -1)
        table = self.tables.get(client.table_id)
        if table is not None:
            self._presence(table, client.seat, -1)

    def _presence(self, table: Table, seat: int | None, change: int) -> None:
        """Count a seat's socket in or out; tell the table when a seat comes or goes."""
        if seat is None:
            return
        before = table.connected()
        table.present[seat] = max(0, table.present[seat] + change)
        if table.connected() != before:
            if table.hold_clock():  # the seat to move came or went: its clock with it
                table.version += 1
                self._spawn(self.broadcast(table))
            self._spawn(self._tell_presence(table))

    async def _tell_presence(self, table: Table) -> None:
        msg = {"type": "presence", "connected": table.connected()}
        await self._deliver([(client, msg) for client in self.clients.get(table.id, ())])

    async def _deliver(
        self, sends: list[tuple[Client, dict[str, Any]]], *, close: bool = False
    ) -> None:
        """Send each client its message (then, if ``close``, let go of it and close it), all
        at once: a socket that fails is let go of, and one that has not taken its message
        within ``send_timeout`` is let go of and closed (it reconnects, should it come back),
        so that it holds up nobody else."""

        async def one(client: Client, msg: dict[str, Any]) -> None:
            if close:
                self.leave(client)
            try:
                async with asyncio.timeout(self.send_timeout):
                    await client.send(msg)
                    if close and client.close is not None:
                        await client.close()
            except TimeoutError:
                # Closed once, by the first of its sends to give up (others may be waiting).
                joined = client in self.clients.get(client.table_id, ())
                self.leave(client)
                if (joined or close) and client.close is not None:
                    log.warning("table %s: a socket took no message for a while", client.table_id)
                    self._spawn(_quietly(client.close()))  # waits behind the rest: not here
            except Exception:
                self.leave(client)

        # Each send a task of its own, even a single one: tasks run in the order they were
        # made, so a socket is sent the messages of two broadcasts in the order they were made.
        await asyncio.gather(*(one(client, msg) for client, msg in sends))

    def reseat(self, client: Client, seat: int | None) -> None:
        """Move a connected socket to another seat (after it said who it is)."""
        self.leave(client)
        client.seat, client.mark = seat, None
        self.join(client)

    def state_message(
        self,
        table: Table,
        client: Client,
        made: dict[tuple[int | None, int], dict[str, Any]] | None = None,
        *,
        whole: bool = False,
    ) -> dict[str, Any]:
        """The ``state`` message to send ``client`` now (the whole history if ``whole``, or
        if it did not ask for parts); ``made`` keeps the messages made for a broadcast, one
        per seat and history start, for the sockets after the first."""
        seat = client.seat
        start = 0 if whole or not client.deltas else table.history_from(seat, client.mark)
        msg = None if made is None else made.get((seat, start))
        if msg is None or msg["version"] != table.version:
            msg = table.state_for(seat, start)
            if made is not None:
                made[(seat, start)] = msg
        if client.deltas:
            client.mark = table.history_mark(seat)
        return msg

    def allow(self, client: Client) -> bool:
        """Whether one more message from this socket is within its seat's and its address's
        rates (shared by all their sockets)."""
        key = (client.table_id, client.seat if client.seat is not None else client.address)
        if not self._address_msgs.peek(client.address) or not self._seat_msgs.peek(key):
            return False
        self._address_msgs.take(client.address)
        self._seat_msgs.take(key)
        return True

    async def broadcast(self, table: Table) -> None:
        # One message per seat and history start, however many sockets have it, all made
        # now and sent at once: a socket slow to take its message holds up no other, and each
        # socket is sent its states in the order they were made.
        made: dict[tuple[int | None, int], dict[str, Any]] = {}
        clients = list(self.clients.get(table.id, ()))
        await self._deliver([(c, self.state_message(table, c, made)) for c in clients])

    # -- messages ----------------------------------------------------------------------------

    async def handle(self, client: Client, msg: dict[str, Any]) -> None:
        """Apply one validated client message. Raises ProtocolError / GinRummyError."""
        table = await self.get(client.table_id)
        kind = msg["type"]
        if kind == "ping":
            await client.send({"type": "pong"})
            return
        if kind == "state":
            await client.send(self.state_message(table, client, whole=True))
            return
        if client.seat is None:
            raise ProtocolError("spectators cannot act: open the game with your seat's link")
        seat = client.seat
        if kind == "hint":
            await client.send({"type": "hints", "hints": await self._hints(table, client)})
            return
        if kind == "rematch":
            await self._rematch(table)
            return
        if kind == "review":
            await client.send(await self._review(table, client))
            return
        async with table.lock:
            try:
                await self._change(table, seat, msg)
            except DatabaseUnavailable as exc:
                if exc.in_doubt:  # the table was let go of, its sockets are told (_store)
                    return
                raise ProtocolError(NOT_SAVED) from exc  # nothing stored, nothing changed
        await self.after_change(table)

    async def _change(self, table: Table, seat: int, msg: dict[str, Any]) -> None:
        """A seat's change to the table, stored and made (the caller holds its lock)."""
        kind = msg["type"]
        if kind == "action":
            if table.vs_computer and seat == COMPUTER_SEAT:
                raise ProtocolError("that seat is the computer's")
            await self._store_and_commit(table, table.plan(seat, msg["action"]))
        elif kind == "next":
            deal = table.next_deal(self._rng)  # raises (changing nothing) where none is due
            if table.ready_for_next(seat):
                await self._store(table, table.write_deal, deal)
                table.start(deal)
        elif kind == "undo":
            await self._undo(table, seat)
        elif kind == "name":
            await self._rename(table, seat, msg["name"])
        else:  # pragma: no cover - the protocol layer checks types
            raise ProtocolError(f"unknown message type {kind!r}")

    def _retire(self, table: Table) -> None:
        """Let go of a table whose last write may or may not be stored (the caller holds its
        lock): it is loaded from the database again when next needed, and this copy writes
        nothing more (:meth:`_fence`)."""
        if self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def _reconnect_all(self, table_id: str, why: str) -> None:
        """Tell every socket of the table ``why`` and close it: each reconnects and is sent
        the table as stored."""
        clients = list(self.clients.get(table_id, ()))
        await self._deliver([(c, {"type": "error", "message": why}) for c in clients], close=True)

    async def _store(self, table: Table, fn: Callable[..., None], *args: Any) -> None:
        """Store a change of the table (``fn(tx, *args)``; the caller holds its lock). Should
        the database go away as it commits, the change may or may not be stored: the table
        is let go of, to be read again, and its sockets reconnect to see which."""
        try:
            await self.writes.write(lambda tx: self._write(tx, table, fn, *args))
        except DatabaseUnavailable as exc:
            if not exc.in_doubt:
                log.warning(
                    "table %s: %s; the database said: %s", table.id, exc, _driver_error(exc)
                )
            self._in_doubt(table, exc)
            raise

    def _in_doubt(self, table: Table, exc: DatabaseUnavailable) -> None:
        """A change of the table (the caller holds its lock) failed with the database gone:
        where it may have been stored after all, the table is let go of, to be read again,
        and its sockets reconnect to see whether it was."""
        if exc.in_doubt:
            log.warning(
                "table %s: %s; the database said: %s; it is read again once it is back",
                table.id,
                exc,
                _driver_error(exc),
            )
            self._retire(table)
            self._spawn(self._reconnect_all(table.id, IN_DOUBT))

    def _write(self, tx: Writer, table: Table, fn: Callable[..., None], *args: Any) -> None:
        """A table's write in the transaction ``tx`` (of :attr:`writes`)."""
        self._fence(tx, table)
        fn(tx, *args)

    def _fence(self, tx: Writer, table: Table) -> None:
        """Refuse a write from a copy of the table let go of (:meth:`_retire`); with many
        instances, refuse it (:class:`LeaseLost`) unless this one still holds the table's
        lease: checked in the write's own transaction."""
        if self.tables.get(table.id) is not table:
            raise ProtocolError("this table was reloaded from the database: try again")
        if self.cluster is not None:
            self.cluster.fence(tx, table.id)

    async def _store_and_commit(self, table: Table, step: Step) -> None:
        """Store a planned step, then make it the table's state (the caller holds the lock)."""
        await self._store(table, table.write, step)
        table.commit(step)
        self.actions_applied += 1

    async def after_change(self, table: Table) -> None:
        await self.broadcast(table)
        self.kick(table)

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def kick(self, table: Table) -> None:
        """Start the computer's turns at this table unless they are already running."""
        if table.computer_to_move() and table.id not in self._thinking:
            task = self._spawn(self._computer_turns(table))
            self._thinking[table.id] = task
            task.add_done_callback(lambda t: self._done(t, table.id))

    def _done(self, task: asyncio.Task[Any], table_id: str) -> None:
        self._stop_thinking(table_id, task)
        if not task.cancelled() and task.exception() is not None:
            log.error("computer player failed at table %s", table_id, exc_info=task.exception())

    def _stop_thinking(self, table_id: str, task: asyncio.Future[Any] | None) -> None:
        if task is not None and self._thinking.get(table_id) is task:
            del self._thinking[table_id]

    async def _computer_turns(self, table: Table) -> None:
        # The move worked out and not yet stored (the database away), with the position it
        # is for: tried again as it is, not thought out again.
        planned: tuple[Position, str] | None = None
        try:
            while table.computer_to_move():
                position, hand = table.position(), table.hand
                assert hand is not None  # computer_to_move
                if planned is not None and planned[0] == position:
                    action = planned[1]  # its move, due already, tried again as it is
                else:
                    # A frozen view and a seed drawn here: the thinker shares nothing that
                    # changes.
                    view = table.player_view(hand, COMPUTER_SEAT)
                    seed = self._agent_rng.getrandbits(64)
                    # The computer thinks while its delay runs, and its move is made once both
                    # are done: how long it thinks depends on its cards (the expert searches
                    # when the upcard would meld with them, or it could knock), and a page
                    # timing its moves must not learn that. From the moment the move is due
                    # the person's last move stands (Table.replying): an undo later would be
                    # one made knowing that the computer is still thinking. Only a change of
                    # the hand (an undo) puts the move off, never a name: the delay would
                    # start again, and the undo with it.
                    thinking = asyncio.ensure_future(self._computer_move(table, view, seed))
                    await asyncio.sleep(self.computer_delay)
                    if table.position() != position:
                        # The person moved (undo): look again, not waiting for this thinking
                        # (when the next turn began would tell how long it went on), and
                        # dropping it from the workers' queue if it waits there. Begun, it
                        # keeps the table's agent, which thinks in one thread at a time: the
                        # next turn makes another (an agent keeps nothing within a hand).
                        thinking.cancel()
                        thinking.add_done_callback(_forgotten)
                        table.agent = None
                        continue
                    table.replying = position
                    action = await thinking
                    planned = (position, action)
                async with table.lock:
                    if table.position() != position or not table.computer_to_move():
                        continue  # (closed as abandoned meanwhile)
                    try:
                        await self._store_and_commit(table, table.plan(COMPUTER_SEAT, action))
                        stored = True
                    except DatabaseUnavailable as exc:
                        if exc.in_doubt:
                            return  # let go of: it is read again, and its turns kicked
                        stored = False  # (logged by _store)
                    except StorageError as exc:  # the game closed as the move was stored
                        log.warning("computer move at table %s: %s", table.id, exc)
                        return
                if not stored:
                    await asyncio.sleep(1.0)  # then try again: the database may be back
                    continue
                await self.broadcast(table)
        finally:
            # No move of the computer is due any more (made, or failed): the person's last
            # move may be taken back again, and the undo kicks the computer's turns anew.
            table.replying = None
            # At once, not in the done callback a loop turn later: a move the person makes in
            # between must start the computer's next turns (kick), or the table would stall.
            self._stop_thinking(table.id, asyncio.current_task())

    async def _computer_move(self, table: Table, view: PlayerView, seed: int) -> str:
        """The computer's action for ``view``: from a worker process, or in a thread with the
        table's own agent when there are no workers. A worker too slow or dead gives the move
        the clock makes for a seat out of time, so the table goes on."""
        # Its search is cut short in time for the delay (a move that came later would tell
        # that it had a close decision to make: see _computer_turns).
        budget = think_budget(self.computer_delay)
        if self.thinking is None:
            agent = computer_agent(table, budget)
            return str(await asyncio.to_thread(think, agent, view, random.Random(seed)))
        payload = computer_payload(table, view, seed, budget)
        try:
            return str(await self.think("move", payload))
        except ThinkError as exc:
            log.warning("computer move at table %s: %s; making the clock's move", table.id, exc)
            return str(await asyncio.to_thread(timeout_move, view))

    async def _undo(self, table: Table, seat: int) -> None:
        """Take back the seat's last action, as far as the fair-play policy allows (see
        :meth:`Table.undo_point`); the game is marked as one where undo was used."""
        keep = table.undo_point(seat)  # raises, saying why, when the policy forbids it

        def write(tx: Writer) -> None:
            tx.remove_actions(table.id, table.hand_number, keep=keep)
            tx.update_options(table.id, {"undo_used": True})

        await self._store(table, write)
        hand = table.hand
        assert hand is not None
        while len(hand.events) > keep:
            hand.undo()
        table.mark_undo_used()
        table.touch()

    async def _rename(self, table: Table, seat: int, name: str) -> None:
        if table.vs_computer and seat == COMPUTER_SEAT:
            raise ProtocolError("that seat is the computer's")
        if table.finished:
            raise IllegalActionError("the game is over: its names stay as they were")
        name = clean_name(name)
        await self._store(table, lambda tx: tx.rename_seat(table.id, seat, name))
        table.rename(seat, name)
        table.touch(clock=False)  # a name is no move: the seat to move gains no time by it

    async def _rematch(self, table: Table) -> None:
        """Once the game is over: a new table with the same rules, names and seats (their
        tokens hold there too); everyone at the old table is sent there. Asked twice, the
        same new table."""
        async with table.lock:
            if table.options.rematch is None:
                if not table.finished or table.abandoned:
                    raise IllegalActionError("a rematch is offered once the game is over")
                options = Options.from_dict(
                    {**table.options.to_dict(), "undo_used": False, "rematch": None}
                )
                try:
                    created = await self.create(table.rules, options, table.names, after=table.id)
                except DatabaseUnavailable as exc:
                    # Stored or not, as a move in doubt: asked again on this copy, a second
                    # rematch would be made over the first.
                    self._in_doubt(table, exc)
                    if exc.in_doubt:
                        return  # its sockets are told (_in_doubt)
                    raise
                table.moved_to(created.table.id)
        await self.broadcast(table)

    async def _review(self, table: Table, client: Client) -> dict[str, Any]:
        """The expert's review of this seat's play of the hand just over (in a thread, one at
        a time per seat, counted with the seat's hints and its address's: an address with
        many finished tables could otherwise fill the expert's workers with reviews, and the
        computer's moves waiting behind them would fall back to the simple player)."""
        seat = client.seat
        # All of the hand reviewed taken now: the next hand may be dealt while it is worked on.
        hand, deal, number = table.hand, table.deal, table.hand_number
        if seat is None or hand is None or deal is None:
            raise IllegalActionError("only a seat's own play is reviewed")
        why = table.reviewable(seat)
        if why is not None:
            raise IllegalActionError(why)
        key = (table.id, seat)
        if key in self._hinting:
            raise ProtocolError("the expert is busy with your last request: wait for it")
        if self._address_hints.get(client.address, 0) >= self.limits.hints_at_once_per_address:
            raise ProtocolError("the expert is busy with requests from your address: wait")
        if not self._seat_hints.take(key):
            raise ProtocolError("too many requests for the expert: wait a little")
        actions = [str(e.action) for e in hand.events]
        self._hinting.add(key)
        _count(self._address_hints, client.address, +1)
        try:
            if self.thinking is None:
                found = await asyncio.to_thread(
                    review_hand,
                    table.rules,
                    hand.dealer,
                    list(deal.deck),
                    actions,
                    seat=seat,
                    scores=table.scores_before,
                    columns=table.columns_before,
                    match_points=table.match_before,
                    seed=number,
                )
                mistakes = [m.to_dict() for m in found]
            else:
                payload = {
                    "rules": table.rules.to_dict(),
                    "dealer": hand.dealer,
                    "deck": deal.deck_text,
                    "actions": actions,
                    "seat": seat,
                    "scores": list(table.scores_before),
                    "columns": [c.to_dict() for c in table.columns_before],
                    "match_points": None
                    if table.match_before is None
                    else list(table.match_before),
                    "seed": number,
                }
                mistakes = await self._expert("review", payload, "the review")
        finally:
            self._hinting.discard(key)
            _count(self._address_hints, client.address, -1)
        # the hand step by step with both hands, for the review's replay (the deck is
        # revealed once a hand is over)
        played = replay_hand(table.rules, hand.dealer, list(deal.deck), actions)
        return {
            "type": "review",
            "hand": number,
            "seat": seat,
            "mistakes": mistakes,
            "replay": played,
        }

    async def _hints(self, table: Table, client: Client) -> list[dict[str, Any]]:
        seat = client.seat
        hand = table.hand
        if seat is None or hand is None:
            raise IllegalActionError("hints are given on your turn")
        if table.abandoned:
            raise IllegalActionError(ABANDONED)
        if not table.options.hints:
            raise IllegalActionError(
                "this table has no hints: a game for stakes never has them, and between two "
                "people only when the table was opened with hints for both"
            )
        if hand.current_player != seat:
            raise IllegalActionError("hints are given on your turn")
        key = (table.id, seat)
        if key in self._hinting:
            raise ProtocolError("a hint is being worked out: wait for it")
        if self._address_hints.get(client.address, 0) >= self.limits.hints_at_once_per_address:
            raise ProtocolError("hints are being worked out for your address: wait for them")
        if not self._seat_hints.take(key):
            raise ProtocolError("too many hints: wait a little")
        # A frozen snapshot: safe in another thread.
        view = table.player_view(hand, seat)
        # The expert thinks for a while: in a thread, as the computer's moves are, so that
        # every other table goes on meanwhile; one at a time per seat, however many sockets.
        self._hinting.add(key)
        _count(self._address_hints, client.address, +1)
        try:
            if self.thinking is None:
                return hint_dicts(await asyncio.to_thread(hint, view, rng=random.Random(0)))
            found: list[dict[str, Any]] = await self._expert(
                "hints", {"view": view.to_dict()}, "the hint"
            )
            return found
        finally:
            self._hinting.discard(key)
            _count(self._address_hints, client.address, -1)

    async def _expert(self, kind: str, payload: dict[str, Any], what: str) -> Any:
        """A hint's or review's answer from the workers, or an error the client is told."""
        try:
            return await self.think(kind, payload)
        except ThinkTimeout:
            raise ProtocolError(f"the expert took too long over {what}: try again") from None
        except ThinkError as exc:
            log.warning("%s failed: %s", what, exc)
            raise ProtocolError(f"the expert could not work out {what}: try again") from None

    async def tick(self) -> None:
        """Move clock: a seat out of time gets a move made for it. Idle tables are let go."""
        self.evict_idle()
        now = time.time()
        for table in list(self.tables.values()):
            if table.waited_long_enough(time.monotonic()) and table.id not in self._timeouts:
                self._timeouts.add(table.id)
                task = self._spawn(self._deal_waiting(table))
                task.add_done_callback(functools.partial(_discard, self._timeouts, table.id))
                continue
            if table.run_clock_away(now):  # away too long: its time runs on
                table.version += 1
                self._spawn(self.broadcast(table))
            hand = table.hand
            if table.deadline is None or hand is None or hand.is_over or now < table.deadline:
                continue
            if table.id not in self._timeouts:
                self._timeouts.add(table.id)
                task = self._spawn(self._time_out(table))
                task.add_done_callback(functools.partial(_discard, self._timeouts, table.id))

    async def _deal_waiting(self, table: Table) -> None:
        """Deal the next hand for a seat that asked for it and has waited for the other long
        enough (or the other has gone): :meth:`Table.waited_long_enough`."""
        async with table.lock:
            if not table.waited_long_enough(time.monotonic()):
                return  # dealt meanwhile
            try:
                deal = table.next_deal(self._rng)
                await self._store(table, table.write_deal, deal)
            except DatabaseUnavailable:
                return  # logged by _store; tried again on the next tick
            except (GinRummyError, StorageError) as exc:
                log.warning("the next hand at table %s: %s", table.id, exc)
                return
            table.start(deal)
        await self.after_change(table)

    async def _time_out(self, table: Table) -> None:
        """Move for the seat whose time ran out, unless it moved meanwhile. Never at a table
        against the computer (it has no clock, :meth:`Table.touch`): the clock's move is the
        simple player's, and the computer's seat must be played by the computer."""
        hand = table.hand
        if table.vs_computer or hand is None or hand.is_over or hand.current_player is None:
            return
        version, seat = table.version, hand.current_player
        view = table.player_view(hand, seat)
        action = await asyncio.to_thread(timeout_move, view)
        async with table.lock:
            if table.version != version:
                return  # the seat moved in time after all, or someone else changed the table
            try:
                await self._store_and_commit(table, table.plan(seat, str(action)))
            except DatabaseUnavailable:  # logged by _store
                return  # nothing changed: the next tick tries again if the time is still out
            except StorageError as exc:  # the game was just closed
                log.warning("the clock's move at table %s: %s", table.id, exc)
                return
            moved = table.hand
            if moved is not None and moved.events:  # the log says the clock made it
                table.clock_moves.append(moved.events[-1].number)
        await self.after_change(table)


def timeout_move(view: Any) -> Any:
    """The move made for a seat that ran out of time: the simple player's."""
    return get_agent("simple").act(view, random.Random(0))


def _forgotten(task: asyncio.Future[Any]) -> None:
    """The end of a computer's thinking over a position the person has since taken back."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("computer player failed over a move taken back", exc_info=task.exception())


def _driver_error(exc: BaseException) -> str:
    """The first line of what the database's driver said (the cause of a
    :class:`DatabaseUnavailable`), for the log: a lock, a full disk or a lost server."""
    cause = exc.__cause__
    text = str(cause).strip() if cause is not None else ""
    return text.splitlines()[0] if text else "no reason given"


async def _quietly(job: Awaitable[Any]) -> None:
    with contextlib.suppress(Exception):
        await job


def _discard(items: set[str], item: str, _task: object) -> None:
    items.discard(item)


def _count(counts: dict[Any, int], key: Any, delta: int) -> None:
    value = counts.get(key, 0) + delta
    if value > 0:
        counts[key] = value
    else:
        counts.pop(key, None)
