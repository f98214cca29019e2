"""Batched self-play: N episodes stepped at once, returned as numpy batches.

>>> import numpy as np
>>> from ginrummy.rl import VectorEnv
>>> venv = VectorEnv(4, preset="eaai")
>>> batch = venv.reset(seed=2)
>>> batch.observation.shape, batch.action_mask.shape, batch.player.tolist()
((4, 696), (4, 214), [1, 1, 0, 0])
>>> rng = np.random.default_rng(0)
>>> actions = [rng.choice(np.flatnonzero(mask)) for mask in batch.action_mask]
>>> batch = venv.step(actions)
>>> batch.reward.shape
(4, 2)

Each row is one episode, seen by its seat to act (``player``): its observation and mask. A step
takes one action per row, for that seat, and returns the next batch, with each seat's reward
for the step (``reward[i, seat]``, zero-sum) and whether the episode ended. An episode that
ends is reset at once (auto-reset, in the same step): its row then shows the first state of the
next episode, while ``reward``, ``terminated`` and ``truncated`` still describe the one that
ended. Seeds: ``reset(seed)`` seeds row ``i`` with the ``i``-th number drawn from
``random.Random(seed)``, and each row's later episodes go on from its own generator.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .actions import NUM_ACTIONS
from .options import EnvOptions, make_options
from .session import Session, seed_of


class Batch(NamedTuple):
    """One step of N episodes (row ``i`` is episode ``i``)."""

    #: ``(N, *shape)`` float32: each row's observation, for its seat to act.
    observation: npt.NDArray[np.float32]
    #: ``(N, NUM_ACTIONS)`` int8: each row's legal actions.
    action_mask: npt.NDArray[np.int8]
    #: ``(N,)`` int8: the seat to act in each row.
    player: npt.NDArray[np.int8]
    #: ``(N, 2)`` float32: each seat's reward for the last step.
    reward: npt.NDArray[np.float32]
    #: ``(N,)`` bool: the row's episode ended (and the row was reset).
    terminated: npt.NDArray[np.bool_]
    #: ``(N,)`` bool: the row's episode was cut short (and the row was reset).
    truncated: npt.NDArray[np.bool_]


class VectorEnv:
    """``num_envs`` self-play episodes; the options are those of the other environments."""

    def __init__(self, num_envs: int, **options: Any) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, not {num_envs}")
        self.options: EnvOptions = make_options(**options)
        self.num_envs = num_envs
        self.sessions = [Session(self.options) for _ in range(num_envs)]
        self.observation_shape = self.sessions[0].encoders[0].shape

    def reset(self, seed: int | None = None) -> Batch:
        """Start a new episode in every row."""
        rng = random.Random(seed_of(seed)) if seed is not None else None
        for session in self.sessions:
            session.reset(None if rng is None else rng.getrandbits(63))
        zeros = np.zeros(self.num_envs, np.bool_)
        return self._batch(np.zeros((self.num_envs, 2), np.float32), zeros, zeros.copy())

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> Batch:
        """Apply one action per row (for the row's seat to act)."""
        self.sessions[0].check_playing()  # every row plays once reset (an ended one is reset)
        if len(actions) != self.num_envs:
            raise ValueError(f"{len(actions)} actions for {self.num_envs} episodes")
        chosen = np.asarray(actions).tolist()  # plain ints, one conversion for all rows
        if self.options.illegal == "raise":
            # Every row is checked before any is stepped, so an illegal action raises with the
            # whole batch as it was, and the caller can correct it and step the batch again.
            for i, session in enumerate(self.sessions):
                if not _is_legal(session, chosen[i]):
                    raise ValueError(
                        f"row {i}: seat {session.current_player}: action {chosen[i]!r} is not "
                        "legal (see the row's action_mask)"
                    )
        n = self.num_envs
        rewards = np.zeros((n, 2), np.float32)
        terminated = np.zeros(n, np.bool_)
        truncated = np.zeros(n, np.bool_)
        for i, session in enumerate(self.sessions):
            session.step(chosen[i])
            first, second = session.rewards
            if first or second:
                rewards[i] = first, second
            if session.terminated or session.truncated:
                terminated[i] = session.terminated
                truncated[i] = session.truncated
                session.reset()
        return self._batch(rewards, terminated, truncated)

    def _batch(
        self,
        rewards: npt.NDArray[np.float32],
        terminated: npt.NDArray[np.bool_],
        truncated: npt.NDArray[np.bool_],
    ) -> Batch:
        n = self.num_envs
        observation = np.empty((n, *self.observation_shape), np.float32)
        mask = np.zeros((n, NUM_ACTIONS), np.int8)
        players: list[int] = []
        legal: list[int] = []  # indices into the flattened mask
        for i, session in enumerate(self.sessions):
            seat = session.current_player
            players.append(seat)
            observation[i] = session.observations.encoded(seat)
            start = i * NUM_ACTIONS
            legal += [start + index for index in session.legal_ids()]
        mask.reshape(-1)[legal] = 1
        return Batch(observation, mask, np.array(players, np.int8), rewards, terminated, truncated)


def _is_legal(session: Session, action: object) -> bool:
    """Whether ``session`` would play ``action`` (an id inside its mask) rather than find it
    illegal."""
    try:
        index = operator.index(action)  # type: ignore[arg-type]
    except TypeError:
        return False
    return index in session.legal_ids()
