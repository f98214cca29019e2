"""The wall (stock exhaustion) and wall_pickup, Oklahoma, the eleven-card deal, straight gin.

Seat 0 deals. In the wall scenarios both players pass the upcard and then draw and discard
the card they drew: the non-dealer's 15th draw is card 29 of the 31-card stock, which leaves
two cards in the stock (``wall_deal`` puts the card to test there).
"""

from __future__ import annotations

import pytest

from ginrummy import (
    Card,
    Hand,
    IllegalActionError,
    Phase,
    ResultKind,
    Rules,
)
from helpers import (
    ARRANGE_DEAL,
    DEFENDER_2,
    DEFENDER_31,
    GIN_DEAL,
    KNOCKER,
    LAYOFF_DEAL,
    WALL_DEALER,
    deal,
    deck_for,
    draw_and_discard,
    knock_deal,
    play,
    snapshot,
    wall_deal,
    wall_stock,
)


def legal_texts(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


def to_the_wall(hand: Hand) -> Hand:
    """Both pass; 14 turns each of drawing and discarding; then the non-dealer draws card 29."""
    play(hand, "pass, pass")
    draw_and_discard(hand, 28)
    assert hand.stock_count == 3 and hand.current_player == 1
    hand.apply("draw")
    assert hand.stock_count == 2
    return hand


# --------------------------------------------------------------------------------------------
# The wall


def test_a_discard_that_leaves_two_in_the_stock_ends_in_a_dead_hand() -> None:
    hand = to_the_wall(deal(**wall_deal(DEFENDER_31, "5c")))
    assert str(hand.events[-1].card) == "5c"
    hand.apply("discard 5c")
    assert hand.is_over and hand.current_player is None
    result = hand.result
    assert result is not None and result.kind is ResultKind.DEAD
    assert (result.knocker, result.winner, result.points) == (None, None, 0)
    assert hand.stock_count == 2  # the last two cards are never drawn
    assert hand.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.apply("draw")


def test_the_turn_before_the_wall_is_an_ordinary_turn() -> None:
    hand = deal(**wall_deal(DEFENDER_31, "5c"))
    play(hand, "pass, pass")
    draw_and_discard(hand, 28)
    assert hand.phase is Phase.DRAW and not hand.is_over and hand.stock_count == 3
    assert legal_texts(hand) == ["take", "draw"]


def test_a_knock_on_the_wall_turn_scores_normally() -> None:
    hand = to_the_wall(deal(**wall_deal(DEFENDER_31, "Ad")))
    assert "knock Kd" in legal_texts(hand)
    play(hand, "knock Kd")
    assert hand.phase is Phase.LAYOFF
    hand.apply("auto")
    result = hand.result
    assert result is not None and result.kind is ResultKind.KNOCK
    assert (result.winner, result.points) == (1, 31 - 8)


def test_gin_on_the_wall_turn_scores_normally() -> None:
    # The gin deal with the 2c as card 29: the non-dealer draws it at the wall and goes gin.
    used = f"{GIN_DEAL['non_dealer']} {GIN_DEAL['dealer']} Jc"
    gin = {**GIN_DEAL, "upcard": "Jc", "stock": wall_stock(used, "2c")}
    hand = to_the_wall(deal(**gin))
    hand.apply("gin Kd")
    result = hand.result
    assert result is not None and result.kind is ResultKind.GIN and result.points == 74 + 25


# --------------------------------------------------------------------------------------------
# wall_pickup


WALL_PICKUP = Rules(wall_pickup=True)


def test_wall_pickup_lets_the_other_player_take_the_last_discard_to_knock() -> None:
    hand = to_the_wall(deal(WALL_PICKUP, **wall_deal(WALL_DEALER, "6s")))
    hand.apply("discard 6s")
    assert hand.phase is Phase.WALL and hand.current_player == 0 and not hand.is_over
    assert legal_texts(hand) == ["take", "pass"]
    hand.apply("take")
    assert hand.phase is Phase.DISCARD and hand.taken_card == Card.parse("6s")
    # He may only knock: no plain discard, and not with the card he took.
    assert legal_texts(hand) == ["knock 3d", "knock 2c"]
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="a card taken at the wall must be used to knock"):
        hand.apply("discard 3d")
    with pytest.raises(IllegalActionError, match="6s was just taken"):
        hand.apply("knock 6s")
    assert snapshot(hand) == before
    hand.apply("knock 3d")
    hand.apply("auto")
    result = hand.result
    assert result is not None and result.kind is ResultKind.KNOCK
    # Knocker (dealer) 2 against the non-dealer's Kd 4c 3h = 17.
    assert (result.knocker, result.winner, result.points) == (0, 0, 17 - 2)


