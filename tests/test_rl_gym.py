"""The Gymnasium environment ``ginrummy/GinRummy-v0``: Gymnasium's checker for every preset in
both modes, the opponent (any built-in agent, driven as the referee drives it), the learner's
seat and rewards, and seeds."""

from __future__ import annotations

import copy
import itertools
import os
import pickle
import random
import subprocess
import sys
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from ginrummy import Action, Phase, PlayerView, Rules
from ginrummy.agents import BaseAgent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.engine.melds import discard_deadwoods_mask
from ginrummy.rl import ENV_ID, GinRummyEnv
from ginrummy.rl.actions import DISCARD, DRAW, KNOCK

CASES = [(preset, mode) for preset in Rules.presets() for mode in ("hand", "game")]


@pytest.mark.parametrize(("preset", "mode"), CASES, ids=[f"{p}-{m}" for p, m in CASES])
def test_gymnasiums_check_env(preset: str, mode: str) -> None:
    env = gymnasium.make(ENV_ID, preset=preset, mode=mode)
    check_env(env.unwrapped)


def episode(env: Any, seed: int) -> tuple[float, list[Any], dict[str, Any]]:
    """Random legal actions to the end; the learner's total reward, its observations, the
    last info."""
    observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total = 0.0
    seen = [observation["observation"].tobytes()]
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        seen.append(observation["observation"].tobytes())
        if terminated or truncated:
            return total, seen, info


def test_a_hand_against_simple_pays_the_learner_its_points() -> None:
    env = gymnasium.make(ENV_ID, opponent="simple", preset="eaai")
    results = set()
    for seed in range(6):
        total, _, info = episode(env, seed)
        learner = env.unwrapped.seat
        result = env.unwrapped.session.hand.result
        points = 0 if result.winner is None else result.points
        assert total == (points if result.winner == learner else -points)
        assert info["hand_results"][-1]["points"] == result.points
        results.add(result.kind.value)
    assert results - {"dead"}


def test_the_same_seed_plays_the_same_episode_and_the_seat_can_be_chosen() -> None:
    options = {"opponent": "simple", "mode": "game", "preset": "eaai", "game_target": 30}
    env = GinRummyEnv(**options)
    first = episode(env, 4)
    assert episode(env, 4) == first
    assert episode(GinRummyEnv(**options), 4) == first
    seats = {env.reset(seed=s)[1]["seat"] for s in range(8)}
    assert seats == {0, 1}
    fixed = GinRummyEnv(seat=1)
    assert {fixed.reset(seed=s)[1]["seat"] for s in range(4)} == {1}
    assert first[0] in (-1.0, 1.0)


class Recorder(BaseAgent):
    """Plays the last legal action (draws rather than takes, knocks when it can) and writes
    down what the referee told it."""

    name = "recorder"

    def __init__(self) -> None:
        self.calls: list[str] = []
        #: The match points of every view it was asked to act on.
        self.match_points: list[tuple[int, int] | None] = []
        #: The match points of every view it was shown, by hand.
        self.shown: list[set[tuple[int, int] | None]] = []

    def new_hand(self) -> None:
        self.calls.append("new_hand")
        self.shown.append(set())

    def observe(self, view: PlayerView) -> None:
        self.calls.append("observe" if view.result is None else "observe-end")
        self.shown[-1].add(view.match_points)

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        assert view.legal_actions
        self.calls.append("act")
        self.match_points.append(view.match_points)
        self.shown[-1].add(view.match_points)
        return view.legal_actions[-1]


def test_the_opponent_is_told_of_each_hand_and_shown_the_table_as_the_referee_does() -> None:
    opponent = Recorder()
    env = GinRummyEnv(opponent=opponent, mode="game", seat=0)
    episode(env, 1)
    calls = opponent.calls
    hands = calls.count("new_hand")
    assert hands == env.session.hands > 1 and env.session.terminated
    assert calls.count("observe-end") == hands  # every hand's end, the last one too
    assert "act" in calls and calls[0] == "new_hand"
    for before, after in itertools.pairwise(calls):
        if after == "new_hand":
            assert before == "observe-end"


def test_in_a_match_the_opponent_is_told_the_match_points() -> None:
    rules = Rules(game_target=20, match_target=60, game_bonus=0, box_bonus=0, shutout="none")
    opponent = Recorder()
    env = GinRummyEnv(opponent=opponent, rules=rules, mode="match", seat=0)
    episode(env, 3)
    told = opponent.match_points
    assert told and None not in told and told[0] == (0, 0)
    assert len({points for points in told if points is not None}) > 1  # games were won
    # Every view of a hand, the end shown after it included, has the points it was dealt at.
    assert all(len(hand) == 1 and None not in hand for hand in opponent.shown)
    game = Recorder()
    episode(GinRummyEnv(opponent=game, rules=rules, mode="game", seat=0), 3)
    assert game.match_points and set(game.match_points) == {None}


