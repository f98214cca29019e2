"""The table page's smaller gaps, in Debian's Chromium: the hand rearranged by keyboard, the
key hints a touch screen has no keys for, large cards on a small phone, Share by the phone's
share sheet, the wait for the next hand counted down, and the invite a rematch still waits for.

Screenshots go to test-artifacts/ (more-*.png).
"""

from __future__ import annotations

import asyncio
import json
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from ginrummy.engine import Rules
from ginrummy.storage import Store
from ginrummy.web.manager import UNLIMITED, Manager
from ginrummy.web.tables import Options
from test_web_browser import CHROMIUM, Player, browser
from test_web_fairplay import Seat, fixed_deck
from test_web_friends_browser import open_friend_table
from test_web_table_browser import (
    DESKTOP,
    PHONES,
    SETTLED,
    context,
    knock_on_the_readme_deal,
    open_table,
    stacked,
)
from webutil import ARTIFACTS, LiveServer

__all__ = ["browser", "fixed_deck", "stacked"]  # fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)


def screen(page: Any, name: str) -> None:
    """What the screen shows now (the viewport: a touch screen's styles hold in it)."""
    page.wait_for_function(SETTLED)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"more-{name}.png"))


# -- the hand rearranged by keyboard -------------------------------------------------------------


def test_the_selected_card_moves_along_the_hand_by_keyboard(
    stacked: LiveServer, browser: Any
) -> None:
    # Only a drag rearranged the hand: whoever plays by keyboard (or listens) could not.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        assert "Shift+←/→" in str(page.locator("details.panel", has_text="Keys").text_content())
        before = you.hand()
        status = you.status()
        page.keyboard.press("ArrowRight")  # the first card, selected and focused
        first = before[0]
        page.keyboard.press("Shift+ArrowRight")
        page.wait_for_function(
            "() => document.querySelector('#arrange input[value=custom]').checked"
        )
        assert you.hand() == [before[1], first, *before[2:]]
        live = page.locator("#live")
        assert "place 2 of 10" in live.inner_text(), live.inner_text()
        # still selected, and focused: it moves on, and back
        assert page.evaluate("() => document.activeElement.dataset.card") == first
        assert page.locator("#hand .card.selected").get_attribute("data-card") == first
        page.keyboard.press("Shift+ArrowRight")
        assert you.hand()[2] == first
        page.keyboard.press("Shift+ArrowLeft")
        page.keyboard.press("Shift+ArrowLeft")
        assert you.hand() == before
        page.keyboard.press("Shift+ArrowLeft")  # the first already: it stays, and says so
        assert you.hand() == before
        assert "first" in live.inner_text(), live.inner_text()
        # no move was made: the player's own view only
        assert you.status() == status
        assert page.locator("#actions button", has_text="Pass").count() == 1
        page.keyboard.press("Shift+ArrowRight")
        order = you.hand()
        page.reload()
        page.locator("#hand .card[data-card]").first.wait_for()
        assert you.hand() == order
        you.check_clean()
    finally:
        ctx.close()


# -- key hints where there are no keys -----------------------------------------------------------


@pytest.mark.parametrize("size", [PHONES["phone-360"], DESKTOP], ids=["phone", "desktop"])
def test_key_hints_show_only_where_there_is_a_keyboard(
    stacked: LiveServer, browser: Any, size: tuple[int, int]
) -> None:
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        labels = page.locator("#actions button").all_inner_texts()
        phone = size[0] < 700
        if phone:
            assert labels == ["Take upcard", "Pass"], labels
            screen(page, "phone-360-no-key-hints")
        else:
            assert labels == ["Take upcard (T)", "Pass (P)"], labels
        # the keys still work where there are some (a phone with a keyboard)
        page.keyboard.press("p")
        page.locator("#actions button").first.wait_for(state="detached")
        # and the sentences name the finger's move, not the mouse's, on a touch screen
        page.locator("#stock .card.playable").wait_for()
        page.keyboard.press("d")
        page.locator("#hand .card[data-card='Ad']").wait_for()
        press = "tap" if phone else "click"
        status = page.locator("#status").inner_text()
        assert status.startswith(f"Choose a card to discard ({press} it, or drag it"), status
    finally:
        ctx.close()


