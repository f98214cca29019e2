"""The compiled hot modules (``setup.py``, :mod:`ginrummy.speedups`) run the same code as
their ``.py`` sources: loaded side by side, both give the same answers on random hands and the
same rollouts in random worlds."""

from __future__ import annotations

import importlib.util
import os
import random
import subprocess
import sys
from itertools import product
from types import ModuleType

import pytest

from ginrummy.agents import heuristic, inference, search
from ginrummy.engine import masks, melds
from ginrummy.engine.rules import Rules
from ginrummy.speedups import MODULES, compiled, describe, source, stale

FULL = masks.FULL_DECK_MASK


def _pure(module: ModuleType) -> ModuleType:
    """A fresh copy of ``module`` run from its ``.py`` source (never the compiled file)."""
    name = module.__name__
    spec = importlib.util.spec_from_file_location(name + "_pure_copy", source(name))
    assert spec is not None and spec.loader is not None
    copy = importlib.util.module_from_spec(spec)
    copy.__package__ = name.rsplit(".", 1)[0]
    sys.modules[spec.name] = copy
    try:
        spec.loader.exec_module(copy)
    finally:
        del sys.modules[spec.name]
    return copy


def _hand(rng: random.Random, n: int) -> int:
    mask = 0
    for card in rng.sample(range(52), n):
        mask |= 1 << card
    return mask


def test_the_hot_modules_are_compiled_unless_asked_not_to() -> None:
    if os.environ.get("GINRUMMY_PURE") == "1":
        pytest.skip("GINRUMMY_PURE=1: a pure-Python install was asked for")
    missing = [name for name, done in compiled().items() if not done]
    assert not missing, (
        f"{missing} run as pure Python: install with a C compiler (make) or set GINRUMMY_PURE=1"
    )
    assert set(compiled()) == set(MODULES)


def test_describe_counts_the_compiled_modules() -> None:
    flags = compiled()
    done = sum(flags.values())
    text = describe()
    if done == len(flags):
        assert text == "compiled (mypyc)"
    elif done == 0:
        assert text == "pure Python"
    else:
        assert text.startswith(f"{done} of {len(flags)}")


def test_no_compiled_module_is_older_than_its_source() -> None:
    assert stale() == [], "rebuild the compiled modules: make test (or pip install -e .)"


def test_the_mask_helpers_match_their_source() -> None:
    pure = _pure(masks)
    rng = random.Random(6)
    for _ in range(2000):
        hand = _hand(rng, rng.randrange(53))
        assert masks.bits(hand) == pure.bits(hand)
        assert masks.mask_value(hand) == pure.mask_value(hand)
    for k, d, tie in product(range(0, 30, 3), range(0, 40, 4), (False, True)):
        for multiplier in (1, 2):
            args = (k, d, 25, 10, tie, multiplier)
            assert masks.knock_score(*args) == pure.knock_score(*args)


def test_the_meld_solver_matches_its_source() -> None:
    pure = _pure(melds)
    rng = random.Random(7)
    for _ in range(3000):
        hand = _hand(rng, rng.choice((3, 7, 10, 11, 12)))
        assert melds.deadwood_mask(hand) == pure.deadwood_mask(hand)
        assert melds.min_discard_deadwood_mask(hand) == pure.min_discard_deadwood_mask(hand)
        assert melds.discard_deadwoods_mask(hand) == pure.discard_deadwoods_mask(hand)
    for _ in range(300):
        hand = _hand(rng, 10)
        # Each copy has its own Meld class: compare what the melds are.
        got = [(a.deadwood, repr(a.melds)) for a in melds.best_arrangements(hand)]
        assert got == [(a.deadwood, repr(a.melds)) for a in pure.best_arrangements(hand)]


def test_the_rollout_heuristics_match_their_source() -> None:
    pure = _pure(heuristic)
    rng = random.Random(8)
    for _ in range(2000):
        hand = _hand(rng, 11)
        cards = [c for c in range(52) if hand >> c & 1]
        taken = rng.choice([-1, *cards])
        assert heuristic.least_discard(hand, taken) == pure.least_discard(hand, taken)
        live = _hand(rng, 20) & ~hand
        args = (hand, taken, live, 0.5, 10)
        assert heuristic.rollout_discard(*args) == pure.rollout_discard(*args)
        danger = [rng.random() for _ in range(52)]
        shun = (hand, taken, live, rng.choice([0.0, 0.5]), 10, danger, 4.0)
        assert heuristic.rollout_discard(*shun) == pure.rollout_discard(*shun)


