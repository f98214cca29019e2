"""Games and matches: the first dealer, who deals next, undo, records and replay, matches."""

from __future__ import annotations

import random
from decimal import Decimal

import pytest

from ginrummy.engine.cards import Card
from ginrummy.engine.errors import GinRummyError, IllegalActionError, InvalidRulesError
from ginrummy.engine.game import (
    Game,
    GameRecord,
    cut_dealer,
    cut_for_deal,
    hand_seed,
    next_dealer,
)
from ginrummy.engine.hand import Hand
from ginrummy.engine.match import Match, MatchRecord
from ginrummy.engine.results import HandResult
from ginrummy.engine.rules import Rules
from helpers import deal, knock_deal, play

STANDARD = Rules()


# -- the first dealer ---------------------------------------------------------------------------


def test_cut_is_recorded_and_low_card_deals() -> None:
    game = Game(STANDARD, seed=12)
    assert game.cuts
    *ties, (first, second) = game.cuts
    assert all(a.rank == b.rank for a, b in ties)
    assert first.rank != second.rank
    assert game.first_dealer == (0 if first.rank < second.rank else 1)
    assert game.dealer == game.first_dealer
    again = Game(STANDARD, seed=12)
    assert (again.first_dealer, again.cuts) == (game.first_dealer, game.cuts)


def test_equal_ranks_cut_again() -> None:
    class Rigged(random.Random):
        def __init__(self) -> None:
            super().__init__(0)
            self.cuts = [
                [Card.parse("7h"), Card.parse("7s")],
                [Card.parse("Kd"), Card.parse("Ac")],
            ]

        def sample(self, population: object, k: int, **kwargs: object) -> list[Card]:  # type: ignore[override]
            return self.cuts.pop(0)

    dealer, cuts = cut_for_deal(Rigged())
    assert dealer == 1 and [str(c) for pair in cuts for c in pair] == ["7h", "7s", "Kd", "Ac"]


def test_the_low_card_of_a_cut_deals_ace_low() -> None:
    def cut(text: str) -> int | None:
        first, second = (Card.parse(t) for t in text.split())
        return cut_dealer((first, second))

    assert cut("As Kh") == 0
    assert cut("Kh As") == 1
    assert cut("Th Jh") == 0  # tens and jacks count the same but rank apart
    assert cut("9c 9d") is None
    with pytest.raises(GinRummyError, match="same card"):
        cut("9c 9c")


def test_cuts_over_many_seeds_pick_both_seats() -> None:
    dealers = {Game(STANDARD, seed=s).first_dealer for s in range(40)}
    assert dealers == {0, 1}


def test_fixed_and_explicit_first_dealer() -> None:
    fixed = Game(Rules(first_dealer="fixed", first_dealer_seat=1), seed=3)
    assert (fixed.first_dealer, fixed.cuts) == (1, ())
    explicit = Game(STANDARD, seed=3, first_dealer=0)
    assert (explicit.first_dealer, explicit.cuts) == (0, ())
    with pytest.raises(GinRummyError):
        Game(STANDARD, first_dealer=2)


# -- who deals next ---------------------------------------------------------------------------


WIN_BY_1 = HandResult.knock(STANDARD, 1, 2, 30)
DEAD = HandResult.dead()
TIE = HandResult.knock(Rules(undercut_on_tie=False), 0, 5, 5)


@pytest.mark.parametrize(
    ("next_rule", "dead_rule", "result", "dealer_after"),
    [
        ("winner", "same", WIN_BY_1, 1),
        ("loser", "same", WIN_BY_1, 0),
        ("alternate", "same", WIN_BY_1, 1),
        ("winner", "same", DEAD, 0),
        ("winner", "alternate", DEAD, 1),
        ("loser", "same", TIE, 0),
        ("loser", "alternate", TIE, 1),
    ],
)
def test_next_dealer(next_rule: str, dead_rule: str, result: HandResult, dealer_after: int) -> None:
    rules = Rules(next_dealer=next_rule, dead_hand_dealer=dead_rule)  # type: ignore[arg-type]
    assert next_dealer(rules, 0, result) == dealer_after
    game = Game(rules, seed=1, first_dealer=0)
    entry = game.record(result)
    assert entry.dealer == 0 and game.dealer == dealer_after