# -- large cards on a small phone ------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PHONES))
def test_large_cards_fit_a_small_phone(stacked: LiveServer, browser: Any, name: str) -> None:
    width, height = PHONES[name]
    ctx = context(browser, (width, height))
    try:
        page = ctx.new_page()
        page.add_init_script(
            "localStorage.setItem('ginrummy.settings', JSON.stringify({large: true}))"
        )
        you = Player(page, random.Random(1), "you")
        you.tap = True
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        assert page.evaluate("() => document.body.classList.contains('large-cards')")
        page.locator("#actions button", has_text="Pass").tap()
        page.locator("#stock .card.playable").tap()
        page.locator("#hand .card[data-card='Ad']").wait_for()
        page.wait_for_function(SETTLED)
        hand = page.locator("#hand").bounding_box()
        screen(page, f"{name}-large-cards")
        assert hand["y"] + hand["height"] <= height, (hand, height)
        assert hand["x"] >= 0 and hand["x"] + hand["width"] <= width, hand
        you.check_clean()
    finally:
        ctx.close()


def test_large_cards_on_a_desktop_stay_large(stacked: LiveServer, browser: Any) -> None:
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        page.add_init_script(
            "localStorage.setItem('ginrummy.settings', JSON.stringify({large: true}))"
        )
        open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        width = page.locator("#hand .card[data-card]").first.bounding_box()["width"]
        assert width == 80
        screen(page, "desktop-large-cards")
    finally:
        ctx.close()


# -- Share ---------------------------------------------------------------------------------------


def test_share_uses_the_share_sheet_where_there_is_one(stacked: LiveServer, browser: Any) -> None:
    ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        page.add_init_script(
            "window.shared = []; navigator.share = async (data) => { window.shared.push(data); };"
        )
        created = open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        page.locator("#copy-link").tap()
        page.wait_for_function("() => window.shared.length === 1")
        shared = page.evaluate("() => window.shared[0]")
        assert shared["url"] == f"{stacked.url}/t/{created['id']}", shared
        assert "Gin Rummy" in shared["title"]
        assert "#" not in shared["url"]  # never the seat's token
    finally:
        ctx.close()


def test_share_copies_the_watch_link_where_there_is_no_share_sheet(
    stacked: LiveServer, browser: Any
) -> None:
    ctx = context(browser, DESKTOP)
    try:
        ctx.grant_permissions(["clipboard-read", "clipboard-write"])
        page = ctx.new_page()
        page.add_init_script("delete Navigator.prototype.share")
        created = open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        page.locator("#copy-link").click()
        page.locator("#toast.show", has_text="Link copied").wait_for()
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == f"{stacked.url}/t/{created['id']}"
    finally:
        ctx.close()


# -- the wait for the next hand ------------------------------------------------------------------


def seconds(text: str) -> int:
    digits = "".join(c for c in text if c.isdigit())
    return int(digits)


def test_the_wait_for_the_next_hand_counts_down(stacked: LiveServer, browser: Any) -> None:
    phone = context(browser, PHONES["phone-360"])
    desk = context(browser, DESKTOP)
    try:
        ann, bob = phone.new_page(), desk.new_page()
        open_friend_table(stacked, ann, bob)
        ann.locator("#actions button", has_text="Pass").tap()
        bob.locator("#actions button", has_text="Pass").click()
        ann.locator("#stock .card.playable").tap()
        ann.locator("#hand .card[data-card='Ad']").wait_for()
        ann.locator("#hand .card[data-card='Kd']").tap(position={"x": 6, "y": 24})
        ann.locator("#actions button", has_text="Knock with").tap()
        ann.locator("#knock-dialog").wait_for(state="visible")
        ann.locator("#knock-ok").tap()
        bob.locator("#actions button", has_text="Done").click()
        ann.locator("#showdown button", has_text="Next hand").tap()
        ann.locator("#waiting-next").wait_for()
        for page in (ann, bob):
            clock = page.locator("#showdown .next-clock")
            clock.wait_for()
            first = seconds(clock.inner_text())
            assert clock.inner_text().startswith("⏱") and 25 <= first <= 30, clock.inner_text()
            # shown, not read out every second: the sentence says it once
            assert clock.get_attribute("aria-hidden") == "true"
            page.wait_for_function(
                "(n) => parseInt(document.querySelector('#showdown .next-clock')"
                ".textContent.replace(/\\D/g, '')) < n",
                arg=first,
            )
        said = bob.locator("#showdown .bar", has_text="Ann is ready")
        assert "seconds at most" in said.inner_text()
        ann.locator("#showdown .next-clock").scroll_into_view_if_needed()
        screen(ann, "phone-360-waiting-next")
        screen(bob, "desktop-other-is-ready")
    finally:
        phone.close()
        desk.close()


