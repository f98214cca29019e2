"""The research toolkit: environments on the exact engine, and adapters to the libraries
reinforcement-learning research uses.

* Environments (numpy, PettingZoo, Gymnasium; the ``rl`` extra): :mod:`.aec` and
  :mod:`.ginrummy_v0`, the PettingZoo AEC and parallel environment; :mod:`.gym_env`, the
  Gymnasium environment ``ginrummy/GinRummy-v0`` against any built-in agent; :mod:`.vector`,
  batched self-play; :mod:`.actions`, their action ids (and OpenSpiel's numbering of them);
  :mod:`.encodings`, the observations by name; :mod:`.selfplay`, trajectories of computer
  players in those observations and ids. docs/rl.md states their rewards, encodings, action
  ids and options.
* OpenSpiel and Ray: :mod:`.openspiel` (numpy) holds OpenSpiel's observation tensor and action
  ids, :mod:`.openspiel_game` (pyspiel) registers the ``python_ginrummy`` game, and
  :mod:`.ray_arena` (ray) runs the arena, and self-play, on Ray.

Each submodule imports its optional library itself, so ``import ginrummy.rl`` needs nothing
beyond the engine: the names below (``env``, ``raw_env``, ``GinRummyEnv``, ...) load their
module when first used. Where Gymnasium is installed, importing this package registers
``ginrummy/GinRummy-v0``.

>>> from ginrummy import rl
>>> env = rl.env(preset="oklahoma", mode="game")
>>> env.reset(seed=42)
>>> observation, reward, terminated, truncated, info = env.last()
>>> observation["observation"].shape, int(observation["action_mask"].sum())
((696,), 2)
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any, Final

from .names import ENV_ID, NAME

if TYPE_CHECKING:
    from .actions import NUM_ACTIONS, action_id, action_name, to_action
    from .aec import env, parallel_env, raw_env
    from .encoding_registry import encoding_names, get_encoding, register_encoding
    from .encodings import Encoder, view_encoding
    from .gym_env import GinRummyEnv
    from .knowledge import Knowledge
    from .options import EnvOptions, make_options
    from .vector import Batch, VectorEnv

#: Each name this package offers, and the submodule it comes from.
_LAZY: Final = {
    "NUM_ACTIONS": "actions",
    "action_id": "actions",
    "action_name": "actions",
    "to_action": "actions",
    "env": "aec",
    "parallel_env": "aec",
    "raw_env": "aec",
    "Encoder": "encodings",
    "encoding_names": "encoding_registry",
    "get_encoding": "encoding_registry",
    "register_encoding": "encoding_registry",
    "view_encoding": "encodings",
    "GinRummyEnv": "gym_env",
    "Knowledge": "knowledge",
    "EnvOptions": "options",
    "make_options": "options",
    "Batch": "vector",
    "VectorEnv": "vector",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


if importlib.util.find_spec("gymnasium") is not None:
    import gymnasium

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
