"""The table as players use it, in Debian's Chromium: on phones (360x740, 390x844) and a
desktop (1280x900); every move in the log, a hand-made order that survives a reload, the
words for "you", a rematch that a spectator follows, keyboard-only play, and axe-core's
accessibility rules on every page.

Screenshots of each screen at both sizes go to test-artifacts/ (phone-*.png, desktop-*.png).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from ginrummy.engine import parse_cards
from test_web_browser import CHROMIUM, Player, browser, play_to_showdown, server
from webutil import ARTIFACTS, LiveServer, post_table

__all__ = ["browser", "server"]  # fixtures, shared with test_web_browser.py

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)

PHONES = {"phone-360": (360, 740), "phone": (390, 844)}
DESKTOP = (1280, 900)


def context(browser: Any, size: tuple[int, int], **kw: Any) -> Any:
    phone = size[0] < 700
    return browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        has_touch=phone,
        is_mobile=phone,
        device_scale_factor=1,
        **kw,
    )


def open_table(page: Any, server: LiveServer, **body: Any) -> dict[str, Any]:
    """A new table (through the API), opened in ``page`` with its seat."""
    created = post_table(server, **body)
    page.goto(f"{server.url}{created['url']}")
    page.locator("#hand .card[data-card]").first.wait_for()
    return created


# No card sliding (the "thinking" dots' endless CSS blink does not count).
SETTLED = "() => document.getAnimations().every((a) => a instanceof CSSAnimation)"


def shot(page: Any, name: str) -> None:
    """A screenshot of the whole page once its cards have stopped sliding."""
    page.wait_for_function(SETTLED)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def overflow(page: Any) -> int:
    """How far the page is wider than the device's screen (0: no horizontal scrolling). A
    phone's browser widens its layout to the content, so compare with the device's width."""
    width = page.viewport_size["width"]
    return int(page.evaluate("() => document.documentElement.scrollWidth")) - int(width)


def cards_outside(page: Any) -> list[str]:
    """Cards of the hand whose rank corner is not on the screen."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#hand .card[data-card]')]
        .filter((el) => { const r = el.getBoundingClientRect();
          return r.left < 0 || r.left + Math.min(r.width, 14) > screen.width; })
        .map((el) => el.dataset.card)"""
    )
    return found


def log_text(page: Any) -> str:
    return str(page.locator("#log-list").inner_text())


# -- phones --------------------------------------------------------------------------------------


def touch_drag(page: Any, source: Any, target: Any) -> None:
    """Drag with a finger from the corner of ``source`` to the middle of ``target`` (touch
    events, as a phone sends them)."""
    cdp = page.context.new_cdp_session(page)
    a, b = source.bounding_box(), target.bounding_box()
    x0, y0 = a["x"] + 6, a["y"] + 24
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    cdp.send(
        "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
    )
    for i in range(1, 11):
        x, y = x0 + (x1 - x0) * i / 10, y0 + (y1 - y0) * i / 10
        cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
        )
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


def test_a_finger_drags_a_card_onto_the_pile_to_discard_it(
    server: LiveServer, browser: Any
) -> None:
    ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(5), "you")
        you.tap = True
        open_table(page, server, mode="computer", level="beginner", name="Ann")
        deadline = time.monotonic() + 60
        while not you.status().startswith("Choose a card"):  # take or draw, by tapping
            assert time.monotonic() < deadline and not you.over()
            if not you.step():
                page.wait_for_timeout(50)
        # where the cards are once they have stopped sliding
        page.wait_for_function(SETTLED)
        card = page.locator("#hand .card[data-card]:not(.taken)").first
        dropped = str(card.get_attribute("data-card"))
        touch_drag(page, card, page.locator("#pile"))
        # The card leaves the hand for the pile (where the computer, moving next, may take it
        # at once: so the hand and the move log tell, not the pile's top card).
        page.wait_for_function(
            "(c) => !document.querySelector(`#hand .card[data-card='${c}']`)", arg=dropped
        )
        rank, suit = dropped[:-1], dropped[-1]
        shown = ("10" if rank == "T" else rank) + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[suit]
        assert f"You discard {shown}." in page.locator("#log-list").inner_text()
        assert dropped not in you.hand() and len(you.hand()) == 10
        you.check_clean()
    finally:
        ctx.close()


@pytest.mark.parametrize("name", sorted(PHONES))
def test_a_whole_hand_on_a_phone_by_touch(server: LiveServer, browser: Any, name: str) -> None:
    ctx = context(browser, PHONES[name])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(7), "you")
        you.tap = True
        open_table(page, server, mode="computer", level="beginner", name="Ann")
        assert overflow(page) <= 0
        shot(page, f"{name}-table")
        eleven = False
        deadline = time.monotonic() + 120
        while not you.over():
            assert time.monotonic() < deadline, "the hand did not end"
            if len(you.hand()) == 11:  # after a draw: all eleven cards on the screen
                eleven = True
                assert cards_outside(page) == [], f"cards off the screen: {cards_outside(page)}"
                assert overflow(page) <= 0
                if name == "phone":
                    shot(page, f"{name}-discard")
            if not you.step():
                page.wait_for_timeout(30)
        assert eleven, "never held eleven cards"
        you.wait_for_showdown()
        assert overflow(page) <= 0
        shot(page, f"{name}-showdown")
        page.locator("details.panel summary", has_text="Score sheet").scroll_into_view_if_needed()
        shot(page, f"{name}-sheet")
        you.check_clean()
    finally:
        ctx.close()


# -- what happened, in words ---------------------------------------------------------------------


def test_the_move_log_names_the_computers_draw_and_discard(
    server: LiveServer, browser: Any
) -> None:
    # and nothing slides for someone whose system asks for less motion
    ctx = context(browser, DESKTOP, reduced_motion="reduce")
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(11), "you")
        open_table(page, server, mode="computer", level="beginner", name="Ann")
        log = page.locator("#log-list")
        assert "Hand 1:" in log.inner_text() and "deals" in log.inner_text()
        if "Cut for the deal" not in log.inner_text():  # the preset's first dealer is cut for
            pytest.fail(f"the cut is not shown: {log.inner_text()}")
        computer = "Computer (beginner)"
        deadline = time.monotonic() + 60
        while not (
            f"{computer} discards" in log_text(page)
            and any(f"{computer} {w}" in log_text(page) for w in ("draws from", "takes"))
            and any(f"You {w}" in log_text(page) for w in ("draw", "take", "pass"))
        ):
            assert time.monotonic() < deadline, log_text(page)
            if you.over():
                pytest.skip("the hand ended before the computer discarded")  # pragma: no cover
            if not you.step():
                page.wait_for_timeout(50)
        text = log_text(page)
        # your own moves say "You", with the card you drew; the computer's stock draws no card
        assert "You draw" in text or "You take" in text or "You pass" in text, text
        assert f"{computer} draws from the stock." in text or f"{computer} takes" in text
        # the dealer is marked, and the live region announced the computer's moves
        assert page.locator(".seat-label .badge", has_text="Dealer").count() == 1
        assert page.locator("#live").inner_text()
        assert page.evaluate("() => document.getAnimations().length") == 0
        shot(page, "desktop-table")
        # sounds are off until turned on, and the choice is remembered
        page.locator("summary", has_text="Rules, fairness and settings").click()
        assert not page.locator("#opt-sound").is_checked()
        page.locator("#opt-sound").check()
        page.reload()
        page.locator("#hand .card[data-card]").first.wait_for()
        assert page.locator("#opt-sound").is_checked()
        you.check_clean()
    finally:
        ctx.close()


def test_the_log_names_the_moves_the_clock_made(server: LiveServer, browser: Any) -> None:
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/")
        said = page.evaluate(
            """async () => {
            const w = await import('/static/js/words.js');
            const log = await import('/static/js/movelog.js');
            const view = { dealer: 1, upcard: 'Jd', result: null, history: [
              { n: 0, seat: 0, action: 'pass' }, { n: 1, seat: 1, action: 'pass' }] };
            const table = { hand_number: 2, sheet: {}, clock_moves: [1] };
            return [0, 1].map((me) =>
              log.logLines({ view, table, n: w.namer(['Ann', 'Bob'], me) }).map((l) => l.text));
        }"""
        )
        assert said[0][1:] == [
            "You pass on the upcard J♦.",
            "Bob passes on the upcard J♦. (Out of time: the clock moved for Bob.)",
        ]
        assert said[1][2] == "You pass on the upcard J♦. (Out of time: the clock moved for you.)"
    finally:
        ctx.close()


def test_sentences_are_right_for_you_and_for_anyone(server: LiveServer, browser: Any) -> None:
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{server.url}/")
        said = page.evaluate(
            """async () => {
            const w = await import('/static/js/words.js');
            const you = w.namer(['Ann', 'Bob'], 0);
            const spectator = w.namer(['Ann', 'Bob'], null);
            const knock = { kind: 'knock', knocker: 1, winner: 1, points: 12, knocker_deadwood: 3,
              defender_deadwood: 15, multiplier: 1 };
            const gin = { ...knock, kind: 'gin', knocker: 0, winner: 0, points: 40 };
            const rules = { gin_bonus: 25, undercut_bonus: 25 };
            return [
              w.resultHeadline(gin, you), w.resultHeadline(gin, spectator),
              w.resultHeadline(knock, you), w.resultWords(knock, { n: you, rules }),
              w.moveLine({ seat: 0, action: 'draw', card: 'Kh' }, you),
              w.moveLine({ seat: 1, action: 'draw' }, you),
              w.moveLine({ seat: 1, action: 'gin Qh' }, you),
              w.moveLine({ seat: 0, action: 'auto', laid_off: [] }, you),
              w.finalLine({ winner: 0, net: 62, stake: '0' }, you, 'game'),
              (await import('/static/js/cards.js')).prettyText(
                'breaks up 7c8c9cTc; he threw Kd; The As and Th stay'),
              w.resultWords({ ...knock, kind: 'undercut', winner: 0, points: 25,
                knocker_deadwood: 4, defender_deadwood: 4 }, { n: you, rules }),
            ];
        }"""
        )
        assert said == [
            "You win the hand with gin",
            "Ann wins the hand with gin",
            "Bob wins the hand",
            "Bob knocks with 3 deadwood; you have 15. Bob scores 12 (15 − 3).",
            "You draw K♥ from the stock.",
            "Bob draws from the stock.",
            "Bob goes gin, discarding Q♥!",
            "You have nothing to lay off.",
            "You win the game by 62.",
            "breaks up 7♣ 8♣ 9♣ 10♣; he threw K♦; The A♠ and 10♥ stay",
            "Bob knocks with 4, and you have 4 too: a tie counts as an undercut! "
            "You score 25 (0 + 25 bonus).",
        ]
    finally:
        ctx.close()


# -- your hand, your way -------------------------------------------------------------------------


def arrange(page: Any, mode: str) -> None:
    """Choose how the hand is arranged, as a person does: a click on the choice's label."""
    page.locator(f"#arrange label:has(input[value={mode}])").click()
    page.wait_for_function(
        f"() => document.querySelector('#arrange input[value={mode}]').checked"
        f" && localStorage.getItem('ginrummy.arrange') === '{mode}'"
    )


