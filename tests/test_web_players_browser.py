"""The table as a demanding player judges it, in Debian's Chromium, on known deals
(tests/stacked_serve.py): a focus ring that stands out from the marks of what may be played,
the words on the table after a knock or a gin, what the layoff step asks for, and the hand's
melds named for a screen reader.

Screenshots go to test-artifacts/ (players-*.png).
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from test_web_browser import CHROMIUM, Player, browser
from test_web_table_browser import (
    DESKTOP,
    PHONES,
    SETTLED,
    context,
    knock_on_the_readme_deal,
    open_table,
    shot,
    stacked,
)
from webutil import ARTIFACTS, LiveServer

__all__ = ["browser", "stacked"]  # fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)

# The computer (the non-dealer when I deal) holds As 2s 3s 4s 5h 5d 5c 9h 9d Kd and the upcard
# is 9c: it takes it and goes gin, discarding Kd. I hold Qh Qd Qc 9s Ts Js 6d 6h 8c Kc.
GIN_TOP = "As Qh 2s Qd 3s Qc 4s 9s 5h Ts 5d Js 5c 6d 9h 6h 9d 8c Kd Kc 9c Ad"
I_DEAL = {"first_dealer": "fixed", "first_dealer_seat": 0}

# The same gin against ten cards of mine that make no meld: Qh Jd Tc 8s 7h 6d 4c 3h 2d Kc.
GIN_ON_NOTHING_TOP = "As Qh 2s Jd 3s Tc 4s 8s 5h 7h 5d 6d 5c 4c 9h 3h 9d 2d Kd Kc 9c Ad"


# The README's deal but for two of my cards: I hold 5s and 7s (for 6h and 9c), and lay them off
# on the expert's melds once it knocks (it sees what it saw on the README's deal).
LAYOFF_TOP = "As Qh 2s Qd 3s Qc 4s 9s 7h Ts 7d Js 7c 6d Kd 5s 4c 7s 3h Kc Jd Ad"


def deal_server(tmp_path_factory: pytest.TempPathFactory, top: str) -> Iterator[LiveServer]:
    """A server dealing ``top`` on top of the deck."""
    db: Path = tmp_path_factory.mktemp("deal") / "games.db"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GINRUMMY_STACKED_TOP", top)  # read when the server starts
        live = LiveServer(db, computer_delay=0.3, module="stacked_serve")
        live.start()
    try:
        yield live
    finally:
        live.kill()


@pytest.fixture(scope="module")
def gin_deal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from deal_server(tmp_path_factory, GIN_TOP)


@pytest.fixture(scope="module")
def gin_on_nothing_deal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from deal_server(tmp_path_factory, GIN_ON_NOTHING_TOP)


@pytest.fixture(scope="module")
def layoff_deal(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    yield from deal_server(tmp_path_factory, LAYOFF_TOP)


def the_computer_knocks(page: Any, server: LiveServer) -> Player:
    """At a new table on the README's deck, where I deal: the expert passes Jd, I pass it,
    and the expert draws Ad and knocks with Kd (3h Ad 4c: 8 deadwood). Nothing of mine
    (Qh Qd Qc 9s Ts Js 6d 6h 9c Kc) lays off on its melds."""
    you = Player(page, random.Random(1), "you")
    open_table(page, server, mode="computer", level="expert", name="Ann", options=I_DEAL)
    page.locator("#actions button", has_text="Pass").click()
    page.wait_for_function("() => /knock/i.test(document.querySelector('#melds').textContent)")
    return you


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


# -- after a knock ------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [PHONES["phone"], DESKTOP], ids=["phone", "desktop"])
def test_the_knockers_deadwood_is_on_the_table_for_the_layoffs(
    stacked: LiveServer, browser: Any, size: tuple[int, int]
) -> None:
    # To lay off well, and to see an undercut coming, the defender needs the knocker's
    # deadwood: the table showed its cards only, in a darker group, to be added up.
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        you = the_computer_knocks(page, stacked)
        melds = page.locator("#melds .seat-label").inner_text()
        assert melds == "Computer (expert) knocks: melds on the table (8 deadwood)", melds
        # Nothing lays off: the page says so, and the move it asks for is Done, not the
        # optimal layoffs of nothing.
        status = page.locator("#status").inner_text()
        key = "" if size[0] < 700 else " (F)"  # a phone's sentence names no key either
        assert status == f"Nothing to lay off: press Done{key} to see the result.", status
        done = page.locator("#actions button.primary").inner_text()
        assert done == ("Done" if size[0] < 700 else "Done (F)"), done  # no keys on a phone
        shot(page, f"players-{'phone' if size[0] < 700 else 'desktop'}-layoff")
        page.keyboard.press("f")
        you.wait_for_showdown()
        you.check_clean()
    finally:
        ctx.close()


@pytest.mark.parametrize("name", PHONES)
def test_the_layoffs_show_the_knockers_melds_and_my_hand_together_on_a_phone(
    stacked: LiveServer, browser: Any, name: str
) -> None:
    # The knocker's melds came in above the hand and pushed it below the screen (a 360x740
    # phone): the layoffs were asked for with the cards to lay off out of sight.
    ctx = context(browser, PHONES[name])
    try:
        page = ctx.new_page()
        you = the_computer_knocks(page, stacked)
        page.locator("#actions button", has_text="Done").wait_for()
        page.wait_for_function(
            """() => { const hand = document.querySelector('#hand').getBoundingClientRect();
              const melds = document.querySelector('#melds').getBoundingClientRect();
              return hand.bottom <= innerHeight && melds.top >= 0; }""",
            timeout=5_000,
        )
        page.wait_for_function(SETTLED)
        page.screenshot(path=str(ARTIFACTS / f"players-{name}-layoff-screen.png"))
        page.keyboard.press("f")
        you.wait_for_showdown()
        you.check_clean()
    finally:
        ctx.close()


def test_the_computers_gin_is_called_gin_on_the_table(gin_deal: LiveServer, browser: Any) -> None:
    # The table said "Computer (expert) knocks: melds on the table" over a gin (as the move
    # log and the result said "goes gin").
    ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        open_table(page, gin_deal, mode="computer", level="expert", name="Ann", options=I_DEAL)
        you.wait_for_showdown()
        assert (
            page.locator("#showdown h2").inner_text() == "Computer (expert) wins the hand with gin"
        )
        melds = page.locator("#melds .seat-label").inner_text()
        assert melds == "Computer (expert) goes gin: melds on the table", melds
        you.check_clean()
    finally:
        ctx.close()


@pytest.mark.parametrize("name", PHONES)
def test_the_showdown_shows_every_card_of_a_long_deadwood_on_a_phone(
    gin_on_nothing_deal: LiveServer, browser: Any, name: str
) -> None:
    # The showdown laid each group of cards out on one line: ten cards of deadwood (eight
    # already on a 390-wide phone) ran past the felt's edge, which cut the last ones off.
    ctx = context(browser, PHONES[name])
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        open_table(
            page, gin_on_nothing_deal, mode="computer", level="expert", name="Ann", options=I_DEAL
        )
        you.wait_for_showdown()
        dead = page.locator("#showdown .meld.deadwood .card[data-card]")
        assert dead.count() == 10
        outside = page.evaluate(
            """() => [...document.querySelectorAll('#showdown .card[data-card]')]
            .filter((el) => { const r = el.getBoundingClientRect();
              return r.left < 0 || r.right > document.documentElement.clientWidth; })
            .map((el) => el.dataset.card)"""
        )
        assert outside == [], outside
        shot(page, f"players-{name}-showdown-no-melds")
        you.check_clean()
    finally:
        ctx.close()


@pytest.mark.parametrize("size", [PHONES["phone"], DESKTOP], ids=["phone", "desktop"])
def test_the_cards_that_lay_off_are_marked_in_the_hand(
    layoff_deal: LiveServer, browser: Any, size: tuple[int, int]
) -> None:
    # The layoff step named the cards that lay off only on buttons; in the hand, where a
    # click lays one off, nothing marked them.
    ctx = context(browser, size)
    try:
        page = ctx.new_page()
        you = the_computer_knocks(page, layoff_deal)
        buttons = page.locator("#actions button").all_inner_texts()
        assert "Lay off 5♠" in buttons and "Lay off 7♠" in buttons, buttons
        marked = page.locator("#hand .card.playable")
        assert sorted(marked.evaluate_all("els => els.map(e => e.dataset.card)")) == ["5s", "7s"]
        assert marked.first.get_attribute("aria-label").endswith(": lay it off")
        shot(page, f"players-{'phone' if size[0] < 700 else 'desktop'}-layoffs")
        # by the keyboard: the card focused, Enter lays it off
        page.locator("#hand .card[data-card='7s']").focus()
        page.keyboard.press("Enter")
        page.locator("#melds .card.laid-off[data-card='7s']").wait_for()
        page.keyboard.press("a")  # the rest: 5s
        you.wait_for_showdown()
        assert "lays off" not in page.locator("#showdown .result-words").inner_text()
        assert "you lay off 7♠ 5♠" in page.locator("#showdown .result-words").inner_text()
        you.check_clean()
    finally:
        ctx.close()


# -- what a screen reader hears --------------------------------------------------------------


def test_a_screen_reader_hears_which_cards_make_the_melds(
    stacked: LiveServer, browser: Any
) -> None:
    # Arranged by melds, the hand's groups were told apart by their shading alone: a screen
    # reader read ten card names with nothing to say which made a meld.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # As 2s 3s 4s 3h 7h 7d Kd 4c 7c
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        hand = page.locator("#hand")

        def cards(group: Any) -> set[str]:
            found = group.locator("[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
            return set(found)

        melds = hand.get_by_role("group", name="Meld", exact=True)
        assert sorted(map(sorted, map(cards, melds.all()))) == [
            ["2s", "3s", "4s", "As"],
            ["7c", "7d", "7h"],
        ]
        dead = hand.get_by_role("group", name="Deadwood", exact=True)
        assert cards(dead) == {"3h", "4c", "Kd"}
        you.check_clean()
    finally:
        ctx.close()


def test_the_knock_dialog_is_named_by_its_question(stacked: LiveServer, browser: Any) -> None:
    # A screen reader entering the dialog heard no name: not what it asks, nor what it lays down.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # As 2s 3s 4s 3h 7h 7d Kd 4c 7c
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.keyboard.press("p")  # on Jd
        page.locator("#stock .card.playable").wait_for()
        page.keyboard.press("d")  # Ad
        page.locator("#hand .card[data-card='Ad']").wait_for()
        page.locator("#hand .card[data-card='Kd']").click()
        page.keyboard.press("k")
        dialog = page.get_by_role("dialog", name="Knock, discarding K♦?")
        dialog.wait_for()
        assert dialog.get_attribute("aria-describedby") == "knock-intro"
        # its cards in their suits' colours, as everywhere else on the table (they were all
        # black: 7♥ 7♦ 7♣ read alike)
        colours = page.locator("#knock-list .mini").evaluate_all(
            "els => els.map((e) => [e.textContent, getComputedStyle(e).color])"
        )
        red, black = "rgb(193, 18, 31)", "rgb(17, 17, 17)"
        assert ["7♥", red] in colours and ["7♣", black] in colours and len(colours) == 10, colours
        label = page.locator("#knock-list label").first.inner_text()
        assert label.strip() == "7♥ 7♦ 7♣ | A♠ 2♠ 3♠ 4♠ — deadwood 3♥ A♦ 4♣ (8)", label
        shot(page, "players-desktop-knock-dialog")
        page.keyboard.press("Escape")  # and it closes, the hand as it was
        dialog.wait_for(state="hidden")
        assert page.locator("#hand .card[data-card]").count() == 11
        you.check_clean()
    finally:
        ctx.close()


def test_enter_discards_the_selected_card_as_the_keys_say(
    stacked: LiveServer, browser: Any
) -> None:
    # The keys ("X or Enter discard the selected card"): an arrow selects a card and gives it
    # the focus, and Enter then pressed the card's button, which took the selection back.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # As 2s 3s 4s 3h 7h 7d Kd 4c 7c
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        keys = page.locator(".panel").last.text_content()
        assert "X or Enter discard the selected card" in " ".join(keys.split())
        page.keyboard.press("p")  # on Jd
        page.locator("#stock .card.playable").wait_for()
        page.keyboard.press("d")  # Ad
        page.locator("#hand .card[data-card='Ad']").wait_for()
        page.keyboard.press("ArrowLeft")  # the last card
        card = str(page.locator("#hand .card.selected").get_attribute("data-card"))
        assert page.evaluate("() => document.activeElement.dataset.card") == card
        page.keyboard.press("Enter")
        page.wait_for_function(
            "(c) => !document.querySelector(`#hand [data-card='${c}']`)", arg=card, timeout=5000
        )
        assert page.locator("#hand .card[data-card]").count() == 10
        # Enter on a card not selected still selects it
        page.locator("#stock .card.playable").wait_for()
        page.keyboard.press("d")
        page.locator("#hand .card[data-card]").nth(10).wait_for()
        first = page.locator("#hand .card[data-card]").first
        first.focus()
        page.keyboard.press("Enter")
        assert first.get_attribute("aria-pressed") == "true"
        you.check_clean()
    finally:
        ctx.close()


def test_a_screen_reader_hears_the_card_i_draw(stacked: LiveServer, browser: Any) -> None:
    # The live region says the opponent's moves, not mine (I know what I did): but a card
    # drawn from the stock is news, and after D nothing said which card it was.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # As 2s 3s 4s 3h 7h 7d Kd 4c 7c
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.keyboard.press("p")  # on Jd
        page.locator("#stock .card.playable").wait_for()
        assert "You pass" not in str(page.locator("#live").text_content())
        page.keyboard.press("d")  # Ad
        page.locator("#hand .card[data-card='Ad']").wait_for()
        assert page.locator("#live").text_content() == "You draw A♦ from the stock."
        page.locator("#hand .card[data-card='Kd']").click()
        page.keyboard.press("x")
        page.wait_for_function(
            "() => !/You draw/.test(document.querySelector('#live').textContent)"
        )
        assert "You discard" not in str(page.locator("#live").text_content())
        you.check_clean()
    finally:
        ctx.close()


def test_the_result_is_not_read_out_again_when_nothing_in_it_changed(
    stacked: LiveServer, browser: Any
) -> None:
    # The result is a live region, and every redraw of the page built it anew: a screen reader
    # read the whole result again when a setting was changed (or, between friends, when the
    # other player got ready for the next hand).
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        knock_on_the_readme_deal(page, stacked, you)
        you.wait_for_showdown()
        page.evaluate(
            """() => { window.rebuilt = 0;
            new MutationObserver(() => { window.rebuilt += 1; })
              .observe(document.querySelector('#showdown'), { childList: true }); }"""
        )
        page.locator("details.panel").last.locator("summary").click()
        page.locator("#opt-sound").check()
        page.locator("#opt-sound").uncheck()
        page.wait_for_timeout(300)
        assert page.evaluate("() => window.rebuilt") == 0
        # a setting that changes how the cards look redraws them
        page.locator("#opt-four").check()
        page.wait_for_function("() => window.rebuilt > 0")
        assert page.locator("#verify").inner_text().startswith("✓ Deal verified")
        page.locator("#opt-four").uncheck()
        you.check_clean()
    finally:
        ctx.close()


def test_escape_puts_the_selected_card_back(stacked: LiveServer, browser: Any) -> None:
    # A card selected by the keyboard could be put back only by pressing it again (after
    # finding it) or by selecting another; Escape now does, and the keys say so.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # As 2s 3s 4s 3h 7h 7d Kd 4c 7c
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.keyboard.press("p")  # on Jd
        page.locator("#stock .card.playable").wait_for()
        page.keyboard.press("d")  # Ad
        page.locator("#hand .card[data-card='Ad']").wait_for()
        page.keyboard.press("3")
        assert page.locator("#hand .card.selected").count() == 1
        page.keyboard.press("Escape")
        assert page.locator("#hand .card.selected").count() == 0
        assert you.status().startswith("Choose a card to discard")
        keys = " ".join(str(page.locator(".panel").last.text_content()).split())
        assert "Esc puts it back" in keys, keys
        you.check_clean()
    finally:
        ctx.close()


# -- a reload -----------------------------------------------------------------------------------

# Everything the page's live region said, and whether the page ever showed my hand as a
# spectator sees it (face down, as "Ann's hand").
WATCH = """() => { window.said = []; window.asSpectator = false;
  new MutationObserver(() => {
    const live = document.querySelector('#live'), mine = document.querySelector('#mine');
    if (live && live.textContent && window.said.at(-1) !== live.textContent)
      window.said.push(live.textContent);
    if (mine && /'s hand$/.test(mine.getAttribute('aria-label') || '')) window.asSpectator = true;
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}"""


def test_a_reload_shows_my_seat_and_never_the_spectators_view(
    stacked: LiveServer, browser: Any
) -> None:
    # On each connection the server sends the spectator's state until the seat's token has
    # been read: the page drew it, my hand face down as "Ann's hand", and told a screen reader
    # "Ann draws from the stock." of my own move, before my seat's state came.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # As 2s 3s 4s 3h 7h 7d Kd 4c 7c
        open_table(page, stacked, mode="computer", level="beginner", name="Ann", options=rules)
        page.keyboard.press("p")  # on Jd
        page.locator("#stock .card.playable").wait_for()
        page.keyboard.press("d")  # Ad
        page.locator("#hand .card.drawn[data-card='Ad']").wait_for()
        page.add_init_script(f"document.addEventListener('DOMContentLoaded', {WATCH})")
        page.reload()
        page.locator("#hand .card.drawn[data-card='Ad']").wait_for()
        page.wait_for_timeout(500)  # anything more the server sends
        said = page.evaluate("() => window.said")
        assert not [s for s in said if "Ann" in s], said
        assert not page.evaluate("() => window.asSpectator")
        assert page.locator("#mine").get_attribute("aria-label") == "Your hand"
        you.check_clean()
    finally:
        ctx.close()


# -- the move clock -----------------------------------------------------------------------------

# The text of every region a screen reader reads out as it changes.
SPOKEN = """() => [...document.querySelectorAll(
    '[aria-live]:not([aria-live="off"]), [role=status], [role=alert], [role=log]')]
  .map((e) => e.textContent)"""


def test_the_move_clock_is_not_read_out_each_second(stacked: LiveServer, browser: Any) -> None:
    # The clock between friends ticked in a live region: a screen reader read "⏱ 14s",
    # "⏱ 13s", ... over every other thing it had to say. It is a timer, and the page says
    # once, ten seconds before the end, that time is running out.
    ctx = context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # I move first
        open_table(page, stacked, mode="friend", name="Ann", clock=14, options=rules)
        page.wait_for_function("() => /⏱ \\d+s/.test(document.querySelector('#clock').textContent)")
        assert page.get_by_role("timer").inner_text().startswith("⏱")
        for _ in range(3):
            assert not [s for s in page.evaluate(SPOKEN) if "⏱" in s]
            page.wait_for_timeout(500)
        page.wait_for_function(
            "() => /^(10|9) seconds left to move[.]$/"
            ".test(document.querySelector('#live').textContent)",
            timeout=8000,
        )
        you.check_clean()
    finally:
        ctx.close()


@pytest.mark.parametrize("minutes", [2, -2])
def test_the_move_clock_counts_the_servers_seconds_on_a_device_whose_clock_is_off(
    stacked: LiveServer, browser: Any, minutes: int
) -> None:
    # The clock counted the server's deadline against the device's clock: a phone two minutes
    # fast showed "⏱ 0s" from the first second of a 30-second clock (and hurried its player),
    # one two minutes slow "⏱ 150s". The page measures the server's clock by a ping and
    # counts by it.
    ctx = context(browser, DESKTOP)
    try:
        shift = minutes * 60_000
        ctx.add_init_script(
            f"(() => {{ const real = Date.now; Date.now = () => real() + {shift}; }})()"
        )
        page = ctx.new_page()
        you = Player(page, random.Random(1), "you")
        rules = {"first_dealer": "fixed", "first_dealer_seat": 1}  # I move first
        open_table(page, stacked, mode="friend", name="Ann", clock=30, options=rules)
        drift = "() => Date.now() - performance.timeOrigin - performance.now()"
        assert round(page.evaluate(drift) / 60000) == minutes  # the device's clock is off
        page.wait_for_function("() => /⏱ \\d+s/.test(document.querySelector('#clock').textContent)")
        page.wait_for_timeout(1200)  # a tick after the pong
        left = int(page.locator("#clock").inner_text().strip("⏱ s"))
        assert 20 <= left <= 30, left
        you.check_clean()
    finally:
        ctx.close()


def test_a_table_that_is_not_there_is_said_once_and_not_asked_for_again(
    stacked: LiveServer, browser: Any
) -> None:
    """A link to a table the server does not have (mistyped, or a game long gone): the page
    says so, with the way to the lobby, and does not knock on the server every few seconds
    for ever under "reconnecting"."""
    ctx = context(browser, PHONES["phone"])
    page = ctx.new_page()
    sockets: list[Any] = []
    page.on("websocket", lambda ws: sockets.append(ws))
    try:
        page.goto(f"{stacked.url}/t/{'Zz' * 8}")
        conn = page.locator("#conn")
        conn.get_by_text("No such table here").wait_for()
        assert conn.get_by_role("link", name="To the lobby").get_attribute("href") == "/"
        page.wait_for_timeout(2500)  # a reconnection would have come after half a second
        assert len(sockets) == 1, len(sockets)
        assert "reconnecting" not in conn.inner_text()
        shot(page, "players-phone-no-such-table")
    finally:
        ctx.close()
