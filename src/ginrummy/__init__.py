"""ginrummy: an exact Gin Rummy engine, computer players and places to play.

The package namespace re-exports the engine's API (:mod:`ginrummy.engine`).
"""

from .engine import *  # noqa: F403
from .engine import __all__ as __all__

__version__ = "0.1.0"
