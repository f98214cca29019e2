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

import dataclasses
import math
from collections.abc import Callable
from typing import Any, Final

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


def get_agent(name: str, *, one_hand: bool = False) -> Agent:
    """A fresh agent by name (``random``, ``simple``, ``greedy``, ``beginner``, ...).

    An agent with settings (``expert``) takes changes to them after a colon,
    ``"expert:worlds=256"`` or ``"expert:worlds=64,discards=3"``: whole numbers, decimals and
    ``true``/``false`` as the setting is; the name with its changes works wherever a name does
    (the arena's worker processes and Ray tasks make their players from it).

    With ``one_hand`` (where a game is a single hand, its points all that count: the
    environments' ``mode="hand"``, OpenSpiel's games of one hand) a player with a
    ``hand_points`` setting (the expert) plays for the hand's points unless the name sets it:
    otherwise it would weigh the hand by what it does to a game that is never played."""
    agents = _agents()
    base, colon, options = name.partition(":")
    if name in agents:
        base, options = name, ""
    try:
        factory = agents[base]
    except KeyError:
        known = ", ".join(sorted(agents))
        raise ValueError(f"unknown agent {base!r}; known agents: {known}") from None
    agent = as_agent(factory())
    if colon and name not in agents:
        _change_settings(agent, base, options)
    settings: Any = getattr(agent, "settings", None)
    if one_hand and hasattr(settings, "hand_points") and "hand_points" not in options:
        setattr(agent, "settings", dataclasses.replace(settings, hand_points=True))  # noqa: B010
    return agent


def _change_settings(agent: Agent, base: str, options: str) -> None:
    """Set ``agent.settings`` from ``"worlds=256,discards=3"`` (see :func:`get_agent`)."""
    settings = getattr(agent, "settings", None)
    if not dataclasses.is_dataclass(settings) or isinstance(settings, type):
        raise ValueError(f"{base} has no settings to change (only the expert has)")
    names = [f.name for f in dataclasses.fields(settings)]
    changes: dict[str, object] = {}
    for item in filter(None, (part.strip() for part in options.split(","))):
        key, equals, text = (part.strip() for part in item.partition("="))
        if not equals or key not in names:
            raise ValueError(
                f"{base} has no setting {key!r}: write {base}:NAME=VALUE with NAME one of "
                f"{', '.join(names)}"
            )
        signed = key in getattr(settings, "signed", frozenset())
        changes[key] = _setting_value(base, key, text, getattr(settings, key), signed=signed)
    if not changes:
        raise ValueError(f"{base}: no setting after the colon (e.g. {base}:worlds=256)")
    setattr(agent, "settings", dataclasses.replace(settings, **changes))  # noqa: B010


def _setting_value(base: str, key: str, text: str, now: object, *, signed: bool = False) -> object:
    """``text`` read as the kind of value ``now`` is (never negative unless ``signed``)."""
    words = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}
    if isinstance(now, tuple):
        # Whole numbers joined by "/", as many as the setting has: prune=64/160.
        parts = text.split("/")
        if len(parts) != len(now) or not all(p.isdigit() for p in parts):
            example = "/".join(str(x) for x in now)
            raise ValueError(
                f"{base}'s {key} is {len(now)} whole numbers joined by '/' (now {example}), "
                f"not {text!r}"
            )
        return tuple(int(p) for p in parts)
    try:
        if isinstance(now, bool):
            return words[text.lower()]
        value: int | float = int(text) if isinstance(now, int) else float(text)
    except (KeyError, ValueError):
        kinds = {bool: "true or false", int: "a whole number", float: "a number"}
        kind = kinds.get(type(now), type(now).__name__)
        raise ValueError(f"{base}'s {key} is {kind}, not {text!r}") from None
    if not (math.isfinite(value) and (signed or value >= 0)):
        raise ValueError(f"{base}'s {key} cannot be {text!r}")
    return value


def agent_names() -> list[str]:
    """The names :func:`get_agent` knows, sorted."""
    return sorted(_agents())


def agent_summaries() -> dict[str, str]:
    """Each name :func:`get_agent` knows, sorted, with one line on how it plays ("" when none
    was given)."""
    summaries = {**_SUMMARIES, **_added_summaries}
    return {name: summaries.get(name, "") for name in agent_names()}
