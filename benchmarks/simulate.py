"""Random-vs-random simulation speed: ginrummy, and OpenSpiel's gin_rummy when it is installed.

Both players pick uniformly among the legal actions (standard rules, a seeded
``random.Random``) for a fixed time, and the hands and actions per second are printed. When
``pyspiel`` imports, OpenSpiel's ``gin_rummy`` game is played with the same loop (chance
outcomes, the deal and the stock draws, are sampled uniformly too) and the speed ratio is
printed. OpenSpiel counts the deal and each stock draw as chance actions; the "actions" below
are player decisions only, on both sides.

    .venv/bin/python benchmarks/simulate.py --seconds 10
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from ginrummy import Hand, Rules
from ginrummy.speedups import describe


@dataclass
class Run:
    name: str
    hands: int = 0
    actions: int = 0
    chance: int = 0
    seconds: float = 0.0
    endings: Counter[str] = field(default_factory=Counter)

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds

    def report(self) -> str:
        endings = ", ".join(
            f"{kind} {count / self.hands:.0%}" for kind, count in self.endings.most_common()
        )
        chance = f", {self.chance / self.hands:.1f} chance outcomes" if self.chance else ""
        return (
            f"{self.name}: {self.hands:,} hands in {self.seconds:.1f} s: "
            f"{self.hands_per_second:,.0f} hands/s, {self.actions_per_second:,.0f} actions/s\n"
            f"    per hand {self.actions / self.hands:.1f} player actions{chance}; "
            f"endings: {endings}"
        )


def simulate_ginrummy(seconds: float, seed: int) -> Run:
    rng = random.Random(seed)
    rules = Rules()
    run = Run("ginrummy")
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        hand = Hand.deal(rules, run.hands % 2, rng)
        while not hand.is_over:
            hand.apply(rng.choice(hand.legal_actions()))
            run.actions += 1
        assert hand.result is not None
        run.endings[hand.result.kind.value] += 1
        run.hands += 1
    run.seconds = time.perf_counter() - start
    return run


def simulate_openspiel(seconds: float, seed: int) -> Run | None:
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    run = Run("OpenSpiel gin_rummy")
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                action = rng.choice(state.chance_outcomes())[0]
                run.chance += 1
            else:
                action = rng.choice(state.legal_actions())
                run.actions += 1
            state.apply_action(action)
        returns = state.returns()
        run.endings["no score" if returns[0] == returns[1] == 0 else "scored"] += 1
        run.hands += 1
    run.seconds = time.perf_counter() - start
    return run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time per engine")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    ours = simulate_ginrummy(args.seconds, args.seed)
    print(f"{ours.report()} (hot modules {describe()})")
    theirs = simulate_openspiel(args.seconds, args.seed)
    if theirs is None:
        print("OpenSpiel (pyspiel) is not installed: no comparison (pip install open_spiel)")
        return
    print(theirs.report())
    print(
        f"ratio ginrummy / OpenSpiel: {ours.hands_per_second / theirs.hands_per_second:.2f}x "
        f"hands/s, {ours.actions_per_second / theirs.actions_per_second:.2f}x actions/s"
    )


if __name__ == "__main__":
    main()
