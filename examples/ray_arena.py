"""Evaluate two computer players on Ray: each mirrored pair of games is one Ray task.

    python examples/ray_arena.py --pairs 200               # a local Ray on every core
    python examples/ray_arena.py --pairs 5000 --address auto  # a running Ray cluster

Every node of a cluster needs ginrummy and Ray installed (``pip install 'ginrummy[ray]'``). The
same seed gives the same games as ``ginrummy arena`` with any ``--jobs``; the command's own
``--ray`` option does what this script does.
"""

from __future__ import annotations

import argparse

from ginrummy import Rules
from ginrummy.cli.arena import format_summary
from ginrummy.rl.ray_arena import run_arena_on_ray


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="simple", help="the player whose win rate is reported")
    parser.add_argument("--b", default="random", help="its opponent")
    parser.add_argument("--pairs", type=int, default=100, help="mirrored pairs of games")
    parser.add_argument("--rules", default="eaai", help="rules preset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--address", default=None, help="a Ray cluster (default: local Ray)")
    args = parser.parse_args(argv)

    finished = 0

    def progress(result: object) -> None:
        nonlocal finished
        finished += 1
        if finished % max(1, args.pairs // 10) == 0:
            print(f"{finished}/{args.pairs} pairs", flush=True)

    summary = run_arena_on_ray(
        args.a,
        args.b,
        pairs=args.pairs,
        rules=Rules.preset(args.rules),
        seed=args.seed,
        address=args.address,
        on_pair=progress,
    )
    print(format_summary(summary))


if __name__ == "__main__":
    main()
