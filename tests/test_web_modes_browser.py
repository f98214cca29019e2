"""Kinds of tables played to their ends in Debian's Chromium, on the README's known deal
(tests/stacked_serve.py): a match that ends, a game of a match for a stake, a spectator.

Screenshots go to test-artifacts/ (modes-*.png).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from test_web_browser import CHROMIUM, Player, browser, play_to_showdown
from test_web_table_browser import (
    DESKTOP,
    PHONES,
    context,
    knock_on_the_readme_deal,
    open_table,
    overflow,
    shot,
    stacked,
)
from webutil import LiveServer, cards_in_text

__all__ = ["browser", "stacked"]  # fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)


def final_rows(page: Any) -> list[list[str]]:
    """The rows of the showdown's game-over or match-over table, as text."""
    rows: list[list[str]] = page.locator("#showdown .final tr").evaluate_all(
        "trs => trs.map(tr => [...tr.children].map(c => c.textContent))"
    )
    return rows


@pytest.mark.parametrize("size", [PHONES["phone-360"], DESKTOP], ids=["phone", "desktop"])
def test_a_match_won_in_its_first_game_shows_the_match_over(
    stacked: LiveServer, browser: Any, size: tuple[int, int]
) -> None:
    # My knock (23 points) ends a game to 10: 23 + 25 box + 100 game + 100 shutout = 248
    # match points, past the match's 20. The panel once threw on a match's final (no move log,
    # no deal check, no score sheet after it).
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = size[0] < 700
        rules = {"game_target": 10, "match_target": 20}
        knock_on_the_readme_deal(page, stacked, you, rules, match=True, stake="0.5")
        you.wait_for_showdown()
        final = page.locator("#showdown .final")
        # the last game item by item (as every game of a match ends), then the match
        assert final.locator("h3").all_inner_texts() == ["Game 1 over", "Match over"]
        rows = final_rows(page)
        assert rows[1:6] == [
            ["Hand points", "23", "0"],
            ["Boxes", "25", "0"],
            ["Game bonus", "100", "0"],
            ["Shutout", "100", "0"],
            ["Total", "248", "0"],
        ], rows
        assert rows[7:] == [["Game 1", "248", "0"], ["Total", "248", "0"]], rows
        words = final.locator("p").all_inner_texts()
        assert words == [
            "You win the game by 248.",  # the stake is settled once, by the match
            "You win the match by 248. At 0.5 a point, Computer (beginner) pays you 124.00.",
        ], words
        assert page.locator("#showdown button", has_text="Rematch").count() == 1
        sheet = page.locator("#sheet-body").inner_text()
        assert "1\tAnn\tknock\t23\t23\t0" in sheet and "1\tAnn\t248\t248\t0" in sheet, sheet
        shot(page, f"modes-match-over-{'phone' if size[0] < 700 else 'desktop'}")
        you.check_clean()
    finally:
        ctx.close()


def test_a_game_of_a_match_ends_with_its_game_over_and_the_next_game(
    stacked: LiveServer, browser: Any
) -> None:
    # The match begins its next game as soon as one ends: the page once showed that new game
    # (0 to 0, no Game over, "Next hand") at the showdown of the hand that won the game.
    ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        knock_on_the_readme_deal(page, stacked, you, {"game_target": 10}, match=True, stake="0.5")
        you.wait_for_showdown()
        assert page.locator("#names").inner_text() == "Ann 23 – 0 Computer (beginner)"
        final = page.locator("#showdown .final")
        assert final.locator("h3").inner_text() == "Game over"
        assert final_rows(page)[-1] == ["Total", "248", "0"]
        # the stake is settled once, for the match
        assert final.locator("p").inner_text() == "You win the game by 248."
        assert "Match 248–0 to 500" in page.locator("#info").inner_text()
        shot(page, "modes-match-game-over")
        page.locator("#showdown button", has_text="Next game").click()
        page.wait_for_function("() => document.querySelector('#showdown').hidden")
        assert page.locator("#names").inner_text() == "Ann 0 – 0 Computer (beginner)"
        you.check_clean()
    finally:
        ctx.close()


