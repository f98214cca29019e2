"""Knocking, gin, big gin, must_gin, named arrangements, layoffs and the scoring of a hand.

Seat 0 deals; the non-dealer (seat 1) knocks in every scenario and the dealer defends.
"""

from __future__ import annotations

import pytest

from ginrummy import (
    DECK,
    Card,
    Hand,
    HandResult,
    IllegalActionError,
    InvalidNotationError,
    Meld,
    Phase,
    ResultKind,
    Rules,
    layoff,
    parse_melds,
)
from helpers import (
    ARRANGE_DEAL,
    BIG_GIN_DEAL,
    DEFENDER_2,
    DEFENDER_8,
    DEFENDER_31,
    GIN_DEAL,
    LAYOFF_DEAL,
    LAYOFF_START,
    cards,
    deal,
    knock_deal,
    mask,
    play,
    snapshot,
)


def legal_texts(hand: Hand) -> list[str]:
    return [str(a) for a in hand.legal_actions()]


# --------------------------------------------------------------------------------------------
# Knocking


def test_knock_only_within_the_knock_limit_after_the_discard() -> None:
    hand = play(deal(**knock_deal()), "pass, pass, draw")  # draws Ad
    # 11 cards: As2s3s4s 7h7d7c Kd 4c 3h Ad. Knocking with Kd leaves 4c 3h Ad = 8.
    assert [a for a in legal_texts(hand) if not a.startswith("discard")] == ["knock Kd"]
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="deadwood 14 over the knock limit 10"):
        hand.apply("knock 4c")  # leaves Kd 3h Ad
    with pytest.raises(IllegalActionError, match="deadwood 15 over the knock limit 10"):
        hand.apply("knock 3h")
    with pytest.raises(IllegalActionError, match="not gin: 8 deadwood after discarding Kd"):
        hand.apply("gin Kd")
    assert snapshot(hand) == before
    event = hand.apply("knock Kd")
    assert event.card == Card.parse("Kd")
    assert hand.phase is Phase.LAYOFF and hand.current_player == 0
    assert hand.knocker == 1 and hand.knock_card == Card.parse("Kd")
    arrangement = hand.knock_arrangement
    assert arrangement is not None and arrangement.deadwood == 8
    assert arrangement.melds == tuple(parse_melds("7h7d7c As2s3s4s"))
    assert arrangement.deadwood_cards == cards("3h Ad 4c")
    assert hand.table_melds == arrangement.melds
    assert len(hand.cards(1)) == 10  # the knock card is discarded face down
    assert hand.discard_pile == (Card.parse("Jd"),)


def test_knocking_is_optional() -> None:
    hand = play(deal(**knock_deal()), "pass, pass, draw, discard Kd")
    assert hand.phase is Phase.DRAW and hand.current_player == 0


def test_knock_at_exactly_the_limit() -> None:
    rules = Rules(knock_limit=8)
    hand = play(deal(rules, **knock_deal()), "pass, pass, draw, knock Kd")
    assert hand.phase is Phase.LAYOFF
    hand = play(deal(Rules(knock_limit=7), **knock_deal()), "pass, pass, draw")
    with pytest.raises(IllegalActionError, match="deadwood 8 over the knock limit 7"):
        hand.apply("knock Kd")
    assert not [a for a in legal_texts(hand) if a.startswith("knock")]


def test_the_knocker_cannot_act_during_layoffs() -> None:
    hand = play(deal(**knock_deal()), "pass, pass, draw, knock Kd")
    with pytest.raises(IllegalActionError, match="not your turn: seat 0 is to lay off"):
        hand.apply("done", seat=1)


# --------------------------------------------------------------------------------------------
# Gin and big gin


def test_gin_ends_the_hand_at_once_with_no_layoffs() -> None:
    hand = play(deal(**GIN_DEAL), "take")
    assert "gin Kd" in legal_texts(hand)
    with pytest.raises(IllegalActionError, match="that is gin: use 'gin Kd'"):
        hand.apply("knock Kd")
    hand.apply("gin Kd")
    assert hand.is_over and hand.phase is Phase.OVER and hand.current_player is None
    assert hand.legal_actions() == []
    result = hand.result
    assert result is not None
    # The defender holds 4s and 9s (which fit 5s-8s) and Qs (QhQdQc): no layoffs against gin.
    assert result.kind is ResultKind.GIN and result.layoffs == () and hand.layoffs == ()
    assert (result.knocker, result.winner) == (1, 1)
    assert result.defender_deadwood == 74
    assert result.points == 74 + 25
    assert result.defender_arrangement is not None
    dead = result.defender_arrangement.deadwood_cards
    assert dead == cards("4s 9s Qs Jh Jd 6c 8d 3h 5d 9c").sorted()
    for text in ("layoff 4s", "done", "auto"):
        with pytest.raises(IllegalActionError, match="the hand is over"):
            hand.apply(text)


