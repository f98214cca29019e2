"""Many ``ginrummy serve`` instances, one site: real server processes sharing one PostgreSQL
database and one Redis broker (``--broker``). The seats of a table and its spectators connect
to different instances and all see every move, in order, none a hidden card; the instance
holding the table is killed (SIGKILL) mid-hand and the game goes on at the others with
nothing acknowledged lost.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import secrets
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from ginrummy.engine import Hand
from ginrummy.storage import Store
from ginrummy.web.tables import rebuild_hand
from webutil import (
    LiveServer,
    SeatSocket,
    going_on,
    invite_token,
    leaks,
    live_friend_token,
    pick,
    post_table,
    running_instances,
)

#: Short leases, so that a dead instance's tables are taken over quickly.
LEASE = "1.5"


@pytest.fixture
def instances(
    tmp_path: Path, postgres_schema_url: str, broker_url: str
) -> Iterator[list[LiveServer]]:
    """Three instances on one PostgreSQL schema and one Redis."""
    with running_instances(tmp_path, postgres_schema_url, broker_url, LEASE) as servers:
        yield servers


def stored_hand(store: Store, table_id: str) -> Hand:
    """The table's current hand as the database has it."""
    saved = store.load_game(table_id)
    assert saved is not None
    last = saved.hands[-1]
    return rebuild_hand(saved.game.rules, last.dealer, last.deck, [a.text for a in last.actions])


