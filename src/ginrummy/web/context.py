"""What the routes share: one :class:`Context` per app, made by
:func:`~ginrummy.web.app.create_app` and kept on the app, where each route finds it
(:func:`context_of`). The routes are plain functions of a request or a socket, so each reads
alone, with everything it uses named here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from starlette.requests import HTTPConnection

from ..storage import Store
from .health import Readiness
from .limits import Buckets
from .manager import Manager
from .metrics import Metrics
from .server import Trusted
from .tables import INVITED

#: New tables an address may open: this many a minute on average, up to TABLE_BURST at once.
TABLES_PER_MINUTE = 6.0
TABLE_BURST = 20.0
#: Reads of saved games (lists, statistics, replays) one address may ask for: this many a
#: second on average, up to READ_BURST at once.
READS_PER_SECOND = 2.0
READ_BURST = 20.0
#: Who may read ``/metrics`` unless told otherwise: this machine only.
METRICS_FROM = "127.0.0.1,::1"


@dataclass(frozen=True)
class Context:
    """The app's store and table manager, its settings, and the per-address limits its
    routes keep."""

    store: Store
    manager: Manager
    #: Origins besides the server's own that may open sockets and post: lowercase, no
    #: trailing "/" (``https://example.com``).
    origins: frozenset[str]
    #: The new tables each address may open; None: as many as it likes.
    creators: Buckets | None
    #: The reads of saved games each address may ask for.
    readers: Buckets
    #: The figures ``/metrics`` shows, and the addresses it shows them to.
    metrics: Metrics
    metrics_from: Trusted
    #: The database check behind ``/readyz``.
    readiness: Readiness

    @classmethod
    def make(
        cls,
        store: Store,
        manager: Manager,
        *,
        allowed_origins: Sequence[str] = (),
        tables_per_minute: float = TABLES_PER_MINUTE,
        metrics_from: str = METRICS_FROM,
    ) -> Context:
        """The context for these settings (``tables_per_minute`` 0: no limit;
        ``metrics_from``: comma-separated addresses and networks, ``*`` for all, raising
        ValueError for anything else)."""
        return cls(
            store,
            manager,
            origins=frozenset(o.rstrip("/").lower() for o in allowed_origins),
            creators=(
                Buckets(tables_per_minute / 60.0, TABLE_BURST) if tables_per_minute > 0 else None
            ),
            readers=Buckets(READS_PER_SECOND, READ_BURST),
            metrics=Metrics(manager),
            metrics_from=Trusted.parse(metrics_from),
            readiness=Readiness(store),
        )

    async def claim(self, game_id: str, seat: int, owner: str) -> None:
        """The seat becomes the browser's player's (``owner``) unless it is someone's already:
        their games and statistics follow the browser, no account needed. A read first: a
        seat claimed already (every connection after the first) costs no write."""
        if await self.manager.db(self.store.seat_owner, game_id, seat) is not None:
            return
        await self.manager.db(self.store.claim_seat, game_id, seat, owner)

    async def take_seat(self, game_id: str, seat: int, owner: str) -> int:
        """A seat's token opened in the browser of the player ``owner``: the seat is claimed
        for him (:meth:`claim`) or, where it is another browser's at a table between people,
        moved to his (the store counts the move, :meth:`Writer.move_seat`; the manager makes
        spectators of the sockets it leaves), as it is from nobody's where a browser without
        cookies held it. Returns the seat's moves so far where it moved now, else 0. At a
        table against the computer a seat stays its first player's."""
        manager = self.manager
        held = await manager.db(self.store.seat_owner, game_id, seat)
        if held == owner:
            return 0
        # A seat claimed by another browser since it was read (both opened it at once)
        # moves from that one, as from any other.
        if (
            held is None
            and not await self._used_without_cookies(game_id, seat)
            and await manager.db(self.store.claim_seat, game_id, seat, owner)
        ):
            return 0
        if not await manager.friend_table(game_id):
            return 0
        moves: int = await manager.db(self.store.move_seat, game_id, seat, owner)
        return moves

    async def _used_without_cookies(self, game_id: str, seat: int) -> bool:
        """Whether a seat nobody owns was held at a table between people by a browser without
        a player cookie (before seats needed one): it saw the seat's cards, so the seat taken
        now moves, as from any other browser. Read once per seat, when it is first owned."""
        if not await self.manager.friend_table(game_id):
            return False
        used: bool = await self.manager.db(
            self.store.seat_used, game_id, seat, invited=seat == INVITED
        )
        return used


def context_of(conn: HTTPConnection) -> Context:
    """The context of the app a request or socket came to."""
    context = conn.app.state.context
    assert isinstance(context, Context), "the app was not made by create_app"
    return context
