"""The ``ginrummy`` console script: an argparse front end over the subcommand modules.

To add a subcommand, write ``ginrummy/cli/<name>.py`` with::

    if TYPE_CHECKING:
        from .main import Subparsers

    def add_parser(subparsers: Subparsers) -> None:
        parser = subparsers.add_parser("<name>", help="...", description="...")
        parser.add_argument(...)

    def run(args: argparse.Namespace) -> int:
        ...  # return the exit status; raise CommandError for bad input

and add ``("<name>", "ginrummy.cli.<name>")`` to :data:`SUBCOMMANDS`. ``main`` turns a
:class:`~ginrummy.cli.CommandError` or any engine ``GinRummyError`` into the one line
``ginrummy: error: <message>`` on stderr and exit status 2. Keep module-level imports light:
every subcommand module is imported to build the parser.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, NoReturn, Protocol, cast

from ..engine.errors import GinRummyError
from . import CommandError

PROG = "ginrummy"

#: (subcommand, module) in the order ``ginrummy --help`` lists them.
SUBCOMMANDS: list[tuple[str, str]] = [
    ("serve", "ginrummy.cli.serve"),
    ("play", "ginrummy.cli.play"),
    ("analyze", "ginrummy.cli.analyze"),
    ("score", "ginrummy.cli.score"),
    ("arena", "ginrummy.cli.arena"),
    ("bot", "ginrummy.cli.bot"),
    ("selfplay", "ginrummy.cli.selfplay"),
]

if TYPE_CHECKING:
    from typing import TypeAlias

    #: What ``add_parser`` receives: the object ``add_subparsers`` returned.
    Subparsers: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]


class SubcommandModule(Protocol):
    def add_parser(self, subparsers: Subparsers) -> None: ...

    def run(self, args: argparse.Namespace) -> int: ...


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("ginrummy")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "unknown"


class _Parser(argparse.ArgumentParser):
    """argparse's parser (the subcommands' too) with a usage error in one line that names
    ``--help``, instead of the usage and then the error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def build_parser() -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = _Parser(
        prog=PROG,
        description="Gin Rummy: an exact rules engine, computer players and places to play.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in SUBCOMMANDS:
        module = cast(SubcommandModule, importlib.import_module(module_name))
        before = set(subparsers.choices)
        module.add_parser(subparsers)
        added = set(subparsers.choices) - before
        if name not in added:
            raise RuntimeError(f"{module_name}.add_parser did not add the {name!r} subcommand")
        subparsers.choices[name].set_defaults(_run=module.run, _parser=subparsers.choices[name])
    return parser


def error(message: str) -> int:
    """Print the one-line error every subcommand uses and return the usage-error status."""
    print(f"{PROG}: error: {message}", file=sys.stderr)
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (the console script exits with it)."""
    parser = build_parser()
    try:
        args, extra = parser.parse_known_args(argv)
        if extra:  # the subcommand's, so that the error names its --help
            subparser = cast(argparse.ArgumentParser, args._parser)
            subparser.error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exit_:  # --help, --version, or argparse's own usage errors
        code = exit_.code
        return code if isinstance(code, int) else (0 if code is None else 2)
    run = cast(Callable[[argparse.Namespace], int], args._run)
    try:
        return run(args)
    except (CommandError, GinRummyError) as exc:
        return error(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # piped into ``head``: stop quietly, as the docs recommend
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
