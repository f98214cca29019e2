"""One exception policy: every bad argument the engine is given raises an InvalidArgumentError
(a GinRummyError, so a ValueError) naming the argument and what it was; a seat that is not 0
or 1 says so the same way in every module; anything that is a whole number (numpy's integers
included) is taken, and stored as a plain int."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from ginrummy import (
    GinRummyError,
    Hand,
    HandRecord,
    HandResult,
    IllegalActionError,
    InvalidArgumentError,
    InvalidRulesError,
    PlayerView,
    Rules,
)
from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.engine.errors import check_int, check_seat
from ginrummy.engine.game import Game, GameRecord
from ginrummy.engine.match import Match
from ginrummy.engine.rulings import wrong_dealer
from ginrummy.engine.serial import result_from_dict
from helpers import DEFENDER_31, KNOCKER, deal, deck_for, knock_deal, play


class Int64:
    """Behaves as ``numpy.int64`` does where the engine is concerned: an integer (``__index__``)
    that equals and hashes as one, but is not an ``int`` (and so is no JSON number)."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __eq__(self, other: object) -> bool:
        return self.value == other

    def __hash__(self) -> int:
        return hash(self.value)

    def __repr__(self) -> str:
        return f"Int64({self.value})"


NOT_SEATS = [2, -1, True, False, 1.0, "1", None, Int64(2)]


# -- the two checks -------------------------------------------------------------------------------


@pytest.mark.parametrize("value", [0, 1, Int64(0), Int64(1)])
def test_a_seat_is_any_whole_number_0_or_1_returned_as_a_plain_int(value: Any) -> None:
    seat = check_seat(value, "the dealer")
    assert type(seat) is int and seat == value


@pytest.mark.parametrize("value", NOT_SEATS)
def test_anything_else_is_refused_naming_the_argument(value: Any) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        check_seat(value, "the dealer")
    assert str(info.value) == f"the dealer must be seat 0 or 1, not {value!r}"
    assert isinstance(info.value, GinRummyError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("value", "low", "high", "message"),
    [
        (-1, 0, 98, "the count must be between 0 and 98, not -1"),
        (99, 0, 98, "the count must be between 0 and 98, not 99"),
        (0, 1, None, "the count must be at least 1, not 0"),
        (5, None, 4, "the count must be at most 4, not 5"),
        (Int64(-1), 0, None, "the count must be at least 0, not -1"),
        (1.0, None, None, "the count must be a whole number, not 1.0"),
        ("1", None, None, "the count must be a whole number, not '1'"),
        (True, None, None, "the count must be a whole number, not True"),
        (None, None, None, "the count must be a whole number, not None"),
    ],
)
def test_a_count_out_of_range_or_not_whole_is_refused(
    value: Any, low: int | None, high: int | None, message: str
) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        check_int(value, "the count", low, high)
    assert str(info.value) == message


def test_a_count_is_returned_as_a_plain_int() -> None:
    assert type(check_int(Int64(7), "the count", 0)) is int
    assert check_int(10**30, "a seed") == 10**30


# -- the same error for a bad seat everywhere ----------------------------------------------------


def _view_data(seat: object) -> dict[str, Any]:
    data = deal(**knock_deal()).view(1).to_dict()
    data["seat"] = seat
    return data


RESULT = {"kind": "knock", "knocker": 2, "winner": 0, "points": 10}
#: (what the message names, a call with the seat 2), one per place the engine takes a seat.
SEAT_CALLS: list[tuple[str, Callable[[], object]]] = [
    ("the dealer", lambda: Hand.from_deck(Rules(), 2, deck_for(KNOCKER, DEFENDER_31, "Jd"))),
    ("the dealer", lambda: Hand.deal(Rules(), 2, seed=1)),
    ("the player", lambda: deal(**knock_deal()).cards(2)),
    ("the player", lambda: deal(**knock_deal()).hand_mask(2)),
    ("the acting player", lambda: deal(**knock_deal()).apply("pass", seat=2)),
    ("the acting player", lambda: deal(**knock_deal()).check("pass", seat=2)),
    ("the acting player", lambda: deal(**knock_deal()).is_legal("pass", seat=2)),
    ("the viewer", lambda: deal(**knock_deal()).view(2)),
    ("the knocker", lambda: HandResult.knock(Rules(), 2, 5, 20)),
    ("the knocker", lambda: HandResult.gin(Rules(), 2, 20)),
    ("the knocker", lambda: HandResult.big_gin(Rules(), 2, 20)),
    ("the knocker", lambda: result_from_dict(RESULT)),
    ("the first dealer", lambda: Game(Rules(), seed=1, first_dealer=2)),
    ("the first dealer", lambda: Match(Rules(match_target=250), seed=1, first_dealer=2)),
    ("the dealer", lambda: HandRecord(Rules(), 2, deck_for(KNOCKER, DEFENDER_31, "Jd"), ())),
    ("the dealer", lambda: HandRecord.from_text(_record_text(dealer="2"))),
    ("the view's seat", lambda: PlayerView.from_dict(_view_data(2))),
    ("dealt_by", lambda: wrong_dealer(2, upcard_turned=False)),
]