def test_wall_pickup_pass_makes_the_hand_dead() -> None:
    hand = to_the_wall(deal(WALL_PICKUP, **wall_deal(WALL_DEALER, "6s")))
    play(hand, "discard 6s, pass")
    assert hand.result is not None and hand.result.kind is ResultKind.DEAD


def test_wall_pickup_take_is_illegal_when_it_gives_no_knock() -> None:
    hand = to_the_wall(deal(WALL_PICKUP, **wall_deal(WALL_DEALER, "Kh")))
    hand.apply("discard Kh")
    assert hand.phase is Phase.WALL
    assert legal_texts(hand) == ["pass"]
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="at the wall Kh may be taken only to knock"):
        hand.apply("take")
    with pytest.raises(IllegalActionError, match=r"take \(to knock\) or pass"):
        hand.apply("draw")
    assert snapshot(hand) == before
    hand.apply("pass")
    assert hand.result is not None and hand.result.kind is ResultKind.DEAD


@pytest.mark.parametrize(
    "text", ["draw", "discard 2c", "knock 3d", "gin 3d", "biggin", "layoff 6s", "done", "auto"]
)
def test_at_the_wall_only_take_or_pass_and_nothing_changes(text: str) -> None:
    # The non-dealer discarded the 6s with two cards left in the stock; the dealer (2c 3d
    # against QhQdQc 9sTsJs 6d6h) may take it to knock, or pass.
    hand = to_the_wall(deal(WALL_PICKUP, **wall_deal(WALL_DEALER, "6s")))
    hand.apply("discard 6s")
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match=r"not allowed at the wall: take \(to knock\)"):
        hand.apply(text)
    assert not hand.is_legal(text)
    # The player who discarded has no say at the wall.
    with pytest.raises(IllegalActionError, match="seat 0 is to take or pass at the wall"):
        hand.apply("take", seat=1)
    assert snapshot(hand) == before and hand.stock_count == 2


def test_without_wall_pickup_the_last_discard_cannot_be_taken() -> None:
    hand = to_the_wall(deal(**wall_deal(WALL_DEALER, "6s")))
    hand.apply("discard 6s")
    assert hand.is_over and hand.result is not None and hand.result.kind is ResultKind.DEAD
    before = snapshot(hand)
    for seat in (0, 1):
        with pytest.raises(IllegalActionError, match="the hand is over"):
            hand.apply("take", seat=seat)
    assert snapshot(hand) == before


def test_wall_pickup_with_must_gin_offers_only_the_gin() -> None:
    # The dealer's QhQdQc 9sTsJs 6d6h6c with 2c: the 6s makes a four-card set, so he can go gin
    # (2c) or knock (a 6, leaving 2c). 8s and Qs would give him gin earlier: kept out.
    dealer = "Qh Qd Qc 9s Ts Js 6d 6h 6c 2c"
    rules = Rules(wall_pickup=True, must_gin=True)
    hand = to_the_wall(deal(rules, **wall_deal(dealer, "6s", avoid="8s Qs")))
    play(hand, "discard 6s, take")
    assert legal_texts(hand) == ["gin 2c"]
    for action in hand.legal_actions():
        assert hand.is_legal(action)
    with pytest.raises(IllegalActionError, match="you can go gin, and these rules say you must"):
        hand.apply("knock 6h")
    hand.apply("gin 2c")
    assert hand.result is not None and hand.result.kind is ResultKind.GIN


def test_wall_pickup_without_must_gin_offers_gin_and_knocks() -> None:
    dealer = "Qh Qd Qc 9s Ts Js 6d 6h 6c 2c"
    hand = to_the_wall(deal(WALL_PICKUP, **wall_deal(dealer, "6s", avoid="8s Qs")))
    play(hand, "discard 6s, take")
    assert legal_texts(hand) == ["gin 2c", "knock 6h", "knock 6d", "knock 6c"]


