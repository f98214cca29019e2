"""The agents by name: one table of the built-in ones, and :func:`register` for more.

:func:`builtin_agents` is the one place that lists the built-in agents; their modules are
imported the first time an agent is asked for, so importing :mod:`ginrummy.agents` stays light
(the expert's search is loaded only when a player is made). An agent added with
:func:`register` is offered beside them, and replaces a built-in of the same name.

>>> get_agent("simple").name
'simple'
>>> "expert" in agent_names()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from .base import Actor, Agent, as_agent

#: What makes a fresh player: an agent class, or any function without arguments.
AgentFactory = Callable[[], Actor]
#: The levels offered to people, weakest first.
LEVELS: Final = ("beginner", "intermediate", "expert")
#: The opponents a player's strength is measured against (``ginrummy arena A --panel``): the
#: research baseline, players of other styles written from published descriptions, and our own.
PANEL: Final = ("simple", "gin-hunter", "camper", "intermediate", "expert")

#: One line on each built-in agent, for the command line's help.
_SUMMARIES: Final = {
    "random": "uniformly random over the legal moves",
    "simple": "EAAI's baseline: takes what melds, knocks at once",
    "greedy": "takes what melds, knocks or goes gin whenever it may",
    "beginner": "simple with slips: a random discard, slow to knock",
    "intermediate": "simple with one draw of lookahead and card reading",
    "expert": "reads the opponent, plays each choice out: the strongest",
    "intermediate-expert": "the expert's heuristic without its search",
    "gin-hunter": "after MARJJ (EAAI-2021's winner): early knocks, else gin",
    "camper": "simple that knocks only at 5 or less, else plays for gin",
}

_added: dict[str, AgentFactory] = {}
_added_summaries: dict[str, str] = {}


def builtin_agents() -> dict[str, AgentFactory]:
    """Every built-in agent by name."""
    from .basic import BeginnerAgent, GreedyAgent, IntermediateAgent, RandomAgent, SimpleAgent
    from .expert import ExpertAgent, IntermediateExpert
    from .panel import CamperAgent, GinHunterAgent

    return {
        "random": RandomAgent,
        "simple": SimpleAgent,
        "greedy": GreedyAgent,
        "beginner": BeginnerAgent,
        "intermediate": IntermediateAgent,
        "expert": ExpertAgent,
        "intermediate-expert": IntermediateExpert,
        "gin-hunter": GinHunterAgent,
        "camper": CamperAgent,
    }


def register(name: str, factory: AgentFactory, summary: str = "") -> None:
    """Make an agent available to :func:`get_agent` under ``name`` (a factory that makes a
    player with only ``act`` is fine: :func:`get_agent` adapts it, see :func:`~.base.as_agent`),
    with ``summary``, one line on how it plays, for :func:`agent_summaries`."""
    _added[name] = factory
    _added_summaries[name] = summary


def _agents() -> dict[str, AgentFactory]:
    return {**builtin_agents(), **_added}


def get_agent(name: str) -> Agent:
    """A fresh agent by name (``random``, ``simple``, ``greedy``, ``beginner``, ...)."""
    agents = _agents()
    try:
        factory = agents[name]
    except KeyError:
        known = ", ".join(sorted(agents))
        raise ValueError(f"unknown agent {name!r}; known agents: {known}") from None
    return as_agent(factory())


def agent_names() -> list[str]:
    """The names :func:`get_agent` knows, sorted."""
    return sorted(_agents())


def agent_summaries() -> dict[str, str]:
    """Each name :func:`get_agent` knows, sorted, with one line on how it plays ("" when none
    was given)."""
    summaries = {**_SUMMARIES, **_added_summaries}
    return {name: summaries.get(name, "") for name in agent_names()}
