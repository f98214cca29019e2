"""The chance of winning a game from a score (``agents.winprob``), for even hands and for the
expert's measured edge, against a simulation of the race to the target."""

from __future__ import annotations

import random

import pytest
from hypothesis import assume, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from benchutil import load
from ginrummy.agents.winprob import (
    AHEAD,
    EVEN,
    HAND_POINTS,
    Points,
    Utility,
    bucket_points,
    for_the_game,
    hand_model,
    win_chance,
    win_table,
)
from ginrummy.engine import HandResult, ResultKind, Rules
from ginrummy.engine.scoring import Tally

EAAI = Rules.preset("eaai")


def _simulate(target: int, a: int, b: int, mine: Points, theirs: Points, games: int) -> float:
    """The race played out hand by hand: the share of ``games`` the first player wins."""
    rng = random.Random(7)
    outcomes = [(x, 0) for x, _ in mine] + [(0, x) for x, _ in theirs]
    weights = [p for _, p in mine] + [p for _, p in theirs]
    dead = 1.0 - sum(weights)
    outcomes.append((0, 0))
    weights.append(dead)
    won = 0
    for _ in range(games):
        x, y = a, b
        while x < target and y < target:
            dx, dy = rng.choices(outcomes, weights)[0]
            x, y = x + dx, y + dy
        won += x >= target
    return won / games


def test_the_even_model_is_a_fair_coin_from_level_scores() -> None:
    assert win_chance(100, 0, 0) == pytest.approx(0.5, abs=1e-9)
    assert sum(p for _, p in EVEN) == pytest.approx(0.5)  # each side wins half the hands
    for a, b in ((0, 0), (30, 70), (95, 5), (60, 61)):
        assert win_chance(100, a, b) + win_chance(100, b, a) == pytest.approx(1.0)


@pytest.mark.parametrize("model", [(EVEN, EVEN), AHEAD, hand_model(0.5)])
def test_the_table_matches_the_race_played_out(model: tuple[Points, Points]) -> None:
    mine, theirs = model
    for a, b in ((0, 0), (10, 35), (35, 10)):
        exact = win_chance(50, a, b, mine, theirs)
        assert exact == pytest.approx(_simulate(50, a, b, mine, theirs, 4000), abs=0.025)
        # Seen from the other side, the same game: the chances add up to one (a dead hand is
        # dealt again, and the game has a winner).
        assert exact + win_chance(50, b, a, theirs, mine) == pytest.approx(1.0)


def test_the_measured_edge_wins_most_games_from_level_and_behind() -> None:
    mine, theirs = AHEAD
    assert 0.0 < 1.0 - sum(p for _, p in mine) - sum(p for _, p in theirs) < 0.05
    assert 0.8 < win_chance(100, 0, 0, mine, theirs) < 0.87
    # Behind by 50 it is about even, where even hands leave a fifth.
    assert win_chance(100, 0, 50) < 0.25 < 0.4 < win_chance(100, 0, 50, mine, theirs)
    table = win_table(100, mine, theirs)
    assert all(
        table[a][b] >= table[a][b + 1] and table[a + 1][b] >= table[a][b]
        for a in range(0, 99, 7)
        for b in range(0, 99, 7)
    )


def test_a_mix_lies_between_even_hands_and_the_edge() -> None:
    assert hand_model(0.0) == (EVEN, EVEN)
    assert hand_model(1.0) == AHEAD
    even, half, ahead = (win_chance(100, 20, 40, *hand_model(e)) for e in (0.0, 0.5, 1.0))
    assert even < half < ahead
    mine, theirs = hand_model(0.25)
    assert mine[7][1] == pytest.approx(0.75 * EVEN[7][1] + 0.25 * AHEAD[0][7][1])
    assert theirs[0][1] == pytest.approx(0.75 * EVEN[0][1] + 0.25 * AHEAD[1][0][1])


