"""One hand, rule by rule, in card notation: the deal, the first upcard, a turn, errors,
undo and copy, and the action text.

Seat 0 deals in every scenario, so the non-dealer (seat 1) acts first. The knock, layoff and
scoring rules are in test_hand_showdown.py; the wall, Oklahoma, the eleven-card deal and
straight gin in test_hand_variants.py.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from ginrummy import (
    Action,
    ActionKind,
    Card,
    GinRummyError,
    Hand,
    IllegalActionError,
    InvalidArgumentError,
    InvalidNotationError,
    Meld,
    Phase,
    PlayerView,
    Rules,
)
from helpers import (
    DEFENDER_31,
    KNOCKER,
    LAYOFF_DEAL,
    LAYOFF_START,
    cards,
    deal,
    deck_for,
    knock_deal,
    mask,
    play,
    snapshot,
)

# --------------------------------------------------------------------------------------------
# The deal


def test_deck_convention_deals_alternately_from_the_non_dealer() -> None:
    deck = deck_for(KNOCKER, DEFENDER_31, "Jd", "Ad 5c")
    assert [str(c) for c in deck[:4]] == ["As", "Qh", "2s", "Qd"]
    assert str(deck[20]) == "Jd" and str(deck[21]) == "Ad" and str(deck[22]) == "5c"
    for dealer in (0, 1):
        hand = Hand.from_deck(Rules(), dealer, deck)
        assert hand.cards(1 - dealer) == cards(KNOCKER).sorted()
        assert hand.cards(dealer) == cards(DEFENDER_31).sorted()
        assert hand.upcard == Card.parse("Jd")
        assert hand.discard_pile == (Card.parse("Jd"),)
        assert hand.stock_count == 31
        assert str(hand.stock).startswith("Ad 5c ")
        assert hand.current_player == 1 - dealer
        assert hand.phase is Phase.FIRST_UPCARD
        assert hand.legal_actions() == [Action.parse("take"), Action.parse("pass")]


def test_deck_for_rejects_bad_deals() -> None:
    with pytest.raises(ValueError, match="used twice"):
        deck_for(KNOCKER, DEFENDER_31, "As")
    with pytest.raises(ValueError, match="10 cards"):
        deck_for("As 2s", DEFENDER_31, "Jd")


def test_a_deck_must_have_52_distinct_cards() -> None:
    deck = deck_for(KNOCKER, DEFENDER_31, "Jd")
    with pytest.raises(InvalidNotationError, match="52 cards, not 51"):
        Hand.from_deck(Rules(), 0, deck[:51])
    with pytest.raises(InvalidNotationError, match="duplicate"):
        Hand.from_deck(Rules(), 0, [*deck[:51], deck[0]])
    with pytest.raises(InvalidArgumentError, match="the dealer must be seat 0 or 1, not 2"):
        Hand.from_deck(Rules(), 2, deck)


def test_a_seeded_deal_is_reproducible() -> None:
    a, b = Hand.deal(Rules(), 0, 42), Hand.deal(Rules(), 0, 42)
    assert a.deck == b.deck and a.cards(0) == b.cards(0)
    assert Hand.deal(Rules(), 0, 43).deck != a.deck


# --------------------------------------------------------------------------------------------
# The first upcard


def test_non_dealer_takes_the_upcard_then_discards() -> None:
    hand = deal(**LAYOFF_DEAL)  # upcard 4s
    event = hand.apply("take")
    assert (event.seat, event.card) == (1, Card.parse("4s"))
    assert hand.phase is Phase.DISCARD and hand.current_player == 1
    assert hand.taken_card == Card.parse("4s") and hand.discard_pile == ()
    assert len(hand.cards(1)) == 11
    assert hand.known_cards[1] == mask("4s")
    hand.apply("discard Kd")
    assert hand.phase is Phase.DRAW and hand.current_player == 0
    assert hand.taken_card is None
    # The dealer now draws normally: the pile's top card or the stock.
    assert [str(a) for a in hand.legal_actions()] == ["take", "draw"]


def test_dealer_takes_the_upcard_when_the_non_dealer_passes() -> None:
    hand = deal(**LAYOFF_DEAL)
    hand.apply("pass")
    assert hand.phase is Phase.FIRST_UPCARD and hand.current_player == 0
    assert [str(a) for a in hand.legal_actions()] == ["take", "pass"]
    hand.apply("take")
    assert hand.current_player == 0 and hand.phase is Phase.DISCARD
    hand.apply("discard Kh")
    assert hand.current_player == 1 and hand.phase is Phase.DRAW
    assert [str(a) for a in hand.legal_actions()] == ["take", "draw"]


def test_both_pass_then_the_non_dealer_must_draw_from_the_stock() -> None:
    hand = deal(**LAYOFF_DEAL)
    play(hand, "pass, pass")
    assert hand.phase is Phase.DRAW and hand.current_player == 1
    assert [str(a) for a in hand.legal_actions()] == ["draw"]
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="the non-dealer must draw from the stock"):
        hand.apply("take")
    assert snapshot(hand) == before
    event = hand.apply("draw")
    assert event.card == Card.parse("2c")
    assert hand.stock_count == 30
    # After that first draw the pile may be taken again as usual.
    hand.apply("discard Kd")
    assert [str(a) for a in hand.legal_actions()] == ["take", "draw"]


def test_only_take_or_pass_on_the_first_upcard() -> None:
    hand = deal(**LAYOFF_DEAL)
    before = snapshot(hand)
    for text in ("draw", "discard Kd", "knock Kd", "done", "layoff 5s"):
        with pytest.raises(IllegalActionError, match="take or pass the first upcard 4s"):
            hand.apply(text)
    assert snapshot(hand) == before


# --------------------------------------------------------------------------------------------
# A turn


def test_a_card_taken_from_the_pile_may_not_be_discarded_that_turn() -> None:
    hand = deal(**LAYOFF_DEAL)
    hand.apply("take")  # the 4s
    before = snapshot(hand)
    for text in ("discard 4s", "knock 4s", "gin 4s"):
        with pytest.raises(IllegalActionError, match="4s was just taken from the discard pile"):
            hand.apply(text)
        assert not hand.is_legal(text)
    assert snapshot(hand) == before
    assert "discard 4s" not in {str(a) for a in hand.legal_actions()}
    # On a later turn it may go.
    play(hand, "discard Kd, draw, discard 2c, draw")
    assert hand.current_player == 1
    assert hand.is_legal("discard 4s")


def test_a_card_taken_mid_hand_may_not_be_discarded_that_turn() -> None:
    hand = deal(**LAYOFF_DEAL)
    play(hand, "pass, pass, draw, discard Kd")
    hand.apply("take", seat=0)  # the dealer takes the Kd
    with pytest.raises(IllegalActionError, match="Kd was just taken"):
        hand.apply("discard Kd")
    hand.apply("discard Kh")
    assert hand.discard_pile[-1] == Card.parse("Kh")


def test_draw_from_the_stock_and_take_from_the_pile() -> None:
    hand = deal(**LAYOFF_DEAL)
    play(hand, "pass, pass")
    drawn = hand.apply("draw")
    assert drawn.card == Card.parse("2c") and hand.hand_mask(1) & drawn.card.bit
    assert hand.known_cards == (0, 0)  # a stock draw is private
    play(hand, "discard Kd")
    assert hand.discard_pile == (Card.parse("4s"), Card.parse("Kd"))
    taken = hand.apply("take")
    assert taken.card == Card.parse("Kd")
    assert hand.discard_pile == (Card.parse("4s"),)  # only the top card can be taken
    assert hand.known_cards[0] == mask("Kd")


def test_discard_passes_the_turn() -> None:
    hand = deal(**LAYOFF_DEAL)
    play(hand, "pass, pass, draw")
    hand.apply("discard Kd")
    assert hand.current_player == 0 and hand.phase is Phase.DRAW
    assert len(hand.cards(0)) == len(hand.cards(1)) == 10


def test_the_discard_phase_lists_discards_then_knocks() -> None:
    hand = deal(**knock_deal())
    play(hand, "pass, pass, draw")  # Ad
    legal = [str(a) for a in hand.legal_actions()]
    held = [str(c) for c in hand.cards(1)]
    assert legal == [f"discard {c}" for c in held] + ["knock Kd"]


# --------------------------------------------------------------------------------------------
# Bad moves: each raises a ValueError with a clear message and changes nothing


@pytest.mark.parametrize(
    ("setup", "text", "seat", "error", "message"),
    [
        # out of turn
        ("", "pass", 0, IllegalActionError, "it is not your turn: seat 1 is to take or pass"),
        ("pass, pass", "draw", 0, IllegalActionError, "it is not your turn: seat 1 is to draw"),
        ("pass, pass, draw", "discard Kd", 0, IllegalActionError, "seat 1 is to discard"),
        ("pass, pass, draw, knock Kd", "done", 1, IllegalActionError, "seat 0 is to lay off"),
        # wrong phase
        ("pass, pass", "discard Kd", None, IllegalActionError, "draw from the stock or take"),
        ("pass, pass", "pass", None, IllegalActionError, "'pass' is not allowed now"),
        ("pass, pass, draw", "draw", None, IllegalActionError, "discard, knock or gin"),
        ("pass, pass, draw", "take", None, IllegalActionError, "discard, knock or gin"),
        ("pass, pass, draw", "layoff Kd", None, IllegalActionError, "discard, knock or gin"),
        ("pass, pass, draw", "done", None, IllegalActionError, "discard, knock or gin"),
        ("pass, pass, draw, knock Kd", "draw", None, IllegalActionError, "lay off a card, done"),
        ("pass, pass, draw, knock Kd", "discard Qh", None, IllegalActionError, "lay off a card"),
        ("pass, pass, draw, knock Kd, done", "draw", None, IllegalActionError, "hand is over"),
        ("pass, pass, draw, knock Kd, done", "pass", 0, IllegalActionError, "hand is over"),
        # cards not held
        ("pass, pass, draw", "discard Kh", None, IllegalActionError, "you do not hold Kh"),
        ("pass, pass, draw", "knock Qh", None, IllegalActionError, "you do not hold Qh"),
        ("pass, pass, draw", "gin 2c", None, IllegalActionError, "you do not hold 2c"),
        ("pass, pass, draw, knock Kd", "layoff 5s", None, IllegalActionError, "not hold 5s"),
        ("pass, pass, draw, knock Kd", "layoff 9c", None, IllegalActionError, "does not fit"),
        # malformed text
        ("", "", None, InvalidNotationError, "empty action"),
        ("", "fold", None, InvalidNotationError, "unknown action 'fold'; actions are: pass"),
        ("pass, pass, draw", "discard", None, InvalidNotationError, "'discard' needs a card"),
        ("pass, pass, draw", "discard Zz", None, InvalidNotationError, "bad rank in card 'Zz'"),
        ("pass, pass, draw", "discard Kx", None, InvalidNotationError, "bad suit in card 'Kx'"),
        ("pass, pass, draw", "discard Kd Qh", None, InvalidNotationError, "unexpected text"),
        ("pass, pass, draw", "knock Kd 4c3h", None, InvalidNotationError, "is not a meld"),
        ("", "take Jd", None, InvalidNotationError, "unexpected text after 'take'"),
        ("", "draw 2", None, InvalidNotationError, "unexpected text after 'draw'"),
    ],
)
def test_bad_moves_raise_and_change_nothing(
    setup: str, text: str, seat: int | None, error: type[Exception], message: str
) -> None:
    hand = play(deal(**knock_deal()), setup)
    before = snapshot(hand)
    with pytest.raises(error, match=message) as info:
        hand.apply(text, seat=seat)
    assert isinstance(info.value, ValueError)
    assert snapshot(hand) == before
    assert not hand.is_legal(text, seat)
    with pytest.raises(error, match=message):
        hand.check(text, seat)
    assert snapshot(hand) == before


def test_an_action_that_is_not_text_is_refused() -> None:
    hand = deal(**knock_deal())
    before = snapshot(hand)
    with pytest.raises(InvalidNotationError, match="must be text"):
        hand.apply(7)  # type: ignore[arg-type]
    assert snapshot(hand) == before


def test_the_right_seat_may_act_with_its_seat_named() -> None:
    hand = deal(**knock_deal())
    hand.apply("pass", seat=1)
    hand.apply("pass", seat=0)
    assert hand.apply("draw", seat=1).card == Card.parse("Ad")


def test_action_text_is_case_insensitive_and_spacing_free() -> None:
    hand = deal(**knock_deal())
    play(hand, ["PASS", "  Pass ", "draw"])
    event = hand.apply("KNOCK   kd")
    assert str(event.action) == "knock Kd"
    assert hand.action_texts == ["pass", "pass", "draw", "knock Kd"]
    assert [str(a) for a in hand.record().actions] == hand.action_texts
    with pytest.warns(DeprecationWarning, match="use Hand.action_texts"):
        assert hand.actions == hand.action_texts  # the older name, kept for old callers


# --------------------------------------------------------------------------------------------
# undo and copy


def test_undo_restores_every_step_exactly() -> None:
    hand = deal(**LAYOFF_DEAL)
    snapshots = [snapshot(hand)]
    for text in [*LAYOFF_START.split(", "), "layoff 8s", "layoff 9s", "layoff 4s", "done"]:
        hand.apply(text)
        snapshots.append(snapshot(hand))
    assert hand.is_over
    events = list(hand.events)
    while hand.events:
        snapshots.pop()
        event = hand.undo()
        assert event == events[len(hand.events)]
        assert snapshot(hand) == snapshots[-1]
    with pytest.raises(IllegalActionError, match="nothing to undo"):
        hand.undo()
    # Replaying after undoing gives the same hand again.
    play(hand, [str(e.action) for e in events])
    assert hand.events == events


def test_the_state_is_one_immutable_value_shared_by_undo_and_copy() -> None:
    hand = deal(**LAYOFF_DEAL)
    states = [hand.state]
    for text in [*LAYOFF_START.split(", "), "layoff 8s"]:
        hand.apply(text)
        states.append(hand.state)
    state = hand.state
    assert (state.phase, state.turn, state.knocker) == (Phase.LAYOFF, 0, 1)
    assert state.melds == hand.table_melds and state.layoffs[0][0] == Card.parse("8s")
    assert not state.hands[0] & mask("8s") and state.hands[0] == hand.hand_mask(0)
    with pytest.raises(AttributeError):
        state.phase = Phase.OVER
    # A copy shares the state; undo goes back to the very state each action started from.
    assert hand.copy().state is state
    while hand.events:
        states.pop()
        hand.undo()
        assert hand.state is states[-1]
    # Equal states are the same position: the same moves again give an equal state.
    play(hand, [*LAYOFF_START.split(", "), "layoff 8s"])
    assert hand.state == state and hash(hand.state) == hash(state)


def test_copy_is_independent() -> None:
    hand = play(deal(**LAYOFF_DEAL), "pass, take")
    before = snapshot(hand)
    other = hand.copy()
    assert snapshot(other) == before
    play(other, "discard Kh, draw, knock Kd, auto")
    assert other.is_over
    assert snapshot(hand) == before
    # Undoing in the original leaves the copy alone, and the other way round.
    after = snapshot(other)
    hand.undo()
    assert snapshot(other) == after
    while other.events:
        other.undo()
    assert hand.action_texts == ["pass"]
    assert other.action_texts == []


# --------------------------------------------------------------------------------------------
# Action text


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("pass", ActionKind.PASS),
        ("take", ActionKind.TAKE),
        ("draw", ActionKind.DRAW),
        ("discard Kh", ActionKind.DISCARD),
        ("knock Kh", ActionKind.KNOCK),
        ("knock Kh As2s3s 7h7d7c", ActionKind.KNOCK),
        ("gin Kh", ActionKind.GIN),
        ("gin Kh As2s3s4s 7s7h7d7c 5d6d7d", ActionKind.GIN),
        ("biggin", ActionKind.BIG_GIN),
        ("biggin As2s3s 4h5h6h7h 8c8d8h8s", ActionKind.BIG_GIN),
        ("layoff 8s", ActionKind.LAYOFF),
        ("done", ActionKind.DONE),
        ("auto", ActionKind.AUTO),
    ],
)
def test_action_text_round_trip(text: str, kind: ActionKind) -> None:
    action = Action.parse(text)
    assert action.kind is kind
    assert Action.parse(str(action)) == action
    assert str(Action.parse(str(action))) == str(action)
    assert repr(action) == f"Action('{action}')"


def test_action_text_is_canonical() -> None:
    assert str(Action.parse("KNOCK kh 3s2sAs 7c7h7d")) == "knock Kh As2s3s 7h7d7c"
    assert str(Action.parse("discard 10h")) == "discard Th"
    assert str(Action.parse("layoff 8♠")) == "layoff 8s"
    action = Action.parse("knock Kh As2s3s 7h7d7c")
    assert action.card == Card.parse("Kh")
    assert action.melds == (Meld.parse("As2s3s"), Meld.parse("7h7d7c"))
    # A knock without melds is the same object every time.
    assert Action.parse("knock Kh") is Action.parse("knock  kh")


def test_every_legal_action_text_round_trips_in_a_played_hand() -> None:
    hand = deal(**LAYOFF_DEAL)
    seen: set[ActionKind] = set()
    for text in [*LAYOFF_START.split(", "), "layoff 8s", "auto"]:
        for action in hand.legal_actions():
            assert Action.parse(str(action)) == action
            seen.add(action.kind)
        hand.apply(text)
    assert seen >= {
        ActionKind.PASS,
        ActionKind.TAKE,
        ActionKind.DRAW,
        ActionKind.DISCARD,
        ActionKind.KNOCK,
        ActionKind.LAYOFF,
        ActionKind.DONE,
        ActionKind.AUTO,
    }


# --------------------------------------------------------------------------------------------
# Events and views


def test_events_record_who_did_what_with_which_card() -> None:
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START)
    assert [str(e) for e in hand.events] == [
        "1. seat 1: pass",
        "2. seat 0: take (4s)",
        "3. seat 0: discard Kh",
        "4. seat 1: draw (2c)",
        "5. seat 1: knock Kd",
    ]


def test_a_views_phase_is_the_enum_and_travels_as_its_text() -> None:
    hand = play(deal(**LAYOFF_DEAL), "pass, take")
    view = hand.view(0)
    assert view.phase is Phase.DISCARD
    data = view.to_dict()
    assert data["phase"] == "discard" and type(data["phase"]) is str
    assert PlayerView.from_dict(data).phase is Phase.DISCARD
    # Another referee may build a view with the phase's text: it is read into the enum.
    assert replace(view, phase="draw").phase is Phase.DRAW
    with pytest.raises(InvalidNotationError, match="unknown phase 'shuffle'; the phases are: "):
        PlayerView.from_dict({**data, "phase": "shuffle"})
    with pytest.raises(InvalidNotationError, match="unknown phase 3"):
        replace(view, phase=3)


def test_a_spectator_sees_public_cards_and_counts_only() -> None:
    hand = play(deal(**LAYOFF_DEAL), "pass, take, discard Kh, draw")
    view = hand.public_view()
    assert view.phase is Phase.DISCARD and view.current_player == 1 and view.dealer == 0
    assert [str(e.action) for e in view.history] == ["pass", "take", "discard Kh", "draw"]
    assert view.history[1].card == Card.parse("4s") and view.history[3].card is None  # 2c
    assert view.known == (cards("4s"), cards("")) and view.counts == (10, 11)
    assert view.discard_pile == (Card.parse("Kh"),) and view.stock_count == 30
    assert view.hands is None and view.result is None
    assert "2c" not in str(view.to_dict()) and view.to_dict()["seat"] is None
    # The knocker's discard is face down until the hand ends: the history says "knock" alone.
    play(hand, "knock Kd, layoff 8s")
    view = hand.public_view()
    assert [str(e.action) for e in view.history[-2:]] == ["knock", "layoff 8s"]
    assert view.history[-2].card is None and "Kd" not in str(view.to_dict())
    assert view.knocker == 1 and view.table_melds == hand.table_melds
    assert view.knocker_deadwood == cards("Ac") and view.counts == (9, 10)
    # The end shows both hands, and the discard.
    play(hand, "done")
    view = hand.public_view()
    knock = view.history[-3]
    assert str(knock.action) == "knock Kd" and knock.card == Card.parse("Kd")
    assert view.hands == (hand.cards(0), hand.cards(1)) and view.result == hand.result
    assert view.to_dict()["hands"] == [str(hand.cards(0)), str(hand.cards(1))]


def test_views_hide_the_stock_draw_and_the_opponents_cards() -> None:
    hand = play(deal(**LAYOFF_DEAL), "pass, take, discard Kh, draw")
    mine, theirs = hand.view(1), hand.view(0)
    assert mine.history[-1].card == Card.parse("2c")
    assert theirs.history[-1].card is None
    assert theirs.opponent_count == 11 and theirs.opponent_hand is None
    assert theirs.opponent_known == cards("")
    assert mine.opponent_known == cards("4s")  # the dealer took it from the pile
    assert mine.legal_actions == tuple(hand.legal_actions()) and theirs.legal_actions == ()
    assert "2c" not in str(theirs.to_dict())
    # At the end the opponent's hand is shown.
    play(hand, "knock Kd, done")
    assert hand.view(1).opponent_hand == hand.cards(0)


def test_a_view_carries_the_games_score_columns_and_they_travel_in_its_dict() -> None:
    from ginrummy.engine import HandResult
    from ginrummy.engine.scoring import Column, Tally

    rules = Rules.preset("hollywood")
    tally = Tally.start(rules)
    # Gin for seat 0 (55), a knock for seat 1 (16, in his first column, the first), then a
    # knock for seat 0 (10: in the first column and in her next, the second).
    for result in (
        HandResult.gin(rules, 0, 30),
        HandResult.knock(rules, 1, 4, 20),
        HandResult.knock(rules, 0, 2, 12),
    ):
        tally = tally.add(result)
    hand = deal(**LAYOFF_DEAL)
    view = hand.view(1, tally.totals, columns=tally.columns)
    assert view.columns == tally.columns and len(view.columns) == 3
    assert view.columns == (
        Column(1, (65, 16), (2, 1), (50, 25), None),
        Column(2, (10, 0), (1, 0), (25, 0), None),
        Column(3),
    )
    data = view.to_dict()
    assert data["columns"][0] == {
        "number": 1,
        "points": [65, 16],
        "wins": [2, 1],
        "boxes": [50, 25],
        "winner": None,
    }
    assert PlayerView.from_dict(data) == view
    # A view another referee wrote without columns reads as one that has none.
    del data["columns"]
    assert PlayerView.from_dict(data).columns == ()
    assert hand.view(1).columns == ()
    # A malformed column is refused in one line, naming what is wrong.
    bad = {**view.to_dict(), "columns": [{"number": 1, "points": [1], "wins": [0, 0]}]}
    with pytest.raises(InvalidNotationError, match="bad score column"):
        PlayerView.from_dict(bad)
    won_by_nobody = {**view.columns[0].to_dict(), "winner": 2}
    with pytest.raises(GinRummyError, match="the column's winner must be seat 0 or 1"):
        PlayerView.from_dict({**view.to_dict(), "columns": [won_by_nobody]})


def test_a_view_in_a_match_carries_the_match_points_and_they_travel_in_its_dict() -> None:
    hand = deal(**LAYOFF_DEAL)
    view = hand.view(1, (30, 45), match_points=(212, 0))
    assert view.match_points == (212, 0)
    data = view.to_dict()
    assert data["match_points"] == [212, 0]
    assert PlayerView.from_dict(data) == view
    # A game played on its own says so; a view written without the field reads the same.
    alone = hand.view(1, (30, 45))
    assert alone.match_points is None and alone.to_dict()["match_points"] is None
    del data["match_points"]
    assert PlayerView.from_dict(data).match_points is None
    # Malformed match points are refused in one line, naming what is wrong.
    for bad, message in (
        ([212], "the match points are two numbers, one for each seat"),
        ([212, -1], "seat 1's match points"),
        (["lots", 0], "seat 0's match points"),
    ):
        with pytest.raises(InvalidArgumentError, match=message):
            PlayerView.from_dict({**view.to_dict(), "match_points": bad})
        with pytest.raises(InvalidArgumentError, match=message):
            hand.view(1, match_points=bad)  # type: ignore[arg-type]