def test_an_illegal_action_loses_the_episode_by_default() -> None:
    env = gymnasium.make(ENV_ID)
    observation, _ = env.reset(seed=5)
    illegal = next(i for i in range(214) if not observation["action_mask"][i])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert terminated and not truncated and reward < -100
    assert "illegal_action" in info
    with pytest.raises(ValueError, match="illegal action"):
        raising = GinRummyEnv(illegal="raise", seat=1)
        observation, _ = raising.reset(seed=5)
        while raising.session.hand.phase is not Phase.FIRST_UPCARD:
            raising.reset()
        raising.step(DRAW)


def test_a_step_before_the_first_reset_or_after_the_end_says_which() -> None:
    """Gymnasium's own wrapper catches the first, but an environment made as ``GinRummyEnv``
    has none: it once failed with an AttributeError from deep inside."""
    env = GinRummyEnv()
    with pytest.raises(ValueError, match="no episode has begun: reset the environment first"):
        env.step(DRAW)
    assert not env.action_masks().any()
    env.reset(seed=5)
    env.step(999)  # illegal: the episode is lost
    with pytest.raises(ValueError, match="the episode is over: reset it"):
        env.step(DRAW)


def test_action_masks_for_masked_learners() -> None:
    env = GinRummyEnv()
    observation, _ = env.reset(seed=8)
    assert np.array_equal(env.action_masks(), observation["action_mask"].astype(bool))


class Cheat(Recorder):
    """Draws from the stock even when the rules say otherwise."""

    name = "cheat"

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        return Action.parse("draw")


def test_an_opponents_illegal_action_is_its_error_never_the_learners_reward() -> None:
    env = GinRummyEnv(opponent=Cheat(), seat=0)
    with pytest.raises(ValueError, match="the opponent 'cheat' chose 'draw'"):
        for seed in range(20):  # until the opponent has to act at the first upcard
            observation, _ = env.reset(seed=seed)
            env.step(int(np.flatnonzero(observation["action_mask"])[-1]))


def test_importing_the_package_registers_the_id_and_loads_no_environment() -> None:
    """``import ginrummy.rl`` needs nothing beyond the engine (the Ray and OpenSpiel tools
    import it in every worker): the environments load on first use."""
    code = (
        "import sys, ginrummy.rl, gymnasium\n"
        "assert 'ginrummy/GinRummy-v0' in gymnasium.registry\n"
        "loaded = {m for m in sys.modules if m.startswith(('pettingzoo', 'ginrummy.rl.'))}\n"
        "assert loaded == {'ginrummy.rl.names'}, loaded\n"
        "from ginrummy.rl import raw_env\n"
        "assert 'pettingzoo' in sys.modules and raw_env.__name__ == 'raw_env'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, env=os.environ.copy())


def test_a_named_expert_plays_a_one_hand_episode_for_its_points() -> None:
    def plays_for_points(env: GinRummyEnv) -> bool:
        assert isinstance(env.opponent, ExpertAgent)
        return env.opponent.settings.hand_points

    assert plays_for_points(GinRummyEnv(opponent="expert"))
    hand = GinRummyEnv(opponent="expert:worlds=16")
    assert plays_for_points(hand)
    assert isinstance(hand.opponent, ExpertAgent) and hand.opponent.settings.worlds == 16
    assert not plays_for_points(GinRummyEnv(opponent="expert:hand_points=false"))
    assert not plays_for_points(GinRummyEnv(opponent="expert", mode="game"))
    # An agent given as an object is the caller's, as it is.
    given = ExpertAgent()
    assert GinRummyEnv(opponent=given).opponent is given and not given.settings.hand_points


def never_knocks(env: GinRummyEnv, seed: int) -> list[tuple[int, float]]:
    """A learner that draws, discards its worst card and never knocks, so the opponent is
    the one who knocks and its knocking is what a watching expert learns from; the actions
    and rewards of the episode."""
    observation, _ = env.reset(seed=seed)
    played = []
    while True:
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])]
        hand = sum(1 << int(i) for i in np.flatnonzero(observation["observation"][:52]))
        discards = [a for a in legal if DISCARD <= a < DISCARD + 52]
        if discards:
            table = discard_deadwoods_mask(hand)
            action = min(discards, key=lambda a: (table[a - DISCARD], a))
        else:
            action = DRAW if DRAW in legal else legal[0]
            assert not KNOCK <= action < KNOCK + 52
        observation, reward, terminated, truncated, _ = env.step(action)
        played.append((action, float(reward)))
        if terminated or truncated:
            return played


