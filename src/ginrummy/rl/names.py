"""The environments' versioned names, in a module of their own so that naming them (the
package registering its Gymnasium id) imports none of the environments."""

from __future__ import annotations

from typing import Final

#: The PettingZoo environment's name (``metadata["name"]``); the version follows any change to
#: the rewards, the encodings or the action ids (docs/rl.md keeps the changelog).
NAME: Final = "ginrummy_v0"
#: The Gymnasium id, registered when ``ginrummy.rl`` is imported.
ENV_ID: Final = "ginrummy/GinRummy-v0"