def test_a_hand_made_order_and_the_arrangement_survive_a_reload(
    server: LiveServer, browser: Any
) -> None:
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        open_table(page, server, mode="friend", name="Ann")
        you = Player(page, random.Random(2), "you")
        arrange(page, "suit")
        by_suit = you.hand()
        assert [c[1] for c in by_suit] == sorted((c[1] for c in by_suit), key="shdc".index)
        arrange(page, "rank")
        ranks = [c[0] for c in you.hand()]
        assert ranks == sorted(ranks, key="A23456789TJQK".index)
        # drag the last card onto the first: the hand is now arranged by hand
        cards = page.locator("#hand .card[data-card]")
        last, first = cards.nth(9), cards.nth(0)
        moved = str(last.get_attribute("data-card"))
        box_from, box_to = last.bounding_box(), first.bounding_box()
        page.mouse.move(box_from["x"] + 10, box_from["y"] + 20)
        page.mouse.down()
        page.mouse.move(box_to["x"] + 15, box_to["y"] + 20, steps=8)
        page.mouse.move(box_to["x"] + 5, box_to["y"] + 20, steps=2)
        page.mouse.up()
        page.wait_for_function(
            "() => document.querySelector('#arrange input[value=custom]').checked"
        )
        order = you.hand()
        assert order[0] == moved and len(order) == 10
        page.reload()
        page.locator("#hand .card[data-card]").first.wait_for()
        assert you.hand() == order
        assert page.locator("#arrange input[value=custom]").is_checked()
        arrange(page, "melds")
        page.reload()
        page.locator("#hand .card[data-card]").first.wait_for()
        assert page.locator("#arrange input[value=melds]").is_checked()
        you.check_clean()
    finally:
        ctx.close()


