"""The research environment's action ids: a fixed discrete space, round-tripped against the
engine on every legal action of many random states, the mask the environments give, and the
mapping to and from OpenSpiel's numbering (``python_ginrummy``'s)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from ginrummy import DECK, Action, ActionKind, Hand, Rules
from ginrummy.rl import NUM_ACTIONS, action_id, action_name, to_action
from ginrummy.rl.actions import (
    ACTIONS,
    DONE,
    OPENSPIEL_NUM_ACTIONS,
    PASS,
    from_openspiel,
    ids_of,
    to_openspiel,
)
from ginrummy.rl.openspiel import card_id
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


def test_the_documented_openspiel_ids() -> None:
    """0-54 mean what they mean in OpenSpiel's gin_rummy (a discard by OpenSpiel's card id,
    whose suits run spades, clubs, diamonds, hearts; take, draw, pass); the rest as documented."""
    documented = {
        "discard As": 0,
        "discard Ks": 12,
        "discard Ac": 13,
        "discard Ah": 39,
        "discard Kh": 51,
        "take": 52,
        "draw": 53,
        "pass": 54,
        "done": 54,
        "biggin": 55,
        "knock As": 56,
        "knock Kh": 107,
        "gin As": 108,
        "gin Kc": 108 + 25,
        "layoff As": 160,
        "layoff Kh": 211,
        "auto": 212,
    }
    for text, number in documented.items():
        assert to_openspiel(action_id(Action.parse(text))) == number, text


def test_the_mapping_to_openspiel_and_back() -> None:
    """Every environment id has one OpenSpiel id and comes back from it, ``done`` (which shares
    OpenSpiel's pass) when the defender is laying off; every OpenSpiel id is reached."""
    assert OPENSPIEL_NUM_ACTIONS == 213
    images = [to_openspiel(i) for i in range(NUM_ACTIONS)]
    assert sorted(set(images)) == list(range(OPENSPIEL_NUM_ACTIONS))
    for i, image in enumerate(images):
        laying_off = i == DONE
        assert from_openspiel(image, laying_off=laying_off) == i
    for j in range(OPENSPIEL_NUM_ACTIONS):
        assert to_openspiel(from_openspiel(j)) == j
        assert to_openspiel(from_openspiel(j, laying_off=True)) == j
    assert from_openspiel(54) == PASS
    for kind, base in (
        (ActionKind.DISCARD, 0),
        (ActionKind.KNOCK, 56),
        (ActionKind.GIN, 108),
        (ActionKind.LAYOFF, 160),
    ):
        for card in DECK:
            assert to_openspiel(action_id(Action(kind, card))) == base + card_id(card)
    for bad in (-1, NUM_ACTIONS):
        with pytest.raises(ValueError, match="outside"):
            to_openspiel(bad)
    for bad in (-1, OPENSPIEL_NUM_ACTIONS):
        with pytest.raises(ValueError, match="outside"):
            from_openspiel(bad)
