"""Environment speed on one core: ginrummy's environments beside OpenSpiel's and RLCard's.

Every environment is played by random legal play with masks: at each decision the seat to act
gets its observation and the mask of its legal actions, and one legal action is drawn from the
mask (numpy's generator, seeded). Rates are decisions per second (both seats'; OpenSpiel's chance
nodes, the deal and the stock draws, are played but not counted). Contenders, one hand an
episode each, standard rules:

* ``raw_env``: ginrummy's PettingZoo AEC environment unwrapped (``agent_iter``/``last``/``step``),
  with the chosen encoding and with RLCard's planes (the observation RLCard's environment makes),
* ``env()``: the same with PettingZoo's wrappers,
* ``gymnasium``: ``ginrummy/GinRummy-v0`` against ``random`` (the opponent's decisions count too;
  they are made on the engine's PlayerView, as every built-in agent is),
* ``VectorEnv(N)``: N episodes stepped at once (N decisions a step),
* OpenSpiel's ``gin_rummy`` through pyspiel, with ``observation_tensor`` and
  ``legal_actions_mask`` at every decision,
* RLCard's ``gin-rummy`` environment (its ``step`` makes the 5x52 observation and legal actions),
* and, for scale, ginrummy's engine alone: ``Hand.legal_actions`` and ``Hand.apply``, no
  observation, no mask.

The contenders take turns, ``--rounds`` times for ``--seconds`` each, so a busy machine slows
them all alike; the best round of each is reported, with the median. The ratio that matters is
``raw_env`` over the others, measured in the same run.

    .venv/bin/python benchmarks/env_speed.py --seconds 2 --rounds 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from ginrummy import Hand, Rules
from ginrummy.rl import GinRummyEnv, VectorEnv, env, raw_env
from ginrummy.speedups import describe

#: A contender plays for about ``seconds`` and says how many decisions it made.
Contender = Callable[[float], int]


def pettingzoo(make: Callable[[], Any], seed: int) -> Contender:
    game = make()
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def play(seconds: float) -> int:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            for _ in game.agent_iter():
                observation, _, terminated, truncated, _ = game.last()
                if terminated or truncated:
                    game.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                game.step(int(legal[rng.integers(len(legal))]))
                decisions += 1
            game.reset()
        return decisions

    return play


def engine_alone(seed: int) -> Contender:
    rules = Rules()
    rng = random.Random(seed)

    def play(seconds: float) -> int:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            hand = Hand.deal(rules, decisions % 2, rng)
            while not hand.is_over:
                hand.apply(rng.choice(hand.legal_actions()))
                decisions += 1
        return decisions

    return play


def gymnasium_env(seed: int, encoding: str) -> Contender:
    game = GinRummyEnv(opponent="random", encoding=encoding)
    observation, _ = game.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def play(seconds: float) -> int:
        nonlocal observation
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            legal = np.flatnonzero(observation["action_mask"])
            before = game.session.steps
            observation, _, terminated, truncated, _ = game.step(
                int(legal[rng.integers(len(legal))])
            )
            decisions += game.session.steps - before
            if terminated or truncated:
                observation, _ = game.reset()
                decisions += game.session.steps  # the opponent's opening decisions
        return decisions

    return play


def vector(size: int, seed: int, encoding: str) -> Contender:
    venv = VectorEnv(size, encoding=encoding)
    batch = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)

    def play(seconds: float) -> int:
        nonlocal batch
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            # One draw per row among its legal actions, for all rows at once.
            masks = batch.action_mask.astype(np.float64)
            chosen = masks.cumsum(axis=1) > rng.random(size)[:, None] * masks.sum(axis=1)[:, None]
            batch = venv.step(chosen.argmax(axis=1))
            decisions += size
        return decisions

    return play


def openspiel(seed: int) -> Contender | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = np.random.default_rng(seed)

    def play(seconds: float) -> int:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.integers(len(outcomes))][0])
                    continue
                player = state.current_player()
                np.asarray(state.observation_tensor(player), np.float32)
                legal = np.flatnonzero(np.asarray(state.legal_actions_mask(player), np.int8))
                state.apply_action(int(legal[rng.integers(len(legal))]))
                decisions += 1
        return decisions

    return play


def rlcard_env(seed: int) -> Contender | None:
    try:
        import rlcard
    except ImportError:
        return None
    game = rlcard.make("gin-rummy", config={"seed": seed})
    rng = np.random.default_rng(seed)
    actions = game.num_actions

    def play(seconds: float) -> int:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state, _ = game.reset()
            while not game.is_over():
                mask = np.zeros(actions, np.int8)
                mask[list(state["legal_actions"])] = 1
                legal = np.flatnonzero(mask)
                state, _ = game.step(int(legal[rng.integers(len(legal))]))
                decisions += 1
        return decisions

    return play


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per contender a round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=64, help="episodes in VectorEnv")
    parser.add_argument("--encoding", default="default", help="ginrummy's encoding")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    seed, encoding = args.seed, args.encoding

    contenders: dict[str, Contender] = {
        f"ginrummy raw_env ({encoding})": pettingzoo(lambda: raw_env(encoding=encoding), seed),
        "ginrummy raw_env (rlcard)": pettingzoo(lambda: raw_env(encoding="rlcard"), seed),
        f"ginrummy env() ({encoding})": pettingzoo(lambda: env(encoding=encoding), seed),
        "ginrummy gymnasium vs random": gymnasium_env(seed, encoding),
        f"ginrummy VectorEnv({args.batch})": vector(args.batch, seed, encoding),
    }
    for name, make in (("OpenSpiel gin_rummy", openspiel), ("RLCard gin-rummy", rlcard_env)):
        contender = make(seed)
        if contender is None:
            print(f"{name}: not installed, left out")
        else:
            contenders[name] = contender
    contenders["ginrummy engine alone (no env)"] = engine_alone(seed)

    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for play in contenders.values():  # warm up: caches, imports, first allocations
        play(min(0.3, args.seconds))
    for _ in range(args.rounds):
        for name, play in contenders.items():
            start = time.perf_counter()
            decisions = play(args.seconds)
            rates[name].append(decisions / (time.perf_counter() - start))

    print(
        f"random legal play with masks, standard rules, one core; ginrummy {describe()}; "
        f"{args.rounds} rounds of {args.seconds:g} s; decisions per second (best, median)"
    )
    raw = max(next(iter(rates.values())))
    for name, found in rates.items():
        best = max(found)
        print(
            f"  {name:34} {best:>9,.0f}  {statistics.median(found):>9,.0f}   "
            f"raw_env is {raw / best:5.2f}x this"
        )


if __name__ == "__main__":
    main()
