"""Failure is routine: the broker restarts mid-game, the database is away for a moment. Real
server processes, a Redis of the test's own (killed and started again on the same port) and
the real PostgreSQL; no move acknowledged to a player is lost or made twice, a player whose
move could not be made is told so, and the servers recover by themselves, with no restart."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy.engine import make_url
from websockets.exceptions import ConnectionClosed

from brokerutil import OwnRedis, SilentCut
from ginrummy.engine import Rules
from ginrummy.storage import DatabaseUnavailable, Store
from ginrummy.web.cluster import FORGOTTEN, Cluster, channel
from ginrummy.web.manager import IN_DOUBT, UNLIMITED, Client, Manager
from ginrummy.web.protocol import ProtocolError
from ginrummy.web.tables import Options, Table
from pgutil import Outage, postgres_url
from test_web_fairplay import fixed_deck
from test_web_instances import LEASE, states, stored_hand
from webutil import (
    LiveServer,
    SeatSocket,
    invite_token,
    live_friend_token,
    post_table,
    running_instances,
)

__all__ = ["fixed_deck"]  # a fixture, used by name
ENDS = ("knock", "gin", "biggin")


def move(view: dict[str, Any], rng: random.Random) -> str:
    """A legal move that does not end the hand (unless nothing else is legal)."""
    legal: list[str] = view["legal_actions"]
    return rng.choice([a for a in legal if a.split()[0] not in ENDS] or legal)


def history(state: dict[str, Any]) -> list[tuple[int, int, str]]:
    return [(e["n"], e["seat"], e["action"]) for e in state["view"]["history"]]


def until_closed(sock: SeatSocket, timeout: float = 20.0) -> list[dict[str, Any]]:
    """Everything the socket is sent until the server closes it."""
    got: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            got.append(sock.recv(timeout=max(0.1, deadline - time.monotonic())))
    except ConnectionClosed:
        sock.close()
        return got
    raise AssertionError(f"the socket stayed open; it was sent {got}")


def errors(messages: list[dict[str, Any]]) -> list[str]:
    return [m["message"] for m in messages if m["type"] == "error"]


def reconnect(server: LiveServer, table_id: str, token: str | None, timeout: float = 30.0) -> Any:
    """A socket on ``server`` that is served the table, retried as pages retry while they are
    told the table cannot be reached; with the state it was sent first."""
    deadline = time.monotonic() + timeout
    refusals: list[str] = []
    while time.monotonic() < deadline:
        sock = SeatSocket(server, table_id, token)
        first = sock.recv()
        if first["type"] == "state":
            return sock, first
        refusals.append(first.get("message", ""))
        sock.close()
        time.sleep(0.5)
    raise AssertionError(f"never served again; told {refusals[-3:]}")


@pytest.fixture
def on_own_broker(
    tmp_path: Path, postgres_schema_url: str, own_redis: OwnRedis
) -> Iterator[list[LiveServer]]:
    """Three instances on one PostgreSQL schema and the test's own Redis."""
    with running_instances(tmp_path, postgres_schema_url, own_redis.url, LEASE) as servers:
        yield servers


