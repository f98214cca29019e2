"""The research environments over the exact engine: PettingZoo's AEC and parallel APIs, a
Gymnasium environment against any built-in agent, and batched self-play.

>>> from ginrummy import rl
>>> env = rl.env(preset="oklahoma", mode="game")
>>> env.reset(seed=42)
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((696,), 2)

Importing this package registers the Gymnasium id ``ginrummy/GinRummy-v0``. Rewards,
encodings, action ids and every option are described in docs/rl.md.
"""

from __future__ import annotations

import gymnasium

from .actions import NUM_ACTIONS, action_id, action_name, to_action
from .aec import NAME, env, parallel_env, raw_env
from .encodings import (
    Encoder,
    encoding_names,
    get_encoding,
    register_encoding,
    view_encoding,
)
from .gym_env import ENV_ID, GinRummyEnv
from .knowledge import Knowledge
from .options import EnvOptions, make_options
from .vector import Batch, VectorEnv

if ENV_ID not in gymnasium.registry:
    gymnasium.register(id=ENV_ID, entry_point="ginrummy.rl.gym_env:GinRummyEnv")

__all__ = [
    "ENV_ID",
    "NAME",
    "NUM_ACTIONS",
    "Batch",
    "Encoder",
    "EnvOptions",
    "GinRummyEnv",
    "Knowledge",
    "VectorEnv",
    "action_id",
    "action_name",
    "encoding_names",
    "env",
    "get_encoding",
    "make_options",
    "parallel_env",
    "raw_env",
    "register_encoding",
    "to_action",
    "view_encoding",
]
