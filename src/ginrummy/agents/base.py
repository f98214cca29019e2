"""The agent protocol and the registry of agents by name.

An agent receives a :class:`~ginrummy.engine.PlayerView` (which carries the rules and the game
score) and a ``random.Random``, and returns one of the view's legal actions. It never sees the
full state. Agents may keep memory within a hand (``new_hand`` resets it); the referee calls
``observe`` with each view when it is not the agent's turn, so the agent can track the opponent.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..engine import Action, PlayerView


@runtime_checkable
class Agent(Protocol):
    """A computer player."""

    name: str

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        """Choose one of ``view.legal_actions``."""
        ...


class BaseAgent:
    """Convenience base: no memory unless a subclass keeps some."""

    name = "base"

    def new_hand(self) -> None:
        """Forget everything about the previous hand."""

    def observe(self, view: PlayerView) -> None:
        """See the state when it is not this agent's turn (optional)."""

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        raise NotImplementedError


AgentFactory = Callable[[], Agent]
_REGISTRY: dict[str, AgentFactory] = {}
#: The levels offered to people, weakest first.
LEVELS = ("beginner", "intermediate", "expert")


def register(name: str, factory: AgentFactory) -> None:
    """Make an agent available to :func:`get_agent` under ``name``."""
    _REGISTRY[name] = factory


def get_agent(name: str) -> Agent:
    """A fresh agent by name (``random``, ``simple``, ``greedy``, ``beginner``, ...)."""
    _load_builtins()
    try:
        factory = _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise ValueError(f"unknown agent {name!r}; known agents: {known}") from None
    return factory()


def agent_names() -> list[str]:
    _load_builtins()
    return sorted(_REGISTRY)


def _load_builtins() -> None:
    # Importing the built-in agent modules registers them.
    from . import builtin  # noqa: F401
