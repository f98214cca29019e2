"""Properties of game scoring over random rules and random sequences of entered results."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.engine.game import Game, GameRecord
from ginrummy.engine.results import HandResult
from ginrummy.engine.rules import Rules


@st.composite
def rules(draw: st.DrawFn) -> Rules:
    return Rules(
        undercut_on_tie=draw(st.booleans()),
        oklahoma_double_boxes=draw(st.booleans()),
        next_dealer=draw(st.sampled_from(["winner", "alternate", "loser"])),
        dead_hand_dealer=draw(st.sampled_from(["same", "alternate"])),
        box_bonus=draw(st.sampled_from([0, 20, 25])),
        game_bonus=draw(st.sampled_from([0, 100])),
        shutout=draw(st.sampled_from(["bonus", "double", "none"])),
        game_target=draw(st.integers(1, 150)),
        hollywood=draw(st.booleans()),
        stake=draw(st.sampled_from([Decimal(0), Decimal("0.01"), Decimal("2.5")])),
    )


@st.composite
def result(draw: st.DrawFn, rules: Rules) -> HandResult:
    kind = draw(st.sampled_from(["knock", "gin", "big", "dead"]))
    seat = draw(st.integers(0, 1))
    multiplier = draw(st.sampled_from([1, 1, 2]))
    defender = draw(st.integers(0, 98))
    if kind == "knock":
        knocker = draw(st.integers(1, 10))
        return HandResult.knock(rules, seat, knocker, defender, multiplier)
    if kind == "gin":
        return HandResult.gin(rules, seat, defender, multiplier)
    if kind == "big":
        return HandResult.big_gin(rules, seat, defender, multiplier)
    return HandResult.dead()


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game with random results entered until it ends or the drawn results run out."""
    game_rules = draw(rules())
    game = Game(game_rules, seed=draw(st.integers(0, 2**32)))
    for _ in range(draw(st.integers(0, 60))):
        if game.is_over:
            break
        game.record(draw(result(game_rules)))
    return game


def finished(game: Game) -> Game:
    while not game.is_over:
        game.record(HandResult.gin(game.rules, 0, 98))
    return game


@settings(max_examples=150, deadline=None)
@given(games())
def test_winner_has_the_larger_total_and_settlement_is_zero_sum(game: Game) -> None:
    final = finished(game).final()
    zero, one = final.players
    assert final.net == abs(zero.total - one.total)
    if final.winner is None:
        assert zero.total == one.total and final.settlement == 0
    else:
        assert final.players[final.winner].total > final.players[1 - final.winner].total
        assert game.winner == final.winner
    paid = [Decimal(0), Decimal(0)]
    if final.winner is not None:
        paid[final.winner] += final.settlement
        paid[1 - final.winner] -= final.settlement
    assert sum(paid) == 0 and final.settlement == final.net * game.rules.stake
    for column in final.columns:
        assert column.players[column.winner].hand_points >= game.rules.game_target
        assert column.players[column.winner].game_bonus == game.rules.game_bonus


@settings(max_examples=150, deadline=None)
@given(games())
def test_boxes_are_hands_won_times_the_box_bonus(game: Game) -> None:
    rules = game.rules
    final = finished(game).final()
    for column in final.columns:
        lines = [line for line in game.tally.lines if column.number - 1 in line.columns]
        for seat in (0, 1):
            won = [line.result for line in lines if line.result.winner == seat]
            player = column.players[seat]
            assert player.hands_won == len(won)
            if rules.oklahoma_double_boxes:
                assert player.boxes == sum(r.multiplier for r in won) * rules.box_bonus
            else:
                assert player.boxes == len(won) * rules.box_bonus
    if not rules.hollywood:
        counts = [sum(1 for e in game.hands if e.result.winner == s) for s in (0, 1)]
        assert [p.hands_won for p in final.players] == counts


@settings(max_examples=100, deadline=None)
@given(games())
def test_record_replays_to_the_same_sheet(game: Game) -> None:
    record = GameRecord.from_json(game.to_record().to_json())
    replayed = record.replay()
    assert replayed.sheet() == game.sheet()
    assert replayed.dealer == game.dealer and replayed.totals == game.totals
    assert replayed.to_record().to_json() == game.to_record().to_json()


@settings(max_examples=100, deadline=None)
@given(games(), st.data())
def test_undo_restores_the_exact_previous_state(game: Game, data: st.DataObject) -> None:
    if game.is_over:
        game.undo()

    def state(g: Game) -> object:
        return (g.to_record(), g.sheet(), g.dealer, g.totals, g.columns, g.tally, g.is_over)

    before = state(game)
    game.record(data.draw(result(game.rules)))
    game.undo()
    assert state(game) == before


@settings(max_examples=100, deadline=None)
@given(games())
def test_standard_game_is_over_exactly_when_a_total_reaches_the_target(game: Game) -> None:
    if game.rules.hollywood:
        return
    totals = game.totals
    assert game.is_over == (max(totals) >= game.rules.game_target)
    scored = [sum(e.result.points for e in game.hands if e.result.winner == s) for s in (0, 1)]
    assert list(totals) == scored
