"""The web pages in a real browser (Debian's Chromium, driven by Playwright): a person starts a
game in the lobby and plays it by clicking cards and buttons, reloads in the middle, and two
browsers play each other through an invite link. Each hand ends in the showdown, with its result
in words and the browser's own check of the deal saying "verified".

A screenshot of the table is kept in test-artifacts/table.png (and the showdown in
test-artifacts/showdown.png).
"""

from __future__ import annotations

import functools
import json
import random
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from webutil import ARTIFACTS, LiveServer

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

pytestmark = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="needs Debian's Chromium: apt install chromium"
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("web") / "games.db") as live:
        yield live


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


FINGERPRINT = (
    "() => ['#status', '#actions', '#hand', '#pile', '#showdown']"
    ".map((s) => document.querySelector(s).innerHTML).join('|')"
)


class Player:
    """One person at one browser page, clicking like a person (a rather random one)."""

    def __init__(self, page: Any, rng: random.Random, name: str) -> None:
        self.page = page
        self.rng = rng
        self.name = name
        self.errors: list[str] = []  # error messages from the server: the page sent a bad move
        self.problems: list[str] = []  # script errors and failed loads in the page
        self.sockets: list[str] = []  # the URLs of the sockets the page opened
        self.tap = False  # tap with a finger (a touch screen) instead of clicking
        self.knocks = 0  # the hands this person knocked (checked by check_laid_out)
        page.set_default_timeout(20_000)
        page.on("websocket", self._socket)
        page.on("pageerror", lambda e: self.problems.append(f"page error: {e}"))
        page.on(
            "console",
            lambda m: self.problems.append(f"console: {m.text}") if m.type == "error" else None,
        )

    def _socket(self, ws: Any) -> None:
        self.sockets.append(ws.url)
        ws.on("framereceived", self._frame)

    def _frame(self, payload: str | bytes) -> None:
        msg = json.loads(payload)
        if msg.get("type") == "error":
            self.errors.append(msg["message"])

    # -- reading the page -----------------------------------------------------------------

    def over(self) -> bool:
        return bool(self.page.locator("#showdown").is_visible())

    def status(self) -> str:
        return str(self.page.locator("#status").inner_text())

    def buttons(self) -> dict[str, Any]:
        found = {}
        # by their whole label, key hint and all (a touch screen hides the hint: "Pass (P)")
        for button in self.page.locator("#actions button").all():
            found[str(button.text_content()).strip()] = button
        return found

    def hand(self) -> list[str]:
        cards = self.page.locator("#hand .card[data-card]")
        return [str(c) for c in cards.evaluate_all("els => els.map(e => e.dataset.card)")]

    # -- moving ---------------------------------------------------------------------------

    def _press(self, locator: Any, card: bool = False) -> Any:
        """What pressing ``locator`` is for this person: a click, or a tap on a touch screen;
        a card of a hand is tapped on its corner (on a phone the next card covers the rest)."""
        if not self.tap:
            return locator.click
        if card:
            return functools.partial(locator.tap, position={"x": 6, "y": 24})
        return locator.tap

    def _then_wait(self, click: Any) -> None:
        """Click, then wait until the page shows the server's answer.

        Every move changes what the page shows (the status line, the buttons, the hand, the
        pile or the showdown), and the page only redraws for a new state, so a change means
        the move was played; a refused move changes none of it, and the wait fails.
        """
        before = self.page.evaluate(FINGERPRINT)
        click()
        self.page.wait_for_function(f"(old) => ({FINGERPRINT})() !== old", arg=before)

    def step(self) -> bool:
        """Make one move if it is this person's turn; True if a move was made."""
        if self.over():
            return False
        buttons = self.buttons()
        names = list(buttons)
        status = self.status()
        stock = self.page.locator("#stock .card.playable")
        pile = self.page.locator("#pile .card.playable")
        if any(n.startswith("Take upcard") for n in names):
            choice = "Take upcard (T)" if self.rng.random() < 0.3 else "Pass (P)"
            self._then_wait(self._press(buttons[choice]))
        elif stock.count():
            if pile.count() and self.rng.random() < 0.3:
                self._then_wait(self._press(pile))
            else:
                self._then_wait(self._press(stock))
        elif status.startswith("Choose a card") or status.endswith("selected."):
            self._discard()
        elif "Optimal layoffs (A)" in buttons:
            offs = [n for n in names if n.startswith("Lay off")]
            if offs and self.rng.random() < 0.5:
                self._then_wait(self._press(buttons[self.rng.choice(offs)]))
            else:
                self._then_wait(self._press(buttons["Optimal layoffs (A)"]))
        elif "Take to knock" in buttons or status.startswith("The stock is down"):
            self._then_wait(self._press(buttons["Pass"]))
        else:
            return False
        return True

    def _discard(self) -> None:
        """Select a card (mostly the highest deadwood), then knock or go gin if offered."""
        dead = self.page.locator("#hand .group.deadwood .card[data-card]:not(.taken)")
        free = self.page.locator("#hand .card[data-card]:not(.taken)")
        cards = dead if dead.count() and self.rng.random() < 0.85 else free
        candidates = cards.all()
        first = candidates[0] if cards is dead else self.rng.choice(candidates)
        for card in [first, *candidates]:
            self._press(card, card=True)()
            buttons = self.buttons()
            for name, button in buttons.items():
                if name.startswith("Gin with") or (
                    name.startswith("Knock with") and self.rng.random() < 0.8
                ):
                    self._press(button)()
                    dialog = self.page.locator("#knock-dialog")
                    dialog.wait_for(state="visible")
                    assert self.page.locator("#knock-list input").count() >= 1
                    self._then_wait(self.page.locator("#knock-ok").click)
                    self.check_laid_out()
                    return
            for name, button in buttons.items():
                if name.startswith("Discard"):
                    self._then_wait(self._press(button))
                    return
        raise AssertionError(f"{self.name}: no card could be discarded: {self.hand()}")

    def check_laid_out(self) -> None:
        """Once I knock my cards lie on the table, melds and deadwood, and not in my hand too."""
        self.page.locator("#hand .laid-out").wait_for()
        assert self.page.locator("#hand .card[data-card]").count() == 0
        assert self.page.locator("#melds .card").count() >= 10
        assert self.page.locator("#deadwood").inner_text().startswith("Deadwood ")
        self.knocks += 1

    def wait_for_showdown(self) -> str:
        self.page.locator("#showdown").wait_for(state="visible")
        self.page.wait_for_function(
            "() => /verified/.test(document.querySelector('#verify').textContent)"
        )
        words = str(self.page.locator("#showdown .result-words").inner_text())
        verify = str(self.page.locator("#verify").inner_text())
        assert verify.startswith("✓ Deal verified") and "your cards came from it" in verify, verify
        assert words, "the showdown has no result words"
        return words

    def check_clean(self) -> None:
        refused = self.errors
        assert not refused, f"{self.name}: the server refused moves the page offered: {refused}"
        assert not self.problems, f"{self.name}: {self.problems}"


