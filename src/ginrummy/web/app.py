"""The ASGI app: pages, a small JSON API, and one WebSocket per seat at ``/ws/{table}``.

:func:`create_app` puts together the routes of :mod:`.routes` (pages, lobby, games, the socket),
the :class:`~.context.Context` they share, the security headers of :mod:`.security` and the
background jobs (the move clock, closing abandoned games). Every page and answer carries the
headers of :data:`~.security.SECURITY_HEADERS`; posts must be JSON from this site's own pages,
and sockets must come from them (their ``Origin``), or from the origins given as
``allowed_origins``. Nothing here reads or writes the database in the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response

from ..storage import DatabaseUnavailable, InvalidData, Store
from .cluster import LEASE_SECONDS
from .context import METRICS_FROM, TABLES_PER_MINUTE, Context
from .manager import ABANDON_AFTER_DAYS, Limits, Manager
from .routes import games, lobby, ops, pages, websocket
from .security import SecurityHeaders, error
from .server import Trusted
from .thinking import THINK_TIMEOUT

log = logging.getLogger("ginrummy.web")


def create_app(
    store: Store | None = None,
    *,
    db_url: str | None = None,
    computer_delay: float = 0.4,
    seed: int | None = None,
    tables_per_minute: float = TABLES_PER_MINUTE,
    allowed_origins: Sequence[str] = (),
    abandon_after_days: float = ABANDON_AFTER_DAYS,
    limits: Limits | None = None,
    think_workers: int = 0,
    think_timeout: float = THINK_TIMEOUT,
    metrics_from: str = METRICS_FROM,
    broker: str | None = None,
    lease_seconds: float = LEASE_SECONDS,
) -> Starlette:
    """The web app over ``store`` (else a Store on ``db_url``). ``allowed_origins`` lists
    origins besides the server's own (``https://example.com``) that may open sockets and post.
    ``think_workers`` processes think for the computer, hints and reviews (0: threads of this
    process, the default here so that tests and embedders start no processes);
    ``metrics_from`` the addresses and networks that may read ``/metrics`` (``*``: all).
    ``broker`` (``redis://...``) makes this one of many instances sharing the store's tables
    (:mod:`.cluster`, leases of ``lease_seconds``); None: the only one, as always."""
    Trusted.parse(metrics_from)  # a ValueError before the database is opened
    if store is None:
        store = Store(db_url)
    manager = Manager(
        store,
        computer_delay=computer_delay,
        seed=seed,
        abandon_after_days=abandon_after_days,
        limits=limits,
        think_workers=think_workers,
        think_timeout=think_timeout,
    )
    if broker is not None:
        from .cluster import Cluster

        manager.cluster = Cluster(manager, broker, lease_seconds=lease_seconds)
    context = Context.make(
        store,
        manager,
        allowed_origins=allowed_origins,
        tables_per_minute=tables_per_minute,
        metrics_from=metrics_from,
    )
    routes = [
        *pages.ROUTES,
        *lobby.ROUTES,
        *games.ROUTES,
        *websocket.ROUTES,
        *ops.ROUTES,
        pages.STATIC_FILES,
    ]
    app = Starlette(
        routes=routes,
        lifespan=_lifespan,
        middleware=[Middleware(SecurityHeaders)],
        exception_handlers={DatabaseUnavailable: _unavailable, InvalidData: _invalid},
    )
    app.state.context = context
    app.state.manager = manager
    app.state.store = store
    return app


async def _unavailable(request: Request, exc: Exception) -> Response:
    """A request the database could not serve: 503, saying so in a line (its driver's error
    is the exception's cause, not for the client)."""
    return error(str(exc), 503, {"Retry-After": "5"})


async def _invalid(request: Request, exc: Exception) -> Response:
    """A request with a value the database cannot store (the routes check what they store;
    this is the backstop): 400, saying so, nothing written."""
    return error(str(exc), 400)


@contextlib.asynccontextmanager
async def _lifespan(app: Starlette) -> AsyncIterator[None]:
    # Tables are loaded when someone comes back to them: start-up reads nothing.
    manager: Manager = app.state.manager
    context: Context = app.state.context
    if manager.cluster is not None:
        await manager.cluster.start()
    tasks = [
        asyncio.ensure_future(_every(1.0, manager.tick, "move clock")),
        asyncio.ensure_future(_every(3600.0, manager.abandon_stale, "abandoning", first=0)),
        asyncio.ensure_future(context.metrics.watch_loop()),
    ]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        if manager.cluster is not None:
            await manager.cluster.stop()
        context.readiness.close()
        manager.close()


async def _every(
    seconds: float, job: Callable[[], Awaitable[object]], what: str, first: float | None = None
) -> None:
    await asyncio.sleep(seconds if first is None else first)
    while True:
        try:
            await job()
        except Exception:
            log.exception(what)
        await asyncio.sleep(seconds)