def _record_text(dealer: str) -> str:
    head, _, tail = deal(**knock_deal()).record().to_text().partition(" | ")
    words = head.split()
    words[2] = dealer
    return " ".join(words) + " | " + tail


@pytest.mark.parametrize(("what", "call"), SEAT_CALLS)
def test_a_bad_seat_raises_the_same_error_everywhere(what: str, call: Callable[[], object]) -> None:
    with pytest.raises(InvalidArgumentError) as info:
        call()
    assert type(info.value) is InvalidArgumentError
    # 2, or '2' where the seat is read from a record's text
    assert str(info.value) in (f"{what} must be seat 0 or 1, not {v}" for v in ("2", "'2'"))


def test_a_bad_acting_seat_is_a_mistake_even_once_the_hand_is_over() -> None:
    hand = play(deal(**knock_deal()), "pass, pass, draw, knock Kd, done")
    assert hand.is_over
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.apply("done", seat=0)
    with pytest.raises(InvalidArgumentError, match="the acting player must be seat 0 or 1"):
        hand.apply("done", seat=True)


# -- counts and other whole numbers ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: HandResult.knock(Rules(), 0, -1, 20), "the knocker's deadwood must be between"),
        (lambda: HandResult.knock(Rules(), 0, 5, 99), "the defender's deadwood must be between"),
        (lambda: HandResult.knock(Rules(), 0, 5.0, 20), "the knocker's deadwood must be a whole"),
        (lambda: HandResult.gin(Rules(), 0, -3), "the defender's deadwood must be between"),
        (lambda: HandResult.big_gin(Rules(), 0, True), "the defender's deadwood must be a whole"),
        (lambda: HandResult.knock(Rules(), 0, 5, 20, 0), "the multiplier must be at least 1"),
        (lambda: Game(Rules(), seed="7"), "the seed must be a whole number, not '7'"),
        (lambda: Match(Rules(match_target=250), seed=1.5), "the seed must be a whole number"),
        (lambda: deal(**knock_deal()).view(0, (1, "2")), "seat 1's score must be a whole"),
        (lambda: deal(**knock_deal()).view(0, (1,)), "the scores are two numbers"),
    ],
)
def test_a_bad_count_names_itself(call: Callable[[], object], message: str) -> None:
    with pytest.raises(InvalidArgumentError, match=message):
        call()


def test_rule_options_take_whole_numbers_of_any_integer_type() -> None:
    rules = Rules(knock_limit=Int64(7), gin_bonus=Int64(20))
    assert type(rules.knock_limit) is int and rules == Rules(knock_limit=7, gin_bonus=20)
    with pytest.raises(InvalidRulesError, match=r"knock_limit must be a whole number, not 7\.0"):
        Rules(knock_limit=7.0)
    assert issubclass(InvalidRulesError, InvalidArgumentError)


def test_a_count_from_a_result_checks_like_the_rest() -> None:
    result = HandResult.knock(Rules(), Int64(1), Int64(8), Int64(31), Int64(2))
    assert (result.knocker, result.points) == (1, 46)
    assert all(type(v) is int for v in (result.knocker, result.winner, result.points))


# -- numpy's integers end to end ----------------------------------------------------------------


def test_a_numpy_dealer_deals_a_hand_that_plays_out_and_records_as_json() -> None:
    deck = deck_for(KNOCKER, DEFENDER_31, "Jd", "Ad")
    hand = Hand.from_deck(Rules(), Int64(0), deck)
    assert type(hand.dealer) is int and hand.dealer == 0
    # The expert (with few sampled deals, to be quick) plays both seats to the end.
    expert = ExpertAgent(Settings(worlds=6, min_worlds=6))
    rng = random.Random(3)
    while not hand.is_over:
        seat = hand.current_player
        assert seat is not None
        hand.apply(expert.act(hand.view(Int64(seat)), rng), seat=Int64(seat))
    assert hand.result is not None and type(hand.result.knocker) in (int, type(None))
    record = json.loads(hand.record().to_json())
    assert record["dealer"] == 0 and HandRecord.from_dict(record).replay().result == hand.result


def test_a_numpy_first_dealer_and_seed_give_a_game_that_records_as_json() -> None:
    game = Game(Rules(), seed=Int64(9), first_dealer=Int64(1))
    assert type(game.seed) is int and type(game.first_dealer) is int
    hand = game.deal_hand()
    simple = get_agent("simple")
    rng = random.Random(1)
    while not hand.is_over:
        seat = hand.current_player
        assert seat is not None
        hand.apply(simple.act(hand.view(seat), rng))
    game.finish_hand(hand)
    again = GameRecord.from_json(game.to_record().to_json())
    assert again.replay(play=True).totals == game.totals