def start_from_lobby(page: Any, server: LiveServer, *, friend: bool) -> None:
    page.goto(f"{server.url}/")
    page.locator("#preset option").first.wait_for(state="attached")
    page.fill("input[name=name]", "Ann")
    if friend:
        page.check("input[name=mode][value=friend]")
    else:
        page.select_option("#level", "beginner")
    page.click("#new-game button[type=submit]")


def play_to_showdown(players: list[Player], limit: float = 120) -> None:
    deadline = time.monotonic() + limit
    while not all(p.over() for p in players):
        assert time.monotonic() < deadline, "the hand did not end"
        moved = False
        for p in players:
            moved = p.step() or moved
        if not moved:
            players[0].page.wait_for_timeout(30)  # the computer, or the other browser


def test_a_hand_against_the_computer_by_clicking(server: LiveServer, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        you = Player(page, random.Random(3), "you")
        start_from_lobby(page, server, friend=False)
        page.wait_for_url("**/t/**")
        page.locator("#hand .card[data-card]").first.wait_for()
        assert page.locator("#names").inner_text().startswith("Ann 0")
        assert page.locator("#opponent .card").count() >= 10

        moves = 0
        while moves < 4 and not you.over():  # a few moves in, then reload the page
            moves += you.step()
            page.wait_for_timeout(20)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "table.png"), full_page=True)
        held = sorted(you.hand())
        pile = page.locator("#discards").inner_text()
        page.reload()
        try:
            page.locator("#hand .card[data-card]").first.wait_for()
        except Exception as exc:  # say what the page showed instead, and what the server said
            shown = f"status {you.status()!r}, server errors {you.errors}, {you.problems}"
            log = server.log()[-3000:]
            raise AssertionError(f"no hand after a reload: {shown}\n{log}") from exc
        assert sorted(you.hand()) == held  # the same seat, the same cards: the link was kept
        assert page.locator("#discards").inner_text() == pile
        assert page.locator("#conn").is_hidden()

        play_to_showdown([you])
        words = you.wait_for_showdown()
        assert any(w in words for w in ("score", "no score", "Dead hand", "tie")), words
        page.screenshot(path=str(ARTIFACTS / "showdown.png"), full_page=True)
        assert page.locator("#sheet-body").inner_text()
        # the next hand is dealt from the showdown's button
        page.locator("#showdown button", has_text="Next hand").click()
        page.wait_for_function("() => document.querySelector('#showdown').hidden")
        assert "Hand 2" in page.locator("#info").inner_text()
        you.check_clean()
        assert "token" not in server.log() and "#s=" not in server.log()
    finally:
        context.close()


