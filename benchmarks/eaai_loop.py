"""A ginrummy agent played through the EAAI framework's callbacks, in that framework's game loop.

``ginrummy.agents.eaai`` answers the EAAI-2021 Gin Rummy framework's player callbacks with any
ginrummy agent, and ``play_eaai_game`` is that framework's game loop (its rules, its checks, its
greedy layoffs for the defender). This script plays mirrored pairs (each deal twice, the seats
swapped) and prints the agent's game win rate with a 95% interval (Wilson) and any forfeit, to
show that the bridge plays as well as the agent does in the arena:

    .venv/bin/python benchmarks/eaai_loop.py --agent expert --opponent simple --pairs 150
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from expert_strength import wilson
from ginrummy.agents import get_agent
from ginrummy.agents.eaai import EaaiPlayer, play_eaai_game


def play_pair(job: tuple[str, str, int]) -> tuple[float, int, list[str]]:
    agent, opponent, seed = job
    wins = 0.0
    forfeits: list[str] = []
    for seat in (0, 1):
        names = [agent, opponent] if seat == 0 else [opponent, agent]
        players = [
            EaaiPlayer(get_agent(n), random.Random(seed * 4 + i)) for i, n in enumerate(names)
        ]
        game = play_eaai_game(players, random.Random(seed))
        wins += game.winner == seat
        if game.forfeit:
            forfeits.append(f"seed {seed}: {names[1 - game.winner]} forfeited ({game.forfeit})")
    return wins, 2, forfeits


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="expert")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = [(args.agent, args.opponent, args.seed + i) for i in range(args.pairs)]
    wins = 0.0
    games = 0
    forfeits: list[str] = []
    start = time.perf_counter()
    with mp.get_context("fork").Pool(args.workers) as pool:
        for w, g, f in pool.imap_unordered(play_pair, jobs):
            wins += w
            games += g
            forfeits.extend(f)
    lo, hi = wilson(wins, games)
    print(
        f"{args.agent} vs {args.opponent} in the EAAI game loop, {games} games ({args.pairs} pairs)"
    )
    print(f"  games won: {wins / games:.1%}  (95% CI {lo:.1%} to {hi:.1%})")
    print(f"  forfeits: {len(forfeits)}")
    for line in forfeits:
        print(f"    {line}")
    print(f"  {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
