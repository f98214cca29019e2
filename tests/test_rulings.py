"""Irregularity rulings for real-card play: every branch of RULES.md's "Irregularities"."""

from __future__ import annotations

from typing import Any

import pytest

from ginrummy.engine.errors import GinRummyError, InvalidArgumentError, InvalidNotationError
from ginrummy.engine.rulings import (
    FORMS,
    Choice,
    IrregularityError,
    Remedy,
    Ruling,
    exposed_card,
    irregular_hand,
    parse_irregularity,
    wrong_dealer,
)

SEATS = (0, 1)

# -- wrong dealer --------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", SEATS)
def test_wrong_dealer_before_upcard_the_right_dealer_chooses(seat: int) -> None:
    r = wrong_dealer(seat, upcard_turned=False)
    assert r.remedy is Remedy.PLAYER_CHOOSES
    assert r.chooser == 1 - seat and r.dealer is None
    assert r.options == (Remedy.REDEAL_RIGHT_DEALER, Remedy.DEAL_STANDS)
    assert not r.redeal
    assert r.explanation == (
        f"Seat {seat} dealt out of turn, found before the upcard was turned: seat {1 - seat}, "
        "the right dealer, may stop the deal and deal, or let it stand."
    )


@pytest.mark.parametrize("seat", SEATS)
@pytest.mark.parametrize("choice", [Choice.REDEAL, "redeal", " Redeal "])
def test_wrong_dealer_stopped_the_right_dealer_deals(seat: int, choice: Any) -> None:
    r = wrong_dealer(seat, upcard_turned=False, choice=choice)
    assert r == Ruling(
        Remedy.REDEAL_RIGHT_DEALER,
        f"Seat {seat} dealt out of turn, found before the upcard was turned: "
        f"seat {1 - seat} stops the deal and deals.",
        dealer=1 - seat,
    )
    assert r.redeal


@pytest.mark.parametrize("seat", SEATS)
@pytest.mark.parametrize("choice", [Choice.PLAY_ON, "play on"])
def test_wrong_dealer_let_stand(seat: int, choice: Any) -> None:
    r = wrong_dealer(seat, upcard_turned=False, choice=choice)
    assert r.remedy is Remedy.DEAL_STANDS and r.dealer == seat and not r.redeal
    assert r.explanation.endswith(f"seat {1 - seat} lets the deal stand.")


@pytest.mark.parametrize("seat", SEATS)
def test_wrong_dealer_after_upcard_the_deal_stands(seat: int) -> None:
    r = wrong_dealer(seat, upcard_turned=True)
    assert r == Ruling(
        Remedy.DEAL_STANDS,
        f"Seat {seat} dealt out of turn, found after the upcard was turned: the deal stands.",
        dealer=seat,
    )


