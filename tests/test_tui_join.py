"""``ginrummy play --join``: the terminal takes a seat at a table of a live ``ginrummy serve``
(started here in a subprocess) and plays a whole hand against a scripted WebSocket seat, in
the Textual app and in the plain mode; links it cannot use are refused in one line.
"""

from __future__ import annotations

import asyncio
import os
import random
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pexpect
import pytest

from ginrummy.tui.app import PlayApp
from ginrummy.tui.remote import JoinError, RemoteSession, parse_link
from ginrummy.tui.words import legal
from tuiutil import policy, screen_text, table, until, waiting_for_me
from webutil import ROOT, LiveServer, SeatSocket, pick, post_table


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("serve") / "games.db") as live:
        yield live


def friend_table(server: LiveServer) -> tuple[dict[str, Any], str]:
    """A table between two people, with hints (the scripts read the best discard from the
    deadwood line): its creation answer, and the invite link (seat 1)."""
    created = post_table(server, mode="friend", name="Ann", hints=True)
    return created, f"{server.url}{created['invite']}"


class ScriptedSeat(threading.Thread):
    """Seat 0 played by a script over its own socket until the hand is over."""

    def __init__(self, server: LiveServer, created: dict[str, Any]) -> None:
        super().__init__(daemon=True)
        self.seat = SeatSocket(server, created["id"], created["token"])
        self.rng = random.Random(7)
        self.final: dict[str, Any] | None = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            while True:
                msg = self.seat.until_my_turn()
                view = msg["view"]
                if view["phase"] == "over":
                    self.final = msg
                    return
                self.seat.act(pick(view, self.rng))
        except BaseException as exc:  # reported by the test
            self.error = exc
        finally:
            self.seat.close()


def test_the_app_plays_a_hand_against_a_websocket_seat(server: LiveServer) -> None:
    created, invite = friend_table(server)
    script = ScriptedSeat(server, created)
    script.start()

    async def run() -> None:
        session = await RemoteSession.join(invite)
        app = PlayApp(session)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: waiting_for_me(app), "the first state", limit=120)
            assert "Ann" in screen_text(app)
            # the invite was exchanged for the seat's own token, which reconnects use
            assert session.link.token != parse_link(invite).token
            while table(app).state["view"]["phase"] != "over":
                state = table(app).state
                # the history, sent in parts and put together, holds every move once, in order
                history = state["view"]["history"]
                assert [e["n"] for e in history] == list(range(1, len(history) + 1))
                before = state["version"]
                action = policy(state)
                table(app).send_action(action)
                await until(
                    pilot,
                    lambda before=before: (
                        table(app).state["version"] != before and waiting_for_me(app)
                    ),
                    f"the answer to {action}",
                    limit=120,
                )
            state = table(app).state
            assert state["table"]["seat"] == 1
            assert state["view"]["result"] is not None
            assert session.parts > 0
            await until(pilot, lambda: "n Next hand" in screen_text(app), "the next hand's key")

    asyncio.run(run())
    script.join(timeout=60)
    assert script.error is None, script.error
    assert script.final is not None
    assert script.final["view"]["result"]["kind"] in ("knock", "gin", "big_gin", "undercut", "dead")
    with pytest.raises(JoinError, match="invite has been opened already"):  # it is spent
        asyncio.run(RemoteSession.join(invite, open_timeout=20))


def test_the_plain_mode_joins_and_plays_to_the_end_of_a_hand(
    server: LiveServer, tmp_path: Path
) -> None:
    created, invite = friend_table(server)
    script = ScriptedSeat(server, created)
    script.start()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), XDG_DATA_HOME=str(tmp_path))
    child = pexpect.spawn(
        sys.executable,
        ["-m", "ginrummy.cli.main", "play", "--plain", "--join", invite],
        env=env,
        encoding="utf-8",
        timeout=120,
    )
    try:
        # The invite is spent: the seat's own link is shown, for coming back.
        child.expect(r"Your seat's own link \(the invite opens nothing more\): http://\S+#s=")
        child.expect(r"Gin rummy: .+ \(you\) against Ann\.")
        while True:
            found = child.expect(
                [
                    r"\((take|draw|discard CARD|layoff CARD|auto|next|rematch)[^)]*\)\r\n> ",
                    r"Type its number \(Enter: 1\), or cancel\.\r\n> ",
                    r"Not done: [^\r]*",
                ]
            )
            assert found != 2, child.match.group(0)
            if found == 1:  # the knock dialog: the first arrangement
                child.sendline("")
                continue
            choices = child.match.group(0)
            if "next" in choices or "rematch" in choices:
                break
            command = {
                "take": "pass" if "pass" in choices else "draw",
                "draw": "draw",
                "discard CARD": "knock" if "knock" in choices else None,
                "layoff CARD": "auto",
                "auto": "auto",
            }[child.match.group(1)]
            if command is None:  # the card that leaves the least deadwood
                before = child.before or ""
                best = before.rsplit("Deadwood after the best discard (", 1)[1].split(")")[0]
                command = "discard " + best.split(" or ")[0]
            child.sendline(command)
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    script.join(timeout=60)
    assert script.error is None, script.error
    assert script.final is not None and script.final["view"]["result"] is not None


