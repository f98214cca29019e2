"""The pages as players hold them, in Debian's Chromium: controls a finger can hit on a phone,
charts a player can read, the undo that warns before a game leaves the statistics, what a
spectator is told, and a Hollywood game's three scores.

Screenshots go to test-artifacts/ (polish-*.png). A touch screen's styles are taken without
``full_page``: Chromium's full-page capture drops the touch emulation (``pointer: coarse``).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from test_web_browser import CHROMIUM, Player, browser, play_to_showdown
from test_web_table_browser import (
    DESKTOP,
    PHONES,
    context,
    knock_on_the_readme_deal,
    open_table,
    stacked,
)
from webutil import ARTIFACTS, LiveServer

__all__ = ["browser", "stacked"]  # fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)


def screen(page: Any, name: str) -> None:
    """What the screen shows now (the viewport, with the touch screen's styles)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"polish-{name}.png"))


# Every control on the screen whose box (a radio button's or checkbox's: its label's) is less
# than 44px high. Links and buttons inside a sentence are exempt, as WCAG exempts them, but
# for the expert's review's "Move N" buttons, each heading its line: the controls of that list.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'a[href], button, select, input, textarea, summary')]
  .filter((e) => e.getClientRects().length && !e.closest('[hidden], dialog:not([open])'))
  .map((e) => (e.matches('[type=radio], [type=checkbox]') && e.closest('label')) || e)
  .filter((e) => { const line = e.parentElement.closest('p, li');
    return !line || line.textContent.trim() === e.textContent.trim()
      || line.matches('.review li'); })
  .filter((e) => e.getBoundingClientRect().height < 43.5)
  .map((e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''} "${
    e.textContent.trim().slice(0, 24)}" ${Math.round(e.getBoundingClientRect().height)}px`)"""


def small_targets(page: Any) -> list[str]:
    found: list[str] = page.evaluate(SMALL_TARGETS)
    return found


def open_all(page: Any) -> None:
    """Open every folded section, so that its controls are measured too."""
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")


@pytest.mark.parametrize("name", sorted(PHONES))
def test_every_control_is_big_enough_for_a_finger(
    stacked: LiveServer, browser: Any, name: str
) -> None:
    ctx = context(browser, PHONES[name])
    try:
        page = ctx.new_page()
        page.goto(f"{stacked.url}/")
        page.locator("#preset option").first.wait_for(state="attached")
        screen(page, f"{name}-lobby")
        open_all(page)
        assert small_targets(page) == [], "lobby"
        page.locator("input[name=mode][value=friend]").check()
        assert small_targets(page) == [], "lobby, a friend's options"
        page.goto(f"{stacked.url}/learn")
        page.locator("#lesson h2").first.wait_for()
        assert small_targets(page) == [], "learn"
        # a game to 10, won by my knock: then the history and the replay have a game
        you = Player(page, random.Random(1), "you")
        you.tap = True
        knock_on_the_readme_deal(page, stacked, you, {"game_target": 10})
        you.wait_for_showdown()
        table_id = page.url.rstrip("/").split("/")[-1]
        open_all(page)
        assert small_targets(page) == [], "table at the showdown"
        page.locator("#showdown").scroll_into_view_if_needed()
        screen(page, f"{name}-showdown")
        page.click("#review-ask")
        page.locator("#review h3").wait_for()
        assert small_targets(page) == [], "the expert's review"
        page.goto(f"{stacked.url}/history")
        page.locator("#games a").first.wait_for()
        page.locator("#stats .chart").wait_for()
        assert small_targets(page) == [], "history"
        page.goto(f"{stacked.url}/replay/{table_id}")
        page.locator("#board .card").first.wait_for()
        assert small_targets(page) == [], "replay"
        screen(page, f"{name}-replay")
        you.check_clean()
    finally:
        ctx.close()


def test_the_reviews_move_buttons_are_big_enough_for_a_finger(
    stacked: LiveServer, browser: Any
) -> None:
    # The review lists each decision the expert would not have made with a "Move N" button
    # that walks the hand to it: a link's 19px in the line, too small for a finger.
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        # Jd fits nothing in As 2s 3s 4s 3h 7h 7d Kd 4c 7c: the expert would pass it
        page.locator("#actions button", has_text="Take upcard").tap()
        page.locator("#hand .card[data-card='Jd']").wait_for()
        play_to_showdown([you])
        page.locator("#review-ask").tap()
        page.locator("#review h3").wait_for()
        moves = page.locator("#review li button", has_text="Move")
        assert moves.count() > 0
        assert small_targets(page) == [], "the expert's review"
        moves.first.scroll_into_view_if_needed()
        screen(page, "phone-360-review")
        you.check_clean()
    finally:
        ctx.close()


def test_a_desktop_keeps_its_compact_controls(stacked: LiveServer, browser: Any) -> None:
    # The bigger targets are for touch screens: a mouse keeps the denser page.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{stacked.url}/")
        page.locator("#preset option").first.wait_for(state="attached")
        assert page.locator("#preset").bounding_box()["height"] < 40
    finally:
        ctx.close()


def test_the_chart_of_net_points_has_a_scale(stacked: LiveServer, browser: Any) -> None:
    # The chart was a bare line: no values, no games, nothing a player could read off it.
    ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        knock_on_the_readme_deal(page, stacked, you, {"game_target": 10})  # won by 248
        you.wait_for_showdown()
        page.goto(f"{stacked.url}/history")
        chart = page.locator("#stats .chart")
        chart.wait_for()
        labels = chart.locator("text").all_text_contents()
        # zero and the highest total (the lowest, −10, too close to zero to read apart)
        assert labels[:2] == ["0", "+248"] and "−10" not in labels, labels
        assert "start" in labels and "game 1" in labels, labels
        # the labels are inside the chart and big enough to read on a phone
        box = chart.bounding_box()
        for label in chart.locator("text").all():
            b = label.bounding_box()
            assert b["x"] >= box["x"] and b["x"] + b["width"] <= box["x"] + box["width"] + 0.5
            assert b["height"] >= 10, b
        boxes = [t.bounding_box() for t in chart.locator("text").all()]
        for i, a in enumerate(boxes):  # no two labels overlap
            for b in boxes[i + 1 :]:
                apart = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                assert apart or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
        chart.scroll_into_view_if_needed()
        screen(page, "phone-history-chart")
        you.check_clean()
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def slow(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose computer waits 30 s before each move: time to undo."""
    db = tmp_path_factory.mktemp("slow") / "games.db"
    with LiveServer(db, computer_delay=30) as live:
        yield live


def test_the_first_undo_warns_and_the_second_press_takes_the_move_back(
    slow: LiveServer, browser: Any
) -> None:
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # I decide on the upcard first
        open_table(page, slow, mode="computer", level="beginner", name="Ann", options=rules)
        page.locator("#actions button", has_text="Pass").tap()
        log = page.locator("#log-list")
        page.wait_for_function(
            "() => /You pass/.test(document.querySelector('#log-list').textContent)"
        )
        undo = page.locator("#undo")
        assert undo.is_visible()
        assert "Undo was used" not in page.locator("#fair-play").inner_text()
        undo.tap()
        toast = page.locator("#toast")
        assert (
            "count in no statistics" in toast.inner_text()
            and "press Undo again" in toast.inner_text()
        )
        # across the screen, not squeezed into half of it
        box = toast.bounding_box()
        assert box["width"] >= 360 - 40 and box["x"] >= 0, box
        page.wait_for_function(
            "() => getComputedStyle(document.querySelector('#toast')).opacity === '1'"
        )
        screen(page, "phone-360-undo-warning")
        # and not over my hand, which it hid for the six seconds it stays, nor over the Undo
        # it asks me to press again
        for covered in ("#hand", "#undo"):
            b = page.locator(covered).bounding_box()
            assert box["y"] + box["height"] <= b["y"] or b["y"] + b["height"] <= box["y"], (
                covered,
                box,
                b,
            )
        page.wait_for_timeout(4500)  # the first press takes nothing back; the warning stays
        assert toast.evaluate("(e) => e.classList.contains('show')")
        assert "You pass" in log.inner_text()
        undo.tap()
        page.wait_for_function(
            "() => !/You pass/.test(document.querySelector('#log-list').textContent)"
        )
        assert page.locator("#actions button", has_text="Pass").is_visible()  # my move again
        page.wait_for_function(
            "() => /Undo was used/.test(document.querySelector('#fair-play').textContent)"
        )
        # later undos in this game need no second press
        page.locator("#actions button", has_text="Pass").tap()
        page.wait_for_function(
            "() => /You pass/.test(document.querySelector('#log-list').textContent)"
        )
        undo.tap()
        page.wait_for_function(
            "() => !/You pass/.test(document.querySelector('#log-list').textContent)"
        )
    finally:
        ctx.close()


# What a spectator reads and hears: the page's text but for the settings panel (its keys and
# seat link are for players), and every label read aloud.
SPOKEN = """() => {
  const parts = [...document.querySelectorAll(
    'header, .table-layout, section[aria-label="Table notices"], #toast')].map((e) => e.innerText);
  for (const e of document.querySelectorAll('[aria-label], [title]'))
    parts.push(e.getAttribute('aria-label') || '', e.getAttribute('title') || '');
  return parts.join(' | ');
}"""


def test_a_spectator_is_told_of_the_players_by_name(stacked: LiveServer, browser: Any) -> None:
    ctx = context(browser, DESKTOP)
    watcher_ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        created = open_table(
            page, stacked, mode="computer", level="beginner", name="Ann", options=rules
        )
        watcher = watcher_ctx.new_page()
        watcher.goto(f"{stacked.url}{created['watch']}")
        watcher.locator("#opp-cards .card").first.wait_for()
        fair = watcher.locator("#fair-play").inner_text()
        assert fair.startswith("Hints are on for Ann. Undo takes back Ann's last move"), fair
        said = {watcher.evaluate(SPOKEN)}
        page.locator("#actions button", has_text="Pass").click()
        page.locator("#stock .card.playable").wait_for()
        page.locator("#stock .card.playable").click()
        page.locator("#hand .card[data-card='Ad']").wait_for()
        said.add(watcher.evaluate(SPOKEN))
        page.locator("#hand .card[data-card='Kd']").click()
        page.locator("#actions button", has_text="Knock with").click()
        page.locator("#knock-ok").click()
        watcher.locator("#showdown h2, #showdown h3").first.wait_for()
        said.add(watcher.evaluate(SPOKEN))
        # Ann's knocked cards lie on the table and in the result, and not also in her row
        assert watcher.locator("#hand .card[data-card]").count() == 0
        assert "laid out on the table" in watcher.locator("#mine").inner_text()
        watcher.locator("#showdown").scroll_into_view_if_needed()
        screen(watcher, "phone-spectator")
        addressed = [s for s in said if re.search(r"\byou(r|rs)?\b", s, re.IGNORECASE)]
        words = [m for s in addressed for m in re.findall(r"[^|.]*\byour?\b[^|.]*", s, re.I)]
        assert not words, words
        you.check_clean()
    finally:
        ctx.close()
        watcher_ctx.close()


def test_a_hollywood_table_shows_each_columns_score(stacked: LiveServer, browser: Any) -> None:
    # My knock scores 23 in the first column, and my box opens the second: the header once
    # summed the columns ("Ann 46 – 0").
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        knock_on_the_readme_deal(page, stacked, you, preset="hollywood")
        you.wait_for_showdown()
        sheet = page.locator("#sheet-body tbody tr").first.locator("td").all_inner_texts()
        names = page.locator("#names").inner_text()
        assert names == (
            f"Ann – Computer (beginner): g1 {sheet[4]}–{sheet[5]} · g2 {sheet[6]}–{sheet[7]}"
            f" · g3 {sheet[8]}–{sheet[9]}"
        ), (names, sheet)
        assert "g1 23–0" in names
        # the score line has a row of its own across the phone, read in one or two lines (it
        # wrapped to five in a narrow column between the logo and the Share button)
        line = page.locator("#names")
        box = line.bounding_box()
        size = float(line.evaluate("(e) => parseFloat(getComputedStyle(e).fontSize)"))
        assert box["width"] >= 360 - 40 and box["height"] <= 2 * 1.5 * size, (box, size)
        for other in ("header .home", "#copy-link"):
            b = page.locator(other).bounding_box()
            assert b["y"] + b["height"] <= box["y"] or box["y"] + box["height"] <= b["y"], other
        page.evaluate("() => window.scrollTo(0, 0)")
        screen(page, "phone-hollywood")
        you.check_clean()
    finally:
        ctx.close()


# Every checkbox and radio button on the screen that is not 20px square, as a touch screen
# draws them (style.css): "name widthxheight".
SQUEEZED_BOXES = """() => [...document.querySelectorAll('input[type=checkbox], input[type=radio]')]
  .filter((e) => e.getClientRects().length)
  .map((e) => [e.name || e.id, e.getBoundingClientRect()])
  .filter(([, r]) => Math.round(r.width) !== 20 || Math.round(r.height) !== 20)
  .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""


@pytest.mark.parametrize("name", sorted(PHONES))
def test_no_box_is_squeezed_by_its_label(stacked: LiveServer, browser: Any, name: str) -> None:
    # On a phone the friend's "Hints for both players (never in a game for stakes)" box was
    # squeezed by its two lines of words to 13px wide and 20px high, beside the 20px squares.
    ctx = context(browser, PHONES[name])
    try:
        page = ctx.new_page()
        page.goto(f"{stacked.url}/")
        page.locator("#preset option").first.wait_for(state="attached")
        page.locator("input[name=mode][value=friend]").check()
        open_all(page)
        assert page.evaluate(SQUEEZED_BOXES) == [], "lobby, a friend's options"
        page.locator("input[name=hints]").scroll_into_view_if_needed()
        screen(page, f"{name}-lobby-hints-box")
        open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        open_all(page)
        assert page.evaluate(SQUEEZED_BOXES) == [], "table and its settings"
    finally:
        ctx.close()