@pytest.mark.parametrize("choice", list(Choice))
def test_wrong_dealer_after_upcard_allows_no_choice(choice: Choice) -> None:
    with pytest.raises(IrregularityError, match="deal stands: there is no choice"):
        wrong_dealer(0, upcard_turned=True, choice=choice)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 1), "upcard_turned must be true or false"),
        ((0, None), "upcard_turned"),
        ((0, False, "stop"), "'redeal' or 'play on'"),
        ((0, False, 1), "'redeal' or 'play on'"),
    ],
)
def test_wrong_dealer_bad_input(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(IrregularityError, match=message):
        wrong_dealer(*args)


# -- exposed card --------------------------------------------------------------------------------


@pytest.mark.parametrize("seat", SEATS)
def test_exposed_card_in_pack_same_dealer_deals_again(seat: int) -> None:
    r = exposed_card(seat)
    assert r == Ruling(
        Remedy.REDEAL_SAME_DEALER,
        "A face-up card was found in the pack before the upcard was turned: "
        f"seat {seat} deals again.",
        dealer=seat,
    )
    assert r.redeal


@pytest.mark.parametrize("seat", SEATS)
def test_card_exposed_in_dealing_same_dealer_deals_again(seat: int) -> None:
    r = exposed_card(seat, in_dealing=True)
    assert r.remedy is Remedy.REDEAL_SAME_DEALER and r.dealer == seat
    assert r.explanation == f"A card was exposed in dealing: seat {seat} deals again."


def test_exposed_card_bad_input() -> None:
    with pytest.raises(IrregularityError, match="in_dealing must be true or false"):
        exposed_card(0, in_dealing="yes")  # type: ignore[arg-type]


# -- irregular hand ------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", SEATS)
@pytest.mark.parametrize("wrong", [[0], [1], [0, 1], (1, 0), {0, 1}])
def test_irregular_hand_before_first_draw_new_deal(dealer: int, wrong: Any) -> None:
    r = irregular_hand(dealer, wrong, first_draw_made=False)
    assert r.remedy is Remedy.REDEAL_SAME_DEALER and r.dealer == dealer
    assert r.chooser is None and r.corrector is None and r.options == ()
    assert "found before the non-dealer's first draw" in r.explanation
    assert r.explanation.endswith(f"new deal by seat {dealer}.")


@pytest.mark.parametrize("dealer", SEATS)
def test_both_hands_wrong_after_first_draw_new_deal(dealer: int) -> None:
    r = irregular_hand(dealer, [0, 1], first_draw_made=True)
    assert r == Ruling(
        Remedy.REDEAL_SAME_DEALER,
        "Both players hold the wrong number of cards, found after the non-dealer's first draw: "
        f"new deal by seat {dealer}.",
        dealer=dealer,
    )


@pytest.mark.parametrize("dealer", SEATS)
@pytest.mark.parametrize("bad", SEATS)
def test_one_hand_wrong_after_first_draw_the_correct_player_chooses(dealer: int, bad: int) -> None:
    r = irregular_hand(dealer, [bad], first_draw_made=True)
    assert r.remedy is Remedy.PLAYER_CHOOSES and not r.redeal
    assert r.chooser == 1 - bad and r.dealer is None and r.corrector is None
    assert r.options == (Remedy.REDEAL_SAME_DEALER, Remedy.PLAY_ON_CORRECT_HAND)
    assert r.explanation == (
        f"Seat {bad} holds the wrong number of cards, found after the non-dealer's first draw: "
        f"seat {1 - bad}, whose hand is correct, chooses a new deal by seat {dealer} or to play on."
    )


@pytest.mark.parametrize("dealer", SEATS)
@pytest.mark.parametrize("bad", SEATS)
def test_one_hand_wrong_correct_player_calls_new_deal(dealer: int, bad: int) -> None:
    r = irregular_hand(dealer, [bad], first_draw_made=True, choice="redeal")
    assert r.remedy is Remedy.REDEAL_SAME_DEALER and r.dealer == dealer and r.redeal
    assert r.explanation.endswith(
        f"seat {1 - bad}, whose hand is correct, calls for a new deal by seat {dealer}."
    )


@pytest.mark.parametrize("dealer", SEATS)
@pytest.mark.parametrize("bad", SEATS)
def test_one_hand_wrong_play_on_and_correct_it(dealer: int, bad: int) -> None:
    r = irregular_hand(dealer, [bad], first_draw_made=True, choice=Choice.PLAY_ON)
    assert r.remedy is Remedy.PLAY_ON_CORRECT_HAND
    assert r.corrector == bad and r.dealer == dealer and r.chooser is None and not r.redeal
    assert r.explanation.endswith(
        f"seat {1 - bad}, whose hand is correct, plays on; seat {bad} corrects his hand by "
        "drawing without discarding, or discarding without drawing."
    )


@pytest.mark.parametrize(
    ("surplus", "holds", "fix"),
    [
        (1, "1 card too many", "discarding 1 card without drawing"),
        (2, "2 cards too many", "discarding 2 cards without drawing"),
        (-1, "1 card too few", "drawing 1 card without discarding"),
        (-3, "3 cards too few", "drawing 3 cards without discarding"),
    ],
)
def test_play_on_with_a_known_surplus(surplus: int, holds: str, fix: str) -> None:
    r = irregular_hand(1, [0], True, "play on", surplus=surplus)
    assert r.surplus == surplus and r.corrector == 0
    assert r.explanation.startswith(f"Seat 0 holds {holds}, found after")
    assert r.explanation.endswith(f"seat 0 corrects his hand by {fix}.")
    assert irregular_hand(1, [0], True, surplus=surplus).surplus == surplus
    assert irregular_hand(1, [0], False, surplus=surplus).surplus == surplus


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((0, [], False), {}, "at least one seat"),
        ((0, [0, 0], False), {}, "named twice"),
        ((0, "01", False), {}, "collection of seats"),
        ((0, 1, False), {}, "collection of seats"),
        ((0, [0], "no"), {}, "first_draw_made must be true or false"),
        ((0, [0], False), {"choice": "redeal"}, "no choice"),
        ((0, [0], False), {"choice": "play on"}, "no choice"),
        ((0, [0, 1], True), {"choice": "play on"}, "no choice"),
        ((0, [0], True), {"choice": "maybe"}, "'redeal' or 'play on'"),
        ((0, [0], True), {"surplus": 0}, "too many"),
        ((0, [0], True), {"surplus": 1.0}, "too many"),
        ((0, [0], True), {"surplus": True}, "too many"),
        ((0, [0, 1], True), {"surplus": 1}, "only when one hand is wrong"),
    ],
)
def test_irregular_hand_bad_input(
    args: tuple[Any, ...], kwargs: dict[str, Any], message: str
) -> None:
    with pytest.raises(IrregularityError, match=message):
        irregular_hand(*args, **kwargs)


