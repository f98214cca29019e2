"""For those who run the server: ``/healthz`` and ``/readyz`` for a load balancer or an
orchestrator, ``/metrics`` for Prometheus (docs/deploying.md).

* ``/healthz``: 200 whenever the process serves requests at all (liveness: restart it if not).
* ``/readyz``: 200 when the database answers a trivial query within a second and did not
  refuse the server's last write as full or read-only (:mod:`..health`), else 503 with a
  one-line reason (readiness: send it no players meanwhile).
* ``/metrics``: the figures of :mod:`ginrummy.web.metrics`, only to the addresses
  ``--metrics-from`` names (loopback by default); others get 403. They hold no ids or tokens,
  but how busy a server is remains its operator's business.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import BaseRoute, Route

from ..context import context_of
from ..metrics import CONTENT_TYPE

NO_STORE = {"Cache-Control": "no-store"}


async def healthz(request: Request) -> Response:
    return PlainTextResponse("ok\n", headers=NO_STORE)


async def readyz(request: Request) -> Response:
    reason = await context_of(request).readiness.check()
    if reason is not None:
        return PlainTextResponse(f"not ready: {reason}\n", status_code=503, headers=NO_STORE)
    return PlainTextResponse("ready\n", headers=NO_STORE)


async def metrics(request: Request) -> Response:
    context = context_of(request)
    host = request.client.host if request.client is not None else ""
    if not context.metrics_from.allows(host):  # its own address, not what limits count by
        return PlainTextResponse(
            "metrics are served only to the addresses --metrics-from names\n",
            status_code=403,
            headers=NO_STORE,
        )
    return Response(context.metrics.render(), media_type=CONTENT_TYPE, headers=NO_STORE)


ROUTES: list[BaseRoute] = [
    Route("/healthz", healthz),
    Route("/readyz", readyz),
    Route("/metrics", metrics),
]