# -- a rematch before the friend came ------------------------------------------------------------


def rematch_before_the_friend_came(server: LiveServer) -> tuple[str, str, str, str]:
    """A friend table's game to 1 played out before the friend opened the invite (by the
    server's own hand, as a clock might), and its rematch: the first table's id, the
    rematch's, the host's token and the invite's link."""

    async def run() -> tuple[str, str, str, str]:
        store = Store(server.db_url)
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        try:
            rules = Rules(first_dealer="fixed", first_dealer_seat=0, game_target=1)
            created = await manager.create(rules, Options("friend"), ("Ann", "Player 2"))
            table, (host, invite) = created.table, created.tokens
            assert invite is not None
            moves = ((1, "pass"), (0, "pass"), (1, "draw"), (1, "knock Kd"), (0, "done"))
            for seat, action in moves:
                table.act(store, seat, action)
            await Seat(manager, table, 0).do({"type": "rematch"})
            assert table.options.rematch is not None
            link = f"{server.url}/t/{table.id}#s={invite}"
            return table.id, table.options.rematch, host, link
        finally:
            manager.close()
            store.close()

    # in a thread of its own: Playwright's event loop runs in this one
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, run()).result()


def test_a_rematch_before_the_friend_came_still_offers_the_invite(
    stacked: LiveServer, browser: Any, fixed_deck: None
) -> None:
    # The rematch kept the invite nobody had taken (the server seats its taker there too),
    # but its table showed the host no invite box: the friend could never be sent the link.
    first, rematch, host, link = rematch_before_the_friend_came(stacked)
    ctx = context(browser, PHONES["phone-360"])
    desk = context(browser, DESKTOP)
    try:
        ann = ctx.new_page()
        kept = {
            "ginrummy.tables": [{"id": rematch, "token": host, "at": 0}],
            "ginrummy.invites": {first: link},  # as the lobby kept it
        }
        # once: a reload finds what the page kept since
        ann.add_init_script(
            "if (!localStorage.getItem('ginrummy.tables')) {"
            + "".join(
                f"localStorage.setItem({json.dumps(k)}, {json.dumps(json.dumps(v))});"
                for k, v in kept.items()
            )
            + "}"
        )
        ann.goto(f"{stacked.url}/t/{rematch}")
        ann.locator("#hand .card[data-card]").first.wait_for()
        box = ann.locator("#invite-box")
        box.wait_for()
        assert ann.locator("#table-invite-link").input_value() == link
        screen(ann, "phone-360-rematch-invite")
        # the friend opens it: seated at the first table, he follows the rematch
        bob = desk.new_page()
        bob.goto(link)
        bob.locator("#showdown button", has_text="Play the rematch").click()
        bob.wait_for_url(f"**/t/{rematch}")
        bob.locator("#hand .card[data-card]").first.wait_for()
        box.wait_for(state="hidden")
        ann.reload()
        ann.locator("#hand .card[data-card]").first.wait_for()
        ann.wait_for_timeout(500)
        assert box.is_hidden()
    finally:
        ctx.close()
        desk.close()


# -- a lost connection ---------------------------------------------------------------------------


class Line:
    """The page's WebSocket, which the test may cut (``cut``: closed, and refused until
    ``down`` is false again; the page reconnects by itself then)."""

    def __init__(self, page: Any) -> None:
        self.down = False
        self.sockets: list[Any] = []
        page.route_web_socket("**/ws/**", self._through)

    def _through(self, ws: Any) -> None:
        if self.down:
            ws.close()
            return
        ws.connect_to_server()
        self.sockets.append(ws)

    def cut(self) -> None:
        self.down = True
        self.sockets[-1].close()


