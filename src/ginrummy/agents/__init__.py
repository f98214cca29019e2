"""Computer players. Imports the engine only; an agent sees a PlayerView, never the full state."""

from .base import LEVELS, Agent, BaseAgent, agent_names, get_agent, register

__all__ = ["LEVELS", "Agent", "BaseAgent", "agent_names", "get_agent", "register"]
