"""Batched self-play: N episodes stepped at once, each row the same as an environment of its
own, with auto-reset."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ginrummy.rl import NUM_ACTIONS, VectorEnv, raw_env
from ginrummy.rl.options import make_options
from ginrummy.rl.session import Session


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])


def test_a_batch_has_a_row_per_episode_in_numpy_arrays() -> None:
    venv = VectorEnv(5, encoding="rlcard")
    batch = venv.reset(seed=1)
    assert batch.observation.shape == (5, 5, 52) and batch.observation.dtype == np.float32
    assert batch.action_mask.shape == (5, NUM_ACTIONS) and batch.action_mask.dtype == np.int8
    assert batch.player.shape == (5,) and batch.reward.shape == (5, 2)
    assert not batch.terminated.any() and not batch.truncated.any()
    assert (batch.action_mask.sum(axis=1) > 0).all()


def test_each_row_plays_as_a_session_of_its_own_with_auto_reset() -> None:
    """Row i is seeded with the i-th number drawn from Random(seed): stepped with the same
    actions, a lone session with that seed shows the same observations, masks and rewards,
    and an episode that ends starts the next one in the same step."""
    venv = VectorEnv(3, mode="hand", preset="eaai", max_hand_actions=30)
    batch = venv.reset(seed=7)
    seeds = random.Random(7)
    alone = [Session(make_options(preset="eaai", max_hand_actions=30)) for _ in range(3)]
    for session in alone:
        session.reset(seeds.getrandbits(63))
    rng = np.random.default_rng(7)
    ended = 0
    for _ in range(120):
        for row, session in enumerate(alone):
            seat = session.current_player
            assert batch.player[row] == seat
            assert np.array_equal(batch.observation[row], session.observe(seat))
            assert np.array_equal(batch.action_mask[row], session.mask(seat))
        actions = random_actions(batch.action_mask, rng)
        batch = venv.step(actions)
        for row, session in enumerate(alone):
            session.step(int(actions[row]))
            assert batch.reward[row].tolist() == session.rewards
            assert batch.reward[row].sum() == 0.0
            assert batch.terminated[row] == session.terminated
            assert batch.truncated[row] == session.truncated
            if session.done:
                ended += 1
                session.reset()
    assert ended >= 3


def test_the_number_of_actions_must_match_the_rows() -> None:
    venv = VectorEnv(2)
    venv.reset(seed=0)
    with pytest.raises(ValueError, match="3 actions for 2 episodes"):
        venv.step([0, 0, 0])


def test_an_illegal_action_in_the_last_row_raises_and_changes_no_row() -> None:
    """Every row is checked first: the rows before the illegal one are not stepped, so the
    corrected batch then plays as it would have at first."""
    venv = VectorEnv(3, preset="eaai")
    batch = venv.reset(seed=0)
    actions = [int(np.flatnonzero(mask)[0]) for mask in batch.action_mask]
    illegal = list(actions)
    illegal[-1] = int(np.flatnonzero(batch.action_mask[-1] == 0)[0])
    events = [len(session.hand.events) for session in venv.sessions]
    with pytest.raises(ValueError, match="legal"):
        venv.step(illegal)
    assert [len(session.hand.events) for session in venv.sessions] == events
    again = VectorEnv(3, preset="eaai")
    again.reset(seed=0)
    stepped, expected = venv.step(actions), again.step(actions)
    assert np.array_equal(stepped.observation, expected.observation)
    assert np.array_equal(stepped.action_mask, expected.action_mask)


def test_a_numpy_integer_seeds_as_the_same_int() -> None:
    """Seeds often come from numpy (``rng.integers``); ``random.Random`` refuses them."""
    assert np.array_equal(
        VectorEnv(3).reset(seed=np.int64(7)).observation, VectorEnv(3).reset(seed=7).observation
    )
    env = raw_env()
    env.reset(seed=np.int64(7))
    first = env.observe("player_0")["observation"]
    env.reset(seed=7)
    assert np.array_equal(env.observe("player_0")["observation"], first)


def test_a_step_before_the_first_reset_or_a_seed_that_is_no_integer_says_what_is_wrong() -> None:
    """Both once failed deep inside with an AttributeError, or a TypeError naming no seed."""
    venv = VectorEnv(2)
    with pytest.raises(ValueError, match="no episode has begun: reset the environment first"):
        venv.step([0, 0])
    for seed in (1.5, "7"):
        with pytest.raises(TypeError, match=f"a seed is an integer or None, not {seed!r}"):
            venv.reset(seed=seed)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="a seed is an integer or None"):
            raw_env().reset(seed=seed)  # type: ignore[arg-type]
    batch = venv.reset(seed=1)
    venv.step([int(np.flatnonzero(mask)[0]) for mask in batch.action_mask])
