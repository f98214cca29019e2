"""The web's usual protections: sockets and posts only from the site's own pages, JSON-only
posts, security headers on every answer, and seat tokens kept out of URLs."""

from __future__ import annotations

import re
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from webutil import ROOT, app_client, new_table, recv

STATIC = ROOT / "src" / "ginrummy" / "web" / "static"
EVIL = "https://evil.example"


def games(client: Any) -> int:
    return len(client.app.state.store.list_games(kind="online"))


def test_sockets_from_other_sites_are_refused() -> None:
    with app_client(allowed_origins=["https://play.example"]) as client:
        created = new_table(client, mode="friend")
        url = f"/ws/{created['id']}"
        with (
            pytest.raises(WebSocketDisconnect) as refused,
            client.websocket_connect(url, headers={"Origin": EVIL}),
        ):
            pass
        assert refused.value.code == 1008
        for origin in ("http://testserver", "https://play.example", None):
            headers = {"Origin": origin} if origin else {}
            with client.websocket_connect(url, headers=headers) as ws:
                assert recv(ws)["type"] == "state", origin


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({"Content-Type": "text/plain"}, 415),  # what a form on another site can send
        ({"Content-Type": "application/x-www-form-urlencoded"}, 415),
        ({"Content-Type": "application/json", "Origin": EVIL}, 403),
        ({"Content-Type": "text/plain", "Origin": EVIL}, 403),
        ({"Content-Type": "application/json", "Origin": "null"}, 403),
    ],
)
def test_posts_from_other_sites_change_nothing(headers: dict[str, str], status: int) -> None:
    with app_client() as client:
        for path in ("/api/tables", "/api/mine", "/api/history", "/api/stats"):
            response = client.post(path, content=b'{"mode": "friend"}', headers=headers)
            assert response.status_code == status, (path, response.text)
            assert response.json()["type"] == "error"
        assert games(client) == 0
        same = {"Content-Type": "application/json", "Origin": "http://testserver"}
        assert client.post("/api/tables", content=b"{}", headers=same).status_code == 200
        assert games(client) == 1


def test_security_headers_on_every_answer() -> None:
    with app_client() as client:
        created = new_table(client, mode="computer", level="beginner")
        for method, path in [
            ("GET", "/"),
            ("GET", f"/t/{created['id']}"),
            ("GET", "/static/js/table.js"),
            ("GET", "/api/presets"),
            ("GET", "/api/replay/nothere"),
            ("POST", "/api/mine"),
        ]:
            response = client.request(method, path, json=[])
            headers = response.headers
            csp = headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp, path
            assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
            assert headers["x-content-type-options"] == "nosniff"
            assert headers["referrer-policy"] == "no-referrer"
            assert headers["x-frame-options"] == "DENY"


def test_pages_have_no_inline_script_or_style() -> None:
    """The CSP allows no inline script or style: the pages must not need any."""
    for page in STATIC.glob("*.html"):
        html = page.read_text()
        for tag in re.findall(r"<script\b[^>]*>", html):
            assert "src=" in tag, (page.name, tag)
        assert not re.search(r"\son\w+\s*=", html), page.name  # onclick= and the like
        assert " style=" not in html, page.name
    for script in (STATIC / "js").glob("*.js"):
        text = script.read_text()
        assert "eval(" not in text and "new Function" not in text, script.name
        assert not re.search(r"\{\s*style:", text), script.name


def test_seat_tokens_stay_out_of_urls() -> None:
    with app_client() as client:
        created = new_table(client, mode="friend")
        for key in ("url", "invite"):
            path, _, fragment = created[key].partition("#")
            assert created["token"] not in path and fragment.startswith("s="), created[key]
        assert "s=" not in created["watch"]
        table_js = (STATIC / "js" / "table.js").read_text()
        # the socket's URL carries no token (only the history's form): the token goes in the
        # first message
        opened = "new WebSocket(`${proto}://${location.host}/ws/${tableId}?history=delta`)"
        assert opened in table_js
        assert '"hello"' in table_js and "history.replaceState" in table_js