# -- a rematch -----------------------------------------------------------------------------------


def test_a_rematch_keeps_the_seats_and_the_spectator_follows(
    server: LiveServer, browser: Any
) -> None:
    ctx = context(browser, DESKTOP)
    watcher_ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(4), "you")
        created = open_table(
            page, server, mode="computer", level="beginner", name="Ann", options={"game_target": 1}
        )
        watcher = watcher_ctx.new_page()
        watcher.goto(f"{server.url}{created['watch']}")
        watcher.locator("#opp-cards .card").first.wait_for()
        deadline = time.monotonic() + 240
        while True:
            play_to_showdown([you])
            you.wait_for_showdown()
            if page.locator("#showdown button", has_text="Rematch").count():
                break
            assert time.monotonic() < deadline
            page.locator("#showdown button", has_text="Next").click()  # a dead hand
            page.wait_for_function("() => document.querySelector('#showdown').hidden")
        shot(page, "desktop-game-over")
        page.locator("#showdown button", has_text="Rematch").click()
        page.wait_for_url(lambda url: created["id"] not in url)
        new_id = page.url.rstrip("/").split("/")[-1]
        page.locator("#hand .card[data-card]").first.wait_for()  # the same seat, a new deal
        assert page.locator("#names").inner_text().startswith("Ann 0")
        watcher.wait_for_url(f"**/t/{new_id}")
        watcher.locator("#opp-cards .card").first.wait_for()
        assert watcher.locator("#hand .card[data-card]").count() == 0  # still a spectator
        you.check_clean()
        # the finished game is in this player's history and record, with the chart
        page.goto(f"{server.url}/history")
        page.locator("#stats .chart").wait_for()
        record = page.locator("#stats").inner_text()
        assert "Win rate" in record and "beginner" in record, record
        # every column of the breakdown by opponent has its cell (three were left out): a
        # line naming the opponent and rules, then its five figures
        bodies = page.locator("#stats .scroll-x table tbody").all()
        assert bodies
        for body in bodies:
            assert "Against the computer (beginner)" in body.locator("th.group").inner_text()
            figures = body.locator("tr").nth(1).locator("td")
            assert figures.count() == 5
            assert all(figures.nth(i).inner_text() != "" for i in range(5))
        assert page.locator("#games a").count() >= 1
        assert violations(page) == [], "history with a game"
        shot(page, "desktop-history-record")
    finally:
        ctx.close()
        watcher_ctx.close()


