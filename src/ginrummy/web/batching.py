"""Group commit: the moves of many tables stored in one transaction, so that a busy server
pays for one commit (one wait for the disk) per batch instead of one per move.

A write waits in :class:`GroupCommit` until a database thread is free for it; every write that
came meanwhile goes in the same transaction. Each write's caller is answered only once its
transaction has committed, so a move is acknowledged only once it is stored, as before. When
one write of a batch fails (a clash, a lease another instance took, a table let go of), the
whole transaction is rolled back and every write of the batch is made again in a transaction
of its own, so that each gets its own answer, as if it had never been batched (but for a
database found gone: the writes after it are answered so untried). A commit that
fails with the database gone answers every write of the batch with that error (``in_doubt``:
the commit may have happened). With few moves at once, a batch is one write, as without it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from ..storage import DatabaseUnavailable, Writer

#: What the writes of a batch not tried, the database found gone, are answered.
UNTRIED = "the database cannot be reached just now: try again in a moment"
#: One write: the writes it makes in the transaction it is given.
Job = Callable[[Writer], None]
#: Runs a function in a database thread.
RunInThread = Callable[[Callable[[], list[BaseException | None]]], Awaitable[Any]]


class GroupCommit:
    """Writes gathered into transactions: at most ``concurrency`` at once, each of at most
    ``limit`` writes."""

    def __init__(
        self,
        run: RunInThread,
        transaction: Callable[[], AbstractContextManager[Writer]],
        *,
        concurrency: int = 2,
        limit: int = 100,
    ) -> None:
        self._run = run
        self._transaction = transaction
        self._concurrency = concurrency
        self._limit = limit
        self._waiting: list[tuple[Job, asyncio.Future[None]]] = []
        self._running = 0
        self._tasks: set[asyncio.Task[None]] = set()
        #: Transactions committed, and the writes they held (for ``/metrics`` and tests).
        self.batches = 0
        self.writes = 0

    @property
    def waiting(self) -> int:
        """Writes not yet in a transaction."""
        return len(self._waiting)

    async def write(self, job: Job) -> None:
        """Store ``job``'s writes; returns once they are committed, raises what they raised
        (nothing of them is then stored) or the database's error."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((job, future))
        self._start()
        await future

    def _start(self) -> None:
        while self._waiting and self._running < self._concurrency:
            batch = self._waiting[: self._limit]
            del self._waiting[: self._limit]
            self._running += 1
            task = asyncio.ensure_future(self._flush(batch))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _flush(self, batch: list[tuple[Job, asyncio.Future[None]]]) -> None:
        jobs = [job for job, _ in batch]
        try:
            outcomes: list[BaseException | None] = await self._run(lambda: self._store(jobs))
        except BaseException as exc:  # the thread could not run it (shut down, cancelled)
            outcomes = [exc] * len(batch)
        finally:
            self._running -= 1
            self._start()
        for (_, future), outcome in zip(batch, outcomes, strict=True):
            if future.done():  # its caller gave up waiting (cancelled)
                continue
            if outcome is None:
                future.set_result(None)
            else:
                future.set_exception(outcome)

    def _store(self, jobs: list[Job]) -> list[BaseException | None]:
        """In a database thread: the batch in one transaction, or, should one of its writes
        fail, each write in its own."""
        if len(jobs) > 1:
            try:
                with self._transaction() as tx:
                    for job in jobs:
                        job(tx)
            except DatabaseUnavailable as exc:
                if exc.in_doubt:
                    return [exc] * len(jobs)
            except Exception:  # made again one by one below, each with its own answer
                pass
            else:
                self.batches += 1
                self.writes += len(jobs)
                return [None] * len(jobs)
        return list(self._one_by_one(jobs))

    def _one_by_one(self, jobs: list[Job]) -> Iterator[BaseException | None]:
        """Each write in a transaction of its own; once one finds the database gone, the rest
        are answered so without a try each (each try may wait the whole connection timeout,
        the last write's caller, its table locked, waiting for them all)."""
        for n, job in enumerate(jobs):
            try:
                with self._transaction() as tx:
                    job(tx)
            except DatabaseUnavailable as exc:
                yield exc
                if n + 1 < len(jobs):
                    away = DatabaseUnavailable(UNTRIED)  # not written, certainly
                    away.__cause__ = exc.__cause__
                    yield from [away] * (len(jobs) - n - 1)
                return
            except Exception as exc:
                yield exc
            else:
                self.batches += 1
                self.writes += 1
                yield None