def test_points_go_to_the_nearest_bucket() -> None:
    assert [x for x, _ in HAND_POINTS][:3] == [2, 5, 8]
    shares = dict(bucket_points([1, 3, 4, 25, 26, 27, 28, 90], 10))
    assert shares[2] == pytest.approx(0.2)  # 1 and 3
    assert shares[5] == pytest.approx(0.1)  # 4
    assert shares[25] == pytest.approx(0.3)  # 25, 26 and 27 (as near 29: the lower)
    assert shares[29] == pytest.approx(0.1)  # 28
    assert shares[62] == pytest.approx(0.1)  # all beyond the last bucket
    assert sum(shares.values()) == pytest.approx(0.8)  # two of the ten hands not won


def test_the_utility_weighs_endings_by_its_model() -> None:
    even = Utility(EAAI, (0, 50), 0)
    edged = Utility(EAAI, (0, 50), 0, model=AHEAD)
    assert even(0, 0) == pytest.approx(200 * win_chance(100, 0, 50))
    assert edged(0, 0) == pytest.approx(200 * win_chance(100, 0, 50, *AHEAD))
    # With the edge, a win of 30 is much what it expects of its hands anyway, while his
    # knock for 10 takes a hand from it: the knock weighs more against the win than with
    # even hands.
    assert (
        (edged(0, 0) - edged(0, 10)) / (edged(30, 0) - edged(0, 0))
        > 0.5
        > 0.4
        > (even(0, 0) - even(0, 10)) / (even(30, 0) - even(0, 0))
    )


def test_the_benchmark_measures_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    hand_points = load("hand_points")
    hands = hand_points.play_deal(("expert:worlds=4,min_worlds=4", "simple", "eaai", 5, (0, 0)))
    assert len(hands) == 2 and all(m == 0 or h == 0 for m, h, _ in hands)
    args = ["--agent", "expert:worlds=4,min_worlds=4", "--deals", "2", "--workers", "1"]
    assert hand_points.main(args) == 0
    out = capsys.readouterr().out
    assert "4 hands" in out and "MINE = ((2, " in out and "0-0 | 0.500 |" in out
    assert "dealing: 2 hands" in out and "not dealing: 2 hands" in out and "winner | 0." in out


def test_under_hollywood_an_ending_is_worth_its_points() -> None:
    # The view's score sums three games: at 150-90 no game is over, and one game's chance
    # read from the sum would call every ending a won game (the same value for all).
    for preset in ("hollywood", "eaai"):
        rules = Rules.preset(preset)
        rules = Rules(**{**rules.to_dict(), "hollywood": True})
        u = Utility(rules, (150, 90), 0, win_only=True)
        assert u.points_only and not u.win_only
        box = rules.box_bonus
        assert u(0, 0) == 0.0
        assert u(20, 0) == 20 + box and u(0, 20) == -20 - box
        assert u(30, 0) > u(20, 0) > u(0, 0) > u(0, 10)


def test_the_expert_weighs_a_score_by_its_edge_and_its_hints_by_even_hands() -> None:
    from ginrummy.agents.expert import ExpertAgent, Settings
    from ginrummy.agents.hints import hint
    from ginrummy.engine import Hand

    hand = Hand.deal(EAAI, 0, 11)
    seat = hand.current_player
    assert seat is not None
    view = hand.view(seat, (20, 60))
    mine, theirs = (20, 60) if seat == 0 else (60, 20)
    for edge, model in ((1.0, AHEAD), (0.0, (EVEN, EVEN))):
        agent = ExpertAgent(Settings(worlds=8, min_worlds=8, hand_edge=edge))
        baseline = agent.evaluate(view, random.Random(1)).baseline
        assert baseline == pytest.approx(200 * win_chance(100, mine, theirs, *model))
    assert Settings().hand_edge == 1.0
    # Where the rules' bonuses make the points count (a stake is set), even hands whatever
    # the edge.
    staked = Rules.from_changes("standard", ["stake=0.10"])
    standard = Hand.deal(staked, 0, 11)
    seat = standard.current_player
    assert seat is not None
    agent = ExpertAgent(Settings(worlds=8, min_worlds=8, hand_edge=1.0))
    even = Utility(staked, (20, 60), seat)
    got = agent.evaluate(standard.view(seat, (20, 60)), random.Random(1)).baseline
    assert got == pytest.approx(even(0, 0))
    # The hints speak of the player's chances with even hands, whatever the expert's edge.
    for settings in (None, Settings(hand_edge=1.0)):
        ranked = hint(view, rng=random.Random(1), worlds=8, settings=settings)
        assert ranked and ranked == hint(
            view, rng=random.Random(1), worlds=8, settings=Settings(hand_edge=0.0)
        )


