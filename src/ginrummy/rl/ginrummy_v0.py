"""``ginrummy_v0``, as PettingZoo names its environments: ``from ginrummy.rl import
ginrummy_v0; env = ginrummy_v0.env()``. A new version number comes with any change to the
rewards, the encodings or the action ids (docs/rl.md keeps the changelog)."""

from __future__ import annotations

from .aec import env, parallel_env, raw_env

__all__ = ["env", "parallel_env", "raw_env"]
