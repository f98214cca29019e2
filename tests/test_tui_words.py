"""The terminal's words, commands, score sheet and deal check: the same sentences as the web
page's ``words.js`` for the same messages, typed commands read against a state, and a deal
check that catches a deck other than the one committed to."""

from __future__ import annotations

import asyncio
import copy
import io
from typing import Any

import pytest

from ginrummy.engine import Rules
from ginrummy.storage import Store
from ginrummy.tui.commands import (
    CommandWordsError,
    error_sentence,
    knock_action,
    knock_choices,
    parse_command,
)
from ginrummy.tui.local import LocalGame
from ginrummy.tui.plain import PlainPlayer, table_lines
from ginrummy.tui.remote import parse_link
from ginrummy.tui.sheet import final_lines, sheet_lines
from ginrummy.tui.verify import DealCheck, dealt_hand
from ginrummy.tui.words import (
    Namer,
    action_words,
    deal_line,
    move_line,
    pretty_cards,
    pretty_text,
    prompt,
    result_headline,
    result_words,
    split_cards,
    third_person,
)
from ginrummy.web.dealing import commitment
from tuiutil import SEEDS, new_game, policy

ANN = Namer(("Ann", "Bob"), 0)
BOB = Namer(("Ann", "Bob"), 1)
RULES = Rules().to_dict()


def test_sentences_agree_with_you_and_with_names() -> None:
    event = {"n": 3, "seat": 0, "action": "take", "card": "7c"}
    assert move_line(event, ANN) == "You take 7♣ from the pile."
    assert move_line(event, BOB) == "Ann takes 7♣ from the pile."
    assert move_line({"seat": 1, "action": "draw"}, ANN) == "Bob draws from the stock."
    assert move_line({"seat": 1, "action": "knock"}, ANN) == "Bob knocks, discarding face down."
    assert move_line({"seat": 0, "action": "gin Th"}, BOB) == "Ann goes gin, discarding 10♥!"
    assert move_line({"seat": 1, "action": "pass"}, ANN, "Kd") == "Bob passes on the upcard K♦."
    auto = {"seat": 1, "action": "auto", "laid_off": ["5s", "Jd"]}
    assert move_line(auto, ANN) == "Bob lays off 5♠ J♦."
    assert move_line({"seat": 0, "action": "auto"}, ANN) == "You have nothing to lay off."
    assert move_line({"seat": 1, "action": "done"}, ANN) == "Bob is done laying off."
    assert deal_line(2, 1, "As", ANN) == "Hand 2: Bob deals; the upcard is A♠."
    assert third_person("go gin") == "goes gin" and third_person("pass") == "passes"
    assert action_words("knock Kd") == "knock, discarding K♦"


def test_results_in_words() -> None:
    undercut = {
        "kind": "undercut",
        "knocker": 1,
        "winner": 0,
        "points": 31,
        "knocker_deadwood": 9,
        "defender_deadwood": 3,
        "multiplier": 1,
    }
    assert result_headline(undercut, ANN) == "You win the hand with an undercut"
    assert result_words(undercut, ANN, layoffs=[["5s", "5h5d5c"]], rules=RULES, dealer_next=0) == (
        "Bob knocks with 9, but you lay off 5♠ and have only 3: undercut! "
        "You score 31 (6 + 25 bonus)."
    )
    dead = {"kind": "dead", "knocker": None, "winner": None, "points": 0}
    assert result_headline(dead, BOB) == "Dead hand"
    assert "Ann deals again" in result_words(dead, BOB, rules=RULES, dealer_next=0)