def test_a_single_hand_is_worth_its_points_alone() -> None:
    # hand_only: nothing of the box, the game or the score the hand is dealt at.
    for rules in (Rules.preset("standard"), EAAI, Rules.preset("hollywood")):
        u = Utility(rules, (90, 5), 0, win_only=True, hand_only=True)
        assert u.hand_only and not u.win_only
        assert u(0, 0) == 0.0 and u(25, 0) == 25.0 and u(0, 37) == -37.0


def test_the_expert_plays_a_single_hand_for_its_points_when_asked() -> None:
    from ginrummy.agents.expert import ExpertAgent, Settings
    from ginrummy.agents.hints import hint
    from ginrummy.agents.registry import get_agent
    from ginrummy.engine import Hand

    agent = get_agent("expert:hand_points=true")
    assert isinstance(agent, ExpertAgent) and agent.settings.hand_points
    assert not Settings().hand_points
    for preset in ("eaai", "standard"):
        hand = Hand.deal(Rules.preset(preset), 0, 11)
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat, (20, 60))
        points = ExpertAgent(Settings(worlds=8, min_worlds=8, hand_points=True))
        evaluation = points.evaluate(view, random.Random(1))
        assert evaluation.baseline == 0.0
        # A hand's points: no ending is worth more than a gin of every card against him.
        assert all(abs(v) < 150 for v in evaluation.values)
        game = ExpertAgent(Settings(worlds=8, min_worlds=8))
        assert game.evaluate(view, random.Random(1)).baseline != 0.0
        ranked = hint(view, rng=random.Random(1), worlds=8, settings=points.settings)
        assert ranked and all(h.unit == "points" and abs(h.score) < 150 for h in ranked)


def _column_oracle(rules: Rules, before: Tally, after: Tally, seat: int) -> float:
    """What the game's net makes of one more hand, column by column, from the engine's own
    tally: in every column open before it, the points and boxes it added for each player,
    and the game bonus weighted by the chance of winning that column from its new score."""
    other = 1 - seat
    value = 0.0
    for b, a in zip(before.columns, after.columns, strict=True):
        if b.is_over:
            continue
        value += (a.points[seat] - b.points[seat]) - (a.points[other] - b.points[other])
        value += (a.boxes[seat] - b.boxes[seat]) - (a.boxes[other] - b.boxes[other])
        value += (
            2.0 * rules.game_bonus * win_chance(rules.game_target, a.points[seat], a.points[other])
        )
    return value


def _win(winner: int, points: int) -> HandResult:
    return HandResult(ResultKind.KNOCK, winner, winner, points)


@hypothesis_settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(1, 70)), max_size=14),
    st.integers(0, 1),
    st.integers(0, 1),
    st.integers(1, 60),
)
def test_under_hollywood_a_hands_ending_is_valued_as_the_engines_tally_scores_it(
    history: list[tuple[int, int]], seat: int, winner: int, points: int
) -> None:
    rules = Rules.preset("hollywood")
    tally = Tally.start(rules)
    for w, x in history:
        if not tally.is_over:
            tally = tally.add(_win(w, x))
    assume(not tally.is_over)
    u = Utility(rules, tally.totals, seat, columns=tally.columns)
    assert u.open_columns and not u.points_only and not u.win_only
    assert len(u.open_columns) == sum(not c.is_over for c in tally.columns)
    mine, theirs = (points, 0) if winner == seat else (0, points)
    after = tally.add(_win(winner, points))
    assert u(mine, theirs) == pytest.approx(_column_oracle(rules, tally, after, seat))
    # A dead hand changes nothing: every open column at its chance as it stands.
    assert u(0, 0) == pytest.approx(_column_oracle(rules, tally, tally, seat))