# --------------------------------------------------------------------------------------------
# Oklahoma

OKLAHOMA = Rules.preset("oklahoma")
#: Hands that hold none of the upcards below.
PLAIN = {"non_dealer": "2h 3h 4h 5d 6d 7d 8c 9c Jc Kc", "dealer": "3s 4s 5s 6s 8s 3d 4d 8h 9h 5c"}


@pytest.mark.parametrize(
    ("upcard", "limit", "multiplier"),
    [
        ("7h", 7, 1),
        ("Kd", 10, 1),
        ("Td", 10, 1),
        ("2c", 2, 1),
        ("9s", 9, 2),
        ("Qs", 10, 2),
        ("Ah", 0, 1),
        ("As", 0, 2),
    ],
)
def test_oklahoma_knock_limit_and_multiplier_come_from_the_upcard(
    upcard: str, limit: int, multiplier: int
) -> None:
    hand = deal(OKLAHOMA, upcard=upcard, **PLAIN)
    assert (hand.knock_limit, hand.multiplier) == (limit, multiplier)
    assert hand.view(0).knock_limit == limit
    one = deal(OKLAHOMA.replace(oklahoma_ace="one"), upcard=upcard, **PLAIN)
    assert one.knock_limit == (1 if upcard[0] == "A" else limit)
    flat = deal(OKLAHOMA.replace(oklahoma_spade_double=False), upcard=upcard, **PLAIN)
    assert flat.multiplier == 1
    assert deal(upcard=upcard, **PLAIN).knock_limit == 10  # not Oklahoma


def test_oklahoma_refuses_a_knock_over_the_upcard_limit() -> None:
    hand = play(deal(OKLAHOMA, **knock_deal(upcard="6c")), "pass, pass, draw")
    with pytest.raises(IllegalActionError, match="deadwood 8 over the knock limit 6"):
        hand.apply("knock Kd")
    assert not [a for a in legal_texts(hand) if a.startswith("knock")]
    # An 8 upcard allows the same knock (at most the limit).
    hand = play(deal(OKLAHOMA, **knock_deal(upcard="8h")), "pass, pass, draw, knock Kd")
    assert hand.phase is Phase.LAYOFF


def test_oklahoma_ace_upcard_means_gin_only_unless_ace_counts_one() -> None:
    lay = {**LAYOFF_DEAL, "upcard": "Ah"}  # after drawing 2c: 2h2d2c QhQdQc 5s6s7s | Ac
    hand = play(deal(OKLAHOMA, **lay), "pass, pass, draw")
    with pytest.raises(IllegalActionError, match="deadwood 1: only gin ends this hand"):
        hand.apply("knock Kd")
    hand = play(deal(OKLAHOMA.replace(oklahoma_ace="one"), **lay), "pass, pass, draw")
    assert hand.knock_limit == 1
    hand.apply("knock Kd")
    assert hand.phase is Phase.LAYOFF


def test_oklahoma_spade_upcard_doubles_every_score() -> None:
    hand = play(deal(OKLAHOMA, **knock_deal(upcard="Ks")), "pass, pass, draw, knock Kd, auto")
    result = hand.result
    assert result is not None and result.kind is ResultKind.KNOCK
    assert (result.multiplier, result.points) == (2, (31 - 8) * 2)
    hand = play(
        deal(OKLAHOMA, **knock_deal(DEFENDER_2, upcard="Ks")), "pass, pass, draw, knock Kd, auto"
    )
    assert hand.result is not None and hand.result.kind is ResultKind.UNDERCUT
    assert hand.result.points == (8 - 2 + 25) * 2
    gin = {**GIN_DEAL, "upcard": "Js", "stock": "2c"}
    hand = play(deal(OKLAHOMA, **gin), "pass, pass, draw, gin Kd")
    assert hand.result is not None and hand.result.points == (74 + 25) * 2
    # A heart upcard does not double.
    hand = play(deal(OKLAHOMA, **knock_deal(upcard="Kh")), "pass, pass, draw, knock Kd, auto")
    assert hand.result is not None and hand.result.points == 31 - 8


