"""The table manager: creates and loads tables, applies seats' messages, runs the computer,
and tells every connected seat its own state. Knows nothing of HTTP; the app joins it to sockets.

Nothing here waits on the database in the event loop: every read and write runs in a small
pool of threads (:meth:`Manager.db`); the computer players, hints and reviews think in worker
processes (:mod:`.thinking`, ``think_workers``; with none, in threads of this process); and a
table's changes are made one at a time under its lock, stored before anyone is told.

:class:`Manager` is put together from parts, each a base class in a module of its own
(:mod:`.base` says what they share): this module keeps the tables (created, loaded, let go
of, closed when abandoned, and their seats' tokens and invites); :mod:`.connections` the
sockets and what each is sent; :mod:`.changes` the seats' messages and the storing of each
change; :mod:`.computer` the computer player and the expert's hints and reviews; and
:mod:`.clock` the move clock.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from ..engine import GinRummyError, Rules
from ..engine.game import Game
from ..engine.match import Match
from ..storage import DatabaseUnavailable, LeaseLost, Store
from ..storage.models import utcnow
from ..storage.writer import seat_moves
from .batching import GroupCommit
from .changes import IN_DOUBT as IN_DOUBT
from .changes import NOT_SAVED as NOT_SAVED
from .changes import Changes
from .clock import Clock
from .clock import timeout_move as timeout_move
from .computer import Computer
from .connections import SEND_TIMEOUT, Connections
from .connections import Client as Client
from .limits import Buckets
from .protocol import ProtocolError
from .tables import (
    INVITED,
    LEVELS,
    TERMINAL_MARK,
    Options,
    Table,
    is_terminal,
    new_token,
    table_of,
    token_hash,
)
from .thinking import (
    THINK_TIMEOUT,
    ThinkPool,
)

if TYPE_CHECKING:
    from .cluster import Cluster

log = logging.getLogger("ginrummy.web")
T = TypeVar("T")


@dataclass
class Created:
    table: Table
    tokens: tuple[str, str | None]


#: Seconds a table stays in memory with nobody connected and nothing to do; it is loaded from
#: the store again when someone comes back.
IDLE_SECONDS = 900.0
#: An open game nobody has moved in for this many days is closed as abandoned.
ABANDON_AFTER_DAYS = 30.0


@dataclass(frozen=True)
class Limits:
    """What one seat or one address may do, however many sockets it opens."""

    seat_rate: float = 10.0  # messages a second, on average, per seat (all its sockets)
    seat_burst: float = 30.0
    address_rate: float = 20.0  # messages a second per address (all its tables)
    address_burst: float = 60.0
    #: What a seat may still send, within its own rate, when its address's rate is spent:
    #: two players behind one address (a house, a carrier's NAT) share that rate, and one of
    #: them flooding from many sockets must not get the other's moves refused. Far above a
    #: person's pace, far below the address's rate.
    seat_reserve_rate: float = 2.0
    seat_reserve_burst: float = 10.0
    hints_per_minute: float = 20.0  # per seat; and one hint at a time per seat
    hint_burst: float = 5.0
    hints_at_once_per_address: int = 2
    sockets_per_seat: int = 8
    sockets_per_address: int = 32


DEFAULT_LIMITS = Limits()
#: No limits at all: for tests and benchmarks that send faster than people.
UNLIMITED = Limits(
    *(1e9,) * 8,
    hints_at_once_per_address=1_000_000,
    sockets_per_seat=1_000_000,
    sockets_per_address=1_000_000,
)


class Manager(Connections, Changes, Computer, Clock):
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
        self._seat_reserve = Buckets(lim.seat_reserve_rate, lim.seat_reserve_burst)
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
                table.moves = seat_moves(carried)  # the seats' moves of the game before
                if tokens[INVITED] is not None:
                    table.invite_from = game_id
                if self.cluster is not None:
                    self.cluster.created(tx, game_id)
                table.write_deal(tx, deal)
                if after is not None:
                    table.owners = tx.carry_owners(after, game_id)
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

    def _load(self, game_id: str, epoch: int | None = None) -> Table | None:
        """The table as stored (run in a database thread), or None for no such online game.
        A game played in the terminal (in the same database) is not the server's to open: it
        would play the computer's moves into it beside the terminal.

        With many instances, the lease is checked once the table is read (:class:`LeaseLost`
        unless still held at ``epoch``): a holder that stalled past its lease mid-read, or
        whose lease was taken meanwhile, may have read a copy the new holder has moved on
        from."""
        stored = self.store.load_game(game_id)
        if stored is None or stored.game.kind != "online" or is_terminal(stored.game.options):
            return None
        if self.cluster is not None:
            if epoch is None:
                raise LeaseLost(f"game {game_id} is not held by this server instance")
            self.store.check_lease(game_id, self.cluster.id, epoch)
        return table_of(stored)

    async def find(self, table_id: str) -> Table | None:
        """The table, from memory or else loaded from the store (once, however many ask);
        None where there is none, or another instance holds it. :class:`LeaseLost` where
        another instance took it over while it was read: its sockets are closed, to
        reconnect to the new holder."""
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
        epoch = None if self.cluster is None else self.cluster.epochs.get(table_id)
        try:
            table = await self.db(self._load, table_id, epoch)
            if self.cluster is not None and self.cluster.epochs.get(table_id) != epoch:
                raise LeaseLost(f"game {table_id} was taken over while it was read")
        except (GinRummyError, ValueError) as exc:  # a corrupt row: say so, serve the rest
            log.error("could not load table %s: %s", table_id, exc)
            return None
        except LeaseLost:
            # Not kept: the new holder has the table. The sockets that came for it are closed
            # as at a failover, and reconnect there.
            # (Not one taken again since, at a new epoch: its sockets are the new lease's.)
            assert self.cluster is not None
            if self.cluster.epochs.get(table_id) in (epoch, None):
                await self.cluster.drop(table_id)
            raise
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

    def in_memory(self, table_id: str) -> bool:
        """Whether the table is in memory, or being read into it (:meth:`find`)."""
        return table_id in self.tables or table_id in self._loading

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
