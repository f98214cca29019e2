"""What a hand is worth to each side: the points each player scores, in the buckets of
:data:`~ginrummy.agents.winprob.HAND_POINTS`, when one player meets another in single hands.

:mod:`ginrummy.agents.winprob` turns these into the chance of winning a game from every score.
Its even model (each hand a fair coin, the points as between two ``simple`` players) is what the
expert has always weighed a hand's ending by; played against ``simple`` it wins about half the
hands but scores twice the points a hand, so the chance of winning a game from 0-0 is about 80%,
not 50%. This script measures both sides' distributions, prints them as the table
``winprob.py`` keeps, and what the dynamic programme makes of them: the chance of winning from
0-0 and from a few other scores, beside the even model's.

    .venv/bin/python benchmarks/hand_points.py --agent expert:worlds=128 --opponent simple \\
        --deals 1000 --seed 1

Every deal is played from both seats at 0-0 (the same cards), under the rules named.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.agents import get_agent
from ginrummy.agents.play import play_hand
from ginrummy.agents.winprob import HAND_POINTS, bucket_points, win_chance
from ginrummy.engine import Rules

Job = tuple[str, str, str, int]


def play_deal(job: Job) -> list[tuple[int, int]]:
    """The deal's two hands: (the agent's points, the opponent's points) in each."""
    agent_name, opponent_name, preset, seed = job
    rules = Rules.preset(preset)
    out = []
    for seat in (0, 1):
        agent = get_agent(agent_name)
        opponent = get_agent(opponent_name)
        agents = [agent, opponent] if seat == 0 else [opponent, agent]
        result = play_hand(rules, seed % 2, seed, agents).result
        assert result is not None
        mine = result.points if result.winner == seat else 0
        his = result.points if result.winner == 1 - seat else 0
        out.append((mine, his))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="expert:worlds=128")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--rules", default="eaai", choices=Rules.presets())
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    jobs: list[Job] = [
        (args.agent, args.opponent, args.rules, args.seed + i) for i in range(args.deals)
    ]
    start = time.perf_counter()
    with mp.get_context("fork").Pool(args.workers) as pool:
        rows = [h for deal in pool.map(play_deal, jobs, chunksize=1) for h in deal]
    elapsed = time.perf_counter() - start
    n = len(rows)
    mine = bucket_points([m for m, _ in rows if m > 0], n)
    theirs = bucket_points([h for _, h in rows if h > 0], n)
    won = sum(1 for m, _ in rows if m > 0)
    lost = sum(1 for _, h in rows if h > 0)
    print(
        f"{args.agent} vs {args.opponent}, {args.rules} rules, {args.deals} deals from seed "
        f"{args.seed}, each from both seats ({elapsed / 60:.1f} min): {n} hands, "
        f"{won / n:.1%} won, {lost / n:.1%} lost, {(n - won - lost) / n:.1%} dead; points a "
        f"hand won {sum(m for m, _ in rows) / max(1, won):.2f} / "
        f"{sum(h for _, h in rows) / max(1, lost):.2f}"
    )
    print("bucket | agent's share of hands | opponent's")
    for (x, _), (_, p), (_, q) in zip(HAND_POINTS, mine, theirs, strict=True):
        print(f"{x:>6} | {p:.4f} | {q:.4f}")
    print(f"MINE = {tuple((x, round(p, 4)) for x, p in mine)}")
    print(f"THEIRS = {tuple((x, round(q, 4)) for x, q in theirs)}")
    target = Rules.preset(args.rules).game_target
    print("score | win chance, even model | measured")
    for a, b in ((0, 0), (50, 0), (0, 50), (80, 50), (50, 80), (90, 90)):
        even = win_chance(target, a, b)
        fitted = win_chance(target, a, b, mine, theirs)
        print(f"{a}-{b} | {even:.3f} | {fitted:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
