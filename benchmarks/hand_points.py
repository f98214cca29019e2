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

Every deal is played from both seats at 0-0 (the same cards), under the rules named, or from
the score ``--scores`` gives (the agent's first).
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
from ginrummy.agents.winprob import HAND_POINTS, Points, bucket_points, win_chance
from ginrummy.engine import Rules

Job = tuple[str, str, str, int, tuple[int, int]]


def play_deal(job: Job) -> list[tuple[int, int, bool]]:
    """The deal's two hands: (the agent's points, the opponent's points, whether the agent
    dealt) in each."""
    agent_name, opponent_name, preset, seed, (ours, theirs) = job
    rules = Rules.preset(preset)
    out = []
    for seat in (0, 1):
        agent = get_agent(agent_name)
        opponent = get_agent(opponent_name)
        agents = [agent, opponent] if seat == 0 else [opponent, agent]
        scores = (ours, theirs) if seat == 0 else (theirs, ours)
        result = play_hand(rules, seed % 2, seed, agents, scores).result
        assert result is not None
        mine = result.points if result.winner == seat else 0
        his = result.points if result.winner == 1 - seat else 0
        out.append((mine, his, seat == seed % 2))
    return out


def dealer_table(
    target: int, dealing: tuple[Points, Points], receiving: tuple[Points, Points], rule: str
) -> float:
    """The agent's chance of winning a game from 0-0 (the first dealer drawn at random) when
    its hands and the other's are scored by ``dealing`` (both sides' :data:`Points`) in the
    hands it deals and by ``receiving`` in the others, and the next dealer is the hand's
    winner, its loser or the other seat (``rule``: the rules' ``next_dealer``); a dead hand
    is dealt again by the same dealer."""

    def norm(model: tuple[Points, Points]) -> tuple[Points, Points]:
        total = sum(p for side in model for _, p in side) or 1.0  # all dead: no chance
        return tuple(tuple((x, p / total) for x, p in side) for side in model)  # type: ignore[return-value]

    models = {True: norm(dealing), False: norm(receiving)}

    def after(deals: bool, won: bool) -> bool:
        if rule == "winner":
            return won
        if rule == "loser":
            return not won
        return not deals

    rows = [[[0.0, 0.0] for _ in range(target)] for _ in range(target)]
    for a in range(target - 1, -1, -1):
        for b in range(target - 1, -1, -1):
            for deals in (False, True):
                ours, his = models[deals]
                v = 0.0
                for x, p in ours:
                    v += p * (1.0 if a + x >= target else rows[a + x][b][after(deals, True)])
                for x, p in his:
                    if b + x < target:
                        v += p * rows[a][b + x][after(deals, False)]
                rows[a][b][deals] = v
    return (rows[0][0][0] + rows[0][0][1]) / 2


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="expert:worlds=128")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--rules", default="eaai", choices=Rules.presets())
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--scores",
        default="0,0",
        metavar="OURS,THEIRS",
        help="the game's score when each hand is dealt, the agent's first (default 0,0): "
        "how its hands change with the score (the tables model them as the same at every one)",
    )
    args = parser.parse_args(argv)
    at = tuple(int(x) for x in args.scores.split(","))
    if len(at) != 2:
        parser.error(f"--scores takes OURS,THEIRS, not {args.scores!r}")
    jobs: list[Job] = [
        (args.agent, args.opponent, args.rules, args.seed + i, (at[0], at[1]))
        for i in range(args.deals)
    ]
    start = time.perf_counter()
    with mp.get_context("fork").Pool(args.workers) as pool:
        rows = [h for deal in pool.map(play_deal, jobs, chunksize=1) for h in deal]
    elapsed = time.perf_counter() - start
    n = len(rows)
    mine = bucket_points([m for m, _, _ in rows if m > 0], n)
    theirs = bucket_points([h for _, h, _ in rows if h > 0], n)
    won = sum(1 for m, _, _ in rows if m > 0)
    lost = sum(1 for _, h, _ in rows if h > 0)
    print(
        f"{args.agent} vs {args.opponent}, {args.rules} rules, {args.deals} deals from seed "
        f"{args.seed} at {at[0]}-{at[1]}, each from both seats ({elapsed / 60:.1f} min): "
        f"{n} hands, {won / n:.1%} won, {lost / n:.1%} lost, {(n - won - lost) / n:.1%} "
        f"dead; points a hand won {sum(m for m, _, _ in rows) / max(1, won):.2f} / "
        f"{sum(h for _, h, _ in rows) / max(1, lost):.2f}"
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
    # The same by who deals: the hands it dealt and those it did not, and the chance of a
    # game from 0-0 under each rule for who deals next.
    sides = {}
    for deals in (True, False):
        part = [r for r in rows if r[2] == deals]
        k = len(part)
        w = sum(1 for m, _, _ in part if m > 0)
        lo = sum(1 for _, h, _ in part if h > 0)
        net = sum(m - h for m, h, _ in part) / max(1, k)
        print(
            f"{'dealing' if deals else 'not dealing'}: {k} hands, {w / k:.1%} won, "
            f"{lo / k:.1%} lost, net {net:+.2f} points a hand"
        )
        sides[deals] = (
            bucket_points([m for m, _, _ in part if m > 0], k),
            bucket_points([h for _, h, _ in part if h > 0], k),
        )
    print("next dealer | win chance from 0-0, hands by who deals")
    for rule in ("alternate", "winner", "loser"):
        print(f"{rule} | {dealer_table(target, sides[True], sides[False], rule):.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