def test_commands_are_read_against_the_state() -> None:
    state: dict[str, Any] = {
        "table": {"names": ["Ann", "Bob"], "seat": 0, "options": {"mode": "computer"}},
        "view": {
            "seat": 0,
            "phase": "discard",
            "current_player": 0,
            "legal_actions": ["discard Kh", "discard 2c", "knock 2c", "knock Kh"],
            "discard_deadwood": {"Kh": 4, "2c": 9},
            "knock_options": {
                "knock Kh": [
                    {"melds": [["As", "2s", "3s"]], "deadwood": ["4d"], "text": "As2s3s | 4d"},
                    {"melds": [["Ac", "2c", "3c"]], "deadwood": ["4d"], "text": "Ac2c3c | 4d"},
                ]
            },
        },
    }
    assert parse_command("x Kh", state).message == {"type": "action", "action": "discard Kh"}
    assert parse_command("K♥", state).message == {"type": "action", "action": "discard Kh"}
    knock = parse_command("knock", state)  # no card: the one that leaves the least deadwood
    assert (knock.kind, knock.action) == ("knock", "knock Kh")
    choices = knock_choices(state, "knock Kh")
    assert knock_action("knock Kh", choices, 0) == "knock Kh"
    assert knock_action("knock Kh", choices, 1) == "knock Kh Ac2c3c"
    assert parse_command("hint", state).message == {"type": "hint"}
    assert parse_command("q", state).name == "quit"
    for split, card in [("q h", "Qh"), ("t s", "Ts"), ("a d", "Ad"), ("10 ♣", "Tc")]:
        with pytest.raises(
            CommandWordsError, match=f"is not a command: a card is one word, {card}"
        ):
            parse_command(split, state)  # not quit, take or auto
    for bad, says in [
        ("draw", "cannot draw"),
        ("d", "you cannot draw from the stock now"),  # the move in words, not its short form
        ("a", "you cannot make the optimal layoffs now"),
        ("l Kh", "you cannot lay off K♥ now"),
        ("discard Zz", "not a card"),
        ("fold", "unknown"),
    ]:
        with pytest.raises(CommandWordsError, match=says):
            parse_command(bad, state)
    assert prompt(state) == "Choose a card to discard. You can knock."
    # At a table without hints the states leave out each discard's deadwood: a bare knock
    # asks which card (it would knock with an arbitrary one), unless only one can.
    del state["view"]["discard_deadwood"]
    with pytest.raises(CommandWordsError, match="knock with which card"):
        parse_command("knock", state)
    assert parse_command("knock 2c", state).action == "knock 2c"
    state["view"]["legal_actions"] = ["discard Kh", "discard 2c", "knock Kh"]
    assert parse_command("knock", state).action == "knock Kh"


def test_a_long_word_not_understood_is_repeated_cut() -> None:
    """An unknown command (or a card that is none) was repeated whole however long: a line
    pasted by mistake came back as long as it went in."""
    state: dict[str, Any] = {
        "table": {"names": ["Ann", "Bob"], "seat": 0, "options": {"mode": "computer"}},
        "view": {"seat": 0, "phase": "draw", "current_player": 0, "legal_actions": ["draw"]},
    }
    pasted = "x" * 300
    for typed, says in [
        (pasted, "Unknown command 'xxxxxxxxxxxxxxxxxxx…' (help lists them)."),
        (f"{pasted} and more", "Unknown command 'xxxxxxxxxxxxxxxxxxx…' (help lists them)."),
        (
            f"discard {pasted}",
            "'xxxxxxxxxxxxxxxxxxx…' is not a card (write it like Kh, 10d or 7♣).",
        ),
        ("frobnicate", "Unknown command 'frobnicate' (help lists them)."),  # short: whole
    ]:
        with pytest.raises(CommandWordsError) as caught:
            parse_command(typed, state)
        assert error_sentence(caught.value) == says