def test_two_browsers_play_through_an_invite_link(server: LiveServer, browser: Any) -> None:
    host = browser.new_context(viewport={"width": 1000, "height": 850})
    guest = browser.new_context(viewport={"width": 1000, "height": 850})
    try:
        ann = Player(host.new_page(), random.Random(5), "Ann")
        start_from_lobby(ann.page, server, friend=True)
        ann.page.locator("#invite").wait_for(state="visible")
        # the table is made: the form rests (another Start would make a second table)
        assert ann.page.locator("#new-game button[type=submit]").is_disabled()
        link = ann.page.locator("#invite-link").input_value()
        assert "/t/" in link and "#s=" in link and "?" not in link  # the token after "#"
        ann.page.click("#go-table")
        ann.page.wait_for_url("**/t/**")

        bob = Player(guest.new_page(), random.Random(6), "Bob")
        bob.page.goto(link)
        for p in (ann, bob):
            p.page.locator("#hand .card[data-card]").first.wait_for()
        assert not set(ann.hand()) & set(bob.hand())
        seats = {ann.page.locator("#names").inner_text(), bob.page.locator("#names").inner_text()}
        assert seats == {"Ann 0 – 0 Player 2"}
        # the invited player says who they are (told why); both pages show it
        assert "tell them who you are" in bob.page.locator("#name-form").inner_text()
        bob.page.fill("#my-name", "Bob")
        bob.page.keyboard.press("Enter")
        for p in (ann, bob):
            p.page.wait_for_function(
                "() => document.querySelector('#names').textContent === 'Ann 0 – 0 Bob'"
            )
        assert bob.page.locator("#name-form").is_hidden()
        assert "connected" in ann.page.locator("#opp-label").inner_text()
        # Tokens leave the address bar at once, and never travel in a URL.
        for p in (ann, bob):
            assert "s=" not in p.page.url and "#" not in p.page.url, p.page.url
            assert p.sockets and all("token" not in url for url in p.sockets), p.sockets

        # Bob's page keeps the seat's own token the invite gave it: a reload finds his seat.
        bob_held = sorted(bob.hand())
        bob.page.reload()
        bob.page.locator("#hand .card[data-card]").first.wait_for()
        assert sorted(bob.hand()) == bob_held
        # The invite is spent: opened in any other browser, it only watches, with no hand.
        elsewhere = browser.new_context(viewport={"width": 1000, "height": 850})
        try:
            eve = elsewhere.new_page()
            eve.goto(link)
            # An error's toast is readable: white on red (the form errors' red text, which
            # once applied to it too, made it red on red). Read as it shows: it goes after a
            # few seconds, and a loaded machine may take that long to the next line.
            colours = eve.wait_for_function(
                """() => { const t = document.querySelector('#toast');
                  if (!t.classList.contains('show') || !t.textContent.includes('opened already'))
                    return null;
                  const s = getComputedStyle(t); return [s.color, s.backgroundColor]; }"""
            ).json_value()
            assert colours == ["rgb(255, 255, 255)", "rgb(185, 28, 28)"], colours
            eve.locator("#names").wait_for()
            assert eve.locator("#hand .card[data-card]").count() == 0
            assert eve.locator("#my-seat").is_hidden()  # a spectator has no seat link
        finally:
            elsewhere.close()

        # Ann opens Bob's link in her own browser: she keeps her seat and is told so.
        held = sorted(ann.hand())
        other = host.new_page()
        other.goto(link)
        other.locator("#seat-notice").wait_for(state="visible")
        assert "already sit at this table" in other.locator("#seat-notice").inner_text()
        other.locator("#hand .card[data-card]").first.wait_for()
        cards = other.locator("#hand .card[data-card]")
        assert sorted(cards.evaluate_all("els => els.map(e => e.dataset.card)")) == held
        # ... and may watch that link as a spectator instead: no hand of hers on the page
        other.click("#watch-other")
        other.wait_for_function("() => !document.querySelector('#hand .card[data-card]')")
        other.close()
        ann.page.reload()  # her seat is still hers in this browser
        ann.page.locator("#hand .card[data-card]").first.wait_for()
        assert sorted(ann.hand()) == held

        # Bob moves to another device with his seat's own link, from the settings panel.
        guest.grant_permissions(["clipboard-read", "clipboard-write"])
        bob.page.locator("summary", has_text="Rules, fairness").click()
        bob.page.click("#copy-seat-link")
        bob.page.wait_for_function(
            "() => document.querySelector('#toast').textContent.includes('seat link is copied')"
        )
        seat_link = bob.page.evaluate("navigator.clipboard.readText()")
        assert "#s=" in seat_link and seat_link != link, seat_link
        bob_held = sorted(bob.hand())
        phone = browser.new_context(viewport={"width": 360, "height": 740})
        try:
            moved = phone.new_page()
            moved.goto(seat_link)
            moved.locator("#hand .card[data-card]").first.wait_for()
            cards = moved.locator("#hand .card[data-card]")
            assert sorted(cards.evaluate_all("els => els.map(e => e.dataset.card)")) == bob_held
            # The seat lives in one browser at a time: the desk only watches now, and says so.
            bob.page.locator("#seat-notice", has_text="opened in another browser").wait_for()
            # the spectator's state follows the notice (on a loaded machine, a moment later)
            bob.page.wait_for_function("() => !document.querySelector('#hand .card[data-card]')")
            assert bob.hand() == []
            moved.locator("summary", has_text="Rules, fairness").click()
            moved.screenshot(path=str(ARTIFACTS / "seat-link-phone.png"), full_page=True)
        finally:
            phone.close()
        # Back at the desk, where he asks for it.
        bob.page.click("#take-seat-back")
        bob.page.locator("#hand .card[data-card]").first.wait_for()
        assert sorted(bob.hand()) == bob_held

        play_to_showdown([ann, bob])
        words = [p.wait_for_showdown() for p in (ann, bob)]
        # the same result, each in their own words ("You win" on one side, "Ann wins" on the other)
        assert re.findall(r"\d+", words[0]) == re.findall(r"\d+", words[1]), words
        if "You" in words[0]:
            assert "Bob" in words[0] and "Ann" in words[1] and words[0] != words[1], words
        for p in (ann, bob):
            p.check_clean()
    finally:
        host.close()
        guest.close()


