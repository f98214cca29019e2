"""Group commit (ginrummy.web.batching): writes that come together share one transaction, and
each is answered as if it had been stored alone."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from ginrummy.storage import ConflictError, DatabaseUnavailable, Store, Writer
from ginrummy.web.batching import GroupCommit
from webutil import new_store

pytestmark = pytest.mark.usefixtures("on_each_database")


def run_writes(store: Store, jobs: list[Any], **options: Any) -> tuple[list[Any], GroupCommit]:
    """Submit every job at once; each one's outcome (None or what it raised)."""
    pool = ThreadPoolExecutor(max_workers=2)
    made: list[GroupCommit] = []

    async def go() -> list[Any]:
        loop = asyncio.get_running_loop()
        made.append(
            GroupCommit(lambda fn: loop.run_in_executor(pool, fn), store.transaction, **options)
        )
        writes = (made[0].write(job) for job in jobs)
        return await asyncio.gather(*writes, return_exceptions=True)

    try:
        outcomes = asyncio.run(go())
    finally:
        pool.shutdown()
    return outcomes, made[0]


def adds(name: str) -> Any:
    return lambda tx: tx.add_player(name)


def names(store: Store) -> set[str]:
    return {p.name for p in store.list_players()}


def test_writes_that_come_together_share_a_transaction() -> None:
    with new_store() as store:
        jobs = [adds(f"p{i}") for i in range(30)]
        outcomes, commit = run_writes(store, jobs, concurrency=1)
        assert outcomes == [None] * 30
        assert names(store) == {f"p{i}" for i in range(30)}
        # The first waits alone; the others came meanwhile and go together.
        assert commit.writes == 30 and commit.batches == 2


def test_a_batch_is_no_bigger_than_its_limit() -> None:
    with new_store() as store:
        outcomes, commit = run_writes(store, [adds(f"q{i}") for i in range(25)], limit=10)
        assert outcomes == [None] * 25 and commit.writes == 25 and commit.batches >= 3


def test_a_failing_write_fails_alone_and_the_rest_are_stored() -> None:
    with new_store() as store:
        store.add_player("taken")
        jobs = [adds("a"), adds("b"), adds("taken"), adds("c"), adds("d")]
        outcomes, _ = run_writes(store, [adds("first"), *jobs], concurrency=1)
        assert [o is None for o in outcomes] == [True, True, True, False, True, True]
        assert isinstance(outcomes[3], ConflictError)
        assert names(store) == {"first", "a", "b", "taken", "c", "d"}


def test_a_commit_the_database_lost_answers_every_write_of_the_batch_in_doubt() -> None:
    with new_store() as store:
        lost = [False]

        @contextlib.contextmanager
        def transaction() -> Iterator[Writer]:
            with store.transaction() as tx:
                yield tx
            if lost[0]:  # committed, but the answer never came back
                raise DatabaseUnavailable("connection lost", in_doubt=True)

        pool = ThreadPoolExecutor(max_workers=1)

        async def go() -> list[Any]:
            loop = asyncio.get_running_loop()
            commit = GroupCommit(lambda fn: loop.run_in_executor(pool, fn), transaction)
            await commit.write(adds("before"))
            lost[0] = True
            return await asyncio.gather(
                *(commit.write(adds(f"r{i}")) for i in range(5)), return_exceptions=True
            )

        try:
            outcomes = asyncio.run(go())
        finally:
            pool.shutdown()
        assert all(isinstance(o, DatabaseUnavailable) and o.in_doubt for o in outcomes)
        assert {f"r{i}" for i in range(5)} <= names(store)  # as it happened, stored