def test_gin_bonus_comes_from_the_rules() -> None:
    hand = play(deal(Rules.preset("classic"), **GIN_DEAL), "take, gin Kd")
    assert hand.result is not None and hand.result.points == 74 + 20


def test_big_gin_only_when_the_rules_play_it() -> None:
    hand = play(deal(**BIG_GIN_DEAL), "take")  # all 11 cards meld
    assert "biggin" not in legal_texts(hand)
    before = snapshot(hand)
    with pytest.raises(IllegalActionError, match="big gin is not played under these rules"):
        hand.apply("biggin")
    assert snapshot(hand) == before
    # Plain gin is there: any card whose meld keeps three cards without it (not the 2c taken).
    assert [a for a in legal_texts(hand) if a.startswith("gin")] == [
        "gin 2s",
        "gin 5s",
        "gin 8s",
        "gin 2h",
        "gin 2d",
    ]

    hand = play(deal(Rules(big_gin=True), **BIG_GIN_DEAL), "take")
    assert legal_texts(hand)[-1] == "biggin"
    hand.apply("biggin")
    result = hand.result
    assert result is not None and result.kind is ResultKind.BIG_GIN
    assert hand.knock_card is None and len(hand.cards(1)) == 11
    assert result.points == 74 + 31 and result.layoffs == ()
    assert result.knocker_arrangement is not None
    assert result.knocker_arrangement.melds == tuple(parse_melds("2s2h2d2c QhQdQc 5s6s7s8s"))


def test_big_gin_needs_all_eleven_cards_melded() -> None:
    hand = play(deal(Rules(big_gin=True), **GIN_DEAL), "take")  # Kd is left over
    assert "biggin" not in legal_texts(hand)
    with pytest.raises(IllegalActionError, match="big gin needs all 11 cards melded"):
        hand.apply("biggin")


def test_big_gin_bonus_comes_from_the_rules() -> None:
    rules = Rules(big_gin=True, big_gin_bonus=50)
    hand = play(deal(rules, **BIG_GIN_DEAL), "take, biggin")
    assert hand.result is not None and hand.result.points == 74 + 50


def test_must_gin_refuses_discards_and_knocks_when_gin_is_possible() -> None:
    hand = play(deal(Rules(must_gin=True), **GIN_DEAL), "take")
    assert legal_texts(hand) == ["gin Kd"]
    before = snapshot(hand)
    for text in ("discard Kd", "knock 5s", "knock 8s"):
        with pytest.raises(IllegalActionError, match="you can go gin, and these rules say you"):
            hand.apply(text)
    assert snapshot(hand) == before
    # Without must_gin the same knock (5s: 6s7s8s QhQdQc 2h2d2c | Kd) is fine.
    free = play(deal(**GIN_DEAL), "take")
    assert {"discard Kd", "knock 5s", "knock 8s", "gin Kd"} <= set(legal_texts(free))
    free.apply("knock 5s")
    assert free.phase is Phase.LAYOFF


def test_must_gin_with_big_gin() -> None:
    hand = play(deal(Rules(must_gin=True, big_gin=True), **BIG_GIN_DEAL), "take")
    assert legal_texts(hand) == ["gin 2s", "gin 5s", "gin 8s", "gin 2h", "gin 2d", "biggin"]


def test_must_gin_allows_discarding_when_no_gin_is_there() -> None:
    hand = play(deal(Rules(must_gin=True), **knock_deal()), "pass, pass, draw")
    assert "discard Kd" in legal_texts(hand) and "knock Kd" in legal_texts(hand)


# --------------------------------------------------------------------------------------------
# Naming an arrangement


def test_the_default_knock_uses_a_minimum_arrangement() -> None:
    hand = play(deal(**ARRANGE_DEAL), "pass, pass, draw, knock Kd")
    arrangement = hand.knock_arrangement
    assert arrangement is not None
    assert str(arrangement) == "7s7h7d7c 3h4h5h | 3d Ac 3c"
    assert arrangement.deadwood == 7
    # The dealer lays off 2h and 6h at both ends of 3h4h5h.
    assert legal_texts(hand) == ["layoff 2h", "layoff 6h", "done", "auto"]
    hand.apply("auto")
    result = hand.result
    assert result is not None
    assert [str(c) for c, _ in result.layoffs] == ["2h", "6h"]
    assert (result.knocker_deadwood, result.defender_deadwood) == (7, 68)
    assert result.points == 61