def test_a_fresh_hollywood_game_weighs_a_hand_as_one_standard_game_does() -> None:
    hollywood = Rules.preset("hollywood")
    one_game = Rules(**{**hollywood.to_dict(), "hollywood": False})
    for seat in (0, 1):
        by_column = Utility(hollywood, (0, 0), seat, columns=Tally.start(hollywood).columns)
        single = Utility(one_game, (0, 0), seat)
        for mine, theirs in ((10, 0), (0, 10), (37, 0), (0, 52), (0, 0)):
            gained = by_column(mine, theirs) - by_column(0, 0)
            assert gained == pytest.approx(single(mine, theirs) - single(0, 0))


def test_a_win_that_counts_in_three_columns_is_worth_more_than_one_that_counts_in_one() -> None:
    rules = Rules.preset("hollywood")
    # Seat 0 has won twice (in the first column, then in the first two); seat 1 never.
    tally = Tally.start(rules).add(_win(0, 10)).add(_win(0, 10))
    assert tally.targets(0) == (0, 1, 2) and tally.targets(1) == (0,)
    u = Utility(rules, tally.totals, 0, columns=tally.columns)
    mine = u(10, 0) - u(0, 0)
    his = u(0, 0) - u(0, 10)
    assert mine > 2 * his > 0
    # Without the columns the view's summed score cannot tell: the same 10 and box either way.
    blind = Utility(rules, tally.totals, 0)
    assert blind.points_only
    assert blind(10, 0) - blind(0, 0) == blind(0, 0) - blind(0, 10) == 10 + rules.box_bonus


def test_a_closed_column_is_worth_nothing_more() -> None:
    rules = Rules.preset("hollywood")
    tally = Tally.start(rules).add(_win(1, 100))  # seat 1 closes the first column at once
    assert tally.columns[0].is_over and tally.targets(0) == (1,) and tally.targets(1) == (1,)
    u = Utility(rules, tally.totals, 0, columns=tally.columns)
    assert len(u.open_columns) == 2
    fresh = Utility(rules, (0, 0), 0, columns=Tally.start(rules).columns[:2])
    for mine, theirs in ((0, 0), (20, 0), (0, 20)):
        assert u(mine, theirs) == pytest.approx(fresh(mine, theirs))


def test_play_game_shows_the_agents_the_games_columns() -> None:
    from ginrummy.agents.base import BaseAgent
    from ginrummy.agents.basic import SimpleAgent
    from ginrummy.agents.play import play_game
    from ginrummy.engine import Action, PlayerView

    seen: list[PlayerView] = []

    class Spy(BaseAgent):
        name = "spy"

        def __init__(self) -> None:
            self.inner = SimpleAgent()

        def act(self, view: PlayerView, rng: random.Random) -> Action:
            seen.append(view)
            return self.inner.act(view, rng)

    play_game(Rules.preset("hollywood"), [Spy(), SimpleAgent()], seed=3)
    assert seen and all(len(v.columns) == 3 for v in seen)
    assert {v.scores for v in seen} != {(0, 0)}
    for v in seen:
        assert v.scores == (
            sum(c.points[0] for c in v.columns),
            sum(c.points[1] for c in v.columns),
        )
    seen.clear()
    play_game(Rules.preset("eaai"), [Spy(), SimpleAgent()], seed=3)
    assert seen and all(len(v.columns) == 1 for v in seen)


def test_the_expert_plays_to_win_the_game_unless_a_stake_is_set() -> None:
    from ginrummy.agents.expert import ExpertAgent, Settings
    from ginrummy.agents.hints import hint
    from ginrummy.engine import Hand

    standard = Rules.preset("standard")
    staked = Rules.from_changes("standard", ["stake=0.10"])
    assert for_the_game(standard) and for_the_game(EAAI) and for_the_game(Rules.preset("oklahoma"))
    assert not for_the_game(staked) and not for_the_game(standard, win_game=False)
    assert Settings().win_game
    for rules, game_only in ((standard, True), (staked, False)):
        hand = Hand.deal(rules, 0, 11)
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat, (20, 60))
        mine, theirs = (20, 60) if seat == 0 else (60, 20)
        baseline = ExpertAgent(Settings(worlds=8, min_worlds=8)).evaluate(view, random.Random(1))
        if game_only:  # the chance of winning the game alone, with the expert's measured edge
            chance = win_chance(100, mine, theirs, *AHEAD)
            assert baseline.baseline == pytest.approx(200 * chance)
        else:  # the final net: so far the game bonus by the chance, with even hands
            assert baseline.baseline == pytest.approx(Utility(rules, (20, 60), seat)(0, 0))
            assert baseline.baseline == pytest.approx(200 * win_chance(100, mine, theirs))
        # The hints speak as the expert weighs: of the chance of winning, or of points.
        ranked = hint(view, rng=random.Random(1), worlds=8)
        assert ranked and {h.unit for h in ranked} == {"%" if game_only else "points"}
    # win_game=false weighs the net with or without a stake, as before.
    hand = Hand.deal(standard, 0, 11)
    seat = hand.current_player
    assert seat is not None
    net = ExpertAgent(Settings(worlds=8, min_worlds=8, win_game=False))
    got = net.evaluate(hand.view(seat, (20, 60)), random.Random(1)).baseline
    assert got == pytest.approx(Utility(standard, (20, 60), seat)(0, 0))