def dom_cards(page: Any) -> set[str]:
    """Every card the page names in its elements' data, labels and titles."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('*')].flatMap((el) => [el.dataset?.card,
             el.getAttribute('aria-label'), el.getAttribute('title')]).filter(Boolean)"""
    )
    return cards_in_text(" ".join(found))


def test_a_spectator_sees_both_seats_and_none_of_their_hidden_cards(
    stacked: LiveServer, browser: Any
) -> None:
    # A spectator's page once showed only the far seat: the near one (its name, dealer and
    # turn, the card it took from the pile) was hidden with "your hand", and the far seat's
    # cards stayed face down after the hand was over.
    ctx = context(browser, PHONES["phone-360"])
    watch_ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        created = open_table(
            page, stacked, mode="computer", level="beginner", name="Ann", options=rules
        )
        watcher = watch_ctx.new_page()
        spectator = Player(watcher, random.Random(2), "spectator")
        watcher.goto(f"{stacked.url}{created['watch']}")
        watcher.locator("#hand .card.back").first.wait_for()
        assert watcher.locator("#hand .card.back").count() == 10
        assert watcher.locator("#my-label").inner_text().startswith("Ann")
        assert watcher.locator("#arrange").is_hidden()
        assert "Undo takes back Ann's last move" in watcher.locator("#fair-play").inner_text()
        page.locator("#actions button", has_text="Take upcard").tap()
        watcher.locator("#hand .card[data-card='Jd']").wait_for()
        assert watcher.locator("#hand .card.back").count() == 10
        label = watcher.locator("#hand .cards").get_attribute("aria-label")
        assert label == "Ann holds 11 cards, known: jack of diamonds", label
        assert dom_cards(watcher) == {"Jd"}  # nothing else of either hand, nor the stock
        shot(watcher, "modes-spectator-phone")
        # the hand played on to its end: both hands face up
        page.locator("#hand .card[data-card='Kd']").tap(position={"x": 6, "y": 24})
        page.locator("#actions button", has_text="Discard").tap()
        page.locator("#hand .card[data-card='Kd']").wait_for(state="detached")
        play_to_showdown([you], limit=180)
        you.wait_for_showdown()
        watcher.locator("#showdown").wait_for(state="visible")
        # Ann's hand face up, or laid out on the table if she knocked (not shown twice)
        watcher.wait_for_function(
            "() => document.querySelector('#hand .card[data-card]')"
            " || /laid out on the table/.test(document.querySelector('#hand').textContent)"
        )
        if watcher.locator("#hand .card[data-card]").count() == 0:
            assert "Ann knocks: melds on the table" in watcher.locator("#melds").inner_text()
        else:
            assert watcher.locator("#hand .card.back").count() == 0
        assert watcher.locator("#opp-cards .card.back").count() == 0
        shown = "els => els.map(e => e.dataset.card).sort()"
        computer = page.locator("#opp-cards .card[data-card]").evaluate_all(shown)
        assert watcher.locator("#opp-cards .card[data-card]").evaluate_all(shown) == computer
        you.check_clean()
        spectator.check_clean()
    finally:
        ctx.close()
        watch_ctx.close()


def test_the_history_of_a_finished_game_fits_a_phone(stacked: LiveServer, browser: Any) -> None:
    # The table of statistics by opponent and rules once widened the whole page on a phone.
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        knock_on_the_readme_deal(page, stacked, you, {"game_target": 10})
        you.wait_for_showdown()
        assert page.locator("#showdown button", has_text="Rematch").count() == 1
        page.goto(f"{stacked.url}/history")
        page.locator("#stats caption", has_text="By opponent and rules").wait_for()
        assert overflow(page) <= 0
        shot(page, "modes-history-phone")
        you.check_clean()
    finally:
        ctx.close()


