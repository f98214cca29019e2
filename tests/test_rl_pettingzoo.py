"""The PettingZoo environment ``ginrummy_v0``: PettingZoo's own tests for every preset in both
modes, then rewards, seeds, truncation and illegal actions."""

from __future__ import annotations

import copy
import functools
import pickle
import random
import types
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, max_cycles_test, render_test, seed_test
from pettingzoo.utils.conversions import parallel_to_aec

from ginrummy import Game, Rules
from ginrummy.rl import ginrummy_v0, raw_env
from ginrummy.rl.actions import DRAW, TAKE, action_id
from ginrummy.rl.options import max_hand_points
from helpers import Policy

PRESETS = Rules.presets()
MODES = ("hand", "game")
CASES = [(preset, mode) for preset in PRESETS for mode in MODES]
IDS = [f"{preset}-{mode}" for preset, mode in CASES]


# PettingZoo's test warns of any dict observation whose environment is not one of its own
# (the action mask travels in a dict, as in its classic games).
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be")
@pytest.mark.parametrize(("preset", "mode"), CASES, ids=IDS)
def test_pettingzoos_api_test(preset: str, mode: str) -> None:
    api_test(ginrummy_v0.env(preset=preset, mode=mode), num_cycles=150)


@pytest.mark.parametrize(("preset", "mode"), CASES, ids=IDS)
def test_pettingzoos_seed_test(preset: str, mode: str) -> None:
    seed_test(functools.partial(ginrummy_v0.env, preset=preset, mode=mode), num_cycles=150)