def test_naming_a_legal_non_minimum_arrangement_that_blocks_layoffs() -> None:
    hand = play(deal(**ARRANGE_DEAL), "pass, pass, draw")
    event = hand.apply("knock Kd 7s7h7d7c 3h3d3c")
    assert str(event.action) == "knock Kd 7s7h7d7c 3h3d3c"
    arrangement = hand.knock_arrangement
    assert arrangement is not None
    assert str(arrangement) == "3h3d3c 7s7h7d7c | 4h 5h Ac"
    assert arrangement.deadwood == 10
    assert hand.table_melds == tuple(parse_melds("3h3d3c 7s7h7d7c"))
    # The set takes only 3s, which the dealer does not hold: nothing lays off.
    assert legal_texts(hand) == ["done", "auto"]
    hand.apply("auto")
    result = hand.result
    assert result is not None
    assert (result.knocker_deadwood, result.defender_deadwood, result.points) == (10, 76, 66)
    assert result.knocker_arrangement == arrangement


def test_named_melds_are_written_in_any_order_and_case() -> None:
    hand = play(deal(**ARRANGE_DEAL), "pass, pass, draw")
    event = hand.apply("knock kd 3C3H3D 7c7d7h7s")
    assert str(event.action) == "knock Kd 3h3d3c 7s7h7d7c"
    assert hand.knock_arrangement is not None and hand.knock_arrangement.deadwood == 10


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("knock Kd 7s7h7d7c 2h3h4h", IllegalActionError, "meld 2h3h4h uses cards not held: 2h"),
        ("knock Kd 3h4h5h 3h3d3c", IllegalActionError, "shares a card with another meld"),
        ("knock 3c 7s7h7d7c 3h3d3c", IllegalActionError, "meld 3h3d3c uses cards not held"),
        ("knock Kd 7s7h7d7c", IllegalActionError, "deadwood 19 over the knock limit 10"),
        ("knock Kd 7h7d7c 3h4h5h", IllegalActionError, "deadwood 14 over the knock limit 10"),
        ("knock Kd 7s7h7d7c 3h4h5h3d", InvalidNotationError, "is not a meld"),
        ("knock Kd 7s7h7d7c 3h3d", InvalidNotationError, "is not a meld"),
        ("knock Kd 7s7h7d7c 3h3d3c Kd", InvalidNotationError, "bad card|is not a meld"),
        ("gin Kd 7s7h7d7c 3h4h5h", IllegalActionError, "not gin: 7 deadwood"),
        ("knock Ac 7s7h7d7c 3h4h5h", IllegalActionError, "deadwood 16 over the knock limit"),
    ],
)
def test_invalid_named_melds_are_refused(text: str, error: type[Exception], message: str) -> None:
    hand = play(deal(**ARRANGE_DEAL), "pass, pass, draw")
    before = snapshot(hand)
    with pytest.raises(error, match=message):
        hand.apply(text)
    assert snapshot(hand) == before


def test_big_gin_may_name_its_melds() -> None:
    hand = play(deal(Rules(big_gin=True), **BIG_GIN_DEAL), "take")
    with pytest.raises(IllegalActionError, match="those melds leave 5 deadwood"):
        hand.apply("biggin 2s2h2d2c QhQdQc 6s7s8s")
    hand.apply("biggin 5s6s7s8s 2s2h2d2c QhQdQc")
    assert hand.result is not None and hand.result.kind is ResultKind.BIG_GIN


# --------------------------------------------------------------------------------------------
# Layoffs


def test_layoffs_one_at_a_time_with_chains_at_both_ends() -> None:
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START)
    assert str(hand.knock_arrangement) == "2h2d2c QhQdQc 5s6s7s | Ac"
    # 4s and 8s extend 5s6s7s at either end; Qs is the fourth queen.
    assert legal_texts(hand) == ["layoff 4s", "layoff 8s", "layoff Qs", "done", "auto"]
    hand.apply("layoff 8s")
    assert legal_texts(hand) == ["layoff 4s", "layoff 9s", "layoff Qs", "done", "auto"]
    hand.apply("layoff 9s")
    assert "layoff Ts" in legal_texts(hand)
    hand.apply("layoff Ts")
    hand.apply("layoff 4s")
    hand.apply("layoff Qs")
    assert hand.table_melds == tuple(parse_melds("2h2d2c QsQhQdQc 4s5s6s7s8s9sTs"))
    assert [(str(c), str(m)) for c, m in hand.layoffs] == [
        ("8s", "5s6s7s"),
        ("9s", "5s6s7s8s"),
        ("Ts", "5s6s7s8s9s"),
        ("4s", "5s6s7s8s9sTs"),
        ("Qs", "QhQdQc"),
    ]
    assert legal_texts(hand) == ["done", "auto"]  # the four-card set takes nothing more
    hand.apply("done")
    result = hand.result
    assert result is not None and result.kind is ResultKind.KNOCK
    assert (result.knocker_deadwood, result.defender_deadwood) == (1, 37)
    assert result.points == 36 and result.winner == 1
    assert result.layoffs == hand.layoffs
    assert result.defender_arrangement is not None
    assert result.defender_arrangement.deadwood_cards == cards("3h Jh 8d Jd 6c")


