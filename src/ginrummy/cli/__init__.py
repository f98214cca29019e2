"""The ``ginrummy`` command line.

Each subcommand is a module of this package with ``add_parser(subparsers)`` and
``run(args) -> int``, listed in :data:`ginrummy.cli.main.SUBCOMMANDS`. Every subcommand module
is imported to build the parser, so keep their module-level imports light (the standard
library and the engine); import optional packages such as ``rich`` inside ``run``.
"""

from __future__ import annotations

import argparse


class CommandError(Exception):
    """Bad input to a subcommand: ``main`` prints ``ginrummy: error: <message>`` and
    exits with status 2, the status argparse uses for usage errors."""


def add_scale_options(parser: argparse.ArgumentParser, ray_use: str) -> None:
    """``--jobs`` and ``--ray [ADDRESS]``, for the commands that play many games at once;
    ``ray_use`` says what runs on Ray ("play the pairs as Ray tasks")."""
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="J",
        help="worker processes (default 1; 0 = one per CPU core); with --ray and no address, "
        "the CPUs of the local Ray (default all)",
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help=f"{ray_use}: on a local Ray, or on the cluster at ADDRESS "
        "(auto, ray://host:10001); needs pip install 'ginrummy[ray]'",
    )


def check_scale_options(args: argparse.Namespace) -> None:
    """Refuse a negative ``--jobs``, and ``--jobs`` with a Ray address."""
    if args.jobs is not None and args.jobs < 0:
        raise CommandError(f"--jobs must be 0 (all cores) or more, not {args.jobs}")
    if args.ray and args.jobs is not None:
        raise CommandError("--jobs sets a local Ray's CPUs: it cannot go with a Ray address")