@pytest.mark.parametrize(("preset", "mode"), CASES, ids=IDS)
def test_pettingzoos_render_test(
    preset: str, mode: str, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(functools.partial(ginrummy_v0.env, preset=preset, mode=mode))
    assert "pile:" in capsys.readouterr().out  # "human" prints what "ansi" returns


@pytest.mark.parametrize(("preset", "mode"), CASES, ids=IDS)
def test_pettingzoos_max_cycles_test(preset: str, mode: str) -> None:
    """PettingZoo's test counts cycles in which every agent acts once: the parallel view (one
    action of the agent to act per step, the other's ignored) and the AEC environment made from
    it. It samples actions without the mask, so illegal ones are retried (``illegal="retry"``);
    the deal and the samples are seeded."""

    def parallel(**options: Any) -> Any:
        made = ginrummy_v0.parallel_env(preset=preset, mode=mode, illegal="retry", **options)
        made.reset(seed=7)
        for seat, agent in enumerate(made.possible_agents):
            made.action_space(agent).seed(seat)
        return made

    module = types.SimpleNamespace(
        parallel_env=parallel, env=lambda **options: parallel_to_aec(parallel(**options))
    )
    max_cycles_test(module)


# -- rewards ------------------------------------------------------------------------------------


def play(env: Any, seed: int, greed: float = 0.0) -> tuple[dict[str, float], list[Any]]:
    """Play one episode (a greedy player when ``greed`` > 0, so hands are won); each agent's
    total reward and the non-empty infos."""
    env.reset(seed=seed)
    policy = Policy(random.Random(seed), greed)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    infos = []
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if info:
            infos.append(info)
        if terminated or truncated:
            env.step(None)
            continue
        hand = env.unwrapped.session.hand
        choice = action_id(policy.choose(hand, hand.legal_actions()))
        assert observation["action_mask"][choice]
        env.step(choice)
    return totals, infos


def test_a_hand_rewards_the_points_scored_zero_sum() -> None:
    outcomes = set()
    for seed in range(12):
        env = raw_env(preset="standard")
        totals, infos = play(env, seed, 0.95)
        result = env.session.hand.result
        assert result is not None
        points = result.points if result.winner is not None else 0
        if result.winner is None:
            assert totals == {"player_0": 0.0, "player_1": 0.0}
        else:
            winner = f"player_{result.winner}"
            loser = f"player_{1 - result.winner}"
            assert (totals[winner], totals[loser]) == (points, -points)
        assert infos[-1]["hand_result"]["points"] == result.points
        outcomes.add(result.kind.value)
    assert {"knock", "gin"} & outcomes


def test_a_game_rewards_its_winner_with_1_and_shaping_pays_each_hand() -> None:
    rules = Rules.preset("eaai", game_target=40)
    env = raw_env(rules=rules, mode="game")
    totals, infos = play(env, 3, 0.95)
    final = infos[-1]["final"]
    winner = f"player_{final['winner']}"
    assert totals[winner] == 1.0 and sum(totals.values()) == 0.0
    shaped = raw_env(rules=rules, mode="game", shaping=0.5)
    shaped_totals, shaped_infos = play(shaped, 3, 0.95)
    assert shaped_infos[-1]["final"] == final  # the same game: shaping changes no decision
    hands = [i["hand_result"] for i in shaped_infos if "hand_result" in i]
    won = {agent: 0.0 for agent in totals}
    for hand in {h["hand"]: h for h in hands}.values():
        if hand["winner"] is not None:
            won[f"player_{hand['winner']}"] += 0.5 * hand["points"] / 40
            won[f"player_{1 - hand['winner']}"] -= 0.5 * hand["points"] / 40
    for agent in totals:
        assert shaped_totals[agent] == pytest.approx(totals[agent] + won[agent])


def test_a_match_plays_games_to_the_match_target() -> None:
    rules = Rules(game_target=20, match_target=60, game_bonus=0, box_bonus=0, shutout="none")
    env = raw_env(rules=rules, mode="match")
    totals, infos = play(env, 5, 0.95)
    final = infos[-1]["final"]
    assert len(final["games"]) >= 2
    assert totals[f"player_{final['winner']}"] == 1.0
    assert max(final["totals"]) >= 60


def test_options_that_make_no_sense_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown option"):
        raw_env(knock_limt=5)
    with pytest.raises(ValueError, match="mode must be one of hand, game, match"):
        raw_env(mode="tournament")
    with pytest.raises(ValueError, match="shaping applies to the game and match modes"):
        raw_env(shaping=1.0)
    with pytest.raises(ValueError, match="match_target above 0"):
        raw_env(mode="match", match_target=0)
    with pytest.raises(ValueError, match="a preset or rules, not both"):
        raw_env(preset="eaai", rules=Rules())
    assert raw_env(preset="oklahoma", big_gin=True).options.rules == Rules.preset(
        "oklahoma", big_gin=True
    )


# -- seeds -----------------------------------------------------------------------------------------


def trajectory(env: Any, seed: int | None, steps: int = 60) -> list[Any]:
    env.reset(seed=seed)
    out = []
    for _ in range(steps):
        observation, *_ = env.last()
        legal = np.flatnonzero(observation["action_mask"])
        out.append((env.agent_selection, observation["observation"].tobytes(), legal.tolist()))
        env.step(int(legal[len(out) % len(legal)]))
    return out


def test_every_reset_with_a_seed_deals_the_same_and_reset_without_one_goes_on() -> None:
    env = raw_env(mode="game")
    first = trajectory(env, 21)
    following = trajectory(env, None)
    assert trajectory(env, 21) == first  # the same env, seeded again
    assert trajectory(env, None) == following
    assert trajectory(raw_env(mode="game"), 21) == first  # a new env
    assert trajectory(env, 22) != first


def test_an_episode_with_seed_s_deals_as_the_engines_game_with_that_seed() -> None:
    env = raw_env(preset="classic")
    env.reset(seed=9)
    episode_seed = random.Random(9).getrandbits(63)
    assert env.session.hand.deck == Game(Rules.preset("classic"), episode_seed).deal_hand().deck


# -- truncation and illegal actions -----------------------------------------------------------


def test_max_cycles_truncates_the_episode_after_that_many_steps() -> None:
    env = raw_env(mode="game", max_cycles=25)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert steps == 25


def test_a_hand_that_never_ends_is_truncated_at_max_hand_actions() -> None:
    """Two players who take the discard whenever they can would play one hand forever."""
    env = raw_env(max_hand_actions=40)
    env.reset(seed=2)
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(TAKE if TAKE in legal else int(legal[0]))
    assert len(env.session.hand.events) == 40 and not env.session.hand.is_over


def test_illegal_actions_raise_lose_or_are_retried_as_asked() -> None:
    raw = raw_env()
    raw.reset(seed=3)
    agent = raw.agent_selection
    before = raw.observe(agent)["observation"].copy()
    with pytest.raises(ValueError, match=r"illegal action 2 \(draw\)"):
        raw.step(DRAW)  # the first upcard is taken or passed
    assert np.array_equal(raw.observe(agent)["observation"], before)
    assert raw.agent_selection == agent

    wrapped = ginrummy_v0.env()  # loses by default
    wrapped.reset(seed=3)
    agent = wrapped.agent_selection
    wrapped.step(DRAW)
    penalty = -float(max_hand_points(Rules()))
    assert wrapped.rewards == {agent: penalty, f"player_{1 - int(agent[-1])}": -penalty}
    assert all(wrapped.terminations.values())
    assert wrapped.infos[agent]["illegal_action"] == "action 2 (draw)"

    retried = raw_env(illegal="retry", illegal_reward=-0.5)
    retried.reset(seed=3)
    agent = retried.agent_selection
    retried.step(999)
    assert retried.agent_selection == agent and retried.rewards[agent] == -0.5
    assert not any(retried.terminations.values())
    retried.step(action_id(retried.session.hand.legal_actions()[0]))
    assert retried.rewards[agent] == 0.0


def test_a_step_once_every_agent_is_done_says_the_episode_is_over() -> None:
    """It once raised a bare KeyError naming the last agent to step out."""
    raw = raw_env(illegal="lose")
    raw.reset(seed=3)
    raw.step(999)  # illegal: the episode is lost
    while raw.agents:
        raw.step(None)
    with pytest.raises(ValueError, match="the episode is over and every agent is done"):
        raw.step(None)


def test_the_penalty_for_an_illegal_move_is_no_smaller_than_losing_a_hand() -> None:
    for preset in PRESETS:
        rules = Rules.preset(preset)
        assert raw_env(rules=rules).options.illegal_reward == -max_hand_points(rules)
        assert raw_env(rules=rules, mode="game").options.illegal_reward == -1.0
    assert max_hand_points(Rules.preset("oklahoma")) == (98 + 25) * 2


@pytest.mark.parametrize("encoding", ["default", "rlcard", "infostate", "openspiel"])
def test_an_environment_copies_and_pickles_mid_episode_and_the_copies_play_on_alike(
    encoding: str,
) -> None:
    """A copy (``copy.deepcopy``, or a pickle's round trip) taken mid-hand observes what the
    original does and, given the same actions, goes on exactly as it does, while the original
    is left alone."""
    env = raw_env(encoding=encoding, mode="game", preset="oklahoma", game_target=25)
    env.reset(seed=8)
    rng = np.random.default_rng(8)

    def act(game: Any) -> int:
        observation, *_ = game.last()
        return int(rng.choice(np.flatnonzero(observation["action_mask"])))

    for _ in range(30):
        env.step(act(env))
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for _ in range(400):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        for game in copies:
            assert game.agent_selection == env.agent_selection
            for agent in env.possible_agents:
                assert np.array_equal(
                    game.observe(agent)["observation"], env.observe(agent)["observation"]
                )
        action = act(env)
        for game in (env, *copies):
            game.step(action)
        assert all(game.rewards == env.rewards for game in copies)


def test_an_environment_copies_and_pickles_in_the_layoffs_and_after_a_knocked_hand() -> None:
    """The states that hold melds (a knock's layoffs, a finished hand's result, the game's
    tally after it) copy and pickle too: the compiled build's frozen meld classes refused the
    field-by-field restore, so a copy failed once any hand had been knocked."""
    env = raw_env(mode="game")
    env.reset(seed=3)
    rng = random.Random(3)
    seen = {"layoff": False, "after": False}
    for _ in range(3000):
        if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
            break
        session = env.session
        phase = session.hand.phase.value
        done_hands = len(session.game.hands) if session.game is not None else 0
        if (phase == "layoff" and not seen["layoff"]) or (done_hands and not seen["after"]):
            seen["layoff" if phase == "layoff" else "after"] = True
            for copied in (copy.deepcopy(env), pickle.loads(pickle.dumps(env))):
                assert copied.agent_selection == env.agent_selection
                for agent in env.possible_agents:
                    assert np.array_equal(
                        copied.observe(agent)["observation"], env.observe(agent)["observation"]
                    )
        observation, *_ = env.last()
        env.step(rng.choice(list(np.flatnonzero(observation["action_mask"]))))
    assert seen == {"layoff": True, "after": True}


def test_render_before_the_first_reset_says_to_reset() -> None:
    """PettingZoo's and Gymnasium's wrappers check the order, but ``raw_env`` and
    ``GinRummyEnv`` made directly have none: rendering before a reset failed with an
    AttributeError about the session's hand."""
    from ginrummy.rl import GinRummyEnv

    for made in (raw_env(render_mode="ansi"), GinRummyEnv(render_mode="ansi")):
        with pytest.raises(ValueError, match="no episode has begun: reset the environment first"):
            made.render()
    assert raw_env().render() is None  # no render mode: nothing to render, before a reset too


def test_the_parallel_views_infos_name_the_agent_to_act_from_the_reset_on() -> None:
    """PettingZoo's turn-based wrapper writes ``active_agent`` into the infos of each step but
    not into those of the reset, so the first step's actor was named nowhere but in the masks."""
    env = ginrummy_v0.parallel_env(preset="eaai")
    observations, infos = env.reset(seed=4)
    rng = np.random.default_rng(4)
    for _ in range(40):
        active = {info["active_agent"] for info in infos.values()}
        assert len(active) == 1
        (agent,) = active
        assert observations[agent]["action_mask"].any()
        actions = {
            name: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
            for name in env.agents
        }
        observations, _, _, _, infos = env.step(actions)


def test_a_parallel_step_without_the_acting_agents_action_is_refused_clearly() -> None:
    """The actions must name the agent to act: PettingZoo's wrapper raised a bare KeyError
    with the agent's name. Now a ValueError says who is to act; nothing has changed."""
    env = ginrummy_v0.parallel_env(preset="eaai")
    observations, infos = env.reset(seed=4)
    active = infos["player_0"]["active_agent"]
    other = next(a for a in env.agents if a != active)
    before = {a: o["observation"].copy() for a, o in observations.items()}
    with pytest.raises(ValueError, match=f"{active} is to act, and the actions name '{other}'"):
        env.step({other: 0})
    with pytest.raises(ValueError, match="the actions name none"):
        env.step({})
    for agent, seen in before.items():
        assert (env.aec_env.observe(agent)["observation"] == seen).all()
    legal = int(np.flatnonzero(observations[active]["action_mask"])[0])
    after, _, _, _, _ = env.step({active: legal, other: 0})  # the same env goes on
    assert not all((after[a]["observation"] == before[a]).all() for a in before)