def test_the_deal_check_holds_the_deck_to_the_commitment_seen_at_the_deal(
    server: LiveServer, browser: Any
) -> None:
    """The page checks the revealed deck against the commitment it saw before the first move,
    not only against the one the hand ends with: a server that dealt the stock again under a
    new commitment is caught (it once passed as "Deal verified")."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        said = page.evaluate(
            """async () => {
              const { verifyDeal } = await import('/static/js/verify.js');
              const { sha256Hex } = await import('/static/js/common.js');
              const deck = [];
              for (const s of 'shdc') for (const r of 'A23456789TJQK') deck.push(r + s);
              const dealt = deck.filter((_, i) => i < 20 && i % 2 === 0).join(' ');
              const v = { seat: 0, dealer: 1, upcard: deck[20] };
              const first = { deck: deck.join(''), salt: 'aa'.repeat(16) };
              const again = [...deck.slice(0, 21), ...deck.slice(21).reverse()];
              const second = { deck: again.join(''), salt: 'bb'.repeat(16) };
              const hash = (r) => sha256Hex(`${r.deck}:${r.salt}`);
              const seen = { commitment: await hash(first), dealt };
              return [
                await verifyDeal(first, v, seen, await hash(first)),
                await verifyDeal(second, v, seen, await hash(second)),
                await verifyDeal(second, v, null, await hash(second)),
              ];
            }"""
        )
        assert said[0].startswith("✓ Deal verified"), said
        assert said[1].startswith("✗ The commitment changed during the hand"), said
        assert said[2].startswith("✓ Deal verified"), said  # a page that saw nothing of the deal
    finally:
        context.close()


def test_the_deal_check_holds_the_stock_and_the_decks_length_to_the_commitment(
    server: LiveServer, browser: Any
) -> None:
    """The commitment binds the whole deck, so the page checks more than the deal: the cards
    this seat drew from the stock are the deck's in its order (a server that committed to one
    deck and fed the stock from another once passed as "Deal verified"), and the revealed deck
    is 52 different cards (a commitment to the 21 cards of the deal alone, which leaves the
    stock free, once passed too)."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        said = page.evaluate(
            """async () => {
              const { verifyDeal } = await import('/static/js/verify.js');
              const { sha256Hex } = await import('/static/js/common.js');
              const deck = [];
              for (const s of 'shdc') for (const r of 'A23456789TJQK') deck.push(r + s);
              const dealt = deck.filter((_, i) => i < 20 && i % 2 === 0).join(' ');
              // seat 0 (the non-dealer) drew the 22nd card, seat 1 the 23rd, seat 0 the 24th
              const history = [
                { n: 1, seat: 0, action: 'pass' },
                { n: 2, seat: 1, action: 'pass' },
                { n: 3, seat: 0, action: 'draw', card: deck[21] },
                { n: 4, seat: 0, action: `discard ${deck[21]}`, card: deck[21] },
                { n: 5, seat: 1, action: 'draw' },
                { n: 6, seat: 1, action: `discard ${deck[22]}`, card: deck[22] },
                { n: 7, seat: 0, action: 'draw', card: deck[23] },
              ];
              const v = { seat: 0, dealer: 1, upcard: deck[20], history };
              const hash = (r) => sha256Hex(`${r.deck}:${r.salt}`);
              const check = async (r) => {
                const committed = await hash(r);
                return verifyDeal(r, v, { commitment: committed, dealt }, committed);
              };
              const honest = { deck: deck.join(''), salt: 'aa'.repeat(16) };
              // committed to a stock in another order than the one dealt from
              const other = [...deck.slice(0, 21), ...deck.slice(21).reverse()];
              const swapped = { deck: other.join(''), salt: 'bb'.repeat(16) };
              // committed to the deal alone: the stock left free
              const short = { deck: deck.slice(0, 21).join(''), salt: 'cc'.repeat(16) };
              return [await check(honest), await check(swapped), await check(short)];
            }"""
        )
        assert said[0].startswith("✓ Deal verified"), said
        assert said[1].startswith("✗ The cards you drew from the stock"), said
        assert said[2].startswith("✗ The revealed deck is not a deck of 52"), said
    finally:
        context.close()