def test_alternate_dealing_over_a_game() -> None:
    rules = Rules.preset("eaai")  # the deal alternates after a scored hand; same after a dead one
    game = Game(rules, seed=1, first_dealer=1)
    for result in (WIN_BY_1, WIN_BY_1, DEAD, HandResult.knock(rules, 0, 3, 9)):
        game.record(result)
    assert [e.dealer for e in game.hands] == [1, 0, 1, 1]
    assert game.dealer == 0


def test_winner_deals_over_a_game() -> None:
    game = Game(STANDARD, seed=1, first_dealer=0)
    for knocker in (1, 1, 0, 0, 1):
        game.record(HandResult.knock(STANDARD, knocker, 2, 9))
    assert [e.dealer for e in game.hands] == [0, 1, 1, 0, 0]
    assert game.dealer == 1


# -- undo, seeds and records ------------------------------------------------------------------


def test_undo_restores_the_game() -> None:
    game = Game(STANDARD, seed=9)
    game.record(WIN_BY_1)
    before = (game.to_record(), game.sheet(), game.dealer, game.totals)
    entry = game.record(HandResult.gin(STANDARD, 0, 90))
    assert game.is_over
    assert game.undo() == entry
    assert (game.to_record(), game.sheet(), game.dealer, game.totals) == before
    assert not game.is_over
    game.undo()
    with pytest.raises(IllegalActionError):
        game.undo()


def test_hand_seeds_are_derived_from_the_game_seed() -> None:
    # Pinned: a saved game deals its hands again from these, on any machine and any version.
    assert (hand_seed(5, 1), hand_seed(5, 2)) == (14916090978113721343, 397208635033149158)
    assert all(0 <= hand_seed(5, n) < 1 << 64 for n in range(1, 50))
    assert len({hand_seed(5, n) for n in range(1, 50)} | {hand_seed(6, 1)}) == 50
    game = Game(STANDARD, seed=5)
    assert game.deal_hand().deck == Hand.deal(STANDARD, game.dealer, hand_seed(5, 1)).deck


def test_record_json_round_trip_and_replay() -> None:
    rules = Rules(stake=Decimal("0.25"), next_dealer="loser")
    game = Game(rules, seed=44)
    for result in (WIN_BY_1, DEAD, HandResult.knock(rules, 0, 8, 6), HandResult.gin(rules, 0, 90)):
        game.record(result)
    record = game.to_record()
    again = GameRecord.from_json(record.to_json())
    assert again.rules == rules and again.seed == 44 and again.cuts == game.cuts
    replayed = again.replay()
    assert replayed.sheet() == game.sheet()
    assert replayed.final() == game.final()


def test_replay_rejects_a_wrong_dealer() -> None:
    game = Game(STANDARD, seed=2, first_dealer=0)
    game.record(WIN_BY_1)
    game.record(WIN_BY_1)
    data = game.to_record().to_dict()
    data["hands"][1]["dealer"] = 0
    with pytest.raises(GinRummyError, match="dealer"):
        GameRecord.from_dict(data).replay()


def test_bad_records_are_refused() -> None:
    data = Game(STANDARD, seed=2).to_record().to_dict()
    with pytest.raises(GinRummyError):
        GameRecord.from_dict({**data, "version": 99})
    bad = {**data, "hands": [{"dealer": 0, "result": {"kind": "gin", "winner": 3}}]}
    with pytest.raises(GinRummyError):
        GameRecord.from_dict(bad)


# -- matches ----------------------------------------------------------------------------------


