"""Scoring a game: hand points, the target, boxes, game bonus, shutouts, Oklahoma, Hollywood
and the stake, with results entered by hand."""

from __future__ import annotations

from decimal import Decimal

import pytest

from ginrummy.engine.errors import IllegalActionError
from ginrummy.engine.game import Game
from ginrummy.engine.results import HandResult, ResultKind
from ginrummy.engine.rules import Rules

STANDARD = Rules()


def knock(rules: Rules, knocker: int, k: int, d: int, multiplier: int = 1) -> HandResult:
    return HandResult.knock(rules, knocker, k, d, multiplier)


def play(rules: Rules, *results: HandResult) -> Game:
    game = Game(rules, seed=1, first_dealer=0)
    for result in results:
        game.record(result)
    return game


# -- the worked example (seed 000) -----------------------------------------------------------


def test_worked_example_knock_scores_24() -> None:
    result = knock(STANDARD, 0, 8, 32)
    assert (result.kind, result.winner, result.points) == (ResultKind.KNOCK, 0, 24)
    game = play(STANDARD, result)
    assert game.totals == (24, 0)
    assert not game.is_over


def test_worked_example_undercut_scores_27() -> None:
    result = knock(STANDARD, 0, 8, 6)
    assert (result.kind, result.winner, result.points) == (ResultKind.UNDERCUT, 1, 27)
    assert play(STANDARD, result).totals == (0, 27)


# -- the target and the end of the game ------------------------------------------------------


def test_game_ends_when_a_total_reaches_the_target() -> None:
    game = play(STANDARD, knock(STANDARD, 0, 2, 51), knock(STANDARD, 1, 3, 20))
    assert game.totals == (49, 17) and not game.is_over
    with pytest.raises(IllegalActionError):
        game.final()
    game.record(knock(STANDARD, 0, 1, 52))
    assert game.totals == (100, 17) and game.is_over and game.winner == 0
    with pytest.raises(IllegalActionError):
        game.record(HandResult.dead())


def test_full_game_final_lines() -> None:
    game = play(
        STANDARD,
        knock(STANDARD, 0, 8, 32),  # P0 +24
        HandResult.dead(),
        knock(STANDARD, 0, 8, 6),  # P1 undercut +27
        HandResult.gin(STANDARD, 1, 30),  # P1 +55 -> 82
        HandResult.gin(STANDARD, 0, 60),  # P0 +85 -> 109
    )
    final = game.final()
    zero, one = final.players
    assert (zero.hand_points, zero.hands_won, zero.boxes, zero.game_bonus, zero.shutout) == (
        109, 2, 50, 100, 0,
    )  # fmt: skip
    assert (one.hand_points, one.hands_won, one.boxes, one.game_bonus, one.shutout) == (
        82, 2, 50, 0, 0,
    )  # fmt: skip
    assert (zero.total, one.total) == (259, 132)
    assert (final.winner, final.loser, final.net) == (0, 1, 127)
    assert final.settlement == 0


def test_boxes_do_not_count_toward_the_target() -> None:
    # Four wins of 24: 96 points plus 100 in boxes, but the target is not reached.
    game = play(STANDARD, *[knock(STANDARD, 1, 8, 32)] * 4)
    assert game.totals == (0, 96)
    assert game.columns[0].boxes == (0, 100)
    assert not game.is_over
    game.record(knock(STANDARD, 1, 8, 12))
    final = game.final()
    assert final.players[1].boxes == 5 * 25 and final.players[1].hands_won == 5


def test_game_bonus_goes_to_a_defender_who_crosses_by_undercut() -> None:
    # P1 reaches 90, then P0 knocks with 10 and P1 undercuts with 5: 5 + 25 = 30 -> 120.
    game = play(STANDARD, knock(STANDARD, 1, 5, 95), knock(STANDARD, 0, 10, 5))
    assert game.hands[-1].result.kind is ResultKind.UNDERCUT
    assert game.totals == (0, 120) and game.is_over
    final = game.final()
    assert final.columns[0].winner == 1
    assert final.players[1].game_bonus == 100 and final.players[0].game_bonus == 0
    assert final.winner == 1


def test_loser_with_more_boxes_can_collect_the_net() -> None:
    # Ten small wins for P1 (99 points, 250 in boxes), then one 100-point gin for P0.
    rules = Rules(shutout="none")
    small = [knock(rules, 1, 1, 10)] * 11  # 9 points each
    game = play(rules, *small, HandResult.gin(rules, 0, 75))
    final = game.final()
    assert final.columns[0].winner == 0
    assert final.players[0].total == 100 + 25 + 100
    assert final.players[1].total == 99 + 11 * 25
    assert final.winner == 1 and final.net == final.players[1].total - final.players[0].total