def states(sockets: list[SeatSocket]) -> list[dict[str, Any]]:
    """The next state each socket is sent."""
    out = []
    for s in sockets:
        msg = s.recv()
        assert msg["type"] == "state", msg
        out.append(msg)
    return out


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state less what differs once another instance has loaded the table: its version
    counter, and which seats are connected."""
    out = dict(state)
    out.pop("version")
    out["table"] = {k: v for k, v in out["table"].items() if k != "connected"}
    return out


def until_closed(sock: SeatSocket, timeout: float = 20.0) -> None:
    """Read until the server closes the socket (the table moved to another instance)."""
    deadline = time.monotonic() + timeout
    with pytest.raises(ConnectionClosed):
        while time.monotonic() < deadline:
            sock.recv(timeout=max(0.1, deadline - time.monotonic()), presence=True)
    sock.close()


def test_seats_and_a_spectator_on_three_instances_see_every_move_in_order(
    instances: list[LiveServer], postgres_schema_url: str
) -> None:
    a, b, c = instances
    friend = post_table(a, mode="friend", name="Ann", opponent="Bob")  # a holds the table
    table_id = friend["id"]
    seats = [
        SeatSocket(a, table_id, friend["token"]),
        SeatSocket(b, table_id, invite_token(friend), deltas=True),  # as pages ask
    ]
    watcher = SeatSocket(c, table_id)
    everyone = [*seats, watcher]
    rng = random.Random(11)
    with Store(postgres_schema_url) as store:
        last = states(everyone)
        assert [m["table"]["seat"] for m in last] == [0, 1, None]
        moves = 0
        while last[0]["view"]["phase"] != "over":
            mover = last[0]["view"]["current_player"]
            seats[mover].act(pick(last[mover]["view"], rng))
            now = states(everyone)
            # one state per move on every instance, the same move everywhere, in order
            assert len({m["version"] for m in now}) == 1, [m["version"] for m in now]
            assert all(n["version"] > o["version"] for n, o in zip(now, last, strict=True))
            assert len({len(m["view"]["history"]) for m in now}) == 1
            hand = stored_hand(store, table_id)
            for msg, seat in zip(now, (0, 1, None), strict=True):
                if hand.is_over:  # the deck and both hands are revealed to all, to check
                    assert "reveal" in msg
                else:
                    assert "reveal" not in msg
                    assert leaks(msg, hand, seat) == {}, (seat, leaks(msg, hand, seat))
            last = now
            moves += 1
        assert moves > 2
        assert seats[1].joined.parts > 1  # relayed in parts, joined up to the same history
    # the spectator cannot act, wherever it is
    watcher.send({"type": "action", "action": "pass"})
    assert watcher.recv()["type"] == "error"
    for s in everyone:
        s.close()


def test_the_holder_killed_mid_hand_the_game_goes_on_at_the_others(
    instances: list[LiveServer], postgres_schema_url: str
) -> None:
    a, b, c = instances
    friend = post_table(a, mode="friend", name="Ann", opponent="Bob")  # a holds the table
    table_id = friend["id"]
    tokens = [friend["token"], live_friend_token(a, friend)]
    where = [b, c]  # neither seat is on the holder
    seats = [SeatSocket(where[i], table_id, tokens[i]) for i in (0, 1)]
    rng = random.Random(5)
    last = states(seats)
    for _ in range(6):
        mover = last[0]["view"]["current_player"]
        seats[mover].act(going_on(last[mover]["view"], rng))
        last = states(seats)  # acknowledged: both seats were sent the move
    assert last[0]["view"]["phase"] != "over"

    a.kill()  # SIGKILL: the table's lease is left to run out
    for s in seats:
        until_closed(s)  # each instance closes its sockets: the pages reconnect

    seats = [SeatSocket(where[i], table_id, tokens[i]) for i in (0, 1)]
    again = states(seats)
    assert [comparable(m) for m in again] == [comparable(m) for m in last]
    last = again
    while last[0]["view"]["phase"] != "over":  # on to the end of the hand, on b and c
        mover = last[0]["view"]["current_player"]
        seats[mover].act(pick(last[mover]["view"], rng))
        last = states(seats)
    with Store(postgres_schema_url) as store:
        assert stored_hand(store, table_id).is_over
    for s in seats:
        s.close()


def test_workers_share_one_port_and_a_dead_one_is_replaced(
    tmp_path: Path, postgres_schema_url: str, broker_url: str
) -> None:
    """``--workers 2``: two instances behind one port; one killed mid-hand, the command starts
    another, the seats reconnect and play on with nothing lost."""
    import psutil

    server = LiveServer(
        tmp_path / "workers.db",
        db_url=postgres_schema_url,
        args=["--broker", broker_url, "--workers", "2", "--lease-seconds", LEASE],
    )
    server.start()
    assert server.proc is not None
    parent = psutil.Process(server.proc.pid)
    seats: list[SeatSocket] = []
    try:
        deadline = time.monotonic() + 30
        while len(parent.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        first = {c.pid for c in parent.children()}
        assert len(first) == 2
        friend = post_table(server, mode="friend", name="Ann", opponent="Bob")
        tokens = [friend["token"], live_friend_token(server, friend)]
        seats = [SeatSocket(server, friend["id"], t) for t in tokens]
        rng = random.Random(3)
        last = states(seats)
        for _ in range(4):
            mover = last[0]["view"]["current_player"]
            seats[mover].act(pick(last[mover]["view"], rng))
            last = states(seats)

        with Store(postgres_schema_url) as store:  # the instance holding the table dies
            holder = store.lease_holders([friend["id"]])[friend["id"]][0]
        dead = int(holder.split("-")[-2])  # host-pid-random
        assert dead in first
        psutil.Process(dead).kill()
        for s in seats:  # each socket is closed, by its death or by its table moving
            until_closed(s)
        seats = [SeatSocket(server, friend["id"], t) for t in tokens]
        again = states(seats)
        assert [comparable(m) for m in again] == [comparable(m) for m in last]
        last = again
        while last[0]["view"]["phase"] != "over":
            mover = last[0]["view"]["current_player"]
            seats[mover].act(pick(last[mover]["view"], rng))
            last = states(seats)
        deadline = time.monotonic() + 30
        while len(parent.children()) < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        now = {c.pid for c in parent.children()}
        assert len(now) == 2 and dead not in now
    finally:
        for s in seats:
            s.close()
        children = parent.children()
        server.kill()
        psutil.wait_procs(children, timeout=20)


def test_a_holder_whose_lease_was_taken_over_writes_nothing_more(
    instances: list[LiveServer], postgres_schema_url: str
) -> None:
    """A holder that stalled past its lease (here: the lease handed to another holder behind
    its back) has its next move refused by the database, not stored beside the new holder's:
    its sockets are closed, and reconnect to the table as stored."""
    from sqlalchemy import update

    from ginrummy.storage.models import LeaseRow, utcnow

    a, b, _ = instances
    friend = post_table(a, mode="friend", name="Ann", opponent="Bob")
    table_id = friend["id"]
    tokens = [friend["token"], live_friend_token(a, friend)]
    seats = [SeatSocket(a, table_id, t) for t in tokens]
    last = states(seats)
    with Store(postgres_schema_url) as store:
        epoch = None
        for _ in range(50):  # A's lease keeping may renew it between the two: again
            with store.engine.begin() as connection:  # A's lease runs out...
                connection.execute(
                    update(LeaseRow).where(LeaseRow.game_id == table_id).values(expires=utcnow())
                )
            epoch = store.take_lease(table_id, "newcomer", 60)  # ...and a newcomer takes it
            if epoch is not None:
                break
        assert epoch == 2
        moves_before = len(stored_hand(store, table_id).events)
        mover = last[0]["view"]["current_player"]
        # The move is refused by the database; or A's lease keeping finds the lease gone first
        # and closes the sockets before the move is sent: either way nothing is stored.
        with contextlib.suppress(ConnectionClosed):
            seats[mover].act(pick(last[mover]["view"], random.Random(1)))
        for s in seats:
            until_closed(s)
        assert len(stored_hand(store, table_id).events) == moves_before
        store.release_lease(table_id, "newcomer", 2)
    seats = [SeatSocket(b, table_id, t) for t in tokens]
    again = states(seats)
    assert [comparable(m) for m in again] == [comparable(m) for m in last]
    for s in seats:
        s.close()


def test_a_socket_relayed_while_the_leases_are_being_read_is_left_open(
    tmp_path: Path, broker_url: str
) -> None:
    """Each pass of the lease keeping closes the relayed sockets whose holder is gone. One
    that starts relaying while that pass waits on the database for the leases is not in what
    it read, and is left for the next pass, not closed as if its table had no holder (under
    load, a fresh socket was closed so, and its page had to reconnect)."""
    from ginrummy.web.cluster import Cluster
    from ginrummy.web.manager import Client, Manager

    async def nothing_more() -> dict[str, Any] | None:
        await asyncio.Event().wait()  # the socket stays open
        return None

    async def ignore(_msg: dict[str, Any]) -> None:
        return None

    async def scenario(manager: Manager) -> tuple[bool, bool]:
        cluster = Cluster(manager, broker_url, instance=f"relaying-{secrets.token_hex(4)}")
        gone = f"gone-{secrets.token_hex(4)}"  # a holder that is not listening (dead)

        def relay(table_id: str) -> asyncio.Future[None]:
            client = Client(table_id, 0, ignore, "127.0.0.9")
            return asyncio.ensure_future(cluster.relay(client, gone, nothing_more, ignore))

        try:
            old = relay("table-old")
            await asyncio.sleep(0)  # relaying
            keeping = asyncio.ensure_future(cluster.maintain())
            await asyncio.sleep(0)  # the pass now waits on the database for table-old's lease
            new = relay("table-new")
            await keeping
            await asyncio.sleep(0.2)  # a closed relay returns at once
            closed = old.done(), new.done()
            new.cancel()
            await asyncio.gather(new, return_exceptions=True)
            return closed
        finally:
            await cluster.stop()

    with Store(str(tmp_path / "games.db")) as store:
        manager = Manager(store)
        try:
            assert asyncio.run(scenario(manager)) == (True, False)
        finally:
            manager.close()


def test_the_leases_are_renewed_while_the_database_threads_are_all_busy(
    tmp_path: Path, broker_url: str
) -> None:
    """A burst of requests (every player of a site reconnecting at once) fills the server's
    database threads and queues behind them. The lease keeping has a thread of its own, so it
    renews the leases meanwhile: queued behind the burst, they ran out, and the other
    instances took the tables over, closing every socket at them."""
    from ginrummy.engine import Rules
    from ginrummy.web.cluster import Cluster
    from ginrummy.web.manager import Manager
    from ginrummy.web.tables import Options

    async def scenario(manager: Manager) -> tuple[str, bool]:
        cluster = Cluster(manager, broker_url, instance=f"busy-{secrets.token_hex(4)}")
        manager.cluster = cluster
        release = threading.Event()
        busy: list[asyncio.Future[bool]] = []
        try:
            created = await manager.create(Rules(), Options(mode="friend"), ("Ann", "Bob"))
            table_id = created.table.id
            before = manager.store.lease_holders([table_id])[table_id][1]
            busy = [asyncio.ensure_future(manager.db(release.wait, 30)) for _ in range(20)]
            await asyncio.sleep(0.05)  # every database thread waits, the rest queue
            await asyncio.wait_for(cluster.maintain(), 5)
            holder, after = manager.store.lease_holders([table_id])[table_id]
            return holder, after > before
        finally:
            release.set()
            await asyncio.gather(*busy)
            await cluster.stop()

    with Store(str(tmp_path / "games.db")) as store:
        manager = Manager(store)
        try:
            holder, renewed = asyncio.run(scenario(manager))
        finally:
            manager.close()
    assert holder.startswith("busy-") and renewed


def test_a_table_being_created_is_not_taken_for_lost_by_the_lease_keeping(
    postgres_schema_url: str, broker_url: str
) -> None:
    """A new table's lease is taken in its creating transaction. A pass of the lease keeping
    while that transaction is still open must neither renew the lease (the row is not there for
    it yet) nor take the table for lost: it was dropped so, its sockets closed, moments after
    it was made. Once the table is in memory, its lease is renewed as any other."""
    from ginrummy.engine import Rules
    from ginrummy.web.cluster import Cluster
    from ginrummy.web.manager import Manager

    async def scenario(manager: Manager) -> tuple[bool, bool, bool]:
        cluster = Cluster(manager, broker_url, instance=f"maker-{secrets.token_hex(4)}")
        manager.cluster = cluster
        made, commit = threading.Event(), threading.Event()
        created: list[str] = []

        def create() -> None:  # as Manager.create writes a table, held open until told
            with manager.store.transaction() as tx:
                game_id = tx.create_game("online", Rules(), ("Ann", "Bob"), seed=1)
                cluster.created(tx, game_id)
                created.append(game_id)
                made.set()
                commit.wait(10)

        try:
            writing = asyncio.ensure_future(asyncio.to_thread(create))
            assert await asyncio.to_thread(made.wait, 10)
            table_id = created[0]
            await asyncio.wait_for(cluster.maintain(), 5)  # the row is not committed yet
            kept_while_open = cluster.holds(table_id)
            commit.set()
            await writing
            assert await manager.find(table_id) is not None  # in memory, as after creating
            before = manager.store.lease_holders([table_id])[table_id][1]
            await asyncio.sleep(0.01)
            await asyncio.wait_for(cluster.maintain(), 5)
            after = manager.store.lease_holders([table_id])[table_id][1]
            return kept_while_open, cluster.holds(table_id), after > before
        finally:
            commit.set()
            await cluster.stop()

    with Store(postgres_schema_url) as store:
        manager = Manager(store)
        try:
            assert asyncio.run(scenario(manager)) == (True, True, True)
        finally:
            manager.close()


def test_a_seats_socket_limit_holds_over_every_instance(instances: list[LiveServer]) -> None:
    """A seat's sockets spread over the instances are counted together, where the table is
    held: each instance counted only its own, so three instances let in three times the
    limit."""
    a, b, c = instances
    created = post_table(a, mode="computer")  # a holds the table
    table_id, token = created["id"], created["token"]
    limit = 8  # the default sockets_per_seat
    opened = [SeatSocket(b, table_id, token) for _ in range(limit)]
    try:
        for s in opened:
            assert s.recv()["table"]["seat"] == 0
        extra = SeatSocket(c, table_id, token)
        opened.append(extra)
        refused = extra.recv()
        assert refused["type"] == "error", refused
        assert refused["message"] == "this seat has too many open connections: close some tabs"
        with pytest.raises(ConnectionClosed):
            extra.recv(timeout=10)
        opened.pop().close()
        opened.pop().close()  # one of b's goes: c's socket may open again
        time.sleep(0.5)  # the holder hears that it left
        again = SeatSocket(c, table_id, token)
        opened.append(again)
        assert again.recv()["table"]["seat"] == 0
    finally:
        for s in opened:
            with contextlib.suppress(Exception):
                s.close()


def test_a_seats_socket_limit_holds_over_every_instance_for_a_hello_too(
    instances: list[LiveServer],
) -> None:
    """Sockets that open as spectators and then say hello with the seat's token are counted
    where the table is held too: each relaying instance checked only its own count, so a
    seat's sockets on three instances could be three times the limit."""
    a, b, c = instances
    created = post_table(a, mode="computer")  # a holds the table
    table_id, token = created["id"], created["token"]
    limit = 8  # the default sockets_per_seat
    opened = [SeatSocket(b, table_id, token) for _ in range(limit)]
    try:
        for s in opened:
            assert s.recv()["table"]["seat"] == 0
        for s in opened:  # a round trip to the holder each: it has counted them all
            assert s.state()["table"]["seat"] == 0
        extra = SeatSocket(c, table_id)  # a spectator: not counted for the seat
        opened.append(extra)
        assert extra.recv()["table"]["seat"] is None
        extra.send({"type": "hello", "token": token})
        refused = extra.recv()
        assert refused["type"] == "error", refused
        assert refused["message"] == "this seat has too many open connections: close some tabs"
        with pytest.raises(ConnectionClosed):
            extra.recv(timeout=10)
        opened.pop().close()
        opened.pop().close()  # one of b's goes: c's socket may take the seat
        # Once the holder has heard that it left (at once on an idle machine; a loaded one
        # may take longer than any fixed wait), a hello from c takes the seat.
        deadline = time.monotonic() + 20
        while True:
            again = SeatSocket(c, table_id)
            opened.append(again)
            assert again.recv()["table"]["seat"] is None
            again.send({"type": "hello", "token": token})
            answer = again.recv()
            if answer["type"] == "state":
                break
            assert answer["type"] == "error" and time.monotonic() < deadline, answer
            opened.pop().close()
            time.sleep(0.25)
        assert answer["table"]["seat"] == 0
    finally:
        for s in opened:
            with contextlib.suppress(Exception):
                s.close()