def test_a_chain_card_fits_only_after_the_card_before_it() -> None:
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START)
    before = snapshot(hand)
    for text in ("layoff 9s", "layoff Ts"):
        with pytest.raises(IllegalActionError, match="does not fit any of the knocker's melds"):
            hand.apply(text)
    assert snapshot(hand) == before


def test_done_scores_the_defenders_minimum_deadwood_of_what_is_left() -> None:
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START)
    hand.apply("done")  # no layoffs: 8s9sTs is his meld, 51 deadwood
    assert hand.result is not None
    assert hand.result.defender_deadwood == 51 and hand.result.points == 50
    # Breaking his own meld is allowed, and leaves 9s and Ts as deadwood.
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START + ", layoff 8s, done")
    assert hand.result is not None
    assert hand.result.defender_deadwood == 70 and hand.result.points == 69


def test_auto_lays_off_optimally_like_the_solver() -> None:
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START)
    best = layoff(hand.cards(0), hand.table_melds)
    event = hand.apply("auto")
    result = hand.result
    assert result is not None
    # Keeping 8s9sTs and laying off Qs and 4s gives the same 37 as laying off all five.
    assert (
        event.laid_off == tuple(c for c, _ in best.layoffs) == (Card.parse("Qs"), Card.parse("4s"))
    )
    assert result.defender_deadwood == best.deadwood == 37
    assert hand.table_melds == best.extended_melds
    assert result.defender_arrangement == best.arrangement


def test_auto_after_some_layoffs_finishes_optimally() -> None:
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START + ", layoff 8s")
    best = layoff(hand.cards(0), hand.table_melds)
    event = hand.apply("auto")
    assert [str(c) for c in event.laid_off] == ["Qs", "4s", "9s", "Ts"]
    assert hand.result is not None and hand.result.defender_deadwood == best.deadwood == 37
    assert [str(c) for c, _ in hand.layoffs] == ["8s", "Qs", "4s", "9s", "Ts"]


def test_a_layoff_onto_a_three_card_set_but_never_onto_a_four_card_set() -> None:
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START)
    qs = Card.parse("Qs")
    assert Meld.parse("QhQdQc").accepts(qs)
    hand.apply("layoff Qs")
    four = next(m for m in hand.table_melds if m.kind == "set" and len(m) == 4)
    assert str(four) == "QsQhQdQc"
    assert not any(four.accepts(c) for c in cards("Ks Js Qs Qh"))
    # The knocker's 7s7h7d7c in the arrangement deal is a four-card set from the start:
    # no card fits it, and the dealer's layoffs all go onto 3h4h5h.
    hand = play(deal(**ARRANGE_DEAL), "pass, pass, draw, knock Kd")
    assert str(hand.table_melds[0]) == "7s7h7d7c"
    assert not any(hand.table_melds[0].accepts(c) for c in DECK)
    assert legal_texts(hand) == ["layoff 2h", "layoff 6h", "done", "auto"]


def test_a_card_fitting_a_set_and_a_run_goes_onto_the_run_so_the_chain_goes_on() -> None:
    # The knocker lays down 8h8d8c 2h3h4h 5s6s7s | Ac; the dealer holds 8s and 9s but no Ts:
    # 8s fits both the set and the run, and only on the run can 9s follow.
    hand = deal(
        non_dealer="5s 6s 7s 8h 8d 8c 2h 3h 4h Kc",
        dealer="8s 9s 2d Jd Qd 3c 4c 9h Kh Jh",
        upcard="Ac",
    )
    play(hand, "take, knock Kc")
    assert str(hand.knock_arrangement) == "8h8d8c 2h3h4h 5s6s7s | Ac"
    best = layoff(hand.cards(0), hand.table_melds)
    assert [str(c) for c, _ in best.layoffs] == ["8s", "9s"]
    other = hand.copy()
    other.apply("auto")  # used to raise StopIteration from the engine
    assert other.result is not None and other.result.defender_deadwood == best.deadwood == 58
    assert other.table_melds == best.extended_melds
    hand.apply("layoff 8s")
    assert str(hand.table_melds[2]) == "5s6s7s8s"
    hand.apply("layoff 9s")
    hand.apply("done")
    assert hand.result is not None and hand.result.defender_deadwood == 58