@pytest.mark.parametrize("outs", [0.0, 0.5])
def test_rollouts_and_sampled_worlds_match_their_source(outs: float) -> None:
    pure_search = _pure(search)
    pure_inference = _pure(inference)
    rules = Rules.preset("eaai")
    scoring = search.Scoring.of(rules, 10, 1)
    pure_scoring = pure_search.Scoring.of(rules, 10, 1)
    rng = random.Random(9)
    for _ in range(500):
        deck = list(range(52))
        rng.shuffle(deck)
        mine, his, top, stock = deck[:10], deck[10:20], deck[20], deck[21:]
        me, him = sum(1 << c for c in mine), sum(1 << c for c in his)
        a = search.play_out(search.Rollout(me, [top], 0, search.TO_DRAW), him, stock, scoring, outs)
        start = pure_search.Rollout(me, [top], 0, pure_search.TO_DRAW)
        assert a == pure_search.play_out(start, him, stock, pure_scoring, outs)
        danger = [rng.random() for _ in range(52)]
        start = search.Rollout(me, [top], 0, search.TO_DRAW)
        a = search.play_out(start, him, stock, scoring, outs, danger=danger, shun=3.0)
        start = pure_search.Rollout(me, [top], 0, pure_search.TO_DRAW)
        b = pure_search.play_out(start, him, stock, pure_scoring, outs, danger=danger, shun=3.0)
        assert a == b
        plans = [search.FIRST_CHANCE, search.KnockRule(4), search.KnockRule(0, late=4)]
        pure_plans = [pure_search.FIRST_CHANCE, pure_search.KnockRule(4)]
        pure_plans.append(pure_search.KnockRule(0, late=4))
        got = search.play_out_plans(
            search.Rollout(me, [top], 0, search.TO_DRAW), him, stock, scoring, outs, plans=plans
        )
        assert got == pure_search.play_out_plans(
            start, him, stock, pure_scoring, outs, plans=pure_plans
        )
    # Ten cards seen, ten of his hidden, the odds uneven.
    weights = tuple(0.0 if c < 10 else 1.0 + (c % 7) / 3 for c in range(52))
    fields = (0, FULL & ~0x3FF, 10, weights, (0.3,) * 52)
    compiled_beliefs = inference.Beliefs(*fields, inference.Observed((), (), (), 0))
    pure_beliefs = pure_inference.Beliefs(*fields, pure_inference.Observed((), (), (), 0))
    for seed in range(50):
        got = inference.sample_world(compiled_beliefs, random.Random(seed), 8, 0.1)
        assert got == pure_inference.sample_world(pure_beliefs, random.Random(seed), 8, 0.1)


#: Plays seeded random hands under every preset and prints each hand's actions, its state after
#: each and its result; run in a subprocess, where ``--pure`` keeps every compiled module out
#: (only ``.py`` sources are found), so the hand's phases run from their source.
_PLAY_HANDS = """
import importlib.machinery as machinery, random, sys

class SourceOnly:
    # finds ginrummy's modules as .py sources only

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.partition(".")[0] != "ginrummy":
            return None
        for entry in path or sys.path:
            loader = (machinery.SourceFileLoader, machinery.SOURCE_SUFFIXES)
            spec = machinery.FileFinder(entry or ".", loader).find_spec(name)
            if spec is not None:
                return spec
        return None

if sys.argv[1] == "--pure":
    sys.meta_path.insert(0, SourceOnly)
from ginrummy import Hand, Rules
from ginrummy.speedups import compiled
print(compiled())
rng = random.Random(10)
for n in range(40):
    for preset in Rules.presets():
        hand = Hand.deal(Rules.preset(preset), n % 2, rng)
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
            print(hand.events[-1], hand.state)
        print(hand.result)
"""


def test_the_hand_s_phases_play_the_same_hands_compiled_and_from_their_source() -> None:
    def play(mode: str) -> list[str]:
        run = subprocess.run(
            [sys.executable, "-c", _PLAY_HANDS, mode],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        return run.stdout.splitlines()

    pure, loaded = play("--pure"), play("--as-installed")
    assert "True" not in pure[0], pure[0]  # nothing compiled ran in the pure run
    assert len(pure) > 10_000
    assert pure[1:] == loaded[1:]


def test_the_compiled_modules_doctests_pass_on_their_source() -> None:
    import doctest

    hot = (masks, melds, heuristic, inference, search)
    results = {m.__name__: doctest.testmod(_pure(m)) for m in hot}
    assert all(r.failed == 0 for r in results.values()), results
    assert results["ginrummy.engine.melds"].attempted >= 2
    assert results["ginrummy.engine.masks"].attempted >= 4