# -- shutouts ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shutout", "extra", "total"),
    [("bonus", 100, 105 + 25 + 100 + 100), ("double", 230, 460), ("none", 0, 230)],
)
def test_shutout_rules(shutout: str, extra: int, total: int) -> None:
    rules = Rules(shutout=shutout)  # type: ignore[arg-type]
    game = play(rules, HandResult.gin(rules, 0, 80))  # 80 + 25 = 105 in one hand
    final = game.final()
    assert final.columns[0].shutout
    assert final.players[0].shutout == extra and final.players[0].total == total
    assert final.players[1].total == 0
    assert final.net == total


def test_the_shutout_bonus_comes_from_the_rules_and_a_finished_game_takes_no_more_hands() -> None:
    rules = Rules(shutout_bonus=50)
    game = play(rules, HandResult.gin(rules, 0, 80))  # 105 in one hand: P1 shut out
    final = game.final()
    assert final.players[0].shutout == 50 and final.players[0].total == 105 + 25 + 100 + 50
    before = game.to_record()
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.record(HandResult.gin(rules, 1, 80))
    with pytest.raises(IllegalActionError, match="the game is over"):
        game.deal_hand()
    assert game.to_record() == before and game.final() == final


def test_no_shutout_once_the_loser_has_won_a_hand() -> None:
    game = play(STANDARD, knock(STANDARD, 1, 5, 6), HandResult.gin(STANDARD, 0, 80))
    final = game.final()
    assert not final.columns[0].shutout and final.players[0].shutout == 0


def test_dead_hands_and_scoreless_ties_are_not_wins() -> None:
    rules = Rules(undercut_on_tie=False)
    tie = knock(rules, 1, 7, 7)
    assert tie.winner is None and tie.points == 0
    game = play(rules, tie, HandResult.dead(), HandResult.gin(rules, 0, 80))
    final = game.final()
    assert final.columns[0].shutout and final.players[1].hands_won == 0


# -- the scoring schools ---------------------------------------------------------------------


def test_modern_preset_doubles_a_shutout_winners_whole_score() -> None:
    rules = Rules.preset("modern")
    assert (rules.gin_bonus, rules.undercut_bonus, rules.box_bonus, rules.game_bonus) == (
        25, 25, 25, 100,
    )  # fmt: skip
    game = play(rules, knock(rules, 0, 2, 60), knock(rules, 0, 4, 50))  # 58 + 46 = 104
    final = game.final()
    assert final.players[0].total == 2 * (104 + 50 + 100)


def test_classic_preset_values() -> None:
    rules = Rules.preset("classic")
    gin = HandResult.gin(rules, 0, 30)
    assert gin.points == 50
    assert knock(rules, 0, 9, 4).points == 5 + 10  # undercut bonus 10
    small = HandResult.gin(rules, 0, 25)
    game = play(rules, small, small, small)  # 135, shut out: game bonus doubled to 200
    final = game.final()
    zero = final.players[0]
    assert (zero.boxes, zero.game_bonus + zero.shutout, zero.total) == (60, 200, 135 + 60 + 200)


def test_eaai_preset_has_no_bonuses() -> None:
    rules = Rules.preset("eaai")
    game = play(rules, HandResult.gin(rules, 0, 80))
    final = game.final()
    assert final.players[0].total == 105 and final.net == 105


# -- Oklahoma ----------------------------------------------------------------------------------


def test_oklahoma_spade_hand_doubles_the_score() -> None:
    rules = Rules.preset("oklahoma")
    doubled = knock(rules, 0, 2, 20, multiplier=2)
    assert doubled.points == 36 and doubled.multiplier == 2
    assert HandResult.gin(rules, 1, 10, multiplier=2).points == 70
    assert knock(rules, 0, 8, 6, multiplier=2).points == 54  # a doubled undercut


@pytest.mark.parametrize(("double_boxes", "boxes"), [(False, 50), (True, 75)])
def test_oklahoma_boxes_doubled_only_with_the_option(double_boxes: bool, boxes: int) -> None:
    rules = Rules.preset("oklahoma", oklahoma_double_boxes=double_boxes)
    game = play(
        rules,
        knock(rules, 0, 2, 20, multiplier=2),
        knock(rules, 1, 3, 9),  # P1 avoids the shutout
        HandResult.gin(rules, 0, 60),  # 36 + 85 = 121 < 150
        HandResult.gin(rules, 0, 20),
    )
    assert game.is_over
    assert game.final().players[0].boxes == boxes + 25
    assert game.final().players[1].boxes == 25


# -- Hollywood ---------------------------------------------------------------------------------


