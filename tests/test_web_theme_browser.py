"""The dark theme, in Debian's Chromium: a device set to dark (``prefers-color-scheme``) gets it
on every page (the lobby, how to play, the table with its knock dialog, result, score sheet and
review, the history and the replay), and the settings choose light, dark or the device's. The
cards keep their white faces, and every text on the screen keeps WCAG AA's contrast with what
lies under it (4.5:1, 3:1 for large text).

Screenshots go to test-artifacts/ (theme-*.png).
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from test_web_browser import CHROMIUM, Player, browser
from test_web_table_browser import SETTLED, context, knock_on_the_readme_deal, open_table, stacked
from webutil import ARTIFACTS, LiveServer

__all__ = ["browser", "stacked"]  # fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)

SIZES = {"phone": (390, 844), "desktop": (1280, 800)}

# WCAG's contrast ratio of two colours ([r, g, b] in 0-255), as the page's scripts below use it.
RATIO = """const lum = (c) => {
    const f = (v) => (v / 255 <= 0.03928 ? v / 255 / 12.92 : ((v / 255 + 0.055) / 1.055) ** 2.4);
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };"""

# Every text on the screen whose colour has less than WCAG AA's contrast with the background
# under it: its own and its ancestors' colours laid over one another (the felt's gradient counted
# as its lighter colour, --felt), large text (24px, or 18.66px bold) held to 3:1, the rest to
# 4.5:1. The cards' own SVG text, disabled buttons and hidden notices do not count.
CONTRAST = """() => {
  const rgba = (c) => {
    const p = (c.match(/[\\d.]+/g) || [0, 0, 0, 0]).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) =>
    [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat(1);
  RATIO_HERE
  const probe = document.body.appendChild(document.createElement("div"));
  probe.style.backgroundColor = "var(--felt)";
  const felt = rgba(getComputedStyle(probe).backgroundColor);
  probe.remove();
  const background = (el) => {
    const layers = [];
    for (let e = el; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      const c = s.backgroundImage.includes("gradient") ? felt : rgba(s.backgroundColor);
      if (c[3] > 0) layers.push(c);
      if (c[3] >= 1) break;
    }
    let base = [255, 255, 255, 1]; // the canvas, where nothing is opaque
    if (layers.length && layers[layers.length - 1][3] >= 1) base = layers.pop();
    for (const layer of layers.reverse()) base = over(layer, base);
    return base;
  };
  const skip = ".card, .sr-only, [hidden], dialog:not([open]), .toast:not(.show), svg, option";
  const found = [];
  for (const el of document.querySelectorAll("body *")) {
    if (el.closest(skip) || el.matches(":disabled") || !el.getClientRects().length) continue;
    const own = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent);
    const text = own.join("").trim();
    const s = getComputedStyle(el);
    if (!text || s.visibility === "hidden") continue;
    const bg = background(el);
    const r = ratio(over(rgba(s.color), bg), bg);
    const size = parseFloat(s.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(s.fontWeight) >= 700);
    if (r < (large ? 3 : 4.5))
      found.push(`${el.tagName} "${text.slice(0, 30)}" ${r.toFixed(2)}: ${s.color} on ${bg}`);
  }
  return found;
}""".replace("RATIO_HERE", RATIO)

# What the page's main colours compute to: the same for a device set to dark and for the dark
# theme chosen in the settings (style.css writes them twice).
COLOURS = """() => {
  const root = getComputedStyle(document.documentElement);
  const names = [...document.styleSheets[0].cssRules].find((r) => r.selectorText === ":root").style;
  const vars = [...names].filter((n) => n.startsWith("--"))
    .map((n) => `${n} ${root.getPropertyValue(n)}`);
  const els = ["body", ".felt", ".log", "#copy-link", ".panel summary", "#opt-theme", "#learn-link"]
    .map((q) => { const s = getComputedStyle(document.querySelector(q));
      return `${q} ${s.color} ${s.backgroundColor}  ${s.borderTopColor}`; });
  return vars.concat(els); }"""

DARK = """() => {
  const c = getComputedStyle(document.body).backgroundColor.match(/\\d+/g).map(Number);
  return c[0] + c[1] + c[2] < 120; }"""

# The face of every card drawn: white, whatever the theme.
FACES = """() => [...document.querySelectorAll('.card[data-card] .card-svg rect')]
  .map((r) => getComputedStyle(r).fill)"""


def shot(page: Any, name: str) -> None:
    page.wait_for_function(SETTLED)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"theme-{name}.png"))


def open_settings(page: Any) -> None:
    page.locator("summary", has_text="settings").click()


def check(page: Any, where: str) -> None:
    """The page is dark, its cards white, and its text legible."""
    assert page.evaluate(DARK), f"{where}: not dark"
    faces = set(page.evaluate(FACES))
    assert faces <= {"rgb(255, 255, 255)"}, f"{where}: card faces {faces}"
    assert page.evaluate(CONTRAST) == [], where


@pytest.mark.parametrize("name", sorted(SIZES))
def test_a_dark_device_gets_the_dark_theme_on_every_page(
    stacked: LiveServer, browser: Any, name: str
) -> None:
    ctx = context(browser, SIZES[name], color_scheme="dark")
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        page.goto(f"{stacked.url}/")
        page.locator("#preset option").first.wait_for(state="attached")
        check(page, "lobby")
        shot(page, f"{name}-lobby")
        page.goto(f"{stacked.url}/learn")
        page.locator("#lesson h2").first.wait_for()
        check(page, "learn")
        # the README's deal: I pass, draw Ad and knock with Kd, in a game to 10 (then over, so
        # that the history and the replay have it)
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1, "game_target": 10}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.evaluate(
            "() => document.querySelectorAll('details').forEach((d) => { d.open = true; })"
        )
        check(page, "table")
        shot(page, f"{name}-table")
        page.locator("#actions button", has_text="Pass").click()
        page.locator("#stock .card.playable").wait_for()
        page.locator("#stock .card.playable").click()
        page.locator("#hand .card[data-card='Ad']").wait_for()
        page.locator("#hand .card[data-card='Kd']").click()
        page.locator("#actions button", has_text="Knock with").click()
        page.locator("#knock-dialog").wait_for(state="visible")
        check(page, "knock dialog")
        shot(page, f"{name}-knock-dialog")
        page.locator("#knock-ok").click()
        you.wait_for_showdown()
        page.locator("#showdown").scroll_into_view_if_needed()
        check(page, "showdown")
        shot(page, f"{name}-showdown")
        page.click("#review-ask")
        page.locator("#review h3").wait_for()
        check(page, "review")
        page.locator("#sheet-body").scroll_into_view_if_needed()
        shot(page, f"{name}-sheet")
        table_id = page.url.rstrip("/").split("/")[-1]
        page.goto(f"{stacked.url}/history")
        page.locator("#games a").first.wait_for()
        page.locator("#stats .chart").wait_for()
        check(page, "history")
        shot(page, f"{name}-history")
        page.goto(f"{stacked.url}/replay/{table_id}")
        page.locator("#board .card").first.wait_for()
        check(page, "replay")
        shot(page, f"{name}-replay")
        you.check_clean()
    finally:
        ctx.close()


def test_the_settings_choose_light_dark_or_the_devices_theme(
    stacked: LiveServer, browser: Any
) -> None:
    dark = context(browser, SIZES["phone"], color_scheme="dark")
    light = context(browser, SIZES["phone"], color_scheme="light")
    try:
        # the colours of a device set to dark, and its choice of the light theme
        page = dark.new_page()
        open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        open_settings(page)
        assert page.locator("#opt-theme").input_value() == ""  # the device's
        assert page.evaluate(DARK)
        device_dark = page.evaluate(COLOURS)
        page.locator("#opt-theme").select_option("light")
        assert not page.evaluate(DARK)
        assert page.evaluate(CONTRAST) == [], "light on a dark device"
        page.reload()
        page.locator("#hand .card[data-card]").first.wait_for()
        assert not page.evaluate(DARK), "the choice is kept"
        open_settings(page)
        assert page.locator("#opt-theme").input_value() == "light"
        page.locator("#opt-theme").select_option("")
        assert page.evaluate(DARK), "back to the device's"
        # a device set to light, and its choice of the dark theme: the same colours as above
        page = light.new_page()
        open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        assert not page.evaluate(DARK)
        open_settings(page)
        page.locator("#opt-theme").select_option("dark")
        assert page.evaluate(DARK)
        assert page.evaluate(COLOURS) == device_dark
        page.locator("#opt-theme").scroll_into_view_if_needed()
        shot(page, "phone-chosen-dark")
        # every page follows the choice
        page.goto(f"{stacked.url}/")
        page.locator("#preset option").first.wait_for(state="attached")
        assert page.evaluate(DARK), "lobby"
    finally:
        dark.close()
        light.close()


def test_the_lobby_offers_the_theme_before_sitting_down(stacked: LiveServer, browser: Any) -> None:
    # The Theme choice was only in the table's settings: a player saw the lobby in the device's
    # theme, and could change it only once seated.
    ctx = context(browser, SIZES["phone"], color_scheme="light")
    try:
        page = ctx.new_page()
        page.goto(f"{stacked.url}/")
        page.locator("#preset option").first.wait_for(state="attached")
        choice = page.locator("#opt-theme")
        assert choice.input_value() == ""  # the device's
        assert not page.evaluate(DARK)
        choice.select_option("dark")
        assert page.evaluate(DARK)
        check(page, "lobby, dark chosen")
        choice.scroll_into_view_if_needed()
        shot(page, "phone-lobby-chosen-dark")
        page.reload()
        page.locator("#preset option").first.wait_for(state="attached")
        assert page.evaluate(DARK), "the choice is kept"
        assert choice.input_value() == "dark"
        # the table takes it, and its settings show it
        open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        assert page.evaluate(DARK), "table"
        open_settings(page)
        assert page.locator("#opt-theme").input_value() == "dark"
        # and back to the device's, from the lobby
        page.goto(f"{stacked.url}/")
        page.locator("#preset option").first.wait_for(state="attached")
        choice.select_option("")
        assert not page.evaluate(DARK)
        assert page.evaluate("() => JSON.parse(localStorage['ginrummy.settings']).theme") is None
    finally:
        ctx.close()


# How far the header bar stands out from the page under it: the contrast of its background with
# the page's, and of the line under it (where it has one) with the page's.
HEADER = """() => {
  const rgb = (c) => (c.match(/[\\d.]+/g) || [0, 0, 0]).slice(0, 3).map(Number);
  RATIO_HERE
  const page = rgb(getComputedStyle(document.body).backgroundColor);
  const top = getComputedStyle(document.querySelector('header.top'));
  const line = parseFloat(top.borderBottomWidth) > 0 ? ratio(rgb(top.borderBottomColor), page) : 1;
  return [ratio(rgb(top.backgroundColor), page), line];
}""".replace("RATIO_HERE", RATIO)


@pytest.mark.parametrize("where", ["lobby", "table"])
def test_the_header_stands_out_from_the_dark_page(
    stacked: LiveServer, browser: Any, where: str
) -> None:
    # In dark the header (#111827) on the page (#121417) was all but the same colour: nothing
    # marked where the bar ended and the page began.
    ctx = context(browser, SIZES["desktop"], color_scheme="dark")
    try:
        page = ctx.new_page()
        if where == "lobby":
            page.goto(f"{stacked.url}/")
            page.locator("#preset option").first.wait_for(state="attached")
        else:
            open_table(page, stacked, mode="computer", level="beginner", name="Ann")
        shade, line = page.evaluate(HEADER)
        assert shade >= 1.2, shade  # a shade apart
        assert line >= 1.5, line  # and a line between them
        check(page, where)
        shot(page, f"desktop-{where}-header")
    finally:
        ctx.close()


# How far the footer's Theme choice stands below the page's main part (its felt, its panels)
# (a main part with no background of its own ends where its last part does).
FOOTER_GAP = """() => {
  const main = document.querySelector('main');
  const s = getComputedStyle(main);
  const painted = s.backgroundImage !== 'none' || s.backgroundColor !== 'rgba(0, 0, 0, 0)';
  const above = painted ? main : main.lastElementChild;
  return document.querySelector('footer select').getBoundingClientRect().top
    - above.getBoundingClientRect().bottom; }"""

# Where each page has loaded what it shows (the theme choice is checked against it).
LOADED = {
    "history": "#stats .chart",
    "replay": "#board .card",
    "learn": "#lesson h2",
}


def test_the_history_replay_and_how_to_play_offer_the_theme(
    stacked: LiveServer, browser: Any
) -> None:
    # Only the lobby and the table offered the Theme choice: the history, a replay and how to
    # play followed a stored one but gave no way to change it where the player was reading.
    ctx = context(browser, SIZES["phone"], color_scheme="light")
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1, "game_target": 10}
        knock_on_the_readme_deal(page, stacked, you, options=rules)
        you.wait_for_showdown()
        table_id = page.url.rstrip("/").split("/")[-1]
        paths = {"history": "/history", "replay": f"/replay/{table_id}", "learn": "/learn"}
        for where, path in paths.items():
            page.goto(f"{stacked.url}{path}")
            page.locator(LOADED[where]).first.wait_for()
            choice = page.locator("footer #opt-theme")
            assert choice.input_value() == "", where  # the device's
            assert page.evaluate(FOOTER_GAP) >= 8, f"{where}: the Theme choice touches the page"
            assert not page.evaluate(DARK), where
            choice.select_option("dark")
            assert page.evaluate(DARK), where
            check(page, f"{where}, dark chosen")
            choice.scroll_into_view_if_needed()
            shot(page, f"phone-{where}-chosen-dark")
            page.reload()
            page.locator(LOADED[where]).first.wait_for()
            assert page.evaluate(DARK), f"{where}: the choice is kept"
            assert choice.input_value() == "dark", where
            choice.select_option("light")
            assert not page.evaluate(DARK), where
            assert page.evaluate(CONTRAST) == [], f"{where}, light chosen"
            choice.select_option("")
            assert not page.evaluate(DARK), where
            stored = page.evaluate("() => JSON.parse(localStorage['ginrummy.settings']).theme")
            assert stored is None, where
        you.check_clean()
    finally:
        ctx.close()


# What the page is while its modules have not come: the theme on <html>, and whether it is dark.
BEFORE_MODULES = """() => [document.documentElement.dataset.theme || null,
  document.querySelector('link[rel=stylesheet]').sheet !== null && (DARK_HERE)()]""".replace(
    "DARK_HERE", DARK
)


@pytest.mark.parametrize(("device", "chosen"), [("light", "dark"), ("dark", "light")])
def test_every_page_is_drawn_in_the_chosen_theme_from_the_first(
    stacked: LiveServer, browser: Any, device: str, chosen: str
) -> None:
    # The stored theme was applied by the pages' modules, which run only once the whole page has
    # been parsed (and their files fetched): until then a page with dark chosen on a light device
    # was drawn light, and flashed to dark. Here the modules are held back while the page is
    # looked at and drawn.
    ctx = context(browser, SIZES["phone"], color_scheme=device)
    held: list[Any] = []
    try:
        page = ctx.new_page()
        page.goto(f"{stacked.url}/")
        page.locator("#preset option").first.wait_for(state="attached")
        page.locator("#opt-theme").select_option(chosen)
        modules = re.compile(r".*/static/js/(?!theme\.js).*")
        page.route(modules, lambda route: held.append(route))
        for path in ("/", "/t/abc", "/history", "/replay/abc", "/learn"):
            page.goto(f"{stacked.url}{path}", wait_until="commit")
            page.wait_for_function("() => document.querySelector('script[type=module]')")
            theme, dark = page.evaluate(BEFORE_MODULES)
            assert theme == chosen, f"{path}: data-theme {theme} before the modules"
            assert dark == (chosen == "dark"), f"{path}: drawn {device} before the modules"
            name = path.strip("/").split("/")[0] or "lobby"
            shot_now(page, f"phone-{name}-{chosen}-before-modules")
            assert held, f"{path}: its modules came"
            for route in held:
                route.abort()
            held.clear()
        page.unroute(modules)
    finally:
        ctx.close()


def shot_now(page: Any, name: str) -> None:
    """A screenshot of what is drawn now (no waiting for the cards to settle)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"theme-{name}.png"))


def test_every_page_but_the_table_leads_back_to_play(stacked: LiveServer, browser: Any) -> None:
    # The history's header had no way on but its logo, and the replay's only "History": a
    # player done reading had to guess that "♠ Gin Rummy" starts a game.
    ctx = context(browser, SIZES["phone"])
    try:
        page = ctx.new_page()
        for path in ("/history", "/replay/abc", "/learn"):
            page.goto(f"{stacked.url}{path}")
            play = page.locator("header.top nav").get_by_role("link", name="Play", exact=True)
            assert play.get_attribute("href") == "/", path
            assert play.is_visible(), path
        page.locator("header.top nav").get_by_role("link", name="Play", exact=True).click()
        page.locator("#preset option").first.wait_for(state="attached")
    finally:
        ctx.close()