def test_a_named_expert_is_new_at_each_reset_so_a_seed_replays_its_episode() -> None:
    """The expert learns its opponent's knocking from the hands it sees end: one kept across
    resets would play the same seed differently the second time."""
    env = GinRummyEnv(opponent="expert:worlds=8,min_worlds=8", seat=0)
    first = never_knocks(env, 100)
    assert never_knocks(env, 100) == first
    # An agent passed in is the caller's: kept, with what it remembers, across resets.
    given = ExpertAgent(Settings(worlds=8, min_worlds=8))
    env = GinRummyEnv(opponent=given, seat=0)
    never_knocks(env, 100)
    assert env.opponent is given


@pytest.mark.parametrize("opponent", ["expert:worlds=8", "intermediate-expert", "gin-hunter"])
def test_the_environment_copies_and_pickles_mid_game_and_the_copies_play_on_alike(
    opponent: str,
) -> None:
    """The opponent goes with a copy: the expert's reading of the hand (its beliefs, its
    knock rule) is held in frozen classes that a compiled build would not copy or pickle."""
    env = GinRummyEnv(opponent=opponent, mode="game", preset="eaai", seat=0)
    observation, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(12):
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, *_ = env.step(action)
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for _ in range(20):
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = env.step(action)
        for other in copies:
            theirs, their_reward, *_ = other.step(action)
            assert np.array_equal(theirs["observation"], observation["observation"])
            assert their_reward == reward
        if terminated or truncated:
            break


@pytest.mark.parametrize("limit", ["max_cycles", "max_hand_actions"])
def test_limits_that_would_end_every_episode_before_the_learner_acts_are_refused(
    limit: str,
) -> None:
    """The opponent can make two moves (take the upcard, discard) before the learner's first.
    A limit below three cut those episodes short before the learner acted, and reset dealt
    again: a learner who always deals (a fixed dealer) was dealt again forever."""
    dealing = {"seat": 0, "first_dealer": "fixed", "first_dealer_seat": 0}
    for value in (1, 2):
        with pytest.raises(ValueError, match=limit):
            GinRummyEnv(**dealing, **{limit: value})
    env = GinRummyEnv(**dealing, **{limit: 3})
    for seed in range(20):
        observation, _ = env.reset(seed=seed)
        assert observation["action_mask"].any()


def test_a_hand_the_opponent_ends_before_the_learners_first_move_is_reported_and_paid() -> None:
    """In the eleven-card deal the first player may go gin at once. Under seed 14688 the
    opponent does, before the learner's first decision: reset lists that hand, and its shaped
    reward comes with the first step, so the episode pays every hand that ended in it."""
    env = GinRummyEnv(opponent="simple", seat=0, deal="eleven", mode="game", shaping=1.0)
    observation, info = env.reset(seed=14688)
    assert env.session.hands == 2  # the opponent's gin ended the first hand
    results = list(info.get("hand_results", []))
    assert [(r["hand"], r["kind"], r["winner"]) for r in results] == [(1, "gin", 1)]
    rng = np.random.default_rng(1)
    total = 0.0
    while True:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, info = env.step(action)
        total += reward
        results += info.get("hand_results", [])
        if terminated or truncated:
            break
    target = env.options.rules.game_target
    shaped = sum(
        (1 if r["winner"] == 0 else -1) * r["points"] / target
        for r in results
        if r["winner"] is not None
    )
    final = info["final"]["winner"]
    assert total == pytest.approx(shaped + (0 if final is None else 1 if final == 0 else -1))


def test_an_illegal_first_step_that_raises_keeps_the_opening_hands_reward() -> None:
    """Under ``illegal="raise"`` an illegal action changes nothing. The first step once took
    the reward of the hand the opponent ended before the learner's first decision (seed 14688,
    as above) before the action was refused, so the step that followed paid nothing for it."""
    options: dict[str, Any] = {"seat": 0, "deal": "eleven", "mode": "game", "shaping": 1.0}
    env = GinRummyEnv(opponent="simple", illegal="raise", **options)
    observation, _ = env.reset(seed=14688)
    action = int(np.flatnonzero(observation["action_mask"])[0])
    with pytest.raises(ValueError, match="illegal action 999"):
        env.step(999)
    _, reward, *_ = env.step(action)
    fresh = GinRummyEnv(opponent="simple", illegal="raise", **options)
    fresh.reset(seed=14688)
    _, expected, *_ = fresh.step(action)
    assert expected != 0
    assert reward == expected


def test_human_rendering_shows_the_table_from_the_reset_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As Gymnasium's own environments do, ``render_mode="human"`` prints the table at the
    reset too: it once printed only after the learner's first step, so whoever watched never
    saw the deal, nor the opponent's moves before the learner's first decision."""
    shown = GinRummyEnv(render_mode="ansi", seat=0, opponent="simple")
    shown.reset(seed=3)
    table = shown.render()
    assert table is not None and "pile:" in table
    GinRummyEnv(render_mode="human", seat=0, opponent="simple").reset(seed=3)
    assert capsys.readouterr().out == table + "\n"
