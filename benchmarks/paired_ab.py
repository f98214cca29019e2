"""Two versions of the expert on the same deals: how far apart, and how much pairing helps.

Each version plays the same mirrored pairs against the same opponent (``expert_strength.py``'s
``play_pair``: one game seed, the seats swapped), so every deal is met by both. The difference
of their win rates is then judged pair by pair: its standard error shrinks by how much the two
versions' results on a deal agree (their correlation), which says how many pairs a comparison
of two versions needs:

    .venv/bin/python benchmarks/paired_ab.py --set gate_z=0.5 --pairs 150 --seed 7000
    .venv/bin/python benchmarks/paired_ab.py --set win_game=true --rules standard --worlds 128
    .venv/bin/python benchmarks/paired_ab.py --set match_net=false --rules standard --match
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

from expert_strength import Job, play_pair
from ginrummy.engine import Rules


def _run(
    settings: dict[str, str],
    pairs: int,
    seed: int,
    workers: int,
    opponent: str = "simple",
    rules: str = "eaai",
    match: bool = False,
) -> tuple[list[float], list[float]]:
    """Per pair, the expert's share of the two games (or matches) and its final net a game
    (the games' nets with every bonus, as the rules score them; of a match, the match points
    less his), in the order of the seeds."""
    jobs: list[Job] = [("expert", opponent, rules, seed + i, settings, match) for i in range(pairs)]
    with mp.get_context("fork").Pool(workers) as pool:
        results = pool.map(play_pair, jobs)  # type: ignore[arg-type]
    wins = [float(r["wins"]) / 2 for r in results]  # type: ignore[arg-type]
    nets = [float(r["net"]) / 2 for r in results]  # type: ignore[arg-type]
    return wins, nets


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="the second version: the expert with these Settings changed (repeatable)",
    )
    parser.add_argument("--pairs", type=int, default=150)
    parser.add_argument("--seed", type=int, default=7000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--rules", default="eaai", choices=Rules.presets())
    parser.add_argument(
        "--worlds", type=int, default=None, help="the search's worlds, for both versions"
    )
    parser.add_argument(
        "--match",
        action="store_true",
        help="play matches to the rules' match_target instead of games",
    )
    args = parser.parse_args(argv)
    start = time.perf_counter()
    common = {} if args.worlds is None else {"worlds": str(args.worlds)}
    changed = {**common, **dict(s.split("=", 1) for s in args.set)}
    run = (args.pairs, args.seed, args.workers, args.opponent, args.rules, args.match)
    unit, units = ("match", "matches") if args.match else ("game", "games")
    base, base_net = _run(common, *run)
    other, other_net = _run(changed, *run)
    n = len(base)
    diffs = [b - a for a, b in zip(base, other, strict=True)]
    mean = statistics.mean(diffs)
    se_paired = statistics.stdev(diffs) / math.sqrt(n)
    se_apart = math.sqrt(statistics.variance(base) / n + statistics.variance(other) / n)
    r = statistics.correlation(base, other) if len(set(base)) > 1 < len(set(other)) else 0.0
    print(
        f"expert{' at ' + str(args.worlds) + ' worlds' if args.worlds else ''} vs "
        f"{args.opponent}, {args.rules} rules, the same {n} mirrored pairs of {units} from seed "
        f"{args.seed}"
    )
    print(f"  expert:                {statistics.mean(base):.1%}")
    print(f"  expert with {' '.join(args.set) or 'nothing changed'}: {statistics.mean(other):.1%}")
    print(
        f"  difference: {mean:+.1%}, 95% CI {mean - 1.96 * se_paired:+.1%} to "
        f"{mean + 1.96 * se_paired:+.1%} (paired)"
    )
    print(
        f"  standard error paired {se_paired:.2%}, as if apart {se_apart:.2%}; "
        f"correlation of the two versions' pairs {r:.2f}"
    )
    nets = [b - a for a, b in zip(base_net, other_net, strict=True)]
    net, se_net = statistics.mean(nets), statistics.stdev(nets) / math.sqrt(n)
    print(
        f"  final net a {unit}: {statistics.mean(base_net):+.1f} and "
        f"{statistics.mean(other_net):+.1f},"
        f" difference {net:+.1f} (95% CI {net - 1.96 * se_net:+.1f} to {net + 1.96 * se_net:+.1f})"
    )
    print(f"  {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