@pytest.mark.parametrize("name", ["phone-360", "desktop"])
def test_a_lost_connection_is_said_where_the_player_is_looking(
    stacked: LiveServer, browser: Any, name: str
) -> None:
    # "Connection lost: reconnecting…" stood at the top of the page, above the table: a player
    # scrolled down to the hand (on a phone, always) saw none of it, only "Computer is
    # thinking…" for as long as the connection was down.
    ctx = context(browser, PHONES.get(name, DESKTOP))
    try:
        page = ctx.new_page()
        line = Line(page)
        open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        line.cut()
        conn = page.locator("#conn")
        conn.wait_for(state="visible")
        assert conn.inner_text() == "Connection lost: reconnecting…"
        box = conn.bounding_box()
        height = page.viewport_size["height"]
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
        screen(page, f"{name}-connection-lost")
        line.down = False  # back: the next try connects, and the notice goes
        conn.wait_for(state="hidden", timeout=20_000)
        page.locator("#hand .card[data-card]").first.wait_for()
    finally:
        ctx.close()


# Whether the notice of a lost connection lies over the header, and the header's buttons that
# a tap at their middle would not reach (something else lies over them).
COVERED = """() => {
  const conn = document.getElementById('conn').getBoundingClientRect();
  const top = document.querySelector('header.top').getBoundingClientRect();
  const buttons = [...document.querySelectorAll('header.top button')].filter((b) => !b.hidden);
  const hidden = buttons.filter((b) => { const r = b.getBoundingClientRect();
    return !b.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); });
  return [conn.bottom > top.top, buttons.map((b) => b.id), hidden.map((b) => b.id)]; }"""
FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
HEADER_TOP = "() => document.querySelector('header.top').getBoundingClientRect().top"


@pytest.mark.parametrize("name", ["phone-360", "desktop"])
def test_a_lost_connection_leaves_the_header_and_its_buttons_clear(
    stacked: LiveServer, browser: Any, name: str
) -> None:
    # The notice, pinned at the top of the screen, lay over the header: Hint, Undo and Share
    # could not be reached for as long as the connection was down.
    ctx = context(browser, PHONES.get(name, DESKTOP))
    try:
        page = ctx.new_page()
        line = Line(page)
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.locator("#hint").wait_for()  # my turn, with a hint to ask for
        line.cut()
        conn = page.locator("#conn")
        conn.wait_for(state="visible")
        page.evaluate(FRAMES)  # laid out
        over, buttons, hidden = page.evaluate(COVERED)
        assert {"hint", "copy-link"} <= set(buttons), buttons
        assert not over, "the notice over the header"
        assert hidden == [], hidden
        screen(page, f"{name}-connection-lost-header-clear")
        # scrolled down, the notice is still on the screen
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        box = conn.bounding_box()
        assert box is not None and 0 <= box["y"] < 5, box
        # back: the page moves up again
        line.down = False
        conn.wait_for(state="hidden", timeout=20_000)
        page.evaluate(FRAMES)
        page.evaluate("() => window.scrollTo(0, 0)")
        assert page.evaluate(HEADER_TOP) == 0
    finally:
        ctx.close()


OVERLAP = """() => { const a = document.getElementById('conn').getBoundingClientRect();
  const b = document.getElementById('toast').getBoundingClientRect();
  return !(a.bottom <= b.top || b.bottom <= a.top); }"""

# A note at the top of the screen, as the page shows one (the same module the page loaded).
NOTE = """async (text) => (await import('/static/js/tablestate.js')).toast(text, true, 10000)"""


