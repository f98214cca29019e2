"""Shared helpers of the research environment's tests: sessions played by seeded players."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ginrummy.rl.actions import action_id
from ginrummy.rl.options import make_options
from ginrummy.rl.session import Session
from helpers import Policy


@dataclass
class NoScores:
    """The score of an episode that is one hand, for a Knowledge built outside a session."""

    game_scores: tuple[int, int] = (0, 0)
    match_scores: tuple[int, int] = (0, 0)


def session(seed: int = 0, **options: Any) -> Session:
    played = Session(make_options(**options))
    played.reset(seed)
    return played


def states(seed: int, episodes: int, greed: float = 0.9, **options: Any) -> Iterator[Session]:
    """A session after its reset and after each action of ``episodes`` seeded episodes, the
    actions chosen by a mostly greedy player (so knocks, gins and layoffs come up)."""
    rng = random.Random(seed)
    played = session(seed, **options)
    policy = Policy(rng, greed)
    for _ in range(episodes):
        yield played
        while not played.done:
            hand = played.hand
            played.step(action_id(policy.choose(hand, hand.legal_actions())))
            yield played
        played.reset()
