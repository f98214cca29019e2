"""The pages and their static files. A page is the same file for everyone (the table's
scripts fetch the rest); serving one gives a browser its anonymous player id if it has none."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from ..security import PLAYER_COOKIE, PLAYER_COOKIE_AGE, player_key

STATIC = Path(__file__).parents[1] / "static"


def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    """The route serving the page ``static/name``."""

    async def handler(request: Request) -> Response:
        response = FileResponse(STATIC / name, headers={"Cache-Control": "no-cache"})
        if player_key(request.cookies) is None:
            # An anonymous player id: whose games and statistics these are, no account
            # needed. Only its hash is stored; it never leaves this site (SameSite, no JS).
            response.set_cookie(
                PLAYER_COOKIE,
                secrets.token_urlsafe(18),
                max_age=PLAYER_COOKIE_AGE,
                httponly=True,
                samesite="lax",
                secure=request.url.scheme == "https",
            )
        return response

    return handler


ROUTES: list[BaseRoute] = [
    Route("/", page("index.html")),
    Route("/t/{table}", page("table.html")),
    Route("/history", page("history.html")),
    Route("/replay/{table}", page("replay.html")),
    Route("/learn", page("learn.html")),
]


class _Revalidated(StaticFiles):
    """Static files that say ``Cache-Control: no-cache``: a browser checks each again on every
    visit (an unchanged one is answered 304, no body). Without it a browser guesses how long a
    file stays fresh from its age, and after an upgrade could run the page's new modules with
    old ones it kept."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


#: The pages' scripts, styles and pictures: mounted after every other route.
STATIC_FILES = Mount("/static", _Revalidated(directory=STATIC), name="static")
