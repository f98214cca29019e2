"""Environment speed on one core: ginrummy's environments beside OpenSpiel's and RLCard's.

Every environment is played by random legal play with masks: at each decision the seat to act
gets its observation and the mask of its legal actions, and one legal action is drawn from the
mask by the same pick for every contender (:func:`picker`: the mask's nonzero places, one of
them drawn uniformly by Python's seeded ``random.Random``; numpy's generator drawing one number
at a time costs about three times as much, the same for everyone, and the report prints the
pick's own cost a decision; ``VectorEnv`` draws all its rows at once, and the engine alone has
no mask to draw from). Rates are decisions per second (both seats'; OpenSpiel's chance
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
  observation, no mask; and the loop alone: the same PettingZoo loop and pick driving an AEC
  environment that does nothing but hand out arrays of ``raw_env``'s shapes (a new
  observation and a new mask with 2 or 11 legal actions, turn about, 60 decisions an
  episode), the least any AEC environment driven this way can cost.

The report ends with what ten times RLCard's rate would allow a decision, beside the loop's and
the engine's own costs.

The contenders take turns, ``--rounds`` times for ``--seconds`` each, so a busy machine slows
them all alike; the best round of each is reported, with the median. The ratio that matters is
``raw_env`` over the others, measured in the same run. On a machine other jobs share,
``--clock cpu`` times each contender by this process's CPU time instead of the wall clock, which
leaves out the time spent waiting for a core and so moves far less from run to run.

    .venv/bin/python benchmarks/env_speed.py --seconds 2 --rounds 5
    .venv/bin/python benchmarks/env_speed.py --seconds 2 --rounds 7 --clock cpu
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from pettingzoo import AECEnv

from ginrummy import Hand, Rules
from ginrummy.rl import GinRummyEnv, VectorEnv, env, raw_env
from ginrummy.rl.actions import NUM_ACTIONS
from ginrummy.speedups import describe

#: A contender plays for about ``seconds`` and says how many decisions it made.
Contender = Callable[[float], int]
#: What the seconds are: ``time.perf_counter`` (wall time) unless ``--clock cpu`` makes them
#: ``time.process_time``, this process's CPU time, which other jobs on a shared machine slow
#: far less (a contender's rate then leaves out the time it waited for a core).
clock: Callable[[], float] = time.perf_counter


#: Draws one legal action id from a mask (any array, nonzero where legal).
Pick = Callable[[Any], int]


def picker(seed: int) -> Pick:
    """The harness's pick, the same for every contender: the mask's legal places
    (``nonzero``), one drawn uniformly (``random.Random.randrange``, exact for any count).
    ``numpy``'s ``flatnonzero`` and a ``Generator.integers`` call a decision cost about 2.4 µs
    together, this about 0.8: the same saving for every contender, so the environments'
    own costs stand out more, none of them favoured."""
    below = random.Random(seed).randrange

    def pick(mask: Any) -> int:
        legal = mask.nonzero()[0]
        return int(legal[below(len(legal))])

    return pick


def pick_cost(seed: int, seconds: float) -> float:
    """The pick's own cost, in µs, on the masks of random play in ``raw_env``: what every
    contender's rate includes a decision."""
    game = raw_env()
    game.reset(seed=seed)
    pick = picker(seed)
    masks = []
    while len(masks) < 2000:
        for _ in game.agent_iter():
            observation, _, terminated, truncated, _ = game.last()
            if terminated or truncated:
                game.step(None)
                continue
            masks.append(observation["action_mask"])
            game.step(pick(masks[-1]))
        game.reset()
    picks = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for mask in masks:
            pick(mask)
        picks += len(masks)
    return (clock() - start) / picks * 1e6


def pettingzoo(make: Callable[[], Any], seed: int) -> Contender:
    game = make()
    game.reset(seed=seed)
    pick = picker(seed)

    def play(seconds: float) -> int:
        decisions = 0
        deadline = clock() + seconds
        while clock() < deadline:
            for _ in game.agent_iter():
                observation, _, terminated, truncated, _ = game.last()
                if terminated or truncated:
                    game.step(None)
                    continue
                game.step(pick(observation["action_mask"]))
                decisions += 1
            game.reset()
        return decisions

    return play