def test_hollywood_published_example() -> None:
    # A player's wins of 32, 28 and 45: game 1 105 (closed), game 2 73, game 3 45.
    rules = Rules.preset("hollywood")
    game = play(rules, knock(rules, 0, 1, 33), knock(rules, 0, 2, 30), knock(rules, 0, 5, 50))
    assert [c.points[0] for c in game.columns] == [105, 73, 45]
    assert [c.is_over for c in game.columns] == [True, False, False]
    assert game.hands[-1].number == 3 and game.tally.lines[-1].closed == (0,)


def test_hollywood_cascade_sheet() -> None:
    # You +18, Opp +12, You +25, Opp +30, You +15, You +22, Opp +20.
    rules = Rules.preset("hollywood")
    you, opp = 0, 1
    points = [(you, 18), (opp, 12), (you, 25), (opp, 30), (you, 15), (you, 22), (opp, 20)]
    game = play(rules, *[knock(rules, seat, 1, p + 1) for seat, p in points])
    totals = [line.totals for line in game.tally.lines]
    assert totals[2] == ((43, 12), (25, 0), (0, 0))
    assert totals[4] == ((58, 42), (40, 30), (15, 0))
    assert totals[6] == ((80, 62), (62, 50), (37, 20))
    assert [line.columns for line in game.tally.lines] == [
        (0,), (0,), (0, 1), (0, 1), (0, 1, 2), (0, 1, 2), (0, 1, 2),
    ]  # fmt: skip


def test_hollywood_shut_out_player_enters_the_next_open_game() -> None:
    rules = Rules.preset("hollywood")
    game = play(rules, HandResult.gin(rules, 0, 80))  # 105: game 1 over, P1 shut out
    assert game.columns[0].winner == 0
    game.record(knock(rules, 1, 2, 22))  # P1's first win goes into game 2
    assert game.tally.lines[-1].columns == (1,)
    game.record(knock(rules, 0, 2, 12))  # P0's second win: game 2 only (game 1 is closed)
    assert game.tally.lines[-1].columns == (1,)
    game.record(knock(rules, 1, 2, 17))  # P1's second win: games 2 and 3
    assert list(game.tally.lines[-1].columns) == [1, 2]
    assert [c.points for c in game.columns] == [(105, 0), (10, 35), (0, 15)]


def test_hollywood_game_ends_with_three_finals() -> None:
    rules = Rules.preset("hollywood", stake=Decimal("0.5"))
    game = play(
        rules,
        HandResult.gin(rules, 0, 80),  # P0: game 1 105, closed
        knock(rules, 1, 1, 36),  # P1 +35: game 2
        knock(rules, 0, 1, 11),  # P0 +10: game 2
        knock(rules, 1, 1, 36),  # P1: games 2, 3
        knock(rules, 1, 1, 36),  # P1: game 2 reaches 105 and closes; game 3
    )
    assert [c.is_over for c in game.columns] == [True, True, False]
    game.record(knock(rules, 1, 1, 36))  # P1: game 3 only
    assert game.is_over
    final = game.final()
    assert [c.winner for c in final.columns] == [0, 1, 1]
    first, second, third = final.columns
    assert first.shutout and first.players[0].total == 105 + 25 + 100 + 100
    assert (second.players[1].hand_points, second.players[1].hands_won) == (105, 3)
    assert (third.players[1].hand_points, third.players[1].hands_won) == (105, 3)
    assert not second.shutout and third.shutout
    assert second.players[0].total == 10 + 25
    assert final.balance == sum(c.balance for c in final.columns)
    assert final.winner == (0 if final.balance > 0 else 1)
    assert final.settlement == final.net * Decimal("0.5")


# -- the stake -------------------------------------------------------------------------------


def test_stake_settlement() -> None:
    rules = Rules(stake=Decimal("0.05"))
    game = play(rules, knock(rules, 1, 5, 6), HandResult.gin(rules, 0, 80))  # P1 +1, P0 +105
    final = game.final()
    assert final.net == (105 + 25 + 100) - (1 + 25)
    assert final.settlement == Decimal("10.20")
    assert final.to_dict()["settlement"] == "10.20"


@pytest.mark.parametrize(
    ("stake", "paid"),
    [("0.5", "102.00"), ("2", "408.00"), ("0.25", "51.00"), ("0.001", "0.204"), ("1.50", "306.00")],
)
def test_a_settlement_is_written_as_money(stake: str, paid: str) -> None:
    rules = Rules(stake=Decimal(stake))
    game = play(rules, knock(rules, 1, 5, 6), HandResult.gin(rules, 0, 80))  # net 204
    assert game.final().net == 204
    assert str(game.final().settlement) == paid