def test_in_a_match_the_expert_plays_for_the_games_net() -> None:
    """A match adds up the games' nets, so a game of a match is played, hinted and reviewed
    for its net, as under a stake; the view says a game is one of a match."""
    from ginrummy.agents.expert import ExpertAgent, Settings
    from ginrummy.agents.hints import hint
    from ginrummy.engine import Hand

    standard = Rules.preset("standard")
    assert not for_the_game(standard, match=True) and for_the_game(standard, match=False)
    hand = Hand.deal(standard, 0, 11)
    seat = hand.current_player
    assert seat is not None
    view = hand.view(seat, (20, 60), match_points=(0, 180))
    expert = ExpertAgent(Settings(worlds=8, min_worlds=8))
    got = expert.evaluate(view, random.Random(1)).baseline
    assert got == pytest.approx(Utility(standard, (20, 60), seat)(0, 0))
    ranked = hint(view, rng=random.Random(1), worlds=8)
    assert ranked and {h.unit for h in ranked} == {"points"}
    # The same hand in a game on its own is weighed by the chance of winning it.
    alone = expert.evaluate(hand.view(seat, (20, 60)), random.Random(1)).baseline
    assert alone != pytest.approx(got)
    # match_net=false plays a game of a match as a game on its own.
    by_game = ExpertAgent(Settings(worlds=8, min_worlds=8, match_net=False))
    assert by_game.evaluate(view, random.Random(1)).baseline == pytest.approx(alone)


def test_without_bonuses_a_stake_or_a_match_is_played_for_the_points() -> None:
    """Under rules with no bonus (EAAI) a game on its own is only won or lost, whatever
    ``win_game``; but a stake pays, and a match credits, the game's net, which there is the
    points alone: a hand is weighed by its points."""
    from ginrummy.agents.expert import ExpertAgent, Settings
    from ginrummy.agents.hints import hint
    from ginrummy.engine import Hand

    staked = Rules.from_changes("eaai", ["stake=0.10"])
    assert for_the_game(EAAI) and for_the_game(EAAI, win_game=False)
    assert not for_the_game(EAAI, match=True) and not for_the_game(staked)
    assert Utility(EAAI, (20, 60), 0).win_only  # by default, as the rules have it
    net = Utility(EAAI, (20, 60), 0, win_only=False)
    assert not net.win_only and net(25, 0) == 25.0 and net(0, 12) == -12.0
    expert = ExpertAgent(Settings(worlds=8, min_worlds=8))
    for rules, match in ((EAAI, (0, 180)), (staked, None)):
        hand = Hand.deal(rules, 0, 11)
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat, (20, 60), match_points=match)
        assert expert.evaluate(view, random.Random(1)).baseline == 0.0  # nothing scored yet
        ranked = hint(view, rng=random.Random(1), worlds=8)
        assert ranked and {h.unit for h in ranked} == {"points"}
    # The same hand as a game on its own: the chance of winning it, with the measured edge.
    hand = Hand.deal(EAAI, 0, 11)
    seat = hand.current_player
    assert seat is not None
    mine, theirs = (20, 60) if seat == 0 else (60, 20)
    alone = expert.evaluate(hand.view(seat, (20, 60)), random.Random(1)).baseline
    assert alone == pytest.approx(200 * win_chance(100, mine, theirs, *AHEAD))