def test_oklahoma_limit_holds_for_the_whole_hand() -> None:
    hand = play(deal(OKLAHOMA, **knock_deal(upcard="6c")), "pass, take, discard Kc")
    assert hand.discard_pile[-1] == Card.parse("Kc") and hand.knock_limit == 6


# --------------------------------------------------------------------------------------------
# The eleven-card deal

ELEVEN = Rules(deal="eleven")


def test_eleven_card_deal_non_dealer_starts_by_discarding() -> None:
    deck = deck_for(non_dealer=KNOCKER + " Qs", dealer=DEFENDER_31, stock="9h Ad")
    assert str(deck[20]) == "Qs"  # the 21st card is the non-dealer's eleventh
    hand = Hand.from_deck(ELEVEN, 0, deck)
    assert hand.upcard is None and hand.discard_pile == ()
    assert hand.phase is Phase.DISCARD and hand.current_player == 1
    assert len(hand.cards(1)) == 11 and len(hand.cards(0)) == 10
    assert hand.stock_count == 31 and str(hand.stock).startswith("9h Ad")
    assert hand.taken_card is None
    assert legal_texts(hand) == [f"discard {c}" for c in hand.cards(1)]
    before = snapshot(hand)
    for text in ("take", "pass", "draw"):
        with pytest.raises(IllegalActionError, match="discard, knock or gin"):
            hand.apply(text)
    assert snapshot(hand) == before
    hand.apply("discard Qs")
    # The dealer may take that first discard or draw.
    assert hand.current_player == 0 and legal_texts(hand) == ["take", "draw"]


def test_eleven_card_deal_plays_to_a_knock() -> None:
    deck = deck_for(non_dealer=KNOCKER + " Qs", dealer=DEFENDER_31, stock="9h Ad")
    hand = Hand.from_deck(ELEVEN, 0, deck)
    # The dealer takes the Qs (QsQhQdQc) and throws 9c; the non-dealer draws 9h, throws it;
    # the dealer draws Ad, throws it; the non-dealer takes Ad and knocks with Kd.
    play(hand, "discard Qs, take, discard 9c, draw, discard 9h, draw, discard Ad, take")
    hand.apply("knock Kd")
    hand.apply("auto")
    result = hand.result
    assert result is not None and result.kind is ResultKind.KNOCK
    # Dealer: QsQhQdQc 9sTsJs with 6d 6h Kc = 22; the non-dealer's 4c 3h Ad = 8.
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (8, 22, 14)


def test_eleven_card_deal_the_non_dealer_may_knock_at_once() -> None:
    deck = deck_for(non_dealer=KNOCKER + " Ad", dealer=DEFENDER_31)
    hand = Hand.from_deck(ELEVEN, 0, deck)
    assert legal_texts(hand)[-1] == "knock Kd"
    hand.apply("knock Kd")
    assert hand.phase is Phase.LAYOFF


def test_oklahoma_cannot_use_the_eleven_card_deal() -> None:
    with pytest.raises(ValueError, match="oklahoma cannot be played with the eleven-card deal"):
        OKLAHOMA.replace(deal="eleven")


# --------------------------------------------------------------------------------------------
# Straight gin


def test_straight_gin_allows_only_gin() -> None:
    straight = Rules.preset("straight")
    hand = play(deal(straight, **knock_deal()), "pass, pass, draw")
    assert all(a.startswith("discard") for a in legal_texts(hand))
    with pytest.raises(IllegalActionError, match="deadwood 8: only gin ends this hand"):
        hand.apply("knock Kd")
    hand = play(deal(straight, **ARRANGE_DEAL), "pass, pass, draw")
    with pytest.raises(IllegalActionError, match="only gin"):
        hand.apply("knock Kd")
    hand = play(deal(straight, **GIN_DEAL), "take")
    assert [a for a in legal_texts(hand) if not a.startswith("discard")] == ["gin Kd"]
    hand.apply("gin Kd")
    assert hand.result is not None and hand.result.kind is ResultKind.GIN


def test_straight_gin_at_the_wall_pickup_needs_gin() -> None:
    rules = Rules.preset("straight", wall_pickup=True)
    hand = to_the_wall(deal(rules, **wall_deal(WALL_DEALER, "6s")))
    hand.apply("discard 6s")
    assert legal_texts(hand) == ["pass"]  # 6s leaves him 2: a knock, but not gin
