"""``ginrummy selfplay``: write self-play trajectories for learning, locally or on Ray."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from . import (
    CommandError,
    add_rules_option,
    add_scale_options,
    check_folder,
    check_players,
    check_scale_options,
    ray_unreachable,
    rules_preset,
)

if TYPE_CHECKING:
    from .main import Subparsers

EXAMPLES = """\
examples:
  ginrummy selfplay hands.parquet --episodes 10000 --agents simple random --seed 1 --jobs 0
  ginrummy selfplay hands.npz --episodes 500 --rules eaai --encoding infostate
  ginrummy selfplay hands.parquet --episodes 1000000 --agents expert simple --ray auto

One row per decision: episode, step, seat, observation, action_mask, action, reward, done
(see ginrummy.rl.selfplay), in the environments' encodings and action ids (docs/rl.md), so a
policy trained on the file plays in ginrummy_v0. The same seed writes the same rows with any
--jobs or on Ray."""


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "selfplay",
        help="write self-play trajectories (Parquet or .npz) for learning",
        description=(
            "Let two computer players play hands and write every decision: the deciding "
            "seat's observation, the legal actions, the action taken and the reward."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # Optional to argparse only so that a file name taken by --ray as its address (--ray
    # out.npz) can be told apart from no file at all (run() refuses both, saying which).
    parser.add_argument(
        "out", metavar="OUT", nargs="?", help="the file to write: .parquet or .npz (required)"
    )
    parser.add_argument(
        "--episodes", type=int, default=1000, metavar="N", help="hands to play (default 1000)"
    )
    parser.add_argument(
        "--agents",
        nargs=2,
        default=["simple", "simple"],
        metavar=("A", "B"),
        help="the players in seats 0 and 1 (default simple simple)",
    )
    add_rules_option(parser)
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed for the run (default random)"
    )
    parser.add_argument(
        "--encoding",
        default="default",
        help="the environments' observation encoding: default, rlcard, infostate, openspiel "
        "(default: default)",
    )
    add_scale_options(parser, "play the hands on Ray")


def run(args: argparse.Namespace) -> int:
    try:
        from ..rl import selfplay
    except ImportError as exc:
        raise CommandError(f"selfplay needs numpy ({exc}): pip install 'ginrummy[rl]'") from None
    check_players(*args.agents)
    if args.episodes < 1:
        raise CommandError(f"--episodes must be at least 1, not {args.episodes}")
    rules = rules_preset(args.rules, args.set)
    from ..rl.encoding_registry import encoding_names

    if args.encoding not in encoding_names():
        names = ", ".join(encoding_names())
        raise CommandError(f"unknown encoding {args.encoding!r}; encodings are: {names}")
    if args.out is None:
        taken = args.ray and Path(args.ray).suffix in (".parquet", ".npz")
        raise CommandError(
            f"--ray took {args.ray!r} as the cluster's address: write OUT before --ray "
            f"(selfplay {args.ray} --ray), or give --ray=ADDRESS"
            if taken
            else "OUT is required: the file to write, .parquet or .npz"
        )
    if Path(args.out).suffix not in (".parquet", ".npz"):  # a file named .npz has none
        raise CommandError(f"OUT must be a file name ending in .parquet or .npz, not {args.out!r}")
    check_folder(args.out, "OUT")  # before the hands are played, not after
    check_scale_options(args)
    _check_libraries(args)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    config = selfplay.SelfPlay(
        episodes=args.episodes,
        agents=(args.agents[0], args.agents[1]),
        rules=rules,
        seed=seed,
        encoding=args.encoding,
    )
    chunks = selfplay.generate(
        config,
        jobs=1 if args.jobs is None else args.jobs,
        ray=args.ray,
        ray_cpus=args.jobs or None,
    )
    done = [0, 0]  # episodes, rows
    step = max(1, len(config.chunks()) // 10)

    def progress(chunk: selfplay.Columns) -> None:
        done[0] = int(chunk["episode"][-1]) + 1
        done[1] += len(chunk["episode"])
        if done[0] == config.episodes or done[0] // selfplay.CHUNK % step == 0:
            print(f"selfplay: {done[0]}/{config.episodes} episodes", file=sys.stderr, flush=True)

    try:
        rows = selfplay.write(args.out, config, chunks, progress)
    except ConnectionError as exc:  # Ray starts with the first chunk, before anything is written
        raise ray_unreachable(args.ray, exc) from None
    print(f"wrote {rows} decisions of {config.episodes} hands to {args.out} (seed {seed})")
    return 0


def _check_libraries(args: argparse.Namespace) -> None:
    """Fail at once, in one line, when a library the run needs is missing."""
    if args.out.endswith(".parquet"):
        try:
            import pyarrow  # noqa: F401
        except ImportError:
            raise CommandError("writing Parquet needs pyarrow: pip install pyarrow") from None
    if args.ray is not None:
        from ..rl.ray_arena import import_ray

        try:
            import_ray()
        except ImportError as exc:
            raise CommandError(f"--ray: {exc}") from None