def test_a_seats_message_rate_holds_over_every_instance(instances: list[LiveServer]) -> None:
    """A seat's sockets on two instances send as fast as they can: the seat's rate (a burst
    of 30, then 10 a second) holds over both, where the table is held (each relaying
    instance let through its own burst, so two instances let through twice the rate)."""
    a, b, c = instances
    created = post_table(a, mode="computer")  # a holds the table
    table_id, token = created["id"], created["token"]
    sockets = [SeatSocket(server, table_id, token) for server in (b, c)]
    try:
        for s in sockets:
            assert s.recv()["table"]["seat"] == 0
        each = 28  # under every instance's own burst of 30 for the seat
        for s in sockets:
            for _ in range(each):
                s.ws.send(json.dumps({"type": "ping"}))
        answers: list[str] = []
        for s in sockets:
            told = 0
            while told < each:  # the answers, past any state (a seat came or went)
                kind = s.recv()["type"]
                if kind != "state":
                    answers.append(kind)
                    told += 1
        assert set(answers) <= {"pong", "error"}, answers
        assert answers.count("pong") < 2 * each - 10, answers  # the holder refused some
    finally:
        for s in sockets:
            s.close()


def test_a_table_read_again_as_the_lease_keeping_lets_it_go_is_still_held(
    postgres_schema_url: str, broker_url: str
) -> None:
    """A table let go of from memory (idle) has its lease let go of by the lease keeping's
    second pass that finds it absent. A player coming back just then has the table read
    again: a pass while that read waits on the database must not let the lease go, or the
    table is in memory though not held, and every message of its sockets is answered "no
    such table" (the computer's moves refused), for good."""
    from ginrummy.engine import Rules
    from ginrummy.web.cluster import Cluster
    from ginrummy.web.manager import Manager
    from ginrummy.web.tables import Options

    async def scenario(manager: Manager) -> tuple[bool, bool, bool]:
        cluster = Cluster(manager, broker_url, instance=f"keeper-{secrets.token_hex(4)}")
        manager.cluster = cluster
        release = threading.Event()
        busy: list[asyncio.Future[bool]] = []
        try:
            created = await manager.create(Rules(), Options(mode="friend"), ("Ann", "Bob"))
            table_id = created.table.id
            await asyncio.wait_for(cluster.maintain(), 5)  # renewed, as any table's
            assert manager.evict_idle(time.monotonic() + 1e6) == 1  # idle: let go of
            await asyncio.wait_for(cluster.maintain(), 5)  # absent once: kept
            assert cluster.holds(table_id)
            # The database threads are busy: the table's read waits for one.
            busy = [asyncio.ensure_future(manager.db(release.wait, 30)) for _ in range(4)]
            await asyncio.sleep(0.05)
            reading = asyncio.ensure_future(manager.find(table_id))
            await asyncio.sleep(0)
            await asyncio.wait_for(cluster.maintain(), 5)  # meanwhile, absent again
            release.set()
            table = await asyncio.wait_for(reading, 5)
            await asyncio.wait_for(cluster.maintain(), 5)
            holder = manager.store.lease_holders([table_id])[table_id][0]
            found = await manager.find(table_id)  # as each message of its sockets asks
            return (
                table is not None and found is table,
                cluster.holds(table_id),
                holder == cluster.id,
            )
        finally:
            release.set()
            await asyncio.gather(*busy)
            await cluster.stop()

    with Store(postgres_schema_url) as store:
        manager = Manager(store)
        try:
            assert asyncio.run(scenario(manager)) == (True, True, True)
        finally:
            manager.close()