def test_the_deal_check_of_the_eleven_card_deal_holds_the_21st_card(
    server: LiveServer, browser: Any
) -> None:
    """The eleven-card deal turns no upcard and gives the non-dealer the 21st card: the page
    checks that card too (a non-dealer dealt another card in its place once passed as "Deal
    verified")."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{server.url}/")
        said = page.evaluate(
            """async () => {
              const { verifyDeal } = await import('/static/js/verify.js');
              const { sha256Hex } = await import('/static/js/common.js');
              const deck = [];
              for (const s of 'shdc') for (const r of 'A23456789TJQK') deck.push(r + s);
              const odd = deck.filter((_, i) => i < 20 && i % 2 === 0);
              const reveal = { deck: deck.join(''), salt: 'aa'.repeat(16) };
              const committed = await sha256Hex(`${reveal.deck}:${reveal.salt}`);
              const check = (seat, dealt) =>
                verifyDeal(reveal, { seat, dealer: 1, upcard: null, history: [] },
                           { commitment: committed, dealt: dealt.join(' ') }, committed);
              const evens = deck.filter((_, i) => i < 20 && i % 2 === 1);
              return [
                await check(0, [...odd, deck[20]]),
                await check(0, [...odd, deck[30]]),
                await check(1, evens),
              ];
            }"""
        )
        assert said[0].startswith("✓ Deal verified") and "your cards" in said[0], said
        assert said[1].startswith("✗ Your dealt cards"), said
        assert said[2].startswith("✓ Deal verified") and "your cards" in said[2], said
    finally:
        context.close()
