"""Two people at one table in Debian's Chromium, one on a phone and one at a desk, on the
README's known deal (tests/stacked_serve.py): the game to its end, and the rematch.

Screenshots go to test-artifacts/ (friends-*.png).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from test_web_browser import CHROMIUM, browser
from test_web_table_browser import DESKTOP, PHONES, context, shot, stacked
from webutil import LiveServer, post_table

__all__ = ["browser", "stacked"]  # fixtures

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)


@pytest.fixture
def two(browser: Any) -> Iterator[tuple[Any, Any]]:
    """Ann's phone and Bob's desk: a page each, in browsers of their own."""
    phone = context(browser, PHONES["phone"])
    desk = context(browser, DESKTOP)
    try:
        yield phone.new_page(), desk.new_page()
    finally:
        phone.close()
        desk.close()


def open_friend_table(server: LiveServer, ann: Any, bob: Any, **rules: Any) -> dict[str, Any]:
    """Ann opens a friend table on the README's deal (she is the non-dealer, to move first);
    Bob opens its invite and says his name."""
    options = {"first_dealer": "fixed", "first_dealer_seat": 1, **rules}
    created = post_table(server, mode="friend", name="Ann", options=options)
    ann.goto(f"{server.url}{created['url']}")
    ann.locator("#hand .card[data-card]").first.wait_for()
    bob.goto(f"{server.url}{created['invite']}")
    bob.locator("#hand .card[data-card]").first.wait_for()
    bob.locator("#my-name").fill("Bob")
    bob.locator("#name-form button").click()
    ann.locator("#names", has_text="Bob").wait_for()
    return created


def ann_knocks_and_wins_the_game(ann: Any, bob: Any) -> None:
    """Both pass the upcard; Ann draws Ad and knocks with Kd (8 against Bob's 31): in a game
    to 10 that ends the game."""
    ann.locator("#actions button", has_text="Pass").click()
    bob.locator("#actions button", has_text="Pass").click()
    ann.locator("#stock .card.playable").click()
    ann.locator("#hand .card[data-card='Ad']").wait_for()
    ann.locator("#hand .card[data-card='Kd']").click()
    ann.locator("#actions button", has_text="Knock with").click()
    ann.locator("#knock-dialog").wait_for(state="visible")
    ann.locator("#knock-ok").click()
    bob.locator("#actions button", has_text="Done").click()
    for page in (ann, bob):
        page.locator("#showdown .final").wait_for()


def test_a_rematch_asked_by_one_waits_for_the_other_to_join_it(
    stacked: LiveServer, two: tuple[Any, Any]
) -> None:
    # Ann's Rematch took Bob's page off the game's result at once, to the new deal: he lost
    # the final score he was reading and the review of his play, and had no say.
    ann, bob = two
    created = open_friend_table(stacked, ann, bob, game_target=10)
    ann_knocks_and_wins_the_game(ann, bob)
    ann.locator("#showdown button", has_text="Rematch").click()
    ann.wait_for_url(lambda url: created["id"] not in url)
    new_id = ann.url.rstrip("/").split("/")[-1]
    ann.locator("#hand .card[data-card]").first.wait_for()
    # Bob still reads the result, and is offered the rematch
    offer = bob.locator("#showdown button", has_text="Play the rematch")
    offer.wait_for()
    assert created["id"] in bob.url
    assert bob.locator("#showdown .final").is_visible()
    assert "The rematch is dealt" in bob.locator("#showdown").inner_text()
    assert bob.locator("#showdown button", has_text="Review my play").count() == 1
    shot(bob, "friends-desktop-rematch-offered")
    # opened again (he had closed it), the finished game still offers him the rematch: its
    # Rematch button asked for the one made already, and nothing happened
    bob.reload()
    offer.wait_for()
    offer.click()
    bob.wait_for_url(f"**/t/{new_id}")
    bob.locator("#hand .card[data-card]").first.wait_for()  # his seat, a new deal
    assert bob.locator("#my-label").inner_text().startswith("Bob (you)")
    ann.locator("#opp-label", has_text="connected").wait_for()


# -- the invite in the lobby -----------------------------------------------------------------------


def make_friend_table_in_the_lobby(page: Any, server: LiveServer) -> str:
    page.goto(f"{server.url}/")
    page.locator("input[value=friend]").check()
    page.locator("input[name=name]").fill("Ann")
    page.locator("#new-game button[type=submit]").click()
    page.locator("#invite").wait_for()
    link: str = page.locator("#invite-link").input_value()
    return link


def test_copying_the_invite_says_so_and_works_where_the_clipboard_does_not(
    stacked: LiveServer, browser: Any
) -> None:
    # "Copy link" said nothing when it worked, and nothing when it could not (a page over
    # plain http at a home network's address has no clipboard to write): the link stayed
    # uncopied without a word.
    ctx = context(browser, DESKTOP)
    try:
        ctx.grant_permissions(["clipboard-read", "clipboard-write"])
        page = ctx.new_page()
        link = make_friend_table_in_the_lobby(page, stacked)
        page.locator("#copy-invite").click()
        page.locator("#invite-said", has_text="copied").wait_for()
        assert page.evaluate("() => navigator.clipboard.readText()") == link
        # no clipboard at all: the link is selected in its box, to copy by hand
        page.add_init_script("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
        link = make_friend_table_in_the_lobby(page, stacked)
        page.locator("#copy-invite").click()
        page.locator("#invite-said", has_text="select").wait_for()
        selected = page.evaluate(
            "() => { const i = document.getElementById('invite-link');"
            " return i.value.slice(i.selectionStart, i.selectionEnd); }"
        )
        assert selected == link
    finally:
        ctx.close()


def test_on_a_phone_the_invite_goes_through_the_share_sheet(
    stacked: LiveServer, browser: Any
) -> None:
    ctx = context(browser, PHONES["phone"])
    try:
        page = ctx.new_page()
        page.add_init_script(
            "window.shared = []; navigator.share = async (data) => { window.shared.push(data); };"
        )
        link = make_friend_table_in_the_lobby(page, stacked)
        share = page.locator("#copy-invite")
        assert share.inner_text() == "Share link"
        share.click()
        page.wait_for_function("() => window.shared.length === 1")
        shared = page.evaluate("() => window.shared[0]")
        assert shared["url"] == link and "Gin Rummy" in shared["title"]
        shot(page, "friends-phone-invite")
    finally:
        ctx.close()


def test_the_friend_sees_the_stake_before_the_first_move(
    stacked: LiveServer, two: tuple[Any, Any]
) -> None:
    # A game for a stake said so only in the folded rules, and in the final result: the
    # friend who opened the invite played on without being shown what a point was worth.
    ann, bob = two
    created = post_table(stacked, mode="friend", name="Ann", stake="0.5")
    bob.goto(f"{stacked.url}{created['invite']}")
    bob.locator("#hand .card[data-card]").first.wait_for()
    assert "Stake 0.5 a point" in bob.locator("#info").inner_text()
    ann.goto(f"{stacked.url}{created['url']}")
    ann.locator("#hand .card[data-card]").first.wait_for()
    assert "Stake 0.5 a point" in ann.locator("#info").inner_text()


def test_an_invite_opened_again_elsewhere_says_for_good_that_the_page_only_watches(
    stacked: LiveServer, two: tuple[Any, Any], browser: Any
) -> None:
    # The refusal was a passing note (3.5 seconds): then the page looked like a seat with
    # its cards turned down, and whoever had opened the invite on his phone first, and now on
    # his laptop, was left to wonder why he could not play.
    ann, bob = two
    created = open_friend_table(stacked, ann, bob)
    ctx = context(browser, DESKTOP)
    try:
        eve = ctx.new_page()
        eve.goto(f"{stacked.url}{created['invite']}")
        eve.locator("#opp-cards .card").first.wait_for()
        eve.wait_for_timeout(4000)  # past the passing note
        notice = eve.locator("#seat-notice")
        assert notice.is_visible()
        assert "opened already" in notice.inner_text() and "spectator" in notice.inner_text()
        assert eve.locator("#hand .card[data-card]").count() == 0
    finally:
        ctx.close()


def test_the_other_leaving_and_coming_back_is_said_to_a_screen_reader(
    stacked: LiveServer, two: tuple[Any, Any], browser: Any
) -> None:
    # Only the "○ away" beside the name changed: a player who listens was never told that
    # the friend he waited for had gone, or was back.
    ann, bob = two
    created = open_friend_table(stacked, ann, bob)
    bob.close()
    ann.locator("#live", has_text="Bob left the table").wait_for(state="attached")
    back = bob.context.new_page()
    back.goto(f"{stacked.url}/t/{created['id']}")
    ann.locator("#live", has_text="Bob is back").wait_for(state="attached")
    back.locator("#hand .card[data-card]").first.wait_for()  # his seat still


def test_the_creator_waiting_at_the_table_can_send_the_invite_from_there(
    stacked: LiveServer, two: tuple[Any, Any]
) -> None:
    # The invite was shown in the lobby only: whoever went to the table before sending it
    # had no way left to get it (the server keeps only its hash), and the friend's seat
    # could never be taken.
    ann, bob = two
    link = make_friend_table_in_the_lobby(ann, stacked)
    ann.locator("#go-table").click()
    box = ann.locator("#invite-box")
    box.wait_for()
    assert "Waiting for your friend" in box.inner_text()
    assert ann.locator("#table-invite-link").input_value() == link
    shot(ann, "friends-phone-waiting-for-the-friend")
    ann.reload()
    box.wait_for()  # kept in this browser
    bob.goto(link)
    bob.locator("#hand .card[data-card]").first.wait_for()
    box.wait_for(state="hidden")  # the friend is here


def test_the_one_still_reading_the_result_is_told_the_next_hand_comes_anyway(
    stacked: LiveServer, two: tuple[Any, Any]
) -> None:
    # Ann, ready, was told the next hand comes in 30 seconds at most; Bob, still reading,
    # saw only "Ann is ready." and then the result went from under him.
    ann, bob = two
    open_friend_table(stacked, ann, bob)
    ann.locator("#actions button", has_text="Pass").click()
    bob.locator("#actions button", has_text="Pass").click()
    ann.locator("#stock .card.playable").click()
    ann.locator("#hand .card[data-card='Ad']").wait_for()
    ann.locator("#hand .card[data-card='Kd']").click()
    ann.locator("#actions button", has_text="Knock with").click()
    ann.locator("#knock-dialog").wait_for(state="visible")
    ann.locator("#knock-ok").click()
    bob.locator("#actions button", has_text="Done").click()
    ann.locator("#showdown button", has_text="Next hand").click()
    ann.locator("#waiting-next").wait_for()
    said = bob.locator("#showdown .bar", has_text="Ann is ready")
    said.wait_for()
    assert "next hand is dealt in 30 seconds at most" in said.inner_text()
    shot(bob, "friends-desktop-other-is-ready")


def test_on_a_phone_the_invite_comes_into_view_once_the_table_is_made(
    stacked: LiveServer, browser: Any
) -> None:
    # With the options open, the invite opened below the bottom of a phone's screen: Start
    # seemed to have done nothing but grey the form out.
    ctx = context(browser, PHONES["phone-360"])
    try:
        page = ctx.new_page()
        page.goto(f"{stacked.url}/")
        page.locator("input[value=friend]").check()
        page.locator("#new-game summary").click()
        page.locator("#new-game button[type=submit]").click()
        page.locator("#invite").wait_for()
        page.wait_for_timeout(500)
        top, bottom = page.locator("#copy-invite").evaluate(
            "el => { const r = el.getBoundingClientRect(); return [r.top, r.bottom]; }"
        )
        assert top >= 0 and bottom <= 740, (top, bottom)
    finally:
        ctx.close()


def test_the_clock_of_a_friend_not_here_is_shown_waiting(
    stacked: LiveServer, two: tuple[Any, Any]
) -> None:
    ann, bob = two
    options = {"first_dealer": "fixed", "first_dealer_seat": 0}  # Bob moves first
    created = post_table(stacked, mode="friend", name="Ann", clock=45, options=options)
    ann.goto(f"{stacked.url}{created['url']}")
    ann.locator("#hand .card[data-card]").first.wait_for()
    clock = ann.locator("#clock")
    clock.filter(has_text="⏸ 45s").wait_for()
    assert clock.get_attribute("title") == "The clock waits while Player 2 is away."
    ann.wait_for_timeout(1500)
    assert clock.inner_text() == "⏸ 45s"  # not running
    bob.goto(f"{stacked.url}{created['invite']}")
    bob.locator("#hand .card[data-card]").first.wait_for()
    clock.filter(has_text="⏱").wait_for()  # his time runs now that he is here
    assert bob.locator("#clock").inner_text().startswith("⏱")


def test_the_invite_is_not_offered_again_once_the_friend_came_and_went(
    stacked: LiveServer, two: tuple[Any, Any]
) -> None:
    ann, bob = two
    link = make_friend_table_in_the_lobby(ann, stacked)
    ann.locator("#go-table").click()
    ann.locator("#invite-box").wait_for()
    bob.goto(link)
    bob.locator("#hand .card[data-card]").first.wait_for()
    ann.locator("#invite-box").wait_for(state="hidden")
    bob.close()  # before his first move: the invite he took opens nothing for anyone else
    ann.locator("#opp-label", has_text="away").wait_for()
    ann.reload()
    ann.locator("#hand .card[data-card]").first.wait_for()
    ann.wait_for_timeout(500)
    assert ann.locator("#invite-box").is_hidden()


# -- a seat opened in another browser -----------------------------------------------------------


def test_a_seat_opened_in_another_browser_leaves_the_first_watching_for_good(
    stacked: LiveServer, browser: Any
) -> None:
    # The invite's sender opened it himself in a private window, then sent the friend the
    # seat's link: his window kept the friend's seat, and its cards, all game.
    windows = [context(browser, DESKTOP) for _ in range(3)]  # Ann, her private one, Bob
    try:
        ann, spy, bob = (w.new_page() for w in windows)
        created = post_table(stacked, mode="friend", name="Ann")
        ann.goto(f"{stacked.url}{created['url']}")
        ann.locator("#hand .card[data-card]").first.wait_for()
        spy.goto(f"{stacked.url}{created['invite']}")
        spy.locator("#hand .card[data-card]").first.wait_for()
        token = spy.evaluate("() => JSON.parse(localStorage.getItem('ginrummy.tables'))[0].token")
        bob.goto(f"{stacked.url}/t/{created['id']}#s={token}")
        bob.locator("#hand .card[data-card]").first.wait_for()
        # The private window watches, and says why for good; the friend is warned; Ann is told.
        spy.locator("#seat-notice", has_text="opened in another browser").wait_for()
        spy.locator("#take-seat-back").wait_for()
        assert spy.locator("#hand .card[data-card]").count() == 0
        bob.locator("#seat-moves", has_text="If that was not you, the game is not fair").wait_for()
        ann.locator("#seat-moves", has_text="seat moved to another browser").wait_for()
        shot(spy, "friends-seat-moved-away")
        # Bob's page reloaded (its socket closed and opened again): the private window does
        # not take the seat back by itself, nor once reloaded itself.
        bob.reload()
        bob.locator("#hand .card[data-card]").first.wait_for()
        spy.reload()
        spy.locator("#seat-notice", has_text="opened in another browser").wait_for()
        spy.wait_for_timeout(1500)
        assert bob.locator("#seat-notice").is_hidden()
        assert bob.locator("#hand .card[data-card]").count() == 10
        assert spy.locator("#hand .card[data-card]").count() == 0
        # Taken back by the button: visibly, the other side is told in its turn.
        spy.locator("#take-seat-back").click()
        spy.locator("#hand .card[data-card]").first.wait_for()
        bob.locator("#seat-notice", has_text="opened in another browser").wait_for()
    finally:
        for w in windows:
            w.close()


def test_a_friend_not_come_yet_is_not_called_away(
    stacked: LiveServer, two: tuple[Any, Any]
) -> None:
    # Before the friend had opened the invite his seat said "○ away", as if he had left, and
    # the table "Player 2 to play.", as if he were slow to move: he had never been there.
    ann, bob = two
    options = {"first_dealer": "fixed", "first_dealer_seat": 0}  # Bob moves first
    created = post_table(stacked, mode="friend", name="Ann", options=options)
    ann.goto(f"{stacked.url}{created['url']}")
    ann.locator("#hand .card[data-card]").first.wait_for()
    seat, status = ann.locator("#opp-label"), ann.locator("#status")
    seat.filter(has_text="○ not here yet").wait_for()
    assert "away" not in seat.inner_text()
    assert status.inner_text() == "Player 2 to play, once they open your invite."
    shot(ann, "friends-phone-friend-not-come-yet")
    bob.goto(f"{stacked.url}{created['invite']}")
    bob.locator("#hand .card[data-card]").first.wait_for()
    seat.filter(has_text="● connected").wait_for()
    status.filter(has_text="Player 2 to play.").wait_for()
    bob.close()  # he came and went: now he is away
    seat.filter(has_text="○ away").wait_for()
    assert status.inner_text() == "Player 2 to play."
