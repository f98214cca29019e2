"""The ``ginrummy`` command line.

Each subcommand is a module of this package with ``add_parser(subparsers)`` and
``run(args) -> int``, listed in :data:`ginrummy.cli.main.SUBCOMMANDS`. Every subcommand module
is imported to build the parser, so keep their module-level imports light (the standard
library and the engine); import optional packages such as ``rich`` inside ``run``.
"""

from __future__ import annotations


class CommandError(Exception):
    """Bad input to a subcommand: ``main`` prints ``ginrummy: error: <message>`` and
    exits with status 2, the status argparse uses for usage errors."""