@pytest.mark.parametrize("noticed", [False, True], ids=["unnoticed", "dropped-meanwhile"])
def test_a_table_read_as_its_lease_is_taken_over_is_not_kept(
    postgres_schema_url: str, broker_url: str, noticed: bool
) -> None:
    """A holder that stalls past its lease while it reads a table back into memory (or whose
    lease keeping finds it taken over meanwhile) must not keep what it read: the new holder
    has the table. Kept, its sockets were answered "no such table" for every message (a page
    takes that for a game gone) and never sent to the new holder. The read's sockets are
    closed as a failover closes them (they reconnect and reach the new holder)."""
    from sqlalchemy import update

    from ginrummy.engine import Rules
    from ginrummy.storage import LeaseLost
    from ginrummy.storage.models import LeaseRow, utcnow
    from ginrummy.web.cluster import Cluster
    from ginrummy.web.manager import Client, Manager
    from ginrummy.web.tables import Options

    async def ignore(_msg: dict[str, Any]) -> None:
        return None

    async def scenario(manager: Manager) -> tuple[str, bool, bool, bool, bool]:
        cluster = Cluster(manager, broker_url, instance=f"stalled-{secrets.token_hex(4)}")
        manager.cluster = cluster
        release = threading.Event()
        busy: list[asyncio.Future[bool]] = []
        closed: list[Client] = []
        try:
            created = await manager.create(Rules(), Options(mode="friend"), ("Ann", "Bob"))
            table_id = created.table.id
            await asyncio.wait_for(cluster.maintain(), 5)
            assert manager.evict_idle(time.monotonic() + 1e6) == 1  # idle: let go of
            # The database threads are busy: the table's read waits for one.
            busy = [asyncio.ensure_future(manager.db(release.wait, 30)) for _ in range(4)]
            await asyncio.sleep(0.05)
            reading = asyncio.ensure_future(manager.find(table_id))
            await asyncio.sleep(0)

            async def close() -> None:
                closed.append(client)

            client = Client(table_id, 0, ignore, "127.0.0.9", close=close)
            manager.join(client)  # a socket that came for the table meanwhile
            with manager.store.engine.begin() as connection:  # the lease runs out...
                connection.execute(
                    update(LeaseRow).where(LeaseRow.game_id == table_id).values(expires=utcnow())
                )
            assert manager.store.take_lease(table_id, "newcomer", 60) == 2  # ...and is taken
            if noticed:
                await asyncio.wait_for(cluster.maintain(), 5)
                client = Client(table_id, 0, ignore, "127.0.0.9", close=close)
                manager.join(client)  # one more, joined after the drop
            release.set()
            try:
                found = await asyncio.wait_for(reading, 5)
                outcome = "kept" if found is not None else "none"
            except LeaseLost:
                outcome = "lease lost"
            return (
                outcome,
                table_id in manager.tables,
                cluster.holds(table_id),
                client in closed,
                bool(manager.clients.get(table_id)),
            )
        finally:
            release.set()
            await asyncio.gather(*busy)
            await cluster.stop()

    with Store(postgres_schema_url) as store:
        manager = Manager(store)
        try:
            outcome = asyncio.run(scenario(manager))
        finally:
            manager.close()
    assert outcome == ("lease lost", False, False, True, False)
