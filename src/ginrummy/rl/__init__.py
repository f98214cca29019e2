"""The research environments: PettingZoo's AEC and parallel APIs over the exact engine.

>>> from ginrummy import rl
>>> env = rl.env(preset="oklahoma", mode="game")
>>> env.reset(seed=42)
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((696,), 2)

Rewards, encodings, action ids and every option are described in docs/rl.md.
"""

from __future__ import annotations

from .actions import NUM_ACTIONS, action_id, action_name, to_action
from .aec import NAME, env, parallel_env, raw_env
from .encodings import (
    Encoder,
    encoding_names,
    get_encoding,
    register_encoding,
    view_encoding,
)
from .knowledge import Knowledge
from .options import EnvOptions, make_options

__all__ = [
    "NAME",
    "NUM_ACTIONS",
    "Encoder",
    "EnvOptions",
    "Knowledge",
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