def test_laid_off_and_knocked_cards_leave_the_known_cards() -> None:
    hand = play(deal(**LAYOFF_DEAL), LAYOFF_START)
    assert hand.known_cards[0] == mask("4s")  # the dealer took the 4s upcard
    hand.apply("layoff 4s")
    assert hand.known_cards[0] == 0
    assert Card.parse("4s") not in hand.view(1).opponent_known
    # A knock card taken from the pile on an earlier turn leaves too.
    hand = play(deal(**knock_deal()), "take, discard Kd, draw, discard Ad, draw")
    assert hand.known_cards[1] == mask("Jd")
    assert hand.is_legal("knock Jd")
    hand.apply("knock Jd")
    assert hand.known_cards[1] == 0


# --------------------------------------------------------------------------------------------
# Scoring


def finish(dealer: str, rules: Rules | None = None) -> HandResult:
    hand = play(deal(rules, **knock_deal(dealer)), "pass, pass, draw, knock Kd, auto")
    assert hand.result is not None
    return hand.result


def test_knock_scores_the_difference() -> None:
    result = finish(DEFENDER_31)
    assert result.kind is ResultKind.KNOCK
    assert (result.knocker_deadwood, result.defender_deadwood) == (8, 31)
    assert (result.winner, result.points) == (1, 31 - 8)
    assert result.loser == 0 and result.defender == 0 and result.multiplier == 1


def test_undercut_scores_the_difference_and_the_bonus() -> None:
    result = finish(DEFENDER_2)
    assert result.kind is ResultKind.UNDERCUT
    assert (result.knocker_deadwood, result.defender_deadwood) == (8, 2)
    assert (result.knocker, result.winner, result.points) == (1, 0, 8 - 2 + 25)
    assert finish(DEFENDER_2, Rules.preset("classic")).points == 8 - 2 + 10


def test_a_tie_is_an_undercut_by_default() -> None:
    result = finish(DEFENDER_8)
    assert (result.knocker_deadwood, result.defender_deadwood) == (8, 8)
    assert result.kind is ResultKind.UNDERCUT
    assert (result.winner, result.points) == (0, 25)


def test_a_tie_scores_nothing_without_undercut_on_tie() -> None:
    result = finish(DEFENDER_8, Rules(undercut_on_tie=False))
    assert result.kind is ResultKind.KNOCK
    assert (result.winner, result.points) == (None, 0)
    # A real undercut is still one.
    under = finish(DEFENDER_2, Rules(undercut_on_tie=False))
    assert under.kind is ResultKind.UNDERCUT and under.points == 31


def test_layoffs_can_turn_a_knock_into_an_undercut() -> None:
    # The knocker lays down 2h2d2c QhQdQc 5s6s7s | Kc (10). The dealer holds AhAsAd, 8s9sTs
    # and 4s Qs 2s 3c: without layoffs 19, a knock won by 9; laying off 2s, Qs and 4s
    # leaves 3c, an undercut.
    deal_ = {
        "non_dealer": "5s 6s 7s Qh Qd Qc 2h 2d Kc Kd",
        "dealer": "4s 8s 9s Ts Qs Ah 2s 3c As Ad",
        "upcard": "2c",
    }
    hand = play(deal(**deal_), "take, knock Kd, done")
    assert hand.result is not None
    assert hand.result.kind is ResultKind.KNOCK and hand.result.points == 19 - 10
    hand = play(deal(**deal_), "take, knock Kd, auto")
    result = hand.result
    assert result is not None
    assert [str(c) for c, _ in result.layoffs] == ["2s", "Qs", "4s"]
    assert (result.knocker_deadwood, result.defender_deadwood) == (10, 3)
    assert result.kind is ResultKind.UNDERCUT
    assert (result.winner, result.points) == (0, 10 - 3 + 25)


def test_the_result_carries_both_arrangements() -> None:
    hand = play(deal(**knock_deal()), "pass, pass, draw, knock Kd, auto")
    result = hand.result
    assert result is not None
    assert str(result.knocker_arrangement) == "7h7d7c As2s3s4s | 3h Ad 4c"
    assert str(result.defender_arrangement) == "QhQdQc 9sTsJs | 6h 6d 9c Kc"
