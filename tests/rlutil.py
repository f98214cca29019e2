"""Shared helpers of the research environment's tests: sessions played by seeded players, and
a seat's observation worked out afresh by replaying a hand."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from ginrummy import Hand
from ginrummy.rl.actions import action_id
from ginrummy.rl.encodings import Encoder
from ginrummy.rl.knowledge import Knowledge, NoScores, visible
from ginrummy.rl.options import make_options
from ginrummy.rl.session import Session
from helpers import Policy


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


def observed(hand: Hand, upto: int, seat: int, encoder: Encoder) -> npt.NDArray[np.float32]:
    """``seat``'s observation after the first ``upto`` actions of ``hand``, replayed from the
    deal for a new ``encoder`` (one hand an episode: no score)."""
    again = Hand.from_deck(hand.rules, hand.dealer, hand.deck)
    knowledge = Knowledge(again, seat, NoScores())
    encoder.new_hand(knowledge)
    for event in hand.events[:upto]:
        done = again.apply(event.action)
        encoder.see(visible(done, seat, again.is_over), knowledge)
    return encoder.encode(knowledge)
