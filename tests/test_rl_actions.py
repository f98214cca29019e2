"""The research environment's action ids: a fixed discrete space, round-tripped against the
engine on every legal action of many random states, and the mask the environments give."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ginrummy import Action, Hand, Rules
from ginrummy.rl import NUM_ACTIONS, action_id, action_name, to_action
from ginrummy.rl.actions import ACTIONS, ids_of
from ginrummy.rl.options import make_options
from ginrummy.rl.session import Session
from helpers import Policy, rule_mixes


def test_the_documented_ids() -> None:
    assert NUM_ACTIONS == 214
    documented = {
        0: "pass",
        1: "done",
        2: "draw",
        3: "take",
        4: "auto",
        5: "biggin",
        6: "discard As",
        18: "discard Ks",
        19: "discard Ah",
        57: "discard Kc",
        58: "knock As",
        109: "knock Kc",
        110: "gin As",
        161: "gin Kc",
        162: "layoff As",
        213: "layoff Kc",
    }
    for number, text in documented.items():
        assert action_name(number) == text
        assert action_id(Action.parse(text)) == number


def test_every_id_round_trips_through_its_text() -> None:
    names = [action_name(i) for i in range(NUM_ACTIONS)]
    assert len(set(names)) == NUM_ACTIONS
    for i, text in enumerate(names):
        assert action_id(Action.parse(text)) == i
        assert to_action(i) == Action.parse(text)


def test_an_equal_action_that_is_not_the_engines_instance_has_the_same_id() -> None:
    for i, action in enumerate(ACTIONS):
        copy = Action(action.kind, action.card)
        assert copy is not action
        assert action_id(copy) == i


def test_ids_outside_the_space_and_knocks_naming_melds_are_refused() -> None:
    with pytest.raises(ValueError, match="outside"):
        to_action(NUM_ACTIONS)
    with pytest.raises(ValueError, match="outside"):
        to_action(-1)
    with pytest.raises(ValueError, match="names its melds"):
        action_id(Action.parse("knock Kh As2s3s 7h7d7c"))


@pytest.mark.parametrize(("name", "rules"), rule_mixes(), ids=[n for n, _ in rule_mixes()])
def test_every_legal_action_of_random_states_round_trips(name: str, rules: Rules) -> None:
    """Every legal action of every state of 12 hands a mix (greedy players, so knocks, gins,
    layoffs and the wall come up) maps to an id and back to an equal action, and the ids of
    a state's legal actions are exactly the actions the engine accepts there."""
    rng = random.Random(name)
    seen_kinds: set[str] = set()
    for number in range(12):
        hand = Hand.deal(rules, number % 2, rng.randrange(1 << 62))
        policy = Policy(rng, greed=0.9)
        while not hand.is_over:
            legal = hand.legal_actions()
            ids = ids_of(legal)
            assert len(set(ids)) == len(ids)
            for action, number_ in zip(legal, ids, strict=True):
                assert to_action(number_) == action
                assert action_id(action) == number_
                seen_kinds.add(action.kind.value)
            if len(hand.events) % 7 == 0:  # every id against the engine, now and then
                accepted = [i for i in range(NUM_ACTIONS) if hand.is_legal(ACTIONS[i])]
                assert sorted(ids) == accepted
            hand.apply(policy.choose(hand, legal))
    assert {"draw", "take", "discard"} <= seen_kinds


def test_the_mask_holds_the_legal_ids_of_the_seat_to_act_only() -> None:
    session = Session(make_options(preset="standard"))
    session.reset(seed=3)
    rng = random.Random(3)
    while not session.done:
        seat = session.current_player
        mask = session.mask(seat)
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
        assert np.flatnonzero(mask).tolist() == sorted(ids_of(session.hand.legal_actions()))
        assert not session.mask(1 - seat).any()
        session.step(rng.choice(session.legal_ids()))
    assert not session.mask(0).any() and not session.mask(1).any()
