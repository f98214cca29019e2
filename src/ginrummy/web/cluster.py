"""Many ``ginrummy serve`` instances sharing tables: a lease per table in the database, and a
Redis broker that carries each socket's messages between the instance holding the socket and
the instance holding the table (``--broker redis://...``; without it none of this runs).

How a table is shared, and why:

* **One holder per table.** The instance that holds a table's lease (a row in the database:
  holder, epoch, expiry; see :meth:`~ginrummy.storage.writer.Writer.take_lease`) is the only one
  with the table in memory; it applies every move, runs the computer and the move clock,
  exactly as a single server does. The lease lives in the database rather than in Redis
  because the write of a move must check it: every write of the table checks, in its own
  transaction and under the game's row lock, that this instance still holds the lease at the
  epoch it was given (a fencing token), so a holder that was paused past its expiry and
  taken over has its late writes refused instead of interleaved. A lease in Redis would need
  that same token stored in the database anyway, and two places to agree.
* **Sockets anywhere.** A socket that reaches another instance is *relayed*: that instance
  checks its seat token and rate limits, and forwards its messages to the holder on the
  holder's own channel (``ginrummy:i:<id>``); the holder joins it to the table as a
  :class:`RemoteClient`, whose every message (the state for its own seat, errors, hints) goes
  back on the relaying instance's own channel. So the holder computes each seat's state, as
  it always did, and the broker carries to each instance only what its own sockets are sent:
  never hidden cards to be filtered later, and no instance other than the holder keeps a copy
  of a table that could go stale. Messages on one channel arrive in the order they are
  published, and each instance publishes from one task in order, so each socket sees every
  state in order.
* **Failure.** The holder renews its leases every third of ``lease_seconds``. When it dies
  the leases run out; the instances relaying for it notice (the lease's holder changed, the
  holder's channel has no subscriber, or the lease has been out for ``lease_seconds`` more:
  a holder that is alive but slow to renew, under load, keeps its sockets) and close those
  sockets with 1012, and the pages reconnect by themselves. The next socket for the table
  takes the lease over (waiting out the dead holder's expiry, at most ``lease_seconds``) and
  loads the table from the database, where every acknowledged move is, since a move is
  stored before anyone is told of it. A move sent meanwhile is either stored (and then seen
  after the reconnect) or refused with the socket's close, never half applied.
* **The broker away.** Redis is only the wire between instances; leases and moves live in the
  database. While it is away each instance serves the sockets of the tables it holds as
  before; a relayed socket is told that its table's server was lost touch with (a move it
  sent meanwhile was not made, or was stored and shows once it is back) and closed, and a
  socket arriving for a table held elsewhere is told to try again in a moment. Each instance
  reconnects by itself, waiting longer each time up to ``RETRY_MAX`` seconds, subscribes
  again and relays as before; so it does when the broker is found to have let its
  subscription go unheard (a connection the network dropped silently). A message is
  published at most once (the client never retries a publish that may have gone through),
  so no move is applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import secrets
import socket
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

import orjson

from ..engine import GinRummyError
from ..storage import DatabaseUnavailable, LeaseLost, NotFoundError, StorageError, Writer
from ..storage.models import utcnow
from .protocol import TOO_MANY_MESSAGES, ProtocolError, encode

if TYPE_CHECKING:
    from .manager import Client, Manager

log = logging.getLogger("ginrummy.web")
T = TypeVar("T")

#: Seconds a lease lasts unless renewed: a dead holder's tables are taken over this long after
#: its last renewal at most.
LEASE_SECONDS = 3.0
#: The most messages published in one round trip to the broker.
PUBLISH_BATCH = 256
#: The close code sent to sockets whose table has moved to another instance: "service restart",
#: which pages answer by reconnecting.
MOVED = 1012
PREFIX = "ginrummy:i:"
#: Seconds between tries to reach a lost broker: the first, doubled each time up to the last.
RETRY_FIRST, RETRY_MAX = 0.1, 2.0
#: What a relayed socket is told when its messages may have been lost on the way.
LOST_TOUCH = (
    "lost touch with the server holding this table: reconnecting (the table then shows "
    "whether your last move was made)"
)
#: What a socket for a table held elsewhere is told while the broker is away.
UNREACHABLE = "the server holding this table cannot be reached just now: try again in a moment"
#: What a relayed socket is told when the holder no longer knew it (its move was not made).
FORGOTTEN = (
    "the server holding this table had lost track of this connection: your last move was "
    "not made; reconnecting"
)


def channel(instance: str) -> str:
    return PREFIX + instance


@dataclass(eq=False)
class Relay:
    """A socket on this instance whose table another instance holds."""

    conn: str
    table_id: str
    holder: str
    outbox: asyncio.Queue[dict[str, Any] | None] = field(default_factory=asyncio.Queue)

    def end(self, why: str | None = None) -> None:
        """Close the socket (it reconnects), telling it ``why`` first."""
        if why is not None:
            self.outbox.put_nowait({"type": "error", "message": why})
        self.outbox.put_nowait(None)


class RemoteClient:
    """At the holder: a socket held by another instance, joined to the table like a local one;
    what it is sent goes to that instance, in order."""

    def __init__(self, cluster: Cluster, conn: str, origin: str, client: Client) -> None:
        self.cluster, self.conn, self.origin, self.client = cluster, conn, origin, client
        self.inbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    async def send(self, msg: dict[str, Any]) -> None:
        self.cluster.publish(self.origin, {"op": "send", "conn": self.conn, "msg": msg})

    async def close(self) -> None:
        self.cluster.publish(self.origin, {"op": "close", "conn": self.conn})
        self.cluster.forget_remote(self.conn)


class Cluster:
    """This instance's part in a site of several (see the module docstring)."""

    def __init__(
        self,
        manager: Manager,
        broker_url: str,
        *,
        lease_seconds: float = LEASE_SECONDS,
        instance: str | None = None,
    ) -> None:
        import redis.asyncio
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        self.manager = manager
        #: Says where the instance runs (host and process id, for whoever reads the leases)
        #: and is never reused (a random part), so a restarted process is a new holder.
        self.id = instance or f"{socket.gethostname()[:32]}-{os.getpid()}-{secrets.token_hex(4)}"
        self.lease_seconds = lease_seconds
        # No retries: a publish whose answer was lost may have been delivered, and sent
        # again it would be applied twice. Timeouts: a broker that stops answering is a lost
        # one, not a publishing task stuck for good.
        self.redis = redis.asyncio.from_url(
            broker_url,
            retry=Retry(NoBackoff(), 0),
            socket_connect_timeout=2.0,
            socket_timeout=5.0,
        )
        #: The tables this instance holds: table id -> the epoch of its lease.
        self.epochs: dict[str, int] = {}
        self.remotes: dict[str, RemoteClient] = {}
        self.relays: dict[str, Relay] = {}
        self._out: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[Any]] = []
        self._ready = asyncio.Event()
        self._absent: set[str] = set()
        #: Whether this instance's channel is unsubscribed: the broker was lost and has not
        #: been reached again (only the task listening on it says so, and says it is back).
        self.broker_lost = False
        #: Lease keepings running that found nobody subscribed to this instance's channel at
        #: the broker, though this instance thinks it is (see :meth:`_check_subscribed`).
        self._unheard = 0
        self._resubscribe = False
        #: Tables whose creating transaction may not have committed: their lease row is not
        #: there yet for the renewal to find. Their creator puts them in memory once it has.
        self._creating: set[str] = set()
        #: The lease keeping's own database thread: on the manager's, a burst of requests
        #: (every player reconnecting at once) would queue the renewals past the leases'
        #: expiry, and the other instances would take the tables over.
        self._keeper = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ginrummy-leases")

    # -- starting and stopping ---------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe to this instance's channel, start publishing and renewing leases."""
        await self.redis.ping()  # a broker that does not answer stops the start, saying so
        self._tasks = [
            asyncio.ensure_future(self._listen()),
            asyncio.ensure_future(self._publish()),
            asyncio.ensure_future(self._every_while(self.lease_seconds / 3, self.maintain)),
        ]
        await asyncio.wait_for(self._ready.wait(), 10.0)

    async def stop(self) -> None:
        """Let go of every lease, so that other instances take the tables over at once."""
        for task in self._tasks:
            task.cancel()
        for table_id, epoch in list(self.epochs.items()):
            try:
                await self._keep(self.manager.store.release_lease, table_id, self.id, epoch)
            except DatabaseUnavailable:
                # Away: each try would wait its whole timeout, table after table. The leases
                # run out by themselves within lease_seconds.
                log.warning("could not let go of the leases: the database is away")
                break
            except Exception:
                continue
        self.epochs.clear()
        self._keeper.shutdown(wait=False)
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _keep(self, fn: Callable[..., T], *args: Any) -> T:
        """A store call of the lease keeping, in its own thread (see ``_keeper``)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._keeper, functools.partial(fn, *args))

    # -- leases -------------------------------------------------------------------------------

    def holds(self, table_id: str) -> bool:
        return table_id in self.epochs

    def fence(self, tx: Writer, table_id: str) -> None:
        """In a write's transaction: refuse it unless this instance still holds the table."""
        epoch = self.epochs.get(table_id)
        if epoch is None:
            raise LeaseLost(f"game {table_id} is not held by this server instance")
        tx.check_lease(table_id, self.id, epoch)

    def created(self, tx: Writer, table_id: str) -> None:
        """In a new table's transaction: the table is this instance's to apply."""
        epoch = tx.take_lease(table_id, self.id, self.lease_seconds)
        assert epoch is not None  # nobody else can know of a table not yet committed
        self._creating.add(table_id)  # before the epoch: maintain reads them in that order
        self.epochs[table_id] = epoch

    def not_created(self, table_id: str, *, in_doubt: bool) -> None:
        """A new table's transaction failed after :meth:`created`. Rolled back, the table and
        its lease are not there: forget them, or the lease would be thought held for good
        (never renewed, never let go, as one still being created). In doubt (the commit may
        have happened), the lease is kept as any other: renewed, and dropped should the
        renewal not find it; let go of once the table is found out of memory."""
        self._creating.discard(table_id)
        if not in_doubt:
            self.epochs.pop(table_id, None)

    async def place(self, table_id: str) -> str | None:
        """Where a socket for the table is served: None here (this instance holds the table,
        or there is no such table), else the holding instance's id. A holder whose channel
        has nobody listening is dead: its lease is waited out and the table taken over."""
        if table_id in self.epochs:
            return None
        manager = self.manager
        deadline = asyncio.get_running_loop().time() + self.lease_seconds + 1.0
        while True:
            try:
                epoch = await manager.db(
                    manager.store.take_lease, table_id, self.id, self.lease_seconds
                )
            except NotFoundError:
                return None  # no such game: the manager says so
            if epoch is not None:
                if self.epochs.get(table_id) != epoch:
                    manager.tables.pop(table_id, None)  # a copy from an earlier lease: stale
                    self.epochs[table_id] = epoch
                return None
            if self.broker_lost:  # the holder is alive (its lease is) but cannot be reached
                raise ProtocolError(UNREACHABLE)
            holders = await manager.db(manager.store.lease_holders, [table_id])
            holder = holders.get(table_id, ("", utcnow()))[0]
            try:
                alive = bool(holder) and await self._alive(holder)
            except Exception as exc:
                log.warning("the broker did not answer: %s", exc)
                raise ProtocolError(UNREACHABLE) from None
            if alive:
                return holder
            if asyncio.get_running_loop().time() > deadline:
                raise ProtocolError("the server holding this table is not answering: try again")
            await asyncio.sleep(0.2)

    async def _alive(self, instance: str) -> bool:
        found = await self.redis.pubsub_numsub(channel(instance))
        return bool(found and int(found[0][1]) > 0)

    async def drop(self, table_id: str) -> None:
        """The table is no longer this instance's: forget it and close its sockets, which
        reconnect and reach the new holder."""
        self.epochs.pop(table_id, None)
        self.manager.tables.pop(table_id, None)
        for client in list(self.manager.clients.get(table_id, ())):
            self.manager.leave(client)
            if client.close is not None:
                with contextlib.suppress(Exception):
                    await client.close()

    async def maintain(self) -> None:
        """Renew this instance's leases, let go of tables evicted from memory, drop those lost,
        close relayed sockets whose holder is gone, forget remote sockets whose instance is."""
        manager = self.manager
        # Copies, epochs first (created() adds to both from a database thread, creating first).
        epochs = dict(self.epochs)
        self._creating -= set(manager.tables)  # in memory: committed
        creating = set(self._creating)
        # A table absent from memory twice running was evicted: let its lease go. Not one
        # being read into memory again (a player came back to it): it would be in memory,
        # not held, and every message of its sockets answered "no such table". All are let
        # go of before the first wait, in which a socket could come back to one of them.
        absent = {t for t in epochs if not manager.in_memory(t) and t not in creating}
        released = {t: self.epochs.pop(t) for t in absent & self._absent if t in self.epochs}
        for table_id, epoch in released.items():
            await self._keep(manager.store.release_lease, table_id, self.id, epoch)
        self._absent = absent
        # A lease taken moments ago by a creation not yet committed needs no renewal, and
        # the renewal would not find it and take it for lost.
        held = {t: e for t, e in epochs.items() if t not in creating and t not in released}
        if held:
            lost = await self._keep(manager.store.renew_leases, self.id, held, self.lease_seconds)
            for table_id in lost:
                log.warning("table %s was taken over by another instance", table_id)
                await self.drop(table_id)
        if self.broker_lost:  # relayed and remote sockets were let go when it was lost
            return
        # Only the relays whose leases are read: one that starts while they are is not in
        # what comes back, and would be closed as if its table had no holder.
        relays = list(self.relays.values())
        if relays:
            holders = await self._keep(manager.store.lease_holders, {r.table_id for r in relays})
            # A lease out for a while: its holder, though subscribed, has stopped renewing.
            # (Only a while: an overloaded holder renews late, and closing every socket it
            # serves would only bring them all back at once.)
            stale = utcnow() - timedelta(seconds=self.lease_seconds)
            alive: dict[str, bool] = {}
            for relay in relays:
                holder, expires = holders.get(relay.table_id, ("", stale))
                if relay.holder not in alive:
                    alive[relay.holder] = await self._alive(relay.holder)
                if holder != relay.holder or expires <= stale or not alive[relay.holder]:
                    relay.end()  # it reconnects, and finds the table's new holder
        for origin in {r.origin for r in self.remotes.values()}:
            if not await self._alive(origin):
                for remote in [r for r in self.remotes.values() if r.origin == origin]:
                    self.forget_remote(remote.conn)
        await self._check_subscribed()  # last: the relays above are those read before a wait

    async def _check_subscribed(self) -> None:
        """Whether the broker still has this instance's subscription. A connection the network
        dropped silently (a firewall or NAT forgetting an idle one) tells the subscriber
        nothing, while the broker lets the subscription go: the other instances would see
        this one's channel empty and take it for dead, though it renews its leases, and its
        tables could be reached from no other instance, ever. Found empty twice running (once
        may be a subscription on its way), the subscription is made again."""
        if await self._alive(self.id):
            self._unheard = 0
            return
        self._unheard += 1
        if self._unheard >= 2:
            self._resubscribe = True

    # -- the broker ---------------------------------------------------------------------------

    def publish(self, instance: str, msg: dict[str, Any]) -> None:
        """Queue a message for an instance; one task publishes them all, in this order."""
        self._out.put_nowait((channel(instance), encode(msg)))

    async def _publish(self) -> None:
        """Publish the queued messages in order: those that wait together go in one round
        trip to the broker (a pipeline, which keeps their order), not one round trip each."""
        while True:
            batch = [await self._out.get()]
            while not self._out.empty() and len(batch) < PUBLISH_BATCH:
                batch.append(self._out.get_nowait())
            try:
                if len(batch) == 1:
                    await self.redis.publish(*batch[0])
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for target, data in batch:
                            pipe.publish(target, data)
                        await pipe.execute()
            except Exception as exc:
                if not self.broker_lost:
                    log.error("could not publish to the broker: %s", exc)
                await self._broker_lost()

    async def _listen(self) -> None:
        """This instance's channel, subscribed again whenever the broker comes back."""
        delay = RETRY_FIRST
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.subscribe(channel(self.id))
                if self.broker_lost:
                    log.warning("the broker is back: relaying again")
                self.broker_lost, delay = False, RETRY_FIRST
                self._unheard, self._resubscribe = 0, False
                self._ready.set()
                while True:
                    if self._resubscribe:
                        raise ConnectionError("the broker no longer has this instance's channel")
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is None:
                        continue
                    try:
                        await self._received(orjson.loads(message["data"]))
                    except Exception:
                        log.exception("a message from the broker")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not self.broker_lost:
                    log.error("lost the broker (%s): reconnecting", exc)
                self.broker_lost = True
                await self._broker_lost()
                await asyncio.sleep(delay)
                delay = min(delay * 2, RETRY_MAX)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    async def _broker_lost(self) -> None:
        """Messages may have been lost with the broker: close every relayed socket, here
        and at the instances relaying to this one, so that each reconnects and is sent its
        whole state afresh. Moves are stored by the holder before anyone is told, so a move
        lost on the way was never acknowledged."""
        for relay in list(self.relays.values()):
            relay.end(LOST_TOUCH)
        for remote in list(self.remotes.values()):
            self.publish(remote.origin, {"op": "close", "conn": remote.conn, "why": LOST_TOUCH})
            self.forget_remote(remote.conn)

    async def _received(self, msg: dict[str, Any]) -> None:
        op, conn = msg.get("op"), str(msg.get("conn"))
        if op == "send":  # for a socket here, from a table's holder
            relay = self.relays.get(conn)
            if relay is not None:
                relay.outbox.put_nowait(msg["msg"])
        elif op == "close":
            relay = self.relays.get(conn)
            if relay is not None:
                why = msg.get("why")
                relay.end(why if isinstance(why, str) else None)
        elif op == "join":
            await self._remote_join(msg)
        elif op in ("msg", "seat", "leave"):  # for a table here, from another's socket
            remote = self.remotes.get(conn)
            if remote is not None:
                remote.inbox.put_nowait(msg)
                if op == "leave":
                    remote.inbox.put_nowait(None)
            elif op != "leave" and isinstance(msg.get("from"), str):
                # A socket this instance let go of (the broker was lost meanwhile) that does
                # not know it yet: its message is not applied, and it is told so.
                self.publish(msg["from"], {"op": "close", "conn": conn, "why": FORGOTTEN})

    # -- at the holder: sockets of other instances --------------------------------------------

    async def _remote_join(self, msg: dict[str, Any]) -> None:
        from .manager import Client

        conn, origin, table_id = str(msg["conn"]), str(msg["from"]), str(msg["table"])
        seat = msg.get("seat")
        try:
            table = await self.manager.find(table_id) if table_id in self.epochs else None
        except LeaseLost:  # taken over while it was read
            table = None
        if table is None:  # not ours (any more): the socket reconnects and finds the holder
            self.publish(origin, {"op": "close", "conn": conn})
            return
        client = Client(table_id, seat if isinstance(seat, int) else None, _nowhere, "")
        client.address = str(msg.get("address", ""))
        client.deltas = msg.get("deltas") is True
        _owned(client, msg)
        # The table's sockets all join here, wherever they are held: so the limits of a seat's
        # sockets are checked here too, over every instance (each relaying instance counts
        # only its own).
        refusal = self.manager.may_join(table_id, client.seat, client.address, client.owner)
        if refusal is not None:
            self.publish(origin, {"op": "close", "conn": conn, "why": refusal})
            return
        remote = RemoteClient(self, conn, origin, client)
        client.send, client.close = remote.send, remote.close
        self.remotes[conn] = remote
        self.manager.join(client)
        await client.send(self.manager.state_message(table, client))
        self.manager._spawn(self._serve_remote(remote))

    async def _serve_remote(self, remote: RemoteClient) -> None:
        """A remote socket's messages, one at a time and in order, as a local socket's are."""
        manager, client = self.manager, remote.client
        try:
            while (msg := await remote.inbox.get()) is not None:
                if msg["op"] == "leave":
                    break
                table = manager.tables.get(client.table_id)
                if table is None:
                    await remote.close()
                    break
                if msg["op"] == "seat":
                    seat = msg.get("seat")
                    # A hello moves the socket to a seat: counted here, over every instance,
                    # as one opened with the seat's token is (_remote_join).
                    _owned(client, msg)
                    refusal = (
                        None
                        if seat == client.seat
                        else manager.may_join(
                            client.table_id, seat, client.address, client.owner, joined=True
                        )
                    )
                    if refusal is not None:
                        await client.send({"type": "error", "message": refusal})
                        await remote.close()
                        break
                    manager.reseat(client, seat)
                    await client.send(manager.state_message(table, client, whole=True))
                    continue
                if not manager.allow(client):  # the seat's rate, over every instance
                    await client.send({"type": "error", "message": TOO_MANY_MESSAGES})
                    continue
                try:
                    await manager.handle(client, msg["msg"])
                except (ProtocolError, GinRummyError, DatabaseUnavailable) as exc:
                    await client.send({"type": "error", "message": str(exc)})
                except LeaseLost:
                    await self.drop(client.table_id)
                    break
                except StorageError as exc:  # the store refused it (the game closed meanwhile)
                    log.warning("table %s: %s", client.table_id, exc)
                    await client.send({"type": "error", "message": str(exc)})
        finally:
            self.forget_remote(remote.conn)

    def forget_remote(self, conn: str) -> None:
        remote = self.remotes.pop(conn, None)
        if remote is not None:
            self.manager.leave(remote.client)
            remote.inbox.put_nowait(None)

    # -- at a socket's instance: relaying to the holder ---------------------------------------

    async def relay(
        self,
        client: Client,
        holder: str,
        receive: Callable[[], Awaitable[dict[str, Any] | None]],
        send: Callable[[dict[str, Any]], Awaitable[None]],
    ) -> None:
        """Serve a socket whose table ``holder`` holds: its messages (from ``receive``, None
        when it closes; hellos already answered, as ``{"op": "seat", ...}``) go there, and
        what the holder sends it comes back through ``send``. Returns when either side closes."""
        conn = secrets.token_hex(8)
        relay = Relay(conn, client.table_id, holder)
        self.relays[conn] = relay

        async def forward() -> None:
            while (item := await receive()) is not None:
                if self.broker_lost:  # never published: certainly not made
                    relay.end(f"{UNREACHABLE} (your last move was not made)")
                    continue  # back() sends that, closes the socket and ends this
                self.publish(holder, {**item, "conn": conn, "from": self.id})

        async def back() -> None:
            while (msg := await relay.outbox.get()) is not None:
                if msg.get("type") == "moved_away" and client.seat is not None:
                    # Made a spectator at the holder (its seat moved to another browser): no
                    # longer the seat's here either, where its sockets and messages count.
                    self.manager.reseat(client, None)
                try:  # a socket that takes nothing would have its outbox grow for good
                    async with asyncio.timeout(self.manager.send_timeout):
                        await send(msg)
                except TimeoutError:
                    log.warning("table %s: a socket took no message for a while", relay.table_id)
                    return

        self.publish(
            holder,
            {
                "op": "join",
                "conn": conn,
                "from": self.id,
                "table": client.table_id,
                "seat": client.seat,
                "address": client.address,
                "deltas": client.deltas,
                "owner": client.owner,
                "moves": client.seat_moves,
            },
        )
        tasks = [asyncio.ensure_future(forward()), asyncio.ensure_future(back())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            self.relays.pop(conn, None)
            self.publish(holder, {"op": "leave", "conn": conn})

    async def _every_while(self, seconds: float, job: Callable[[], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await job()
            except Exception:
                log.exception("keeping the leases")


def _owned(client: Client, msg: dict[str, Any]) -> None:
    """A relayed socket's browser (its player cookie's hash) and its seat's moves, as its
    instance read them when it took its seat: the holder keeps each seat in one browser
    (:meth:`Manager.join`), relayed sockets as local ones."""
    owner, moves = msg.get("owner"), msg.get("moves")
    client.owner = owner if isinstance(owner, str) else None
    client.seat_moves = moves if isinstance(moves, int) else 0


async def _nowhere(_msg: dict[str, Any]) -> None:  # pragma: no cover - replaced at once
    return None