@pytest.mark.parametrize("bad", [2, -1, True, "0", 1.0, None])
def test_a_seat_that_is_not_0_or_1_is_the_engines_invalid_argument(bad: Any) -> None:
    calls = [
        ("dealt_by", lambda: wrong_dealer(bad, upcard_turned=False)),
        ("dealer", lambda: exposed_card(bad)),
        ("dealer", lambda: irregular_hand(bad, [0], first_draw_made=False)),
        ("each wrong seat", lambda: irregular_hand(0, [bad], first_draw_made=False)),
        ("dealer", lambda: parse_irregularity("exposed card", bad)),
    ]
    for what, call in calls:
        with pytest.raises(
            InvalidArgumentError, match=f"^{what} must be seat 0 or 1, not "
        ) as info:
            call()
        assert type(info.value) is InvalidArgumentError  # the same class as everywhere else


def test_errors_are_value_errors() -> None:
    assert issubclass(IrregularityError, InvalidArgumentError)
    assert issubclass(IrregularityError, GinRummyError)
    assert issubclass(IrregularityError, ValueError)


def test_ruling_is_frozen() -> None:
    r = exposed_card(0)
    with pytest.raises(AttributeError):
        r.dealer = 1  # type: ignore[misc]


# -- parsing the short forms ---------------------------------------------------------------------

PARSED = [
    ("wrong dealer", 0, wrong_dealer(0, False)),
    ("Wrong Dealer before upcard", 1, wrong_dealer(1, False)),
    ("wrong dealer after upcard", 0, wrong_dealer(0, True)),
    ("wrong dealer after the upcard", 1, wrong_dealer(1, True)),
    ("wrong dealer redeal", 0, wrong_dealer(0, False, "redeal")),
    ("wrong dealer stop", 1, wrong_dealer(1, False, "redeal")),
    ("wrong dealer, before the upcard, play on", 0, wrong_dealer(0, False, "play on")),
    ("wrong dealer stand", 0, wrong_dealer(0, False, "play on")),
    ("exposed card", 0, exposed_card(0)),
    ("exposed card in pack", 1, exposed_card(1)),
    ("faced card in the deck", 1, exposed_card(1)),
    ("exposed card in dealing", 0, exposed_card(0, in_dealing=True)),
    ("exposed card deal", 1, exposed_card(1, in_dealing=True)),
    ("irregular hand 1", 0, irregular_hand(0, [1], False)),
    ("irregular hand seat 0 before draw", 1, irregular_hand(1, [0], False)),
    ("irregular hands 0 1", 0, irregular_hand(0, [0, 1], False)),
    ("wrong hand both after draw", 1, irregular_hand(1, [0, 1], True)),
    ("irregular hand 0 and 1 after first draw", 0, irregular_hand(0, [0, 1], True)),
    ("irregular hand 1 after draw", 0, irregular_hand(0, [1], True)),
    ("irregular hand 1 after draw redeal", 1, irregular_hand(1, [1], True, "redeal")),
    ("irregular hand 0 after draw play on", 1, irregular_hand(1, [0], True, "play on")),
    ("irregular hand 0 after draw play on +2", 1, irregular_hand(1, [0], True, "play on", 2)),
    ("irregular hand 0 -1 after draw", 0, irregular_hand(0, [0], True, None, -1)),
]


@pytest.mark.parametrize(("text", "dealer", "ruling"), PARSED)
def test_parse_short_forms(text: str, dealer: int, ruling: Ruling) -> None:
    assert parse_irregularity(text, dealer) == ruling


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "unknown irregularity"),
        ("misdeal", "unknown irregularity"),
        ("wrong", "unknown irregularity"),
        ("wrong dealer after draw", "unexpected 'after'"),
        ("wrong dealer before upcard after upcard", "unexpected 'after'"),
        ("wrong dealer redeal play on", "unexpected 'play'"),
        ("wrong dealer 1", "unexpected '1'"),
        ("exposed card redeal", "unexpected 'redeal'"),
        ("exposed card in pack in dealing", "unexpected 'dealing'"),
        ("exposed card after upcard", "unexpected 'after'"),
        ("irregular hand", "say whose hand is wrong"),
        ("irregular hand 2", "unexpected '2'"),
        ("irregular hand 0 after upcard", "unexpected 'after'"),
        ("irregular hand 0 +1 +1", "unexpected '\\+1'"),
        ("irregular hand 0 on", "unexpected 'on'"),
    ],
)
def test_parse_rejects_unknown_forms(text: str, message: str) -> None:
    with pytest.raises(InvalidNotationError, match=message) as info:
        parse_irregularity(text, 0)
    assert all(form in str(info.value) for form in FORMS) or "whose hand" in message


@pytest.mark.parametrize(
    ("text", "dealer", "message"),
    [
        ("wrong dealer after upcard redeal", 0, "no choice"),
        ("irregular hand 0 0", 0, "named twice"),
        ("irregular hand both before draw play on", 0, "no choice"),
        ("irregular hand both +1", 0, "only when one hand"),
    ],
)
def test_parse_passes_on_impossible_facts(text: str, dealer: int, message: str) -> None:
    with pytest.raises(IrregularityError, match=message):
        parse_irregularity(text, dealer)


def test_parse_needs_text() -> None:
    with pytest.raises(InvalidNotationError, match="must be text"):
        parse_irregularity(None, 0)  # type: ignore[arg-type]