class NullEnv(AECEnv[str, dict[str, Any], Any]):
    """An AEC environment that does nothing: it hands out a new observation and mask of
    ``raw_env``'s shapes at each decision and ends an episode after 60 of them."""

    metadata: dict[str, Any] = {"name": "null_v0"}  # noqa: RUF012  PettingZoo's way

    def __init__(self, width: int) -> None:
        self.possible_agents = ["player_0", "player_1"]
        self._observation = np.zeros(width, np.float32)
        masks = []
        for legal in (2, 11):  # a draw and a discard
            mask = bytearray(NUM_ACTIONS)
            mask[:legal] = b"\x01" * legal
            masks.append(bytes(mask))
        self._masks = masks
        self.reset()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = list(self.possible_agents)
        self.agent_selection = "player_0"
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._steps = 0

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        mask = np.frombuffer(bytearray(self._masks[self._steps % 2]), np.int8)
        observation = {"observation": self._observation.copy(), "action_mask": mask}
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        if self.terminations[self.agent_selection]:
            self.agents.remove(self.agent_selection)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        self._steps += 1
        if self._steps == 60:
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._steps % 2 == 0:
            self.agent_selection = "player_1" if self.agent_selection == "player_0" else "player_0"


def engine_alone(seed: int) -> Contender:
    rules = Rules()
    rng = random.Random(seed)

    def play(seconds: float) -> int:
        decisions = 0
        deadline = clock() + seconds
        while clock() < deadline:
            hand = Hand.deal(rules, decisions % 2, rng)
            while not hand.is_over:
                hand.apply(rng.choice(hand.legal_actions()))
                decisions += 1
        return decisions

    return play


def gymnasium_env(seed: int, encoding: str) -> Contender:
    game = GinRummyEnv(opponent="random", encoding=encoding)
    observation, _ = game.reset(seed=seed)
    pick = picker(seed)

    def play(seconds: float) -> int:
        nonlocal observation
        decisions = 0
        deadline = clock() + seconds
        while clock() < deadline:
            before = game.session.steps
            observation, _, terminated, truncated, _ = game.step(pick(observation["action_mask"]))
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
        deadline = clock() + seconds
        while clock() < deadline:
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
    rng = random.Random(seed)
    pick = picker(seed)

    def play(seconds: float) -> int:
        decisions = 0
        deadline = clock() + seconds
        while clock() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                    continue
                player = state.current_player()
                np.asarray(state.observation_tensor(player), np.float32)
                state.apply_action(pick(np.asarray(state.legal_actions_mask(player), np.int8)))
                decisions += 1
        return decisions

    return play


def rlcard_env(seed: int) -> Contender | None:
    try:
        import rlcard
    except ImportError:
        return None
    game = rlcard.make("gin-rummy", config={"seed": seed})
    pick = picker(seed)
    actions = game.num_actions

    def play(seconds: float) -> int:
        decisions = 0
        deadline = clock() + seconds
        while clock() < deadline:
            state, _ = game.reset()
            while not game.is_over():
                mask = np.zeros(actions, np.int8)
                mask[list(state["legal_actions"])] = 1
                state, _ = game.step(pick(mask))
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
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="time the contenders by the wall clock or by this process's CPU time",
    )
    args = parser.parse_args(argv)
    seed, encoding = args.seed, args.encoding
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter

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
    width = int(
        np.prod(raw_env(encoding=encoding).observation_space("player_0")["observation"].shape)
    )
    contenders["the loop alone (a do-nothing env)"] = pettingzoo(lambda: NullEnv(width), seed)

    rates: dict[str, list[float]] = {name: [] for name in contenders}
    for play in contenders.values():  # warm up: caches, imports, first allocations
        play(min(0.3, args.seconds))
    for _ in range(args.rounds):
        for name, play in contenders.items():
            start = clock()
            decisions = play(args.seconds)
            rates[name].append(decisions / (clock() - start))

    print(
        f"random legal play with masks, standard rules, one core; ginrummy {describe()}; "
        f"{args.rounds} rounds of {args.seconds:g} s ({args.clock} clock); decisions per second "
        "(best, median) and raw_env's over each (best over best, median over median); "
        f"the pick (every contender's) {pick_cost(seed, args.seconds):.2f} µs a decision"
    )
    first = next(iter(rates.values()))
    raw_best, raw_median = max(first), statistics.median(first)
    for name, found in rates.items():
        best, median = max(found), statistics.median(found)
        print(
            f"  {name:34} {best:>9,.0f}  {median:>9,.0f}   "
            f"raw_env is {raw_best / best:5.2f}x / {raw_median / median:5.2f}x this"
        )
    rlcard = rates.get("RLCard gin-rummy")
    if rlcard:
        budget = 1e6 / (10 * statistics.median(rlcard))
        loop = 1e6 / statistics.median(rates["the loop alone (a do-nothing env)"])
        engine = 1e6 / statistics.median(rates["ginrummy engine alone (no env)"])
        now = 1e6 / raw_median
        print(
            f"ten times RLCard's median allows {budget:.1f} µs a decision; raw_env takes "
            f"{now:.1f}, of which the loop alone is {loop:.1f} and the engine alone {engine:.1f}"
        )


if __name__ == "__main__":
    main()
