"""Many instances on one database close abandoned games as they write every move: only the
table's lease holder, at its lease's epoch, or an instance that takes the lease of a table
nobody holds (which fences a holder that stalled past its lease). Two managers on one
PostgreSQL schema, in one process; their broker is never reached (leases live in the
database)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update

from ginrummy.engine import Rules
from ginrummy.storage import DatabaseUnavailable, LeaseLost, Store
from ginrummy.storage.models import GameRow, LeaseRow, utcnow
from ginrummy.web.cluster import Cluster
from ginrummy.web.manager import UNLIMITED, Client, Manager
from ginrummy.web.tables import Options

#: Never connected to: these tests use the leases alone.
NO_BROKER = "redis://127.0.0.1:9/0"


def instance(store: Store, name: str) -> Manager:
    manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
    manager.cluster = Cluster(manager, NO_BROKER, lease_seconds=60, instance=name)
    return manager


def two_instances(
    url: str, test: Callable[[Store, Manager, Manager, str], Awaitable[None]]
) -> None:
    """Run ``test(store, a, b, table_id)``: instances ``a`` and ``b`` on one database, ``a``
    holding a friend table nobody has moved in for 31 days."""

    async def run() -> None:
        store = Store(url)
        a, b = instance(store, "a"), instance(store, "b")
        try:
            table = (await a.create(Rules(), Options("friend"), ("Ann", "Bob"))).table
            with store.engine.begin() as connection:
                connection.execute(
                    update(GameRow)
                    .where(GameRow.id == table.id)
                    .values(updated_at=utcnow() - timedelta(days=31))
                )
            await test(store, a, b, table.id)
        finally:
            for manager in (a, b):
                manager.close()
            store.close()

    asyncio.run(run())


def status(store: Store, table_id: str) -> str:
    game = store.get_game(table_id)
    assert game is not None
    return game.status


def expire(store: Store, table_id: str) -> None:
    """The table's lease runs out (its holder stalled) without the holder knowing."""
    with store.engine.begin() as connection:
        connection.execute(
            update(LeaseRow).where(LeaseRow.game_id == table_id).values(expires=utcnow())
        )


async def _nothing(_msg: dict[str, Any]) -> None:
    return None


@pytest.mark.postgresql
def test_only_the_lease_holder_closes_its_abandoned_table(postgres_schema_url: str) -> None:
    async def test(store: Store, a: Manager, b: Manager, table_id: str) -> None:
        assert await b.abandon_stale() == 0  # a holds it, live: not b's to close
        assert status(store, table_id) == "open"
        assert await a.abandon_stale() == 1
        assert status(store, table_id) == "abandoned"
        assert a.tables[table_id].abandoned

    two_instances(postgres_schema_url, test)


@pytest.mark.postgresql
def test_a_table_nobody_holds_is_closed_and_its_stalled_holder_fenced(
    postgres_schema_url: str,
) -> None:
    async def test(store: Store, a: Manager, b: Manager, table_id: str) -> None:
        epoch = a.cluster.epochs[table_id]  # type: ignore[union-attr]
        expire(store, table_id)  # a stalled: nobody holds a live lease now
        assert await b.abandon_stale() == 1
        assert status(store, table_id) == "abandoned"
        holder, expires = store.lease_holders([table_id])[table_id]
        assert holder == "b" and expires <= utcnow()  # taken, and let go at once
        # a wakes up still thinking the table its own: its next write is refused
        with pytest.raises(LeaseLost):
            store.check_lease(table_id, "a", epoch)
        seat = Client(table_id, 0, _nothing)
        with pytest.raises(LeaseLost):
            await a.handle(seat, {"type": "name", "name": "Zed"})
        assert store.load_game(table_id).game.names[0] == "Ann"  # type: ignore[union-attr]

    two_instances(postgres_schema_url, test)


@pytest.mark.postgresql
def test_a_holder_closes_nothing_at_an_epoch_it_no_longer_holds(
    postgres_schema_url: str,
) -> None:
    async def test(store: Store, a: Manager, b: Manager, table_id: str) -> None:
        expire(store, table_id)
        assert store.take_lease(table_id, "newcomer", 60) == 2  # a third instance took it
        assert await a.abandon_stale() == 0  # a still has epoch 1 in mind
        assert await b.abandon_stale() == 0  # the newcomer's lease is live
        assert status(store, table_id) == "open"
        assert not a.tables[table_id].abandoned

    two_instances(postgres_schema_url, test)


@pytest.mark.postgresql
def test_a_rematch_refused_forgets_the_lease_it_recorded(postgres_schema_url: str) -> None:
    """The rematch's transaction records the new table's lease, then finds the old table
    taken over and rolls back: the new table is not there, nor held, nor waited on."""

    async def test(store: Store, a: Manager, b: Manager, table_id: str) -> None:
        cluster = a.cluster
        assert cluster is not None
        expire(store, table_id)
        assert store.take_lease(table_id, "newcomer", 60) == 2
        with pytest.raises(LeaseLost):
            await a.create(Rules(), Options("friend"), ("Ann", "Bob"), after=table_id)
        assert set(cluster.epochs) == {table_id}  # a's stale lease, dropped by its renewal
        assert cluster._creating <= {table_id}  # (the old table's, until the next renewal)
        assert [g.id for g in store.list_games()] == [table_id]

    two_instances(postgres_schema_url, test)


@pytest.mark.postgresql
def test_a_creation_in_doubt_keeps_its_lease_as_any_other(
    postgres_schema_url: str, broker_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new table's commit happened but its answer was lost: its lease is renewed as any
    other (not left as one still being created, never renewed, thought held after it ran
    out), and let go of with the table out of memory."""
    from sqlalchemy.exc import OperationalError
    from sqlalchemy.orm import Session

    async def run() -> None:
        store = Store(postgres_schema_url)
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        cluster = manager.cluster = Cluster(manager, broker_url, lease_seconds=60, instance="a")
        try:
            commit = Session.commit

            def commit_then_lose_the_answer(self: Session) -> None:
                commit(self)
                raise OperationalError("COMMIT", {}, Exception("server closed the connection"))

            monkeypatch.setattr(Session, "commit", commit_then_lose_the_answer)
            with pytest.raises(DatabaseUnavailable) as lost:
                await manager.create(Rules(), Options("friend"), ("Ann", "Bob"))
            monkeypatch.setattr(Session, "commit", commit)
            assert lost.value.in_doubt
            [table_id] = [g.id for g in store.list_games()]  # it was committed
            assert table_id not in manager.tables and table_id in cluster.epochs
            assert not cluster._creating  # renewed and let go of as any lease
            await cluster.maintain()
            assert table_id in cluster.epochs  # renewed: still a's
            await cluster.maintain()  # out of memory twice running: let go of
            assert table_id not in cluster.epochs
            holder, expires = store.lease_holders([table_id])[table_id]
            assert holder == "a" and expires <= utcnow()
        finally:
            await cluster.stop()
            manager.close()
            store.close()

    asyncio.run(run())
