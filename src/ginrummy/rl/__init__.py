"""The research toolkit: action ids, observation encodings and the session the environments
are built on. Rewards, encodings, action ids and every option are described in docs/rl.md."""

from __future__ import annotations

from .actions import NUM_ACTIONS, action_id, action_name, to_action
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
    "NUM_ACTIONS",
    "Encoder",
    "EnvOptions",
    "Knowledge",
    "action_id",
    "action_name",
    "encoding_names",
    "get_encoding",
    "make_options",
    "register_encoding",
    "to_action",
    "view_encoding",
]
