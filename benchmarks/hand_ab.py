"""Versions of the expert on the same single hands: a quick, paired judge of a change.

A whole-game arena needs about 1,200 mirrored pairs to tell two versions 2 points apart. Single
hands are far cheaper: every deal is played twice by every version (once from each seat, the
same cards, the same random draws for the agents), against the same opponent, and each version
is credited per deal with what its two hands are worth. Two measures, both summed over the
deal's two hands:

* **points**: the version's points less the opponent's;
* **value**: the change in the chance of winning a game to the rules' target from the score
  the hands are dealt at (``--scores``, 0-0 by default; the expert's own objective under the
  EAAI rules, :func:`~ginrummy.agents.winprob.win_chance`), in percentage points.

The versions are compared with the first (``--version ""`` is the expert as it is) deal by
deal, with a paired 95% interval. Also printed: each version's knocks (gin aside) and how many
were undercut, and its gins.

    .venv/bin/python benchmarks/hand_ab.py --version "" --version rollout_outs=1 \\
        --opponent simple --deals 400 --seed 1

The same command prints the same figures on any machine (``--worlds`` sets the search's
worlds for every version; the search is counted in worlds, not in time).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from expert_strength import make_agent
from ginrummy.agents import get_agent
from ginrummy.agents.play import play_hand
from ginrummy.agents.winprob import win_chance
from ginrummy.engine import ResultKind, Rules

Job = tuple[str, str, int, list[dict[str, str]], tuple[int, int]]


def parse_version(text: str, worlds: int | None) -> dict[str, str]:
    out = dict(item.split("=", 1) for item in text.split(",") if item)
    if worlds is not None:
        out.setdefault("worlds", str(worlds))
    return out


def play_deal(job: Job) -> list[tuple[float, float, int, int, int]]:
    """Per version: (points, value, knocks, undercut, gins) over the deal's two hands."""
    opponent_name, preset, seed, versions, (ours, theirs) = job
    rules = Rules.preset(preset)
    out = []
    for settings in versions:
        points = 0.0
        value = 0.0
        knocks = undercut = gins = 0
        for seat in (0, 1):
            agent = make_agent("expert", settings)
            opponent = get_agent(opponent_name)
            agents = [agent, opponent] if seat == 0 else [opponent, agent]
            scores = (ours, theirs) if seat == 0 else (theirs, ours)
            hand = play_hand(rules, seed % 2, seed, agents, scores)
            result = hand.result
            assert result is not None
            mine = result.points if result.winner == seat else 0
            his = result.points if result.winner == 1 - seat else 0
            points += mine - his
            target = rules.game_target
            before = win_chance(target, ours, theirs)
            value += 100.0 * (win_chance(target, ours + mine, theirs + his) - before)
            if result.knocker == seat:
                if result.kind in (ResultKind.GIN, ResultKind.BIG_GIN):
                    gins += 1
                else:
                    knocks += 1
                    undercut += result.kind is ResultKind.UNDERCUT
        out.append((points, value, knocks, undercut, gins))
    return out


def _interval(xs: list[float]) -> str:
    mean = statistics.mean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else float("inf")
    return f"{mean:+.3f} ({mean - half:+.3f} to {mean + half:+.3f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--version",
        action="append",
        default=[],
        metavar="NAME=VALUE,...",
        help='the expert with these Settings changed; "" is the expert as it is (repeatable; '
        "the first is the one the others are compared with)",
    )
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--rules", default="eaai", choices=Rules.presets())
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument(
        "--seed",
        type=int,
        default=1,
        help="deal i is dealt from seed SEED+i: screens on other deals need seeds at least "
        "--deals apart (default 1)",
    )
    parser.add_argument("--worlds", type=int, default=None, help="worlds for every version")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--scores",
        default="0,0",
        metavar="OURS,THEIRS",
        help="the game's score when each hand is dealt, the expert's first (default 0,0)",
    )
    args = parser.parse_args(argv)
    ours, theirs = (int(x) for x in args.scores.split(","))
    texts = args.version or [""]
    versions = [parse_version(t, args.worlds) for t in texts]
    jobs: list[Job] = [
        (args.opponent, args.rules, args.seed + i, versions, (ours, theirs))
        for i in range(args.deals)
    ]
    start = time.perf_counter()
    with mp.get_context("fork").Pool(args.workers) as pool:
        rows = pool.map(play_deal, jobs, chunksize=1)
    elapsed = time.perf_counter() - start
    print(
        f"expert vs {args.opponent}, {args.rules} rules, {args.deals} deals from seed "
        f"{args.seed}, each played from both seats at {ours}-{theirs} ({elapsed / 60:.1f} min)"
    )
    print("version | points a deal (95% CI) | value a deal, % of a game | knocks undercut | gins")
    for k, text in enumerate(texts):
        pts = [row[k][0] for row in rows]
        val = [row[k][1] for row in rows]
        knocks = sum(row[k][2] for row in rows)
        under = sum(row[k][3] for row in rows)
        gins = sum(row[k][4] for row in rows)
        share = f"{under / knocks:.1%}" if knocks else "-"
        print(
            f"{text or '(as it is)'} | {_interval(pts)} | {_interval(val)} | "
            f"{under} of {knocks} ({share}) | {gins}"
        )
    for k in range(1, len(texts)):
        dp = [row[k][0] - row[0][0] for row in rows]
        dv = [row[k][1] - row[0][1] for row in rows]
        print(
            f"{texts[k] or '(as it is)'} minus {texts[0] or '(as it is)'}: points {_interval(dp)}; "
            f"value {_interval(dv)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