def test_a_card_not_in_the_hand_is_said_so_in_a_sentence() -> None:
    """Naming a card you do not hold says so (not that its move is impossible now), and the
    line a person reads starts with a capital and ends with a stop, in both modes."""
    state: dict[str, Any] = {
        "table": {"names": ["Ann", "Bob"], "seat": 0, "options": {"mode": "computer"}},
        "view": {
            "seat": 0,
            "phase": "discard",
            "current_player": 0,
            "hand": "Kh 2c 3d 4d 5d 7s 8s 9h Jc Qc Ks",
            "legal_actions": ["discard Kh", "discard 2c", "knock 2c"],
            "discard_deadwood": {"Kh": 4, "2c": 9},
        },
    }
    for typed in ("x 9s", "discard 9s", "9s", "knock 9s", "g 9s"):
        with pytest.raises(CommandWordsError, match="9♠ is not in your hand") as caught:
            parse_command(typed, state)
        assert error_sentence(caught.value) == "9♠ is not in your hand."
    with pytest.raises(CommandWordsError) as caught:
        parse_command("take", state)
    assert error_sentence(caught.value) == "You cannot take the discard now."
    for typed, said in [
        ("l", "Lay off which card? e.g. l Kh."),
        ("x", "Discard which card? e.g. x Kh."),
        ("layoff", "Lay off which card? e.g. layoff Kh."),
    ]:
        with pytest.raises(CommandWordsError) as caught:
            parse_command(typed, state)
        assert error_sentence(caught.value) == said  # the move in words, not "L which card?"
    with pytest.raises(CommandWordsError, match="you cannot discard 3♦ now"):
        parse_command("x 3d", state)  # held, but not to be discarded now
    state["view"]["phase"] = "layoff"
    state["view"]["legal_actions"] = ["layoff 2c", "auto", "done"]
    for typed in ("layoff Kh", "l Kh", "Kh"):
        with pytest.raises(CommandWordsError, match="K♥ fits none of the knocker's melds"):
            parse_command(typed, state)
    state["view"]["phase"] = "discard"
    state["view"]["legal_actions"] = ["discard Kh", "discard 2c", "knock 2c"]
    state["view"]["taken_card"] = "3d"
    for typed in ("x 3d", "3d", "knock 3d"):
        with pytest.raises(CommandWordsError, match="3♦ was just taken from the pile"):
            parse_command(typed, state)


def test_card_codes_in_a_sentence_are_written_as_cards_as_the_page_writes_them() -> None:
    """The expert's hint reasons name cards by code ("keeps 9h Th open"); both modes show them
    as the page does (cards.js's prettyText), melds as runs of cards."""
    assert pretty_text("breaks up 7c8c9c; he threw Kd") == "breaks up 7♣ 8♣ 9♣; he threw K♦"
    assert (
        pretty_text("discard 5c: keeps 9h Th open (8h Jh still live); he passed on 7c")
        == "discard 5♣: keeps 9♥ 10♥ open (8♥ J♥ still live); he passed on 7♣"
    )
    assert pretty_text("leaves 39 deadwood") == "leaves 39 deadwood"


def test_links_are_read_as_the_page_reads_them() -> None:
    link = parse_link("https://cards.example.org/gin/t/AbC_12-x#s=tok-en_1")
    assert (link.base, link.table, link.token) == (
        "wss://cards.example.org/gin",
        "AbC_12-x",
        "tok-en_1",
    )
    assert link.socket_url == "wss://cards.example.org/gin/ws/AbC_12-x?history=delta"
    old = parse_link("http://[::1]:8000/t/abc?s=xyz")
    assert (old.base, old.token) == ("ws://[::1]:8000", "xyz")


def finished_hand(seed: int, store: Store, **kwargs: Any) -> tuple[LocalGame, list[dict[str, Any]]]:
    """A hand played to its end by the local game's own messages: every state on the way."""
    from tuiutil import policy

    game = new_game(seed, store, **kwargs)
    states: list[dict[str, Any]] = []

    async def run() -> None:
        await game.start()
        while True:
            message = await game.receive()
            if message["type"] != "state":
                continue
            states.append(message)
            if message["view"]["phase"] == "over":
                break
            if message["view"]["legal_actions"]:
                await game.send({"type": "action", "action": policy(message)})
        await game.close()

    asyncio.run(run())
    return game, states


