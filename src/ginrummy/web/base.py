"""What the parts of the table manager share.

:class:`~.manager.Manager` is put together from parts, each a base class of it in a module
of its own so that each reads alone: the tables (:mod:`.manager`), the sockets
(:mod:`.connections`), the seats' messages and the storing of each change (:mod:`.changes`),
the computer player and the expert (:mod:`.computer`) and the move clock (:mod:`.clock`).
:class:`ManagerBase` is the base of every part: it declares the state they share (all of it
set in ``Manager.__init__``) and the calls one part makes into another (for the type checker
only: at run time each is the part's own method, which mypy checks against its declaration
here); and it spawns their background tasks.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine import Rules
    from ..storage import Store
    from .batching import GroupCommit
    from .cluster import Cluster
    from .connections import Client
    from .limits import Buckets
    from .manager import Created, Limits
    from .tables import Options, Step, Table
    from .thinking import ThinkPool


class ManagerBase:
    """The manager's shared state and the calls between its parts: see the module docstring."""

    store: Store
    thinking: ThinkPool | None
    limits: Limits
    tables: dict[str, Table]
    cluster: Cluster | None
    clients: dict[str, set[Client]]
    computer_delay: float
    writes: GroupCommit
    actions_applied: int
    send_timeout: float
    _rng: random.Random | None
    _agent_rng: random.Random
    _tasks: set[asyncio.Task[Any]]
    _thinking: dict[str, asyncio.Future[None]]
    _timeouts: set[str]
    _seat_msgs: Buckets
    _address_msgs: Buckets
    _seat_reserve: Buckets
    _seat_hints: Buckets
    _hinting: set[tuple[str, int]]
    _address_hints: dict[str, int]
    _seat_sockets: dict[tuple[str, int], int]
    _address_sockets: dict[str, int]

    if TYPE_CHECKING:
        # The tables (manager.py)
        async def create(
            self,
            rules: Rules,
            options: Options,
            names: tuple[str, str],
            *,
            after: str | None = None,
        ) -> Created: ...

        async def get(self, table_id: str) -> Table: ...

        def evict_idle(self, now: float | None = None) -> int: ...

        # The sockets (connections.py)
        async def _deliver(
            self, sends: list[tuple[Client, dict[str, Any]]], *, close: bool = False
        ) -> None: ...

        def state_message(
            self,
            table: Table,
            client: Client,
            made: dict[tuple[int | None, int], dict[str, Any]] | None = None,
            *,
            whole: bool = False,
        ) -> dict[str, Any]: ...

        async def broadcast(self, table: Table) -> None: ...

        # The messages and their storing (changes.py)
        async def _store(self, table: Table, fn: Callable[..., None], *args: Any) -> None: ...

        async def _store_and_commit(self, table: Table, step: Step) -> None: ...

        async def after_change(self, table: Table) -> None: ...

        # The computer and the expert (computer.py)
        def kick(self, table: Table) -> None: ...

        async def _hints(self, table: Table, client: Client) -> list[dict[str, Any]]: ...

        async def _review(self, table: Table, client: Client) -> dict[str, Any]: ...

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task


def _count(counts: dict[Any, int], key: Any, delta: int) -> None:
    value = counts.get(key, 0) + delta
    if value > 0:
        counts[key] = value
    else:
        counts.pop(key, None)
