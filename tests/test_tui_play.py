"""``ginrummy play``'s Textual app, driven headless by its pilot against the seeded ``simple``
computer: a whole hand of each kind by the keys a person presses, the knock dialog, layoffs,
undo under the web's fair-play rules, hints, the score sheet, the mouse, resizing, resuming a
saved game, and that the screen never shows what the person may not know.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import update
from textual.pilot import Pilot

from ginrummy.engine import Card, Rules
from ginrummy.engine.cards import card_from_index
from ginrummy.storage import Store
from ginrummy.storage.models import GameRow, utcnow
from ginrummy.tui.app import Cards, PlayApp
from ginrummy.tui.local import LocalGame
from ginrummy.tui.words import legal, log_lines, pretty, prompt, split_cards
from ginrummy.web.manager import UNLIMITED, Manager
from tuiutil import (
    SEEDS,
    keys_for,
    new_game,
    play_hand,
    policy,
    press_action,
    screen_text,
    table,
    until,
    waiting_for_me,
)
from webutil import hidden_cards

Scenario = Callable[[Pilot[Any], PlayApp], Awaitable[None]]


def drive(game: LocalGame, scenario: Scenario, size: tuple[int, int] = (80, 24)) -> None:
    async def run() -> None:
        app = PlayApp(game)
        async with app.run_test(size=size) as pilot:
            await scenario(pilot, app)

    asyncio.run(run())


def result(app: PlayApp) -> dict[str, Any]:
    state = table(app).state
    assert state is not None and state["view"]["result"] is not None
    found: dict[str, Any] = state["view"]["result"]
    return found


@pytest.mark.parametrize(
    ("name", "kind", "knocker", "winner", "headline"),
    [
        ("knock", "knock", 0, 0, "You win the hand"),
        ("knocked", "knock", 1, 1, "Computer (simple) wins the hand"),
        ("gin", "gin", 0, 0, "You win the hand with gin"),
        ("undercut", "undercut", 1, 0, "You win the hand with an undercut"),
        ("dead", "dead", None, None, "Dead hand"),
    ],
)
def test_a_whole_hand_of_each_kind(
    name: str, kind: str, knocker: int | None, winner: int | None, headline: str
) -> None:
    store = Store("sqlite://")
    game = new_game(SEEDS[name], store)

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app)
        found = result(app)
        assert (found["kind"], found["knocker"], found["winner"]) == (kind, knocker, winner)
        await until(pilot, lambda: "n Next hand" in screen_text(app), "the next hand's key")
        # The verdict is the log's last line, shown once the log has scrolled to it.
        await until(pilot, lambda: "✓ Deal verified" in screen_text(app), "the deal's verdict")
        assert headline in screen_text(app)
        await pilot.press("n")
        await until(pilot, lambda: table(app).state["table"]["hand_number"] == 2, "hand 2")

    drive(game, scenario)
    stored = store.load_game(game.table.id)
    assert stored is not None and len(stored.hands) == 2
    first = stored.hands[0]
    assert first.result is not None and first.result["kind"] == kind
    assert stored.game.options["interface"] == "terminal"
    store.close()


def test_knocking_opens_the_dialog_with_the_best_arrangements() -> None:
    game = new_game(SEEDS["knock"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app, stop=lambda: policy(table(app).state).startswith("knock"))
        state = table(app).state
        action = policy(state)
        await pilot.press("k")
        await until(pilot, lambda: "Knock, discarding" in screen_text(app), "the knock dialog")
        text = screen_text(app)
        card = action.split()[1]
        assert f"Knock, discarding {pretty(card)}?" in text
        assert "1. " in text and "deadwood" in text
        await pilot.press("escape")  # cancel: nothing happened
        await until(pilot, lambda: "Knock, discarding" not in screen_text(app), "no dialog")
        assert table(app).state["view"]["phase"] == "discard"
        await press_action(pilot, app, action)
        assert table(app).state["view"]["knocker"] == 0

    drive(game, scenario)


def test_laying_off_card_by_card_then_done() -> None:
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "layoff")
        text = screen_text(app)
        # the knock's deadwood counted, as the page counts it
        dead = split_cards(table(app).state["view"]["knocker_deadwood"])
        points = sum(Card.parse(c).value for c in dead)
        assert f"Computer (simple) knocks with {points} " in text, text
        moves = legal(table(app).state)
        offs = [m.split()[1] for m in moves if m.startswith("layoff ")]
        assert offs, "the seed gives the person a card to lay off"
        card = offs[0]
        await pilot.press(card[0], card[1])  # choose it by typing it
        await press_action_keys(pilot, app, ["l"])
        state = table(app).state
        assert any(c == card for c, _ in state["view"]["layoffs"])
        # The table has answered; the screen shows it at its next refresh (so below too).
        shown = f"laid off {pretty(card)}"
        await until(pilot, lambda: shown in screen_text(app), "the card laid off on the felt")
        await press_action_keys(pilot, app, ["f"])
        assert table(app).state["view"]["phase"] == "over"

    drive(game, scenario)


def laid_out_cards(view: dict[str, Any]) -> list[str]:
    """The knocker's cards on the table while the defender lays off: melds and deadwood."""
    melds = [c for meld in view["table_melds"] for c in split_cards(meld)]
    return melds + split_cards(view["knocker_deadwood"])


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_computers_cards_laid_out_are_not_drawn_face_down_too(size: tuple[int, int]) -> None:
    """While the person lays off, the computer's cards lie face up on the table: its row no
    longer drew ten backs over them as if it still held ten hidden cards (the page says they
    are laid out on the table)."""
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "layoff")
        await pilot.pause(0.1)
        text = screen_text(app)
        assert "▒▒▒│▒▒▒" not in text, text  # the stock is one back; a hand's backs share borders
        assert "Computer (simple) · cards on the table" in text, text
        assert "10 cards" not in text, text
        for card in laid_out_cards(table(app).state["view"]):
            assert text.count(f"{pretty(card):>3}│") == 1, (card, text)

    drive(game, scenario, size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_my_cards_laid_out_are_not_drawn_as_my_hand_too(size: tuple[int, int]) -> None:
    """While the computer lays off onto the person's knock, the person's cards are drawn once,
    laid out on the table, not a second time as the hand below."""
    game = new_game(SEEDS["knock"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app, stop=lambda: policy(table(app).state).startswith("knock"))
        game.computer_delay = 3  # time to look while it lays off
        for key in keys_for(policy(table(app).state)):
            await pilot.press(key)
        await until(pilot, lambda: table(app).state["view"]["phase"] == "layoff", "the layoffs")
        await pilot.pause(0.1)
        text = screen_text(app)
        assert "You (Player 1) · dealer · cards on the table" in text, text
        assert "Computer (simple) is laying off" in text, text
        for card in laid_out_cards(table(app).state["view"]):
            assert text.count(f"{pretty(card):>3}│") == 1, (card, text)

    drive(game, scenario, size=size)


async def press_action_keys(pilot: Pilot[Any], app: PlayApp, keys: list[str]) -> None:
    before = table(app).state["version"]
    for key in keys:
        await pilot.press(key)
    await until(
        pilot,
        lambda: table(app).state["version"] != before and waiting_for_me(app),
        f"the answer to {keys}",
    )


def test_undo_follows_the_webs_fair_play_rules() -> None:
    store = Store("sqlite://")
    game = new_game(SEEDS["undo"], store)

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        await press_action(pilot, app, "take")
        # Still my turn, the computer has not moved since: the take can be taken back.
        assert [e["action"] for e in table(app).state["view"]["history"]] == ["take"]
        assert table(app).state["table"]["can_undo"]
        await until(pilot, lambda: "u Undo" in screen_text(app), "the undo key")
        await press_action_keys(pilot, app, ["u"])
        state = table(app).state
        assert state["view"]["history"] == [] and state["view"]["phase"] == "first_upcard"
        assert state["table"]["fair_play"]["undo_used"]
        await until(pilot, lambda: "undo used" in screen_text(app), "undo used, on screen")
        # Once the computer has moved, even by passing the upcard too, my pass stays.
        await press_action(pilot, app, "pass")
        assert [e["action"] for e in table(app).state["view"]["history"]] == ["pass", "pass"]
        assert not table(app).state["table"]["can_undo"]
        await until(pilot, lambda: "u Undo" not in screen_text(app), "no undo key")
        await pilot.press("colon", *"undo", "enter")  # asked all the same: refused, saying why
        await until(pilot, lambda: "computer has moved since" in screen_text(app), "the refusal")
        # A card drawn from the stock is never put back.
        await press_action(pilot, app, "draw")
        assert not table(app).state["table"]["can_undo"]
        await until(pilot, lambda: "u Undo" not in screen_text(app), "no undo key")
        await pilot.press("colon", *"undo", "enter")  # asked all the same: refused, saying why
        await until(pilot, lambda: "cannot be put back" in screen_text(app), "the refusal")
        assert table(app).state["view"]["phase"] == "discard"

    drive(game, scenario)
    info = store.get_game(game.table.id)
    assert info is not None and info.options["undo_used"] is True
    store.close()


def test_no_undo_once_the_computer_showed_a_card() -> None:
    game = new_game(SEEDS["answered"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        await press_action(pilot, app, "pass")
        history = [e["action"] for e in table(app).state["view"]["history"]]
        assert history[:2] == ["pass", "take"]
        assert not table(app).state["table"]["can_undo"]
        await pilot.press("colon", *"undo", "enter")
        await until(pilot, lambda: "computer has moved since" in screen_text(app), "the refusal")
        assert not table(app).state["table"]["fair_play"]["undo_used"]

    drive(game, scenario)


def test_the_tables_refusal_reads_as_a_sentence() -> None:
    """The table's refusals are worded for "Not done: ..." ("nothing of yours to undo in this
    hand"): the status line showed them so, unlike its own, which start with a capital and end
    with a full stop."""
    game = new_game(SEEDS["undo"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        await pilot.press("colon", *"undo", "enter")
        await until(pilot, lambda: table(app).problem is not None, "the refusal")
        status = table(app).text("status").plain
        assert status.startswith("Nothing of yours to undo in this hand.\n"), status

    drive(game, scenario)


def test_hints_are_the_experts_ranked_hints() -> None:
    game = new_game(SEEDS["knock"], hint_worlds=8)

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        await pilot.press("h")
        await until(pilot, lambda: table(app).hints is not None, "the hints")
        hints = table(app).hints
        assert isinstance(hints, list)
        assert {h["action"] for h in hints} == set(legal(table(app).state))
        await until(pilot, lambda: "Hints (best first)" in screen_text(app), "the hints shown")
        shown = screen_text(app).split("Hints (best first)", 1)[1]
        assert not re.search(r"\b[A2-9TJQK][shdc]\b", shown), shown  # cards as cards: 7♣
        await press_action(pilot, app, "pass")
        assert table(app).hints is None  # stale once the hand moved on

    drive(game, scenario)


def test_the_score_sheet_and_help_open_and_close() -> None:
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app)
        await pilot.press("s")
        await until(pilot, lambda: "Score sheet" in screen_text(app), "the sheet")
        text = screen_text(app)
        assert "Won by" in text and "knock" in text
        await pilot.press("escape")
        await until(pilot, lambda: "Score sheet" not in screen_text(app), "the table")
        await pilot.press("question_mark")
        await until(pilot, lambda: "How to play here" in screen_text(app), "the help")
        await pilot.press("escape")

    drive(game, scenario)


def test_the_score_sheet_is_laid_out_again_when_the_screen_is_resized() -> None:
    """The sheet is laid out for the screen's width (a column a player where they fit, else
    one score cell): it was laid out once, as the dialog opened, and a resize meanwhile left
    it wrapped on a narrower screen, or narrow on a wider one."""
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app)
        await pilot.press("s")
        await until(pilot, lambda: "Score sheet" in screen_text(app), "the sheet")
        assert "Each score:" not in screen_text(app)  # a column a player
        await pilot.resize_terminal(40, 24)
        await until(pilot, lambda: "Each score:" in screen_text(app), "the narrow sheet")
        await pilot.resize_terminal(120, 40)
        await until(pilot, lambda: "Each score:" not in screen_text(app), "the wide sheet")

    drive(game, scenario, size=(120, 40))


def test_the_labels_over_the_cards_wrap_instead_of_being_cut() -> None:
    """At 80 columns the felt is some 50 wide: "You (Player 1) · took 7♣ from the pile: it
    cannot be discarded this turn" was cut after "cannot", and the other's label (a connection
    lost said at its end) likewise."""
    game = new_game(SEEDS["undo"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        await press_action(pilot, app, "take")
        await pilot.pause(0.1)
        text = " ".join(screen_text(app).split())
        assert "cannot be discarded this turn" in text, screen_text(app)

    drive(game, scenario)


def test_the_label_says_a_card_taken_from_the_pile_was_taken() -> None:
    """The label over your cards said "just drew 7♣" also for a card taken from the pile:
    "took 7♣ from the pile" there (as the plain mode says), "just drew" for the stock."""
    game = new_game(SEEDS["undo"])

    def label(app: PlayApp) -> str:
        return " ".join(screen_text(app).split())

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        upcard = pretty(table(app).state["view"]["upcard"])
        await press_action(pilot, app, "take")
        await pilot.pause(0.1)
        assert f"took {upcard} from the pile: it cannot be discarded this turn" in label(app)
        assert "just drew" not in label(app)
        await press_action(pilot, app, policy(table(app).state))  # a discard
        while table(app).state["view"]["phase"] != "discard":
            await press_action(pilot, app, "draw")
        drawn = table(app).state["view"]["history"][-1]
        assert drawn["action"] == "draw" and drawn["seat"] == 0
        await pilot.pause(0.1)
        assert f"just drew {pretty(drawn['card'])}" in label(app)
        assert "from the pile: it cannot" not in label(app)

    drive(game, scenario, size=(120, 40))


def test_typed_hand_and_log_open_the_table_and_the_moves() -> None:
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "my turn")
        await pilot.press("colon", *"log", "enter")
        await until(pilot, lambda: "This hand's moves" in screen_text(app), "the log")
        assert "deals" in screen_text(app)
        await pilot.press("escape")
        await until(pilot, lambda: "This hand's moves" not in screen_text(app), "the table")
        await pilot.press("colon", *"hand", "enter")
        await until(pilot, lambda: "The table" in screen_text(app), "the hand")
        assert "Your hand:" in screen_text(app)
        await pilot.press("escape")

    drive(game, scenario)


def test_the_mouse_draws_chooses_and_discards() -> None:
    game = new_game(SEEDS["knock"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        while table(app).state["view"]["phase"] != "draw":
            await press_action(pilot, app, policy(table(app).state))
        before = table(app).state["version"]
        await pilot.click("#piles", offset=(2, 1))  # the stock
        await until(pilot, lambda: table(app).state["version"] != before, "the draw")
        await until(pilot, lambda: waiting_for_me(app), "my discard")
        assert table(app).state["view"]["phase"] == "discard"
        card = app.table.query_one("#hand", Cards).drawing.spans[0][2]
        await pilot.click("#hand", offset=(2, 1))
        assert table(app).selected == card
        before = table(app).state["version"]
        await pilot.double_click("#hand", offset=(2, 1))
        await until(pilot, lambda: table(app).state["version"] != before, "the discard")
        history = table(app).state["view"]["history"]
        assert any(e["action"] == f"discard {card}" for e in history)

    drive(game, scenario)


def test_arrows_choose_and_a_typed_command_plays() -> None:
    game = new_game(SEEDS["knock"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        await pilot.press("right")
        first = table(app).selected
        await pilot.press("right")
        assert table(app).selected not in (None, first)
        await pilot.press("left")
        assert table(app).selected == first
        before = table(app).state["version"]
        await pilot.press("colon", *"pass", "enter")
        await until(pilot, lambda: table(app).state["version"] != before, "the pass")
        history = table(app).state["view"]["history"]
        assert any(e["seat"] == 0 and e["action"] == "pass" for e in history)
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "discard")
        card = policy(table(app).state).split()[1]
        before = table(app).state["version"]
        await pilot.press("colon", *f"x {card}", "enter")  # typed in the line, not a choice
        await until(pilot, lambda: table(app).state["version"] != before, "the discard")
        history = table(app).state["view"]["history"]
        assert any(e["seat"] == 0 and e["action"] == f"discard {card}" for e in history)
        await pilot.press("right")
        assert table(app).selected is not None
        await pilot.press("escape")
        assert table(app).selected is None

    drive(game, scenario)


def test_the_table_fits_80_by_24_and_follows_a_resize() -> None:
    game = new_game(SEEDS["knock"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "discard")
        cards = [pretty(c) for c in table(app).state["view"]["hand"].split()]
        assert len(cards) == 11
        for size in ((120, 40), (80, 24)):
            await pilot.resize_terminal(*size)
            await pilot.pause(0.1)
            text = screen_text(app)
            lines = text.splitlines()
            assert len(lines) == size[1] and max(len(line) for line in lines) <= size[0]
            for card in cards:
                assert card in text, (size, card)
            assert "Choose a card to discard." in text
            assert "q Quit" in text

    drive(game, scenario, size=(100, 30))


def test_a_narrow_screen_shows_every_card_and_the_prompt() -> None:
    """At 60x20 the log goes under the table, which takes the whole width; narrower still,
    the cards go on more rows rather than be cut off mid-card."""
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        def shows_all(phase: str) -> None:
            view = table(app).state["view"]
            text = screen_text(app)
            lines = text.splitlines()
            assert len(lines) == 20 and max(len(line) for line in lines) <= 60
            for card in view["hand"].split():
                assert f"│{pretty(card):>3}│" in text, (phase, card, text)
            assert prompt(table(app).state)[:40] in text, (phase, text)

        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "discard")
        await pilot.pause(0.1)
        shows_all("discard")
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "layoff")
        await pilot.pause(0.1)
        shows_all("layoff")
        for melded in table(app).state["view"]["table_melds"]:
            for card in split_cards(melded):
                assert f"{pretty(card):>3}│" in screen_text(app)
        await pilot.resize_terminal(40, 30)
        await pilot.pause(0.1)
        text = screen_text(app)
        assert max(len(line) for line in text.splitlines()) <= 40
        for card in table(app).state["view"]["hand"].split():
            assert f"{pretty(card):>3}│" in text, (card, text)

    drive(game, scenario, size=(60, 20))


def test_a_saved_game_resumes_where_it_was_left(tmp_path: Any) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    game = new_game(SEEDS["knock"], store)

    async def first(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "discard")
        await pilot.press("q")  # in the middle of the hand: asked first
        await until(pilot, lambda: "Quit in the middle" in screen_text(app), "the question")
        await pilot.press("y")
        await until(pilot, lambda: app.return_code is not None, "the app to quit")

    drive(game, first)
    left = game.table.hand
    assert left is not None
    resumed = LocalGame.resume(store)  # the latest open terminal game
    assert resumed.table.id == game.table.id
    assert resumed.table.hand is not None
    assert resumed.table.hand.events == left.events

    async def second(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the resumed state")
        assert table(app).state["view"]["phase"] == "discard"
        await play_hand(pilot, app)

    drive(resumed, second)
    store.close()


def test_q_in_the_middle_of_a_hand_asks_first_and_quits_at_once_between_hands() -> None:
    """A lone q (a queen typed without its capital: q then h) does not end the game in the
    middle of a hand: a dialog asks, and n or Esc plays on with nothing chosen; q again (or
    y) quits. Once the hand is over nothing is under way, and q quits at once."""
    game = new_game(SEEDS["knock"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "my turn")
        for no in ("n", "escape"):
            await pilot.press("q")
            await until(pilot, lambda: "Quit in the middle" in screen_text(app), "the question")
            assert "capital Q" in screen_text(app)
            await pilot.press("h")  # the suit meant: nothing in the dialog
            await pilot.pause(0.1)
            assert app.return_code is None and "Quit in the middle" in screen_text(app)
            await pilot.press(no)
            await until(pilot, lambda: "Quit in the middle" not in screen_text(app), "the table")
            assert app.return_code is None
        await pilot.press("q", "q")  # asked, and q again: quit
        await until(pilot, lambda: app.return_code is not None, "the app to quit")

    drive(game, scenario)

    async def between_hands(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app)
        await pilot.press("q")
        await until(pilot, lambda: app.return_code is not None, "the app to quit")
        assert "Quit in the middle" not in screen_text(app)

    drive(new_game(SEEDS["knock"]), between_hands)


def test_the_screen_never_shows_the_computers_cards_or_the_stock() -> None:
    """At every point of a whole hand (the first dealer fixed, so that no cut card, drawn from
    a separate virtual deck, is on the screen), no card the person may not know is shown."""
    rules = Rules.preset("standard", first_dealer="fixed")
    game = new_game(11, rules=rules)
    checked = 0

    def check(app: PlayApp) -> None:
        nonlocal checked
        hand = game.table.hand
        assert hand is not None
        if hand.is_over:
            return
        text = screen_text(app)
        secret = hidden_cards(hand, 0)
        shown = {card for card in secret if re.search(re.escape(pretty(card)), text)}
        assert not shown, f"the screen shows {sorted(shown)}:\n{text}"
        checked += 1

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        while table(app).state["view"]["phase"] != "over":
            check(app)
            await press_action(pilot, app, policy(table(app).state))
        check(app)

    drive(game, scenario, size=(120, 40))
    assert checked > 5


def test_the_end_of_a_game_and_a_rematch() -> None:
    store = Store("sqlite://")
    rules = Rules.preset("standard", game_target=10)
    game = new_game(SEEDS["knocked"], store, rules=rules)
    first_id = game.table.id

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app)  # the computer knocks for 33: the game is over
        await until(pilot, lambda: "r Rematch" in screen_text(app), "the rematch key")
        text = screen_text(app)
        assert "Computer (simple) wins the game by" in text
        assert "n Next hand" not in text
        await pilot.press("s")
        await until(pilot, lambda: "Game over" in screen_text(app), "the final summary")
        assert "Game bonus" in screen_text(app)
        await pilot.press("escape")
        await pilot.press("r")
        await until(pilot, lambda: table(app).state["table"]["id"] != first_id, "the new game")
        state = table(app).state
        assert state["table"]["hand_number"] == 1 and state["table"]["scores"] == [0, 0]

    drive(game, scenario)
    old = store.get_game(first_id)
    assert old is not None and old.status == "finished"
    assert old.options["rematch"] == game.table.id
    new = store.get_game(game.table.id)
    assert new is not None and new.options["interface"] == "terminal" and new.is_open
    store.close()


def test_a_match_says_so() -> None:
    game = new_game(SEEDS["knock"], match=True)

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        assert "match 0–0" in screen_text(app)

    drive(game, scenario)


def test_the_end_of_a_match_says_its_last_game_then_the_match() -> None:
    """The match's end said only who won the match: the last game's winner, said at the end
    of every other game of the match, comes first."""
    rules = Rules.preset("standard", game_target=10, match_target=20)
    game = new_game(SEEDS["knock"], rules=rules, match=True)

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        for _ in range(10):  # a hand at a time, until the match is over
            await play_hand(pilot, app)
            if table(app).state["table"].get("over"):
                break
            await pilot.press("n")
            await until(pilot, lambda: table(app).state["view"]["phase"] != "over", "the next hand")
        else:
            raise AssertionError("the match never ended")
        await until(pilot, lambda: "win the match" in screen_text(app), "the match's end")
        text = screen_text(app)
        game_line = text.index("You win the game by 253.")
        assert text.index("You win the match by 253.") > game_line
        await pilot.press("s")
        await until(pilot, lambda: "Match over" in screen_text(app), "the final summary")
        assert "Game over" in screen_text(app)

    drive(game, scenario, size=(120, 40))


def test_a_game_moved_on_elsewhere_is_not_overwritten(tmp_path: Any) -> None:
    """The same game resumed twice: the second copy's move clashes with the stored one and is
    refused, saying so, instead of being written over it."""
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    game = new_game(SEEDS["undo"], store)  # the person moves first: pass
    other = LocalGame.resume(store, game.table.id)

    async def run() -> dict[str, Any]:
        await game.start()
        await other.start()
        await game.send({"type": "action", "action": "pass"})
        await other.send({"type": "action", "action": "pass"})
        while (message := await other.receive())["type"] != "error":
            pass
        await game.close()
        await other.close()
        return message

    message = asyncio.run(run())
    assert "could not be saved" in message["message"]
    stored = store.load_game(game.table.id)
    assert stored is not None
    assert [a.seat for a in stored.hands[0].actions][:1] == [0]
    store.close()


class ScriptedSession:
    """A session whose messages the test sends: the screen is driven by messages alone."""

    label = "a scripted table"
    skew = 0.0

    def __init__(self) -> None:
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.sent: list[dict[str, Any]] = []

    async def start(self) -> None:
        pass

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)

    async def receive(self) -> dict[str, Any]:
        return await self.queue.get()

    async def close(self) -> None:
        pass


def test_a_lost_connection_and_a_closed_table_are_said() -> None:
    state = new_game(SEEDS["undo"]).table.state_for(0)
    session = ScriptedSession()

    async def run() -> None:
        app = PlayApp(session)
        async with app.run_test() as pilot:
            session.queue.put_nowait(state)
            await until(pilot, lambda: "Take the upcard" in screen_text(app), "the state")
            await pilot.press("p")
            await until(pilot, lambda: bool(session.sent), "the pass")
            assert session.sent == [{"type": "action", "action": "pass"}]
            session.queue.put_nowait({"type": "connection", "connected": False})
            await until(pilot, lambda: "Reconnecting" in screen_text(app), "the notice")
            session.queue.put_nowait({"type": "closed"})
            await until(pilot, lambda: "closed the connection" in screen_text(app), "the end")

    asyncio.run(run())


def test_the_web_server_does_not_open_a_terminal_game_in_the_same_database() -> None:
    """A terminal game is the terminal's: a server on the same database opening it (by its id,
    as a watcher would) would play the computer's moves into it beside the terminal, and its
    sweep of games left for a month would close it. It is no game of the server's, and the
    terminal resumes it as it was."""
    store = Store("sqlite://")
    game = new_game(SEEDS["answered"], store)
    manager = Manager(store, computer_delay=0, limits=UNLIMITED)

    async def open_it() -> object:
        return await manager.find(game.table.id)

    async def sweep() -> int:
        return await manager.abandon_stale()

    try:
        assert asyncio.run(open_it()) is None
        assert game.table.id not in manager.tables
        # Nor does the server close it as abandoned, however long it was left: the terminal
        # resumes it whenever its player comes back.
        with store.transaction() as tx:
            tx._session.execute(
                update(GameRow)
                .where(GameRow.id == game.table.id)
                .values(updated_at=utcnow() - timedelta(days=365))
            )
        assert asyncio.run(sweep()) == 0
        info = store.get_game(game.table.id)
        assert info is not None and info.status == "open"
        assert LocalGame.resume(store, game.table.id).table.hand is not None
    finally:
        manager.close()
        store.close()


def test_a_key_pressed_while_the_connection_is_lost_sends_nothing_and_says_so() -> None:
    """A joined table's socket is lost (the status line says it is reconnecting): a move
    pressed meanwhile is not sent into nothing, where it would be lost unseen, and the screen
    says that no move is sent until then. Once connected again, the same key makes the move."""
    game = new_game(SEEDS["undo"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the first state")
        table(app).take({"type": "connection", "connected": False})
        told = "no move is sent until then"
        await until(pilot, lambda: told in screen_text(app), "the lost connection")
        await pilot.press("p")
        await pilot.pause(0.3)
        table(app).selected = "Jc"  # a card chosen stays chosen though nothing was sent
        table(app).send_action("discard Jc")
        assert table(app).selected == "Jc"
        assert game.table.hand is not None and game.table.hand.events == []
        table(app).take({"type": "connection", "connected": True})
        await press_action(pilot, app, "pass")
        assert game.table.hand.events and game.table.hand.events[0].action.kind.value == "pass"

    drive(game, scenario)


def test_the_move_clock_between_people_counts_down_on_the_status_line() -> None:
    """At a table between people with a move clock (joined from the terminal), the seat to
    move sees its seconds left, counted down, as the page shows them."""
    state = new_game(SEEDS["undo"]).table.state_for(0)
    state["table"]["deadline"] = time.time() + 30
    session = ScriptedSession()

    async def run() -> None:
        app = PlayApp(session)
        async with app.run_test() as pilot:
            session.queue.put_nowait(state)
            await until(pilot, lambda: "s to move · Take the upcard" in screen_text(app), "clock")
            first = re.search(r"⏱ (\d+)s to move", screen_text(app))
            assert first is not None and 28 <= int(first[1]) <= 30
            await until(
                pilot,
                lambda: f"⏱ {int(first[1]) - 1}s to move" in screen_text(app),
                "the next second",
                limit=5,
            )

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (40, 12)])
def test_help_fits_the_screen_and_scrolls_to_its_last_line(size: tuple[int, int]) -> None:
    """Help is longer than a small terminal: its dialog stays on the screen with its way out
    shown, and the keys scroll it down to the last command."""
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "my turn")
        await pilot.press("question_mark")
        await until(pilot, lambda: "How to play here" in screen_text(app), "the help")
        await pilot.pause(0.1)
        assert "Esc: close" in screen_text(app)
        await pilot.press("end")
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "quit (q)" in text and "Esc: close" in text, text
        await pilot.press("escape")
        await until(pilot, lambda: "How to play here" not in screen_text(app), "the table")

    drive(game, scenario, size=size)


def test_a_tiny_screen_shows_my_hand_and_the_prompt() -> None:
    """At 40x12 the table does not fit: the opponent's backs give way, and the table scrolls
    to what matters now, the hand and what to do, rather than leave them below the screen's
    edge."""
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        for phase in ("discard", "layoff"):
            await play_hand(pilot, app, stop=lambda p=phase: table(app).state["view"]["phase"] == p)
            await pilot.pause(0.2)
            text = screen_text(app)
            for card in table(app).state["view"]["hand"].split():
                assert f"{pretty(card):>3}│" in text, (phase, card, text)
            assert prompt(table(app).state)[:20] in text, (phase, text)
        await play_hand(pilot, app)
        await pilot.pause(0.2)
        assert "Computer (simple) wins the hand" in screen_text(app)  # the showdown's headline

    drive(game, scenario, size=(40, 12))


def test_a_refusal_keeps_the_prompt_in_sight() -> None:
    """A card typed that is not in the hand is refused, and what to do now stays on the screen
    under the refusal (it is the only place that says it)."""
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "my turn")
        asked = prompt(table(app).state)
        hand = table(app).state["view"]["hand"].split()
        missing = next(str(c) for c in map(card_from_index, range(52)) if str(c) not in hand)
        await pilot.press(missing[0], missing[1].lower())
        await pilot.pause(0.1)
        text = screen_text(app)
        assert f"{pretty(missing)} is not in your hand." in text
        assert asked[:30] in text, text

    drive(game, scenario)


def test_the_discard_prompt_says_how_to_choose_a_card() -> None:
    """With no card chosen the footer has no discard key: the status line says how to choose
    one and discard it, until one is chosen."""
    game = new_game(SEEDS["knock"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app, stop=lambda: table(app).state["view"]["phase"] == "discard")
        await pilot.pause(0.1)
        status = table(app).text("status").plain
        assert status.endswith("←/→ or type a card (K then h), then x."), status
        assert "then x." in screen_text(app)
        await pilot.press("right")
        await pilot.pause(0.1)
        assert "chosen: x discards it." in screen_text(app)

    drive(game, scenario)


def test_a_dialogs_footer_lists_its_own_keys() -> None:
    """While a dialog is open the table's keys do nothing: the footer lists the dialog's keys
    (how to close it), not the table's, which it used to go on showing."""
    game = new_game(SEEDS["knocked"])

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "my turn")
        for key in ("question_mark", "s"):
            await pilot.press(key)
            await pilot.pause(0.2)
            footer = screen_text(app).splitlines()[-1]
            assert "Close" in footer and "Take" not in footer, footer
            await pilot.press("escape")
            await pilot.pause(0.1)
        assert "t Take" in screen_text(app).splitlines()[-1]

    drive(game, scenario)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pytest.mark.parametrize(("seed", "by"), [(SEEDS["undercut"], "you"), (8, "Computer (simple)")])
def test_the_showdown_shows_the_cards_laid_off_on_the_knockers_melds(
    seed: int, by: str, size: tuple[int, int]
) -> None:
    """At the end of a hand each meld of the knocker is drawn with the defender's cards laid
    off on it after a "+", and the knocker's label says whose they are (they were named only
    in the sentence about the result)."""
    game = new_game(seed)

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app)
        await pilot.pause(0.2)
        laid = [card for card, _ in table(app).state["view"]["layoffs"]]
        assert laid, "the seed's defender lays off"
        text = screen_text(app)
        assert f"│+│{pretty(laid[0]):>3}│" in text, text
        assert f"+ laid off by {by}" in text, text

    drive(game, scenario, size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_move_log_keeps_to_its_newest_line_unless_scrolled_up(size: tuple[int, int]) -> None:
    """The log shows its newest move and follows the moves as they come; scrolled up by the
    player, it stays where it was put (it used to jump back at the next move) until scrolled
    back to its end. Typed, ``log`` opens on the newest move too, not the oldest."""
    game = new_game(SEEDS["dead"])  # a long hand: the log outgrows its box

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        box = app.table.query_one("#logbox")

        def newest_shown() -> bool:
            return box.max_scroll_y > 0 and box.scroll_y == box.max_scroll_y

        await play_hand(pilot, app, stop=lambda: len(table(app).state["view"]["history"]) > 40)
        await until(pilot, newest_shown, "the log at its newest line")
        box.scroll_to(y=box.max_scroll_y - 6, animate=False)  # the player looks back
        await pilot.pause(0.1)
        looked = box.scroll_y
        for _ in range(2):
            await press_action(pilot, app, policy(table(app).state))
        await pilot.pause(0.2)
        assert box.scroll_y == looked < box.max_scroll_y
        box.scroll_end(animate=False)  # and back to the end: it follows again
        await pilot.pause(0.1)
        await press_action(pilot, app, policy(table(app).state))
        await until(pilot, newest_shown, "the log following again")
        await pilot.press("colon", *"log", "enter")
        await until(pilot, lambda: "This hand's moves" in screen_text(app), "the log dialog")
        await pilot.pause(0.2)
        newest = [line.text for line in log_lines(table(app).state)][-1]
        assert newest[:30] in screen_text(app), screen_text(app)

    drive(game, scenario, size=size)


def state_where(seed: int, ready: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    """The person's state once ``ready(it)``, both seats played by the tests' policy."""
    game = new_game(seed)
    while not ready(state := game.table.state_for(0)):
        hand = game.table.hand
        assert hand is not None and not hand.is_over
        seat = hand.current_player
        game.table.commit(game.table.plan(seat, policy(game.table.state_for(seat))))
    return state


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_a_key_out_of_turn_says_why_on_the_status_line(size: tuple[int, int]) -> None:
    """A key whose move is not possible now used to do nothing and say nothing: the status
    line says why (whose turn it is, or that there is nothing to take), sending nothing,
    and what to do now stays under it."""
    theirs = state_where(SEEDS["undo"], lambda s: s["view"]["current_player"] == 1)
    mine = state_where(SEEDS["undo"], lambda s: legal(s) and s["view"]["phase"] == "discard")
    session = ScriptedSession()

    async def run() -> None:
        app = PlayApp(session)
        async with app.run_test(size=size) as pilot:
            session.queue.put_nowait(theirs)
            await until(pilot, lambda: "is thinking" in screen_text(app), "the state")
            for key in ("d", "t", "x", "k", "n"):
                await pilot.press(key)
                await pilot.pause(0.05)
                status = table(app).text("status").plain
                why = "The hand is not over yet." if key == "n" else "It is the computer's turn."
                assert status.startswith(why), (key, status)
                assert "is thinking" in status
            assert why in screen_text(app)
            session.queue.put_nowait(mine)
            await until(pilot, lambda: "Choose a card to discard" in screen_text(app), "mine")
            await pilot.press("t")
            await until(pilot, lambda: "Nothing to take now." in screen_text(app), "the refusal")
            await pilot.press("x")
            await until(pilot, lambda: "Choose a card to discard first" in screen_text(app), "x")
            assert session.sent == []

    asyncio.run(run())


def person_states(seed: int, moves: int) -> list[dict[str, Any]]:
    """The person's state after each of the hand's first ``moves`` moves (both seats played
    by the tests' policy), the deal's first."""
    game = new_game(seed)
    states = [game.table.state_for(0)]
    for _ in range(moves):
        hand = game.table.hand
        assert hand is not None and not hand.is_over
        seat = hand.current_player
        game.table.commit(game.table.plan(seat, policy(game.table.state_for(seat))))
        states.append(game.table.state_for(0))
    return states


@pytest.mark.parametrize("size", [(80, 16), (40, 12), (80, 24), (120, 40)])
def test_a_short_screen_scrolls_to_the_hand_only_when_it_is_my_turn(size: tuple[int, int]) -> None:
    """On a screen too short for the table, the player scrolls up to look at the piles: the
    table stays there while the other seat moves (or a key is refused) and scrolls back to
    the hand and the prompt only when it is the player's turn again. (At 80x24 and up the
    table fits: nothing scrolls.)"""
    states = person_states(SEEDS["undo"], 12)
    mine = [i for i, s in enumerate(states) if legal(s) and i > 2]
    theirs = next(i for i, s in enumerate(states) if i > mine[0] and not legal(s))
    again = next(i for i in mine if i > theirs)
    session = ScriptedSession()

    async def run() -> None:
        app = PlayApp(session)
        async with app.run_test(size=size) as pilot:
            felt = app.table.query_one("#felt")
            session.queue.put_nowait(states[mine[0]])
            await until(pilot, lambda: table(app).state is not None, "the state")
            await pilot.pause(0.2)
            assert felt.scroll_y == felt.max_scroll_y  # the hand and the prompt in sight
            felt.scroll_home(animate=False)  # the player looks at the piles
            await pilot.pause(0.1)
            session.queue.put_nowait(states[theirs])
            await until(pilot, lambda: table(app).state is states[theirs], "their turn")
            await pilot.press("d")  # refused: not my turn
            await pilot.pause(0.2)
            assert felt.scroll_y == 0, "scrolled away from the piles on the other's move"
            session.queue.put_nowait(states[again])
            await until(pilot, lambda: table(app).state is states[again], "my turn again")
            await pilot.pause(0.2)
            assert felt.scroll_y == felt.max_scroll_y

    asyncio.run(run())


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_the_title_fits_and_the_game_id_is_kept_in_help_and_the_sheet(
    size: tuple[int, int],
) -> None:
    """Under a long preset (Hollywood's three columns) the title at 80 columns used to cut
    the game's id off mid-way: the id is left out of the title when it does not fit, whole
    otherwise, and help and the score sheet always say it."""
    game = new_game(SEEDS["knock"], rules=Rules.preset("hollywood"))

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the deal")
        await pilot.pause(0.1)
        title = screen_text(app).splitlines()[0].strip()
        assert title.startswith("Player 1 (you) – Computer (simple): g1 0–0 g2 0–0 g3 0–0")
        if size[0] >= 120:
            assert title.endswith("· hollywood · game TermTest"), title
        else:
            assert title.endswith("· hollywood"), title
        for key, heading in (("s", "Score sheet"), ("question_mark", "How to play here")):
            await pilot.press(key)
            await until(pilot, lambda h=heading: h in screen_text(app), heading)
            assert "game TermTest" in screen_text(app), screen_text(app)
            await pilot.press("escape")
            await until(pilot, lambda h=heading: h not in screen_text(app), "the table")

    drive(game, scenario, size=size)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_help_says_the_rules_in_play(size: tuple[int, int]) -> None:
    """The rules of the game are in the help, as the page and the plain mode say them: the
    title names only the preset ("custom rules" once an option is changed), so a player had
    no way to read the bonuses, the target or Oklahoma's knock limit in the terminal."""
    rules = Rules.preset("oklahoma", gin_bonus=20)
    game = new_game(SEEDS["knock"], rules=rules)

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await until(pilot, lambda: waiting_for_me(app), "the deal")
        assert "custom rules" in screen_text(app).splitlines()[0]
        await pilot.press("question_mark")
        await until(pilot, lambda: "How to play here" in screen_text(app), "the help")
        lines = [line.strip().strip("│▁▂▃▄▅▆▇█").strip() for line in screen_text(app).splitlines()]
        text = " ".join(" ".join(lines).split())  # the dialog's lines, wrapped or not
        assert "Rules: Gin +20; undercut +25" in text, text
        assert "game to 150" in text, text
        assert "the first upcard sets the knock limit" in text, text

    drive(game, scenario, size=size)


def test_the_final_tally_fits_the_sheet_under_a_long_name() -> None:
    """Under a long name (up to 40 characters) the game's final tally was wider than the
    sheet at 80 columns and each row wrapped, the other player's column on a line of its
    own: the totals are then one cell a row, "0–258", as the hands' scores already were."""
    name = "Maximiliana Bartholomew-Featherstonehaugh"[:40]
    rules = Rules.preset("standard", game_target=10)
    game = new_game(SEEDS["knocked"], rules=rules, name=name)

    async def scenario(pilot: Pilot[Any], app: PlayApp) -> None:
        await play_hand(pilot, app)  # the computer knocks for 33: the game is over
        await pilot.press("s")
        await until(pilot, lambda: "Score sheet" in screen_text(app), "the sheet")
        await pilot.press("end")
        await pilot.pause(0.2)
        rows = [line.strip(" │▁▂▃▄▅▆▇█") for line in screen_text(app).splitlines()]
        final = table(app).state["table"]["final"]["players"]
        for label, key in (("Hand points", "hand_points"), ("Boxes", "boxes"), ("Total", "total")):
            cell = f"{final[0][key]}–{final[1][key]}"
            assert any(re.fullmatch(rf"{label} +{cell}", row) for row in rows), (label, rows)
        assert any(row.startswith("Each total: ") for row in rows), rows

    drive(game, scenario)