def test_the_broker_restarted_mid_game_loses_and_doubles_nothing(
    on_own_broker: list[LiveServer], own_redis: OwnRedis, postgres_schema_url: str
) -> None:
    a, b, c = on_own_broker
    friend = post_table(a, mode="friend", name="Ann", opponent="Bob")  # a holds the table
    table_id = friend["id"]
    tokens = [friend["token"], live_friend_token(a, friend)]
    seat0 = SeatSocket(a, table_id, tokens[0])  # on the holder
    seat1 = SeatSocket(b, table_id, tokens[1])  # relayed through the broker
    watcher = SeatSocket(c, table_id)  # relayed too
    rng = random.Random(7)
    acked: list[str] = []  # every move a player was shown as made, in order

    def play(seats: list[SeatSocket], everyone: list[SeatSocket], last: list[Any]) -> list[Any]:
        mover = last[0]["view"]["current_player"]
        action = move(last[mover]["view"], rng)
        seats[mover].act(action)
        now = states(everyone)
        assert len({m["version"] for m in now}) == 1
        assert len({len(m["view"]["history"]) for m in now}) == 1
        acked.append(action)
        return now

    everyone = [seat0, seat1, watcher]
    last = states(everyone)
    while len(acked) < 3 or last[0]["view"]["current_player"] != 1:
        last = play([seat0, seat1], everyone, last)

    own_redis.kill()
    # seat 1, relayed, moves at once: the move is made, or the player is told it may not be
    action = move(last[1]["view"], rng)
    with contextlib.suppress(ConnectionClosed):  # b may have closed it already
        seat1.act(action)
    told = until_closed(seat1)
    if any(m["type"] == "state" and len(m["view"]["history"]) > len(acked) for m in told):
        acked.append(action)
    assert errors(told), f"seat 1's socket was closed without a word: {told}"
    assert errors(until_closed(watcher)), "the spectator's socket was closed without a word"

    # coming back to b while the broker is away: told so, in a line, and closed
    again = SeatSocket(b, table_id, tokens[1])
    told = until_closed(again)
    assert told and told[0]["type"] == "error", told
    assert "try again" in told[0]["message"], told

    # the holder plays on meanwhile: seat 1's page reaches a through the load balancer
    seat1, first = reconnect(a, table_id, tokens[1], timeout=10)
    last = [seat0.state(), first]
    assert history(last[0]) == history(last[1])
    assert [h[2] for h in history(last[0])] == acked
    for _ in range(2):
        last = play([seat0, seat1], [seat0, seat1], last)
    seat1.close()

    own_redis.start()  # the same port, empty: the servers find it again by themselves
    seat1, first = reconnect(b, table_id, tokens[1])
    watcher, seen = reconnect(c, table_id, None)
    last = [seat0.state(), first, seen]
    assert history(last[0]) == history(last[1]) == history(last[2])
    for _ in range(4):
        last = play([seat0, seat1], [seat0, seat1, watcher], last)
    assert history(last[0]) == history(last[1]) == history(last[2])
    assert [h[2] for h in history(last[0])] == acked
    with Store(postgres_schema_url) as store:  # every acknowledged move, each once, in order
        assert [str(e.action) for e in stored_hand(store, table_id).events] == acked
        holder = store.lease_holders([table_id])[table_id][0]

    # a move from a relayed socket the holder had let go of (as it does when it loses the
    # broker) is not applied, and the instance relaying it is told to say so
    import redis

    probe = redis.Redis.from_url(own_redis.url)
    listener = probe.pubsub(ignore_subscribe_messages=True)
    listener.subscribe(channel("probe"))
    action = move(last[last[0]["view"]["current_player"]]["view"], rng)
    forged = {
        "op": "msg",
        "conn": "gone",
        "from": "probe",
        "msg": {"type": "action", "action": action},
    }
    probe.publish(channel(holder), json.dumps(forged))
    answer = None
    deadline = time.monotonic() + 10
    while answer is None and time.monotonic() < deadline:
        answer = listener.get_message(timeout=1.0)
    assert answer is not None
    assert json.loads(answer["data"]) == {"op": "close", "conn": "gone", "why": FORGOTTEN}
    assert history(seat0.state()) == history(last[0])
    probe.close()
    for s in (seat0, seat1, watcher):
        s.close()


@pytest.fixture
def cut_off(postgres_schema_url: str) -> Iterator[Outage]:
    """A relay to the test's PostgreSQL that the test can cut, and restore."""
    target = make_url(postgres_url().replace("postgres://", "postgresql://", 1))
    outage = Outage((target.host or "127.0.0.1", target.port or 5432))
    try:
        yield outage
    finally:
        outage.close()


def _play(
    seats: list[SeatSocket],
    last: list[dict[str, Any]],
    rng: random.Random,
    acked: list[str],
    n: int,
) -> list[dict[str, Any]]:
    """``n`` moves by whoever is to move, each added to ``acked``; the seats' last states."""
    for _ in range(n):
        mover = last[0]["view"]["current_player"]
        action = move(last[mover]["view"], rng)
        seats[mover].act(action)
        last = states(seats)
        acked.append(action)
    return last


def test_a_short_database_outage_fails_moves_clearly_and_the_game_goes_on(
    tmp_path: Path, postgres_schema_url: str, cut_off: Outage
) -> None:
    server = LiveServer(
        tmp_path / "server.db",
        db_url=cut_off.url(postgres_schema_url),
        args=["--think-workers", "0"],
    )
    with server:
        friend = post_table(server, mode="friend", name="Ann", opponent="Bob")
        table_id = friend["id"]
        seats = [
            SeatSocket(server, table_id, friend["token"]),
            SeatSocket(server, table_id, invite_token(friend)),
        ]
        rng = random.Random(3)
        acked: list[str] = []
        last = states(seats)
        last = _play(seats, last, rng, acked, 3)

        cut_off.cut()  # every connection of the server's to the database ends; no new one
        mover = last[0]["view"]["current_player"]
        action = move(last[mover]["view"], rng)
        seats[mover].act(action)
        told = seats[mover].recv()
        assert told["type"] == "error", told
        assert "not made" in told["message"] and "try again" in told["message"], told
        ready = httpx.get(f"{server.url}/readyz", timeout=10)
        assert ready.status_code == 503, ready.text
        opened = httpx.post(f"{server.url}/api/tables", json={"mode": "friend"}, timeout=10)
        assert opened.status_code == 503, opened.text
        assert "database cannot be reached" in opened.json()["message"]
        assert seats[mover].state()["version"] == last[mover]["version"]  # the socket lives on

        cut_off.restore()
        deadline = time.monotonic() + 20
        while httpx.get(f"{server.url}/readyz", timeout=10).status_code != 200:
            assert time.monotonic() < deadline, "never ready again"
            time.sleep(0.2)
        seats[mover].act(action)  # the same move, sent again: made once
        last = states(seats)
        acked.append(action)
        last = _play(seats, last, rng, acked, 3)
        assert [h[2] for h in history(last[0])] == acked
        with Store(postgres_schema_url) as store:
            assert [str(e.action) for e in stored_hand(store, table_id).events] == acked
        for s in seats:
            s.close()


