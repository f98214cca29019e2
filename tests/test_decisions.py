"""The computer players' decisions on fixed seeds, pinned: a refactoring that changes what any
agent does, under any preset, fails here (the arena's games for a seed stay the same).

The expected moves are in ``tests/golden/decisions.json``. A deliberate change of an agent's
play rewrites them with ``GINRUMMY_WRITE_DECISIONS=1 pytest tests/test_decisions.py`` (and the
diff shows which hands changed).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import replace
from pathlib import Path

import pytest

from ginrummy.agents import Agent, agent_names, get_agent
from ginrummy.agents.play import play_hand
from ginrummy.engine import Rules

GOLDEN = Path(__file__).parent / "golden" / "decisions.json"
PRESETS = ("standard", "oklahoma", "hollywood", "straight")
#: Each agent plays two hands per preset against the next agent in this order (the expert
#: against the intermediate, so both searching players are exercised every time).
OPPONENT = {
    "random": "greedy",
    "simple": "random",
    "greedy": "simple",
    "beginner": "greedy",
    "intermediate": "beginner",
    "intermediate-expert": "expert",
    "expert": "intermediate",
    "gin-hunter": "simple",
    "camper": "gin-hunter",
}
#: The order that numbers the agents' seeds: a new agent goes at the end, so that adding one
#: leaves every other agent's pinned hands as they were.
ORDER = (
    "beginner",
    "expert",
    "greedy",
    "intermediate",
    "intermediate-expert",
    "random",
    "simple",
    "camper",
    "gin-hunter",
)


def _cases() -> list[tuple[str, str, int]]:
    return [
        (agent, preset, 100 * n + seed)
        for n, agent in enumerate(ORDER, start=1)
        for preset in PRESETS
        for seed in (1, 2)
    ]


def _agent(name: str) -> Agent:
    """The agent, without the expert's safety cap on thinking time: the search is counted in
    worlds, and only the cap (hit on a machine busy enough) could make it stop early."""
    agent = get_agent(name)
    settings = getattr(agent, "settings", None)
    if settings is not None:
        agent.settings = replace(settings, budget_ms=math.inf)  # type: ignore[attr-defined]
    return agent


def _moves(agent: str, preset: str, seed: int) -> list[str]:
    players = (_agent(agent), _agent(OPPONENT[agent]))
    hand = play_hand(Rules.preset(preset), seed % 2, seed, players)
    return hand.action_texts


def _key(agent: str, preset: str, seed: int) -> str:
    return f"{agent} v {OPPONENT[agent]}, {preset}, seed {seed}"


def test_every_built_in_agent_is_pinned() -> None:
    assert sorted(OPPONENT) == sorted(ORDER) == agent_names()


@pytest.mark.parametrize(("agent", "preset", "seed"), _cases())
def test_the_same_decisions_as_before(agent: str, preset: str, seed: int) -> None:
    moves = _moves(agent, preset, seed)
    key = _key(agent, preset, seed)
    if os.environ.get("GINRUMMY_WRITE_DECISIONS"):
        golden = json.loads(GOLDEN.read_text()) if GOLDEN.exists() else {}
        golden[key] = moves
        GOLDEN.write_text(json.dumps(dict(sorted(golden.items())), indent=1) + "\n")
    expected = json.loads(GOLDEN.read_text())[key]
    assert moves == expected