def test_while_the_connection_is_down_the_table_says_it_waits_and_notes_stay_clear_of_it(
    stacked: LiveServer, browser: Any
) -> None:
    # With the connection down the status line still said "Computer is thinking…" (or asked for
    # a move that could not be sent), and on a phone an error note at the top of the screen
    # lay over the pinned notice of the lost connection, or under it.
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        line = Line(page)
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.locator("#actions button", has_text="Pass").tap()
        page.locator("#stock .card.playable").wait_for()  # the computer passed: my draw
        page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
        line.cut()
        conn = page.locator("#conn")
        conn.wait_for(state="visible")
        status = page.locator("#status").inner_text()
        assert status == "Waiting for the connection: the game goes on when it is back.", status
        # a move tapped now is refused with a note, below the notice
        page.locator("#stock .card").tap()
        page.locator("#toast.show").wait_for()
        assert page.locator("#toast").inner_text() == "Reconnecting…"
        assert not page.evaluate(OVERLAP), "the note over the notice"
        screen(page, "phone-360-note-under-the-notice")
        line.down = False  # back: the turn is said again
        conn.wait_for(state="hidden", timeout=20_000)
        page.wait_for_function(
            "() => document.querySelector('#status').textContent.startsWith('Draw')"
        )
        # a note shown first moves below the notice when the connection goes
        page.evaluate(NOTE, "A note")
        line.cut()
        conn.wait_for(state="visible")
        assert page.locator("#toast").inner_text() == "A note"
        assert not page.evaluate(OVERLAP), "the notice over the note"
    finally:
        ctx.close()


def test_while_the_computer_thinks_a_lost_connection_is_not_called_thinking(
    browser: Any, tmp_path: Any
) -> None:
    # A computer slow to move: the connection goes while it thinks.
    with LiveServer(tmp_path / "games.db", computer_delay=5, module="stacked_serve") as slow:
        ctx = context(browser, DESKTOP)
        try:
            page = ctx.new_page()
            line = Line(page)
            rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
            open_table(page, slow, mode="computer", level="beginner", name="Ann", options=rules)
            page.locator("#actions button", has_text="Pass").click()
            page.locator("#opp-label .thinking").wait_for()
            assert "is thinking" in page.locator("#status").inner_text()
            line.cut()
            page.locator("#conn").wait_for(state="visible")
            assert "thinking" not in page.locator("#status").inner_text()
            assert "thinking" not in page.locator("#opp-label").inner_text()
            assert "connection" in page.locator("#status").inner_text()
        finally:
            ctx.close()


# -- the showdown's deadwood ---------------------------------------------------------------------


def test_the_showdowns_deadwood_is_named_with_its_count(stacked: LiveServer, browser: Any) -> None:
    # Each player's deadwood was set apart from the melds by a darker background only: by
    # colour alone, and not at all for a screen reader.
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        knock_on_the_readme_deal(page, stacked, you)  # with Ad 3h 4c: 8 deadwood
        you.wait_for_showdown()
        mine = page.locator("#showdown").get_by_role("group", name="deadwood, 8")
        assert mine.locator(".meld-caption").inner_text() == "deadwood 8"
        assert mine.locator(".card[data-card]").count() == 3
        groups = page.locator("#showdown .meld.deadwood").all()
        assert len(groups) == 2  # the computer's too, with its count
        for group in groups:
            cards = group.locator(".card[data-card]").evaluate_all(
                "els => els.map(e => e.dataset.card)"
            )
            count = sum(min("A23456789TJQK".index(c[0]) + 1, 10) for c in cards)
            assert group.get_attribute("aria-label") == f"deadwood, {count}"
            assert group.locator(".meld-caption").inner_text() == f"deadwood {count}"
        page.locator("#showdown").scroll_into_view_if_needed()
        screen(page, "phone-360-showdown-deadwood")
        you.check_clean()
    finally:
        ctx.close()


def test_the_knock_dialog_fits_a_small_phone(stacked: LiveServer, browser: Any) -> None:
    # On a touch screen each card of the arrangement was a box of its own in one flex row: the
    # line ran past the dialog's edge, and its deadwood was cut off.
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.locator("#actions button", has_text="Pass").tap()
        page.locator("#stock .card.playable").tap()
        page.locator("#hand .card[data-card='Ad']").wait_for()
        page.locator("#hand .card[data-card='Kd']").tap(position={"x": 6, "y": 24})
        page.locator("#actions button", has_text="Knock with").tap()
        dialog = page.locator("#knock-dialog")
        dialog.wait_for(state="visible")
        assert "deadwood" in page.locator("#knock-list").inner_text()
        cut = dialog.evaluate("(d) => d.scrollWidth - d.clientWidth")
        assert cut <= 0, f"{cut}px of the arrangement past the dialog's edge"
        screen(page, "phone-360-knock-dialog")
    finally:
        ctx.close()
