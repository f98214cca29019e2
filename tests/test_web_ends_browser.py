"""The end of a match and what is kept of it, as a player sees them in Debian's Chromium: the
last game's tally beside the match's, the expert's review of the hand, and the history page's
record (its rules named by what was changed, its figures named by what they count, its table
inside its panel).

One match is played (to 10, won by my knock on the README's deal, under changed rules) on a
phone, and every test looks at it. Screenshots go to test-artifacts/ (ends-*.png).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from test_web_browser import CHROMIUM, Player, browser
from test_web_table_browser import PHONES, context, knock_on_the_readme_deal, overflow, stacked
from webutil import ARTIFACTS, LiveServer

__all__ = ["browser", "stacked"]  # fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)

# gin bonus 20 and knock limit 9, besides the fixed first dealer the README's deal needs
RULES = {"game_target": 10, "match_target": 10, "gin_bonus": 20, "knock_limit": 9}


def screen(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"ends-{name}.png"), full_page=True)


@pytest.fixture(scope="module")
def match(stacked: LiveServer, browser: Any) -> Iterator[tuple[Any, Player]]:
    """A phone's page at a match just won by my knock (the only hand of its only game)."""
    ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        you.tap = True
        knock_on_the_readme_deal(page, stacked, you, RULES, match=True)
        you.wait_for_showdown()
        page.locator("#showdown .final").wait_for()
        yield page, you
    finally:
        ctx.close()


def test_the_end_of_a_match_shows_its_last_games_tally_too(match: tuple[Any, Player]) -> None:
    # Every other game of a match ends with its tally item by item; the last one showed only
    # the match's points game by game.
    page, you = match
    text = page.locator("#showdown .final").inner_text()
    for item in ("Game 1 over", "Hand points", "Boxes", "Game bonus", "Shutout"):
        assert item in text, (item, text)
    assert "You win the game by 248." in text, text
    assert text.index("Game 1 over") < text.index("Match over"), text
    assert "You win the match by 248." in text, text
    assert overflow(page) == 0
    page.locator("#showdown .final").scroll_into_view_if_needed()
    screen(page, "phone-match-over")
    you.check_clean()


def test_the_reviews_boards_mark_you(match: tuple[Any, Player]) -> None:
    # The table and the result say "Ann (you)"; the review's boards said only "Ann".
    page, you = match
    page.locator("#review-ask").tap()
    page.locator("#review .seat-label").first.wait_for()
    labels = page.locator("#review .seat-label").all_inner_texts()
    assert labels[0] == "Ann (you)", labels
    assert labels[-1] == "Computer (beginner) (dealer)", labels
    assert overflow(page) == 0
    you.check_clean()


def by_rules(page: Any, stacked: LiveServer) -> Any:
    page.goto(f"{stacked.url}/history")
    table = page.locator("#stats table.sheet", has_text="By opponent and rules")
    table.wait_for()
    return table


def test_the_history_names_the_rules_changed(
    match: tuple[Any, Player], stacked: LiveServer
) -> None:
    # The rules' cell said "standard, changed": changed how, a player could not tell.
    page, _ = match
    group = by_rules(page, stacked).locator("tbody th.group")
    assert " ".join(group.inner_text().split()) == (
        "Against the computer (beginner): "
        "standard, knock limit 9, gin bonus 20, first dealer fixed, 3 more"
    )


def test_the_list_of_games_names_each_games_rules(
    match: tuple[Any, Player], stacked: LiveServer
) -> None:
    # The list said who played, when and who won, but not under which rules.
    page, _ = match
    by_rules(page, stacked)
    line = " ".join(page.locator("#games li").first.inner_text().split())
    assert "standard, knock limit 9, gin bonus 20, first dealer fixed, 3 more" in line, line
    assert overflow(page) == 0


def test_the_hands_figure_is_named_for_what_it_counts(
    match: tuple[Any, Player], stacked: LiveServer
) -> None:
    # "Hands played" stood under "Games finished" but counted the hands of those games only.
    page, _ = match
    by_rules(page, stacked)
    rows = page.locator("#stats table.sheet").first.locator("tr")
    labels = rows.locator("th").all_inner_texts()
    assert "Hands played" not in labels, labels
    assert labels[:4] == ["Games finished", "Won", "Lost", "Hands in those games"], labels
    assert rows.nth(3).locator("td").inner_text() == "1"  # the match's one hand


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
def test_the_record_by_opponent_and_rules_fits_its_panel(
    match: tuple[Any, Player], stacked: LiveServer, size: tuple[int, int]
) -> None:
    # On a desktop the table scrolled sideways inside its panel, its last column cut off.
    page, _ = match
    page.set_viewport_size({"width": size[0], "height": size[1]})
    try:
        table = by_rules(page, stacked)
        table.scroll_into_view_if_needed()
        screen(page, f"{size[0]}-history")
        box = table.locator("xpath=..")
        wide, room = box.evaluate("(e) => [e.scrollWidth, e.clientWidth]")
        assert wide <= room, (wide, room)
        assert overflow(page) == 0
        # the headings and figures stay on a line or two: readable, not a word a line
        for cell in table.locator("th, td").all():
            height = cell.bounding_box()["height"]
            assert height < 3 * 22, (cell.inner_text(), height)
    finally:
        page.set_viewport_size({"width": 390, "height": 844})
