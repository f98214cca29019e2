"""Computer players. Imports the engine only; an agent sees a PlayerView, never the full state."""

from .base import Actor, Agent, BaseAgent, as_agent
from .registry import LEVELS, agent_names, get_agent, register

__all__ = [
    "LEVELS",
    "Actor",
    "Agent",
    "BaseAgent",
    "agent_names",
    "as_agent",
    "get_agent",
    "register",
]
