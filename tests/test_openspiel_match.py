"""benchmarks/openspiel_match.py: our players in OpenSpiel's own game, against its simple bot."""

from __future__ import annotations

import pyspiel
import pytest

from benchutil import load
from ginrummy.agents.registry import get_agent
from ginrummy.engine import ResultKind
from ginrummy.engine.masks import VALUES
from ginrummy.rl.openspiel import openspiel_player

match = load("openspiel_match")


def _seat(me: int) -> int:
    return next(s for s in (0, 1) if openspiel_player(s, match.DEALER) == me)


def test_the_mirror_follows_openspiel_and_its_score_is_openspiels() -> None:
    # Our simple player against OpenSpiel's, from both seats of 40 deals: the mirror plays
    # every hand to its end with OpenSpiel, each stock draw dealt the same card, and where
    # the two games agree (every hand but a gin, after which OpenSpiel's bot lays no melds)
    # they score it alike.
    kinds: set[ResultKind] = set()
    for seed in range(1, 41):
        for me in (0, 1):
            tally = match.Tally()
            hand, state = match.play_hand(get_agent("simple"), seed, me, tally)
            assert state.is_terminal() and hand.is_over
            result = hand.result
            assert result is not None
            kinds.add(result.kind)
            assert tally.points == int(state.returns()[me])
            seat = _seat(me)
            gin_by_us = result.kind is ResultKind.GIN and result.knocker == seat
            if gin_by_us:
                # All his cards count: the gin bonus and his whole hand.
                his = hand.hand_mask(1 - seat)
                total = sum(VALUES[c] for c in range(52) if his >> c & 1)
                assert tally.points == 25 + total
            else:
                assert tally.disagree == 0, (seed, me, result, str(state))
    assert {ResultKind.KNOCK, ResultKind.UNDERCUT, ResultKind.GIN} <= kinds


def test_a_searching_agent_plays_through_and_the_deal_counts_both_seats() -> None:
    tallies, skipped = match.play_deal((["simple", "expert:worlds=4,min_worlds=4"], 7))
    assert skipped == 0 and len(tallies) == 2
    for tally in tallies:
        assert tally.knocks + tally.gins <= 2
        assert abs(tally.points) <= 2 * 150
    assert tallies[1].times  # the expert's decisions were timed
    again, _ = match.play_deal((["simple", "expert:worlds=4,min_worlds=4"], 7))
    assert [t.points for t in again] == [t.points for t in tallies]


def test_main_compares_each_agent_with_the_first(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--agent", "simple", "--agent", "gin-hunter", "--deals", "3", "--workers", "1"]
    assert match.main(args) == 0
    out = capsys.readouterr().out
    assert "against OpenSpiel's simple bot" in out
    assert "\nsimple | " in out and "\ngin-hunter | " in out
    with pytest.raises(ValueError, match="unknown agent"):
        match.main(["--agent", "nobody", "--deals", "1", "--workers", "1"])


def test_its_rules_are_openspiels() -> None:
    game = pyspiel.load_game("gin_rummy", match.openspiel_params(match.RULES))
    params = game.get_parameters()
    assert params["knock_card"] == 10 and params["gin_bonus"] == 25
    assert params["undercut_bonus"] == 25 and not params["oklahoma"]
    assert match.RULES.wall_pickup and not match.RULES.undercut_on_tie