def test_a_hints_reason_does_not_repeat_its_action(stacked: LiveServer, browser: Any) -> None:
    # "draw from the stock — draw from the stock: Q♠ does not fit your hand" was shown once:
    # only a discard's reason lost the action it began with.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        page.goto(f"{stacked.url}/")
        said = page.evaluate(
            """async () => {
            const { hintReason } = await import('/static/js/words.js');
            return [
              hintReason('draw', 'draw from the stock: Qs does not fit your hand'),
              hintReason('take', 'take Qs: it makes a set (Qs Qh Qd)'),
              hintReason('discard Kd', 'discard Kd: leaves 23 deadwood'),
              hintReason('gin Kd', 'gin: the bonus plus all his deadwood'),
              hintReason('biggin', 'big gin: all eleven cards melded'),
              hintReason('knock Kd', 'knock now with 4 deadwood; he holds about 20'),
              hintReason('pass', 'pass: the hand ends dead, nobody scores'),
            ];
        }"""
        )
        assert said == [
            "Qs does not fit your hand",
            "it makes a set (Qs Qh Qd)",
            "leaves 23 deadwood",
            "the bonus plus all his deadwood",
            "all eleven cards melded",
            "knock now with 4 deadwood; he holds about 20",
            "the hand ends dead, nobody scores",
        ]
    finally:
        ctx.close()


# Press Hint and read the hints' box in the same task: no answer from the server can have come.
HINT_PRESSED = """(how) => {
  const key = new KeyboardEvent("keydown", { key: "h", bubbles: true });
  if (how === "key") document.body.dispatchEvent(key);
  else document.querySelector("#hint").click();
  const box = document.querySelector("#hints");
  return box.hidden ? null : box.textContent;
}"""


@pytest.mark.parametrize(("name", "how"), [("phone", "tap"), ("desktop", "key")])
def test_hint_says_at_once_that_it_is_working_out_the_moves(
    stacked: LiveServer, browser: Any, name: str, how: str
) -> None:
    # The hints take the server a moment (5 s on a busy one): until they came, pressing Hint
    # (or H) changed nothing on the page, as if it did nothing, and was pressed again.
    from test_web_theme_browser import CONTRAST

    ctx = context(browser, PHONES["phone"] if name == "phone" else DESKTOP, color_scheme="dark")
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        assert page.locator("#hints").is_hidden()
        said = page.evaluate(HINT_PRESSED, how)
        assert said == "HintsWorking out your best moves…", said
        assert page.locator("#hints").is_visible()
        assert page.evaluate(CONTRAST) == [], "the hints' box while they are worked out"
        page.locator("#hints li").first.wait_for()
        text = page.locator("#hints").inner_text()
        assert "Working out" not in text and "pass" in text, text
        page.locator("#actions button", has_text="Pass").click()  # a new state: no hints
        page.locator("#stock .card.playable").wait_for()
        assert page.locator("#hints").is_hidden()
        you.check_clean()
    finally:
        ctx.close()


SHOWDOWN_SEATS = "els => els.map(e => e.textContent)"


def test_the_result_marks_which_cards_are_yours(stacked: LiveServer, browser: Any) -> None:
    # The result laid out both seats' cards under their bare names ("Player 2", "Ann"), where
    # the table above marks the player's own ("Player 2 (you)"): a player who had kept the
    # name given could not tell which cards were his.
    ctx = context(browser, PHONES["phone"])
    watch_ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        knock_on_the_readme_deal(page, stacked, you)
        you.wait_for_showdown()
        seats = page.locator("#showdown .seat-label").evaluate_all(SHOWDOWN_SEATS)
        assert seats == ["Ann (you)", "Computer (beginner)"], seats
        assert page.locator("#my-label").inner_text() == "Ann (you)"
        watcher = watch_ctx.new_page()
        watcher.goto(page.url.split("#")[0])  # the table's own link: a spectator's
        watcher.locator("#showdown .seat-label").first.wait_for()
        seats = watcher.locator("#showdown .seat-label").evaluate_all(SHOWDOWN_SEATS)
        assert seats == ["Ann", "Computer (beginner)"], seats  # nobody's is "you"
        you.check_clean()
    finally:
        ctx.close()
        watch_ctx.close()