def test_links_that_cannot_be_joined(server: LiveServer) -> None:
    created, invite = friend_table(server)

    async def join(url: str) -> str:
        with pytest.raises(JoinError) as caught:
            await RemoteSession.join(url, open_timeout=20)
        return str(caught.value)

    wrong_seat = invite.split("#s=")[0] + "#s=not-a-token"
    assert "not valid" in asyncio.run(join(wrong_seat))
    no_table = f"{server.url}/t/nosuchtable#s=abc"
    assert "no such table" in asyncio.run(join(no_table))
    with pytest.raises(JoinError, match="no seat"):
        parse_link(f"{server.url}/t/{created['id']}")
    link = parse_link(invite)
    assert link.table == created["id"] and link.base == server.ws_url
    assert "token" not in link.socket_url  # the token travels in a hello, not in the URL


def test_a_seat_link_with_legal_moves_is_the_seat_of_the_link(server: LiveServer) -> None:
    created, _ = friend_table(server)
    seat_link = f"{server.url}{created['url']}"

    async def run() -> dict[str, Any]:
        session = await RemoteSession.join(seat_link)
        try:
            await session.start()
            message = await session.receive()
            assert message["type"] == "state"
            return message
        finally:
            await session.close()

    state = asyncio.run(run())
    assert state["table"]["seat"] == 0
    assert isinstance(legal(state), list)


def test_a_seat_opened_in_a_browser_ends_the_terminals_session_saying_why(
    server: LiveServer,
) -> None:
    # Between people a seat lives in one browser (one player id) at a time: the terminal, a
    # player of its own, is made a spectator when a browser opens its seat's link, and stops
    # there rather than take the seat back at its next reconnect.
    from ginrummy.web.protocol import MOVED_AWAY

    created, _ = friend_table(server)
    seat_link = f"{server.url}{created['url']}"

    async def run() -> list[dict[str, Any]]:
        session = await RemoteSession.join(seat_link)
        try:
            await session.start()
            seen = [await session.receive()]
            browser = await asyncio.to_thread(
                SeatSocket, server, created["id"], created["token"], player="a-browser"
            )
            try:
                while seen[-1]["type"] not in ("error", "closed"):
                    seen.append(await asyncio.wait_for(session.receive(), 20))
                seen.append(await session.receive())
            finally:
                browser.close()
            return seen
        finally:
            await session.close()

    seen = asyncio.run(run())
    assert seen[-2] == {"type": "error", "message": MOVED_AWAY}
    assert seen[-1] == {"type": "closed"}


def test_the_move_clock_counts_by_the_servers_time_whatever_this_machines_says(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The move clock's deadline is the server's time: a terminal whose clock was two minutes
    # slow said "⏱ 150s to move" of a 30-second clock, and one two minutes fast "0s" at once.
    # The session measures the server's clock by a ping at each connection and counts by it.
    import re
    import time

    from ginrummy.tui.words import clock_words

    real = time.time
    for off in (-120.0, 120.0):
        created = post_table(server, mode="friend", name="Ann", clock=30)
        ann = SeatSocket(server, created["id"], created["token"])  # both here: the clock runs
        monkeypatch.setattr(time, "time", lambda off=off: real() + off)

        async def run(created: dict[str, Any] = created) -> tuple[float, str]:
            session = await RemoteSession.join(f"{server.url}{created['invite']}")
            try:
                await session.start()
                while True:  # the invite's own seat, then states until the clock runs
                    state = await asyncio.wait_for(session.receive(), 20)
                    if state["type"] == "state" and state["table"].get("deadline") is not None:
                        break
                await asyncio.sleep(0.5)  # the pong, read on the way
                await session.send({"type": "state"})
                while (message := await asyncio.wait_for(session.receive(), 20))["type"] != "state":
                    pass
                return session.skew, clock_words(message, time.time() + session.skew)
            finally:
                await session.close()

        try:
            skew, words = asyncio.run(run())
        finally:
            monkeypatch.setattr(time, "time", real)
            ann.close()
        assert abs(skew + off) < 5, (off, skew)
        left = re.search(r"(\d+)s", words)
        assert left and 20 <= int(left.group(1)) <= 30, words