def test_match_to_500() -> None:
    rules = Rules(stake=Decimal("0.01"))
    match = Match(rules, seed=3, first_dealer=0)
    gin = HandResult.gin(rules, 0, 80)  # 105: a shutout game worth 330 to seat 0
    match.record(gin)
    assert match.totals == (330, 0) and not match.is_over
    assert len(match.games) == 2 and match.game.hands == ()
    assert match.game.first_dealer == match.games[0].dealer == 0
    match.record(HandResult.gin(rules, 1, 80))
    assert match.totals == (330, 330)
    match.record(gin)
    assert match.is_over and match.winner == 0
    final = match.final()
    assert final.totals == (660, 330) and final.net == 330
    assert final.settlement == Decimal("3.30")
    assert len(match.games) == 3
    with pytest.raises(IllegalActionError):
        match.record(gin)


def test_match_undo_steps_back_into_the_previous_game() -> None:
    match = Match(STANDARD, seed=3)
    match.record(HandResult.knock(STANDARD, 1, 2, 30))
    before = match.to_record()
    match.record(HandResult.gin(STANDARD, 0, 90))
    assert len(match.games) == 2
    match.undo()
    assert len(match.games) == 1 and match.to_record() == before


def test_match_record_round_trip() -> None:
    match = Match(Rules(match_target=300), seed=8)
    for knocker in (0, 1, 0, 0, 1, 1, 1, 0, 0, 0, 0):
        if not match.is_over:
            match.record(HandResult.gin(STANDARD, knocker, 40))
    record = MatchRecord.from_json(match.to_record().to_json())
    replayed = record.replay()
    assert replayed.sheet() == match.sheet()
    assert replayed.totals == match.totals


def test_match_needs_a_match_target() -> None:
    with pytest.raises(InvalidRulesError):
        Match(Rules(match_target=0))


# -- engine hands -------------------------------------------------------------------------------


def test_engine_hands_are_dealt_scored_and_replayed() -> None:
    rng = random.Random(4)
    game = Game(Rules(game_target=60), seed=21)
    while not game.is_over:
        hand = game.deal_hand()
        assert hand.dealer == game.dealer
        while hand.result is None:
            hand.apply(rng.choice(hand.legal_actions()))
        entry = game.finish_hand(hand)
        assert entry.action_texts == tuple(hand.action_texts) and entry.deck == tuple(hand.deck)
    # Hand n is dealt from the game's seed: the same game deals the same first hand again.
    first = Game(Rules(game_target=60), seed=21).deal_hand()
    assert tuple(first.deck) == game.hands[0].deck
    record = GameRecord.from_json(game.to_record().to_json())
    replayed = record.replay(play=True)
    assert replayed.sheet() == game.sheet()
    assert [e.action_texts for e in replayed.hands] == [e.action_texts for e in game.hands]


def test_a_hand_dealt_by_the_wrong_dealer_or_under_other_rules_is_refused() -> None:
    # A finished knock ("knock Kd" after both pass and the non-dealer draws the Ad), dealt by
    # seat 0: the game's record would replay it with the game's dealer and rules, so a hand
    # dealt otherwise would not replay to its result. It is refused and the game unchanged.
    game = Game(STANDARD, seed=5, first_dealer=1)
    hand = play(deal(**knock_deal()), "pass, pass, draw, knock Kd, auto")
    assert hand.dealer == 0 and hand.result is not None
    with pytest.raises(IllegalActionError, match="dealt by seat 0, but seat 1 deals it"):
        game.finish_hand(hand)
    assert game.hands == () and game.dealer == 1
    game = Game(STANDARD, seed=5, first_dealer=0)
    other = play(deal(Rules(gin_bonus=20), **knock_deal()), "pass, pass, draw, knock Kd, auto")
    with pytest.raises(IllegalActionError, match="not played under the game's rules"):
        game.finish_hand(other)
    assert game.hands == ()
    game.finish_hand(hand)
    replayed = GameRecord.from_json(game.to_record().to_json()).replay(play=True)
    assert replayed.hands[0].result.points == hand.result.points
