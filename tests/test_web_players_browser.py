"""The table as a demanding player judges it, in Debian's Chromium, on known deals
(tests/stacked_serve.py): a focus ring that stands out from the marks of what may be played,
the words on the table after a knock or a gin, what the layoff step asks for, and the hand's
melds named for a screen reader.

Screenshots go to test-artifacts/ (players-*.png).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from test_web_browser import CHROMIUM, Player, browser
from test_web_table_browser import DESKTOP, context, open_table, stacked
from webutil import ARTIFACTS, LiveServer

__all__ = ["browser", "stacked"]  # fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)

# The marks around a card that are not where it sits: its outline and its shadows' colours.
RING = """(sel) => { const s = getComputedStyle(document.querySelector(sel));
  return [s.outlineStyle === 'none' ? 'none' : s.outlineColor, s.boxShadow].join(' / '); }"""


def test_the_focused_card_stands_out_from_the_cards_that_may_be_played(
    stacked: LiveServer, browser: Any
) -> None:
    # The stock and the pile are ringed when they may be played; the focus ring was the same
    # amber ring, 2px further out, so a player moving by Tab could not tell which was focused.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # the computer deals
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.keyboard.press("p")  # on Jd
        page.locator("#stock .card.playable").wait_for()
        page.keyboard.press("d")  # Ad
        page.locator("#hand .card[data-card='Ad']").wait_for()
        page.locator("#hand .card[data-card='Kd']").click()
        page.keyboard.press("x")
        # the computer moves, and then I may draw or take its discard
        page.locator("#pile .card.playable").wait_for()
        page.locator("#stock .card.playable").wait_for()
        playable = page.evaluate(RING, "#stock .card")
        page.locator("#pile .card").focus()
        page.keyboard.press("Shift+Tab")  # to the stock, by the keyboard
        assert page.evaluate("() => document.activeElement.closest('#stock') != null")
        focused = page.evaluate(RING, "#stock .card")
        assert focused != playable, f"focused and playable look the same: {focused}"
        assert page.evaluate(RING, "#pile .card") == playable  # the pile, playable, unfocused
        ARTIFACTS.mkdir(exist_ok=True)
        page.locator(".middle").screenshot(path=str(ARTIFACTS / "players-focus.png"))
        you.check_clean()
    finally:
        ctx.close()