@pytest.mark.parametrize("dealer", [0, 1])
def test_the_deal_check_of_the_eleven_card_deal(dealer: int) -> None:
    """The eleven-card deal gives the non-dealer the 21st card too (no upcard is turned): his
    dealt cards are the deck's 1st, 3rd, ..., 19th and 21st, which the check once took for
    cards that do not come from the deck, and said the deal was false."""
    rules = Rules.preset("standard", deal="eleven", first_dealer="fixed", first_dealer_seat=dealer)
    _, states = finished_hand(SEEDS["knocked"], Store("sqlite://"), rules=rules)
    check = DealCheck()
    check.saw(states[0])
    verdict = check.verdict(states[-1]) or ""
    assert verdict.startswith("✓ Deal verified") and "your cards" in verdict, verdict


def test_the_deal_check_and_the_sheet() -> None:
    store = Store("sqlite://")
    _, states = finished_hand(SEEDS["knocked"], store)
    first, last = states[0], states[-1]
    assert dealt_hand(first["view"]) == dealt_hand(states[len(states) // 2]["view"])
    check = DealCheck()
    check.saw(first)
    verdict = check.verdict(last)
    assert verdict is not None and verdict.startswith("✓ Deal verified") and "your cards" in verdict
    forged = {**last, "reveal": {**last["reveal"], "salt": "0" * 32}}
    assert (check.verdict(forged) or "").startswith("✗")
    # The commitment binds the whole deck: a server that committed to a deck whose stock is
    # in another order than the one it fed, or to the deal's 21 cards alone, is caught.
    deck = split_cards(last["reveal"]["deck"])
    mine = [e for e in last["view"]["history"] if e["action"] == "draw" and e.get("card")]
    assert mine and all(e["seat"] == last["view"]["seat"] for e in mine)
    for forged_deck, said in [
        ([*deck[:21], *deck[22:], deck[21]], "✗ The cards you drew from the stock"),
        (deck[:21], "✗ The revealed deck is not a deck of 52"),
    ]:
        text, salt = "".join(forged_deck), "1" * 32
        published = commitment(text, salt)
        check = DealCheck()
        check.saw({**first, "table": {**first["table"], "commitment": published}})
        ended = {
            **last,
            "table": {**last["table"], "commitment": published},
            "reveal": {"deck": text, "salt": salt},
        }
        assert (check.verdict(ended) or "").startswith(said), check.verdict(ended)
    lines = sheet_lines(last["table"])
    assert lines[0] == "Game to 100" and "knock" in lines[2]
    sheet = last["table"]["sheet"]
    winner = sheet["hands"][0]["winner"]
    boxes = [[25, 0] if winner == 0 else [0, 25]]
    assert sheet["boxes"] == boxes  # the standard rules: a box of 25 a hand won
    names = last["table"]["names"]
    assert lines[-1] == (
        f"Boxes so far, added when the game ends: {names[0]} (you) {boxes[0][0]}, "
        f"{names[1]} {boxes[0][1]}."
    )
    assert final_lines(last["table"], Namer.of(last)) == []  # the game goes on
    store.close()


def test_a_match_sheet() -> None:
    store = Store("sqlite://")
    game = new_game(SEEDS["knock"], store, match=True, game_id="Match1")
    table = game.table.table_info(0)
    assert table["sheet"].get("games") is not None
    lines = sheet_lines(table)
    assert lines[0] == "Game 1" and "Match to 500" in lines
    store.close()


def test_the_prompt_says_whom_the_next_hand_waits_for() -> None:
    """Between people the next hand waits until both have asked: the one who has is told."""
    view = {"phase": "over", "seat": 0, "current_player": None}
    table: dict[str, Any] = {"names": ["Ann", "Bob"], "seat": 0, "ready": []}
    assert prompt({"view": view, "table": table}) == "The hand is over: next hand?"
    table["ready"] = [0]
    assert prompt({"view": view, "table": table}) == (
        "Waiting for Bob to see the result: the next hand comes when both are ready."
    )
    table["ready"] = [1]  # he has asked; you have not
    assert prompt({"view": view, "table": table}) == "The hand is over: next hand?"


def test_the_plain_table_says_what_the_app_shows_beside_the_cards() -> None:
    """Under Oklahoma the hand's knock limit and its doubling (the app shows both by the
    pile), and a card taken from the pile that may not be discarded this turn."""
    rules = Rules.preset("oklahoma")
    doubled = table_lines(new_game(1, rules=rules).table.state_for(0))  # K♠ upcard
    assert "Knock limit 10 this hand · every score doubled (a spade upcard)." in doubled
    plain = table_lines(new_game(8, rules=rules).table.state_for(0))  # 3♣ upcard
    assert "Knock limit 3 this hand." in plain
    assert not any("limit" in line for line in table_lines(new_game(8).table.state_for(0)))
    game = new_game(8, rules=rules)
    game.table.commit(game.table.plan(0, "take"))
    lines = table_lines(game.table.state_for(0))
    assert any("(took 3♣ from the pile: it cannot be discarded this turn)" in x for x in lines)


def test_the_plain_mode_says_a_hand_s_result_once() -> None:
    """Between people, asking for the next hand changes the prompt to whom it waits for: the
    result already said is not said again."""
    table = new_game(SEEDS["knock"]).table
    while table.state_for(0)["view"]["phase"] != "over":
        seat = table.hand.current_player if table.hand is not None else 0
        table.commit(table.plan(seat, policy(table.state_for(seat))))
    out = io.StringIO()
    player = PlainPlayer(new_game(SEEDS["knock"]), out=out)
    over = table.state_for(0)
    player.show(over)
    waiting = copy.deepcopy(over)
    waiting["table"]["ready"] = [0]
    player.show(waiting)
    text = out.getvalue()
    assert text.count("Score: You ") == 1 and text.count("Deal verified") == 1
    assert text.index("Score: You ") < text.index("Waiting for Computer (simple)")


def test_the_plain_mode_says_who_came_or_went_only_when_it_changes() -> None:
    """A presence message comes whenever a seat's sockets change, this seat's own too: the
    plain mode said every other seat at each one, so that a friend who had not come yet
    "left the table" when the player sat down, and was "here" twice after a reconnection."""
    out = io.StringIO()
    player = PlainPlayer(new_game(SEEDS["knock"]), out=out)
    state = new_game(SEEDS["knock"]).table.state_for(0)
    state["table"]["connected"] = [True, False]
    player.show(state)
    said = len(out.getvalue())
    for connected in ([True, False], [True, True], [True, True], [False, True], [True, True]):
        player.take({"type": "presence", "connected": connected})
    player.take({"type": "presence", "connected": [True, False]})
    other = Namer.of(state).who(1)
    assert out.getvalue()[said:].splitlines() == [f"{other} is here.", f"{other} left the table."]


def test_a_stake_leaves_the_presets_name_in_the_title_and_says_what_a_point_is_worth() -> None:
    """The title named "custom rules" for a preset played for a stake, as if the rules of
    play had been changed; a stake is no rule of play."""
    from ginrummy.tui.words import title_line

    for stake, words in (("0.05", ["classic", "0.05 a point"]), ("0", ["classic"])):
        store = Store("sqlite://")
        rules = Rules.preset("classic", stake=stake)
        _, states = finished_hand(SEEDS["knocked"], store, rules=rules)
        assert title_line(states[-1]).split(" · ")[2:] == words
        store.close()


def test_a_hollywood_score_is_each_columns_not_their_sum() -> None:
    from ginrummy.tui.plain import showdown_lines
    from ginrummy.tui.words import title_line

    store = Store("sqlite://")
    _, states = finished_hand(SEEDS["knocked"], store, rules=Rules.preset("hollywood"))
    last = states[-1]
    table = last["table"]
    totals = table["sheet"]["hands"][-1]["totals"]
    assert len(totals) == 3 and totals[1] == [0, 0]  # a first win scores in game 1 only
    first = totals[0]
    assert title_line(last).split(" · ") == [
        f"Player 1 (you) – Computer (simple): g1 {first[0]}–{first[1]} g2 0–0 g3 0–0",
        "hand 1",
        "hollywood",
    ]
    score = next(line for line in showdown_lines(last) if line.startswith("Score:"))
    assert score == (
        f"Score: game 1: You {first[0]}, Computer (simple) {first[1]}; "
        "game 2: You 0, Computer (simple) 0; game 3: You 0, Computer (simple) 0."
    )
    store.close()


@pytest.mark.parametrize("preset", ["hollywood", "standard"])
def test_the_sheet_fits_80_and_40_columns(preset: str) -> None:
    """Six named columns (Hollywood's three games) wrapped at 80 columns into lines that read
    as nonsense, and so did the standard sheet against the default computer, "Computer
    (intermediate)": a game's scores are one cell ("0–33") where the named columns do not
    fit, and a hand takes two lines where even that does not (the dialog at 40 columns): its
    result, which may wrap at its words, then its scores."""
    store = Store("sqlite://")
    _, states = finished_hand(SEEDS["knocked"], store, rules=Rules.preset(preset))
    table = {**states[-1]["table"], "names": ["Player 1", "Computer (intermediate)"]}
    pair = "–".join(map(str, table["sheet"]["hands"][0]["totals"][0]))
    assert sheet_lines(table)[:2] == [
        "Game to 100, three games scored at once (Hollywood)"
        if preset == "hollywood"
        else "Game to 100",
        "Each score: Player 1 (you) – Computer (intermediate)"
        if preset == "hollywood"
        else "#  Won by                   How    Points  Player 1 (you)  Computer (intermediate)",
    ]
    for width in (72, 32):  # the sheet dialog's lines at 80 and 40 columns
        lines = sheet_lines(table, width)
        assert lines[1] == "Each score: Player 1 (you) – Computer (intermediate)", lines
        rows = lines[2:-1]  # the hands (the boxes' sentence after them wraps at its words)
        scores = rows if width == 72 else rows[1::2]  # (at 40, a hand's second line)
        assert all(len(line) <= width for line in scores), lines
        points = table["sheet"]["hands"][0]["points"]
        if width == 72:
            head = "Points  Game 1  Game 2  Game 3" if preset == "hollywood" else "Points  Score"
            assert rows[0].endswith(head), rows
        else:
            assert rows[0] == f"1. Computer (intermediate): knock +{points}", rows
        assert pair in rows[1], rows
    store.close()


def test_the_plain_mode_tallies_a_finished_game() -> None:
    """'wins the game by 33 + 125' needs the tally to be read: when a game ends the plain mode
    shows its summary (hand points, boxes, bonuses, total), as the sheet does, not only the
    margin."""
    from ginrummy.tui.plain import showdown_lines

    store = Store("sqlite://")
    _, states = finished_hand(
        SEEDS["knocked"], store, rules=Rules.preset("standard", game_target=10)
    )
    lines = showdown_lines(states[-1])
    text = "\n".join(lines)
    assert "Game bonus" in text and "Total" in text, text
    assert lines[-1].startswith("Computer (simple) wins the game by"), text


def test_the_players_own_name_is_marked_you_where_both_are_shown() -> None:
    """The sheet, the final tally and the headers name the player as the web page's labels do,
    "Player 1 (you)": a sheet of "Player 1" and "Computer" did not say which was you."""
    from ginrummy.tui.words import title_line

    store = Store("sqlite://")
    _, states = finished_hand(
        SEEDS["knocked"], store, rules=Rules.preset("standard", game_target=10)
    )
    last = states[-1]
    sheet = sheet_lines(last["table"])
    assert "Player 1 (you)  Computer (simple)" in sheet[1], sheet
    final = final_lines(last["table"], Namer.of(last))
    assert final[1].split() == ["Player", "1", "(you)", "Computer", "(simple)"], final
    assert title_line(last).startswith("Player 1 (you) 0 – Computer (simple) "), title_line(last)
    out = io.StringIO()
    PlainPlayer(new_game(SEEDS["knock"]), out=out).show(states[0])
    assert "Gin rummy: Player 1 (you) against Computer (simple)." in out.getvalue()
    store.close()


@pytest.mark.parametrize(
    ("seed", "knocker"), [(SEEDS["undercut"], "Computer (simple)"), (8, "You")]
)
def test_the_plain_showdown_shows_the_cards_laid_off_on_their_melds(
    seed: int, knocker: str
) -> None:
    """At the end of a hand the knocker's melds are shown with the defender's cards laid off
    on them, after a "+" (they were said only in the sentence about the result)."""
    from ginrummy.tui.plain import showdown_lines

    store = Store("sqlite://")
    _, states = finished_hand(seed, store)
    last = states[-1]
    laid = [card for card, _ in last["view"]["layoffs"]]
    assert laid, "the seed's defender lays off"
    line = next(x for x in showdown_lines(last) if x.startswith(f"{knocker}: "))
    assert f" + {pretty_cards(laid[:1])}" in line, line
    assert line.endswith(")."), line
    store.close()


@pytest.mark.parametrize("match_target", [1, 1000], ids=["match-over", "game-of-a-match"])
def test_a_match_for_a_stake_is_settled_once_by_the_match(match_target: int) -> None:
    """At a stake, a match is settled once, at its end: the last game's line said what its
    own net paid as well ("You win the game by 253. At 0.5 a point, … pays you 126.50."),
    beside the match's same sum, and each game before it said so too, as if paid per game."""
    from ginrummy.tui.plain import showdown_lines
    from ginrummy.tui.sheet import final_sentences

    store = Store("sqlite://")
    rules = Rules.preset("standard", game_target=1, match_target=match_target, stake="0.5")
    _, states = finished_hand(SEEDS["knock"], store, rules=rules, match=True)
    last = states[-1]
    table, n = last["table"], Namer.of(last)
    assert table["game_over"] and table["over"] == (match_target == 1)
    game_line = "You win the game by 253."
    settled = "You win the match by 253. At 0.5 a point, Computer (simple) pays you 126.50."
    said = [settled] if table["over"] else []
    assert final_sentences(table, n) == [game_line, *said]  # the app's result
    for shown in (final_lines(table, n), showdown_lines(last)):  # its sheet, the plain mode
        assert game_line in shown, shown
        assert [line for line in shown if "pays" in line] == said, shown
    store.close()


@pytest.mark.parametrize(
    ("stake", "paid"), [("0.5", "126.50"), ("2", "506.00"), ("0.125", "31.625")]
)
def test_a_single_game_for_a_stake_is_settled_by_the_game(stake: str, paid: str) -> None:
    """Money with two decimals, more only where the stake has more: at 2 a point the game
    read "pays you 506", where the same sum at 1.50 a point reads with its cents."""
    from ginrummy.tui.sheet import final_sentences
    from ginrummy.tui.words import final_line

    store = Store("sqlite://")
    rules = Rules.preset("standard", game_target=1, stake=stake)
    _, states = finished_hand(SEEDS["knock"], store, rules=rules)
    last = states[-1]
    n = Namer.of(last)
    assert final_sentences(last["table"], n) == [
        f"You win the game by 253. At {stake} a point, Computer (simple) pays you {paid}."
    ]
    # A table that wrote the amount as it came ("126.5", "506") is read as money all the same.
    final = {**last["table"]["final"], "settlement": paid.rstrip("0").rstrip(".")}
    assert final_line(final, n, "game").endswith(f" pays you {paid}.")
    store.close()