# -- the keyboard --------------------------------------------------------------------------------


STATE = (
    "() => document.querySelector('#status').textContent"
    " + document.querySelector('#log-list').textContent"
)


def test_a_whole_hand_by_keyboard_alone(server: LiveServer, browser: Any) -> None:
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(9), "you")
        open_table(page, server, mode="computer", level="beginner", name="Ann")
        # A clicked arrangement (a radio button) leaves the shortcuts working.
        page.locator("#arrange input[value='suit']").click()
        page.locator("#arrange input[value='melds']").click()
        deadline = time.monotonic() + 120
        while not you.over():
            assert time.monotonic() < deadline, "the hand did not end"
            status = you.status()
            buttons = you.buttons()
            key = None
            if any(b.startswith("Take upcard") for b in buttons):
                key = "p"
            elif "Draw from stock (D)" in buttons:
                key = "d"
            elif status.startswith("Choose a card") or status.endswith("selected."):
                gin = [b for b in buttons if b.startswith("Gin with")]
                knock = [b for b in buttons if b.startswith("Knock with")]
                if gin or knock:
                    page.keyboard.press("g" if gin else "k")
                    page.locator("#knock-dialog").wait_for(state="visible")
                    key = "Enter"  # on the first arrangement: lays it down
                else:
                    if not page.locator("#hand .card.selected").count():
                        page.keyboard.press("ArrowLeft")  # the last card: the most deadwood
                    if page.locator("#hand .card.selected.taken").count():
                        page.keyboard.press("ArrowLeft")  # not the card just taken
                    # the selected card has the focus (so Enter on it keeps it selected)
                    focused = page.evaluate("() => document.activeElement.dataset.card")
                    selected = page.locator("#hand .card.selected").get_attribute("data-card")
                    assert focused == selected
                    key = "x"
            elif "Optimal layoffs (A)" in buttons:
                key = "a"
            elif "Pass" in buttons:
                key = "p"
            if key is None:
                page.wait_for_timeout(50)
                continue
            before = page.evaluate(STATE)
            knocking = key == "Enter"
            page.keyboard.press(key)
            try:
                page.wait_for_function(
                    f"(old) => ({STATE})() !== old || !document.querySelector('#showdown').hidden",
                    arg=before,
                )
                if knocking:
                    you.check_laid_out()
            except Exception as exc:  # say what the page showed
                focus = page.evaluate("() => document.activeElement.outerHTML.slice(0, 120)")
                raise AssertionError(
                    f"key {key!r} changed nothing: {status!r}, buttons {list(buttons)}, "
                    f"focus {focus}, problems {you.problems}, refused {you.errors}"
                ) from exc
        you.wait_for_showdown()
        you.check_clean()
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def stacked(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server dealing the README's deck: I (seat 0, the non-dealer) hold
    As 2s 3s 4s 3h 7h 7d Kd 4c 7c, the upcard is Jd and the stock's top card Ad."""
    db = tmp_path_factory.mktemp("stacked") / "games.db"
    with LiveServer(db, computer_delay=0.3, module="stacked_serve") as live:
        yield live


def knock_on_the_readme_deal(
    page: Any, server: LiveServer, you: Player, options: dict[str, Any] | None = None, **body: Any
) -> None:
    """At a new table against the computer on the README's deck: I pass the upcard, draw Ad
    and knock with Kd (8 deadwood against the computer's 31). ``options``: more rule options."""
    rules = {"first_dealer": "fixed", "first_dealer_seat": 1, **(options or {})}
    open_table(page, server, mode="computer", level="beginner", name="Ann", options=rules, **body)
    assert sorted(you.hand()) == sorted(map(str, parse_cards("As 2s 3s 4s 3h 7h 7d Kd 4c 7c")))
    page.locator("#actions button", has_text="Pass").click()
    page.locator("#stock .card.playable").wait_for()
    page.locator("#stock .card.playable").click()
    page.locator("#hand .card[data-card='Ad']").wait_for()
    page.locator("#hand .card[data-card='Kd']").click()
    page.locator("#actions button", has_text="Knock with").click()
    page.locator("#knock-dialog").wait_for(state="visible")
    page.locator("#knock-ok").click()


@pytest.mark.parametrize("size", [PHONES["phone-360"], DESKTOP], ids=["phone", "desktop"])
def test_my_knocked_cards_lie_on_the_table_and_not_also_in_my_hand(
    stacked: LiveServer, browser: Any, size: tuple[int, int]
) -> None:
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = size[0] < 700
        knock_on_the_readme_deal(page, stacked, you)
        you.check_laid_out()
        melds = page.locator("#melds").inner_text()
        assert "You knock: melds on the table" in melds, melds
        shown = page.locator("#melds .card[data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        assert {"As", "2s", "3s", "4s", "Ad", "3h", "4c", "7h", "7d", "7c"} <= set(shown)
        assert page.locator("#deadwood").inner_text() == "Deadwood 8"
        assert page.locator("#arrange").is_hidden()  # nothing left in the hand to arrange
        you.wait_for_showdown()
        assert page.locator("#hand .card[data-card]").count() == 0
        shot(page, f"{'phone' if size[0] < 700 else 'desktop'}-knocked")
        you.check_clean()
    finally:
        ctx.close()


def test_the_computers_knocked_cards_are_not_also_in_its_row(
    stacked: LiveServer, browser: Any
) -> None:
    # I deal, so the computer holds the README's hand (As 2s 3s 4s 3h 7h 7d Kd 4c 7c): it
    # passes Jd, draws Ad and knocks with Kd. Once the hand was over its cards showed three
    # times: on the table, in the result and again in its row.
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        rules = {"first_dealer": "fixed", "first_dealer_seat": 0}
        open_table(page, stacked, mode="computer", level="expert", name="Ann", options=rules)
        page.locator("#actions button", has_text="Pass").tap()
        page.wait_for_function(
            "() => /knock/i.test(document.querySelector('#melds').textContent)"
            " || document.querySelector('#stock .card.playable')"
        )
        # the expert knocks at once here; should it ever play on, this test needs another deal
        assert not page.locator("#stock .card.playable").count(), "the computer did not knock"
        melds = page.locator("#melds")
        assert "knock" in melds.inner_text(), melds.inner_text()
        play_to_showdown([you])  # my layoffs
        you.wait_for_showdown()
        shown = melds.locator(".card[data-card]").evaluate_all(
            "els => els.map(e => e.dataset.card)"
        )
        assert {"As", "2s", "3s", "4s", "Ad", "3h", "4c", "7h", "7d", "7c"} <= set(shown), shown
        opponent = page.locator("#opp-cards")
        assert opponent.locator(".card[data-card]").count() == 0
        assert "laid out on the table" in opponent.inner_text()
        shot(page, "phone-computer-knocked")
        you.check_clean()
    finally:
        ctx.close()


def test_a_match_shows_each_games_sheet_its_boxes_and_the_match_points(
    stacked: LiveServer, browser: Any
) -> None:
    ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(2), "you")
        you.tap = True
        knock_on_the_readme_deal(page, stacked, you, match=True)
        you.wait_for_showdown()
        assert "Match 0–0 to 500" in page.locator("#info").inner_text()
        assert "You knock, discarding K♦ face down." in log_text(page)
        sheet = page.locator("#sheet-body").inner_text()
        assert sheet.startswith("Game 1") and "Match to 500" in sheet, sheet
        assert "No game finished yet." in sheet
        assert "Boxes so far, added when the game ends: Ann 25, Computer (beginner) 0." in sheet
        page.locator("#sheet-body").scroll_into_view_if_needed()
        shot(page, "phone-match")
        you.check_clean()  # no script error (the page once broke on a match's sheet)
    finally:
        ctx.close()


# -- accessibility -------------------------------------------------------------------------------


def violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [
        f"{v['id']}: {v['help']} ({len(v['nodes'])}: {v['nodes'][0]['target']})"
        for v in results.response["violations"]
    ]


def test_axe_finds_nothing_on_any_page(server: LiveServer, browser: Any) -> None:
    for size_name, size in (("desktop", DESKTOP), ("phone", PHONES["phone"])):
        ctx = context(browser, size)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/")
            page.locator("#preset option").first.wait_for(state="attached")
            assert violations(page) == [], "lobby"
            shot(page, f"{size_name}-lobby")
            you = Player(page, random.Random(21), "you")
            created = open_table(page, server, mode="computer", level="beginner", name="Ann")
            phases = set()
            deadline = time.monotonic() + 120
            while not you.over():
                assert time.monotonic() < deadline
                phase = you.status().split(" ")[0]
                if phase not in phases:
                    phases.add(phase)
                    assert violations(page) == [], f"table: {you.status()}"
                if not you.step():
                    page.wait_for_timeout(30)
            you.wait_for_showdown()
            assert violations(page) == [], "showdown"
            # the expert's review of the hand, asked for at the showdown
            page.click("#review-ask")
            page.locator("#review h3").wait_for()
            review = page.locator("#review").inner_text()
            assert "Move " in review or "every one of your decisions" in review, review
            # the hand again with both hands face up: 20 cards or more at every position
            assert page.locator("#review .board .card[data-card]").count() >= 20
            if page.locator("#review ol button").count():  # jump to a mistake: it is marked
                page.locator("#review ol button").first.click()
                assert "✗ The expert would" in page.locator("#review .step-label").inner_text()
            before = page.locator("#review .step-label").inner_text()
            back = page.locator("#review button", has_text="Back")
            # step back from a mistake; from the deal (no mistakes to show), forward
            (
                back if back.is_enabled() else page.locator("#review button", has_text="Forward")
            ).click()
            assert page.locator("#review .step-label").inner_text() != before
            assert violations(page) == [], "review"
            shot(page, f"{size_name}-review")
            page.goto(f"{server.url}/history")
            page.wait_for_load_state("networkidle")
            assert violations(page) == [], "history"
            shot(page, f"{size_name}-history")
            page.goto(f"{server.url}/replay/{created['id']}")
            page.wait_for_load_state("networkidle")
            assert violations(page) == [], "replay"  # (of a game still open: refused, in words)
            title = page.locator("#title").inner_text()
            assert title == "A game can be replayed once it is finished", title
            assert page.locator("#hand-select").is_hidden()  # nothing to choose from
            shot(page, f"{size_name}-replay")
        finally:
            ctx.close()


def test_how_to_play_each_preset(server: LiveServer, browser: Any) -> None:
    for size_name, size in (("desktop", DESKTOP), ("phone", PHONES["phone"])):
        ctx = context(browser, size)
        try:
            page = ctx.new_page()
            page.goto(f"{server.url}/learn?preset=oklahoma")
            page.locator("#lesson h2").first.wait_for()
            text = page.locator("#lesson").inner_text()
            assert "first upcard sets the knock limit" in text and "150 points" in text
            assert page.locator("#lesson .card[data-card]").count() >= 10  # the table's cards
            assert violations(page) == [], "how to play"
            shot(page, f"{size_name}-learn")
            page.select_option("#preset", "straight")
            page.wait_for_function(
                "() => /only way to end a hand is gin/.test(document.body.innerText)"
            )
            assert page.url.endswith("/learn?preset=straight")
            assert overflow(page) <= 0
        finally:
            ctx.close()