@pytest.mark.postgresql
def test_a_lost_database_says_whether_a_write_may_have_been_stored(
    postgres_schema_url: str, cut_off: Outage
) -> None:
    """Lost before the commit: nothing was written. Lost during it: in doubt."""
    store = Store(cut_off.url(postgres_schema_url))
    try:
        store.add_player("Ann")
        cut_off.cut()
        with pytest.raises(DatabaseUnavailable) as before:
            store.add_player("Bob")
        assert not before.value.in_doubt
        cut_off.restore()
        with pytest.raises(DatabaseUnavailable) as during, store.transaction() as tx:
            tx.add_player("Cy")
            cut_off.cut()  # the commit is what fails
        assert during.value.in_doubt
        cut_off.restore()
        store.add_player("Di")  # back, with no restart
        assert [p.name for p in store.list_players()] == ["Ann", "Di"]
    finally:
        store.close()


@pytest.mark.postgresql
def test_a_move_whose_commit_was_cut_off_reloads_the_table(
    postgres_schema_url: str, cut_off: Outage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database goes away as a move commits: the move may be stored or not, so the table
    is let go of and read again, its sockets told and closed to reconnect, and the copy let
    go of writes nothing more."""

    async def run() -> None:
        store = Store(cut_off.url(postgres_schema_url))
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        try:
            table = (await manager.create(Rules(), Options("friend"), ("Ann", "Bob"))).table
            said: list[dict[str, Any]] = []
            closed: list[bool] = []

            async def send(msg: dict[str, Any]) -> None:
                said.append(msg)

            async def close() -> None:
                closed.append(True)

            hand = table.hand
            assert hand is not None and hand.current_player is not None
            seat = hand.current_player
            client = Client(table.id, seat, send, close=close)
            manager.join(client)
            write = Table.write

            def write_then_cut(self: Table, tx: Any, step: Any) -> None:
                write(self, tx, step)
                cut_off.cut()  # stored in the transaction; the commit is cut off

            monkeypatch.setattr(Table, "write", write_then_cut)
            action = hand.legal_actions()[0]
            await manager.handle(client, {"type": "action", "action": str(action)})
            monkeypatch.setattr(Table, "write", write)
            for _ in range(50):  # the sockets are told on a task of their own
                if closed:
                    break
                await asyncio.sleep(0.05)
            assert said[-1] == {"type": "error", "message": IN_DOUBT} and closed
            assert table.id not in manager.tables  # let go of
            cut_off.restore()
            again = await manager.get(table.id)  # read again: as the database has it
            assert again is not table
            assert again.state_for(seat)["view"] == table.state_for(seat)["view"]
            step = table.plan(seat, str(action))
            with pytest.raises(ProtocolError, match="reloaded"):
                await manager.writes.write(lambda tx: manager._write(tx, table, table.write, step))
        finally:
            manager.close()
            store.close()

    asyncio.run(run())


@pytest.mark.postgresql
def test_a_rematch_whose_commit_answer_was_lost_is_made_once(
    postgres_schema_url: str, fixed_deck: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database commits the rematch (the new table, the old one pointing to it) but its
    answer is lost on the way: the rematch may have been made, so the old table is read
    again, its sockets told and closed; asked again, the rematch is the one stored, not a
    second table with the same seats."""
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import Session

    async def run() -> None:
        store = Store(postgres_schema_url)
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        try:
            rules = Rules(first_dealer="fixed", first_dealer_seat=0, game_target=1)
            table = (await manager.create(rules, Options("friend"), ("Ann", "Bob"))).table
            for seat, action in (
                (1, "pass"),
                (0, "pass"),
                (1, "draw"),
                (1, "knock Kd"),
                (0, "done"),
            ):
                table.act(store, seat, action)
            assert table.finished
            said: list[dict[str, Any]] = []
            closed: list[bool] = []

            async def send(msg: dict[str, Any]) -> None:
                said.append(msg)

            async def close() -> None:
                closed.append(True)

            client = Client(table.id, 0, send, close=close)
            manager.join(client)
            commit = Session.commit

            def commit_then_lose_the_answer(self: Session) -> None:
                commit(self)
                raise OperationalError("COMMIT", {}, Exception("server closed the connection"))

            monkeypatch.setattr(Session, "commit", commit_then_lose_the_answer)
            with contextlib.suppress(DatabaseUnavailable):
                await manager.handle(client, {"type": "rematch"})
            monkeypatch.setattr(Session, "commit", commit)
            stored = store.load_game(table.id)
            assert stored is not None
            first = stored.game.options.get("rematch")
            assert first is not None  # it was committed
            for _ in range(50):  # the sockets are told on a task of their own
                if closed:
                    break
                await asyncio.sleep(0.05)
            assert {"type": "error", "message": IN_DOUBT} in said and closed
            again = Client(table.id, 0, send)
            manager.join(again)
            await manager.handle(again, {"type": "rematch"})  # asked again, after reconnecting
            now = await manager.get(table.id)
            assert now.options.rematch == first
            games = [g.id for g in store.list_games()]
            assert sorted(games) == sorted([table.id, first])  # no second rematch
        finally:
            manager.close()
            store.close()

    asyncio.run(run())


def test_a_subscription_the_network_dropped_silently_is_made_again(own_redis: OwnRedis) -> None:
    """The broker's side of an instance's subscription ends and the instance hears nothing
    of it (a firewall forgot the idle connection): the other instances see nobody on its
    channel and take it for dead, though it renews its leases, so its tables could be reached
    from nowhere else, for good. It notices its channel empty and subscribes again."""
    import redis.asyncio

    cut = SilentCut(("127.0.0.1", own_redis.port))

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        cluster = Cluster(manager, cut.url(), lease_seconds=0.6, instance="quiet")
        manager.cluster = cluster
        direct = redis.asyncio.from_url(own_redis.url)

        async def listeners() -> int:
            found = await direct.pubsub_numsub(channel("quiet"))
            return int(found[0][1])

        async def until(count: int, seconds: float) -> bool:
            deadline = time.monotonic() + seconds
            while time.monotonic() < deadline:
                if await listeners() == count:
                    return True
                await asyncio.sleep(0.05)
            return False

        try:
            await cluster.start()
            assert await until(1, 5.0)
            cut.sever()
            assert await until(0, 5.0)  # the broker let the subscription go at once
            assert await until(1, 5.0), "never subscribed again"
        finally:
            await cluster.stop()
            await direct.aclose()
            manager.close()
            store.close()

    try:
        asyncio.run(run())
    finally:
        cut.close()


@pytest.mark.postgresql
def test_stale_games_closed_in_doubt_are_read_again(
    postgres_schema_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closing stale games as abandoned commits, but the answer is lost: each such table in
    memory may have been closed, so it is let go of, its sockets told and closed, and read
    again it is abandoned (not a copy still open whose every move the store refuses)."""
    from sqlalchemy import update
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import Session

    from ginrummy.storage.models import GameRow, utcnow

    async def run() -> None:
        store = Store(postgres_schema_url)
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        try:
            table = (await manager.create(Rules(), Options("friend"), ("Ann", "Bob"))).table
            with store.engine.begin() as connection:
                connection.execute(
                    update(GameRow)
                    .where(GameRow.id == table.id)
                    .values(updated_at=utcnow() - manager.abandon_after * 2)
                )
            said: list[dict[str, Any]] = []
            closed: list[bool] = []

            async def send(msg: dict[str, Any]) -> None:
                said.append(msg)

            async def close() -> None:
                closed.append(True)

            manager.join(Client(table.id, 0, send, close=close))
            commit = Session.commit

            def commit_then_lose_the_answer(self: Session) -> None:
                commit(self)
                raise OperationalError("COMMIT", {}, Exception("server closed the connection"))

            monkeypatch.setattr(Session, "commit", commit_then_lose_the_answer)
            with pytest.raises(DatabaseUnavailable) as lost:
                await manager.abandon_stale()
            monkeypatch.setattr(Session, "commit", commit)
            assert lost.value.in_doubt
            assert store.get_game(table.id).status == "abandoned"  # type: ignore[union-attr]
            assert table.id not in manager.tables  # let go of
            for _ in range(50):  # the sockets are told on a task of their own
                if closed:
                    break
                await asyncio.sleep(0.05)
            assert {"type": "error", "message": IN_DOUBT} in said and closed
            again = await manager.get(table.id)
            assert again is not table and again.abandoned and again.finished
        finally:
            manager.close()
            store.close()

    asyncio.run(run())
