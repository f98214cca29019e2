"""The ``ginrummy`` command line.

Each subcommand is a module of this package with ``add_parser(subparsers)`` and
``run(args) -> int``, listed in :data:`ginrummy.cli.main.SUBCOMMANDS`. Every subcommand module
is imported to build the parser, so keep their module-level imports light (the standard
library and the engine); import optional packages such as ``rich`` inside ``run``.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.rules import Rules


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


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET``, the preset the games are played under (default standard), and
    ``--set OPTION=VALUE`` changes to it, as ``ginrummy play`` takes them."""
    from ..engine.rules import Rules

    parser.add_argument(
        "--rules",
        default="standard",
        metavar="PRESET",
        help=f"rules preset: {', '.join(Rules.presets())} (default standard)",
    )
    add_set_option(parser)


def add_set_option(parser: argparse.ArgumentParser) -> None:
    """``--set OPTION=VALUE`` (repeatable): a change to the preset's rules."""
    parser.add_argument(
        "--set",
        "--option",
        dest="set",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="change one rule option of the preset, e.g. gin_bonus=20 (repeatable)",
    )


def rules_preset(name: str, changes: Sequence[str] = ()) -> Rules:
    """The rules of preset ``name`` with ``OPTION=VALUE`` ``changes``
    (:meth:`~ginrummy.engine.rules.Rules.from_changes`), refused in one line when there is
    no such preset or a change is wrong."""
    from ..engine.errors import RulesWordError
    from ..engine.rules import Rules

    if name.strip().lower() not in Rules.presets():
        presets = ", ".join(Rules.presets())
        raise CommandError(f"unknown rules preset {name!r}; presets are: {presets}")
    try:
        return Rules.from_changes(name, changes)
    except RulesWordError as exc:
        raise CommandError(f"--set: {exc}") from None


def check_folder(path: str | Path, what: str) -> None:
    """Refuse ``path`` (a file about to be written) when its folder is missing or is not a
    folder, instead of failing after the work or making folders from a typo; ``what`` names
    where the path came from (``--db``, ``OUT``)."""
    given = Path(path).expanduser()
    folder = given.absolute().parent
    if folder.is_dir():
        return
    shown = given.parent
    if folder.exists():
        raise CommandError(f"{what}: {shown} is not a folder")
    raise CommandError(f"{what}: no folder {shown}: create it first or name another")


def database_url(db: str | None) -> str | None:
    """The database URL ``--db`` names (None: not given), refused in one line when it is no
    URL or names a SQLite file in a missing folder. Without ``--db``, the folder of a SQLite
    file ``$GINRUMMY_DATABASE_URL`` names must exist too (the default one in the data directory
    is made when needed)."""
    from ..storage.database import ENV_VAR, resolve_url, sqlite_file

    given, what = (db, "--db") if db else (os.environ.get(ENV_VAR, "").strip(), f"${ENV_VAR}")
    if not given:
        return None
    try:
        url = resolve_url(given)
        path = sqlite_file(url)
    except Exception as exc:  # SQLAlchemy's ArgumentError: not a URL it can read
        raise CommandError(
            f"{what} {without_password(given)!r} is not a database URL or file path ({exc})"
        ) from None
    if path is not None:
        check_folder(given if "://" not in given else path, what)
    return url if db else None


def without_password(url: str) -> str:
    """``url`` with any password in it shown as ``***``, for messages that go to a log (a URL
    that cannot be read too: everything between the user's ``:`` and the last ``@``).

    >>> without_password("redis://:s3cret@10.0.0.20:6379/0"), without_password("redis://h/0")
    ('redis://:***@10.0.0.20:6379/0', 'redis://h/0')
    >>> without_password("postgres ql://u:s3/cr@t@h/db"), without_password("postgresql://u@h/db")
    ('postgres ql://u:***@h/db', 'postgresql://u@h/db')
    """
    import re

    return re.sub(r"(://[^/@:]*:).*@", r"\1***@", url, count=1)


def database_error(exc: BaseException) -> CommandError:
    """The one line saying why the database could not be opened: SQLAlchemy's or the store's
    error, a folder that could not be made, or a missing driver (with the extra to install)."""
    if isinstance(exc, ImportError):
        module = exc.name or str(exc)
        hint = (
            "PostgreSQL needs the 'postgres' extra: pip install 'ginrummy[postgres]'"
            if module.startswith("psycopg")
            else "install the database's driver"
        )
        return CommandError(f"cannot open the database: no module {module!r} ({hint})")
    reason = str(getattr(exc, "orig", None) or exc).strip().splitlines() or [type(exc).__name__]
    return CommandError(f"cannot open the database: {reason[0]}")


def check_players(*names: str) -> None:
    """Refuse, in one line, a player name :func:`~ginrummy.agents.registry.get_agent` cannot
    make (an unknown name, or a setting after the colon that the player does not have)."""
    from ..agents.registry import agent_names, get_agent

    known = agent_names()
    for name in names:
        if name not in known and name.partition(":")[0] not in known:
            raise CommandError(f"unknown player {name!r}; players are: {', '.join(known)}")
        try:
            get_agent(name)
        except ValueError as exc:
            raise CommandError(str(exc)) from None


def players_help() -> str:
    """The computer players, one a line with how each plays, for a command's help."""
    from ..agents.registry import agent_summaries

    summaries = agent_summaries()
    width = max(map(len, summaries))
    lines = [f"  {name:<{width}}  {summary}".rstrip() for name, summary in summaries.items()]
    return "players:\n" + "\n".join(lines)


def ray_unreachable(address: str, exc: BaseException) -> CommandError:
    """The one-line error for a Ray that could not be reached (Ray raises ``ConnectionError``
    when no cluster answers at ``address``)."""
    reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    if reason.startswith("Could not find any running Ray instance"):
        # Ray goes on to name its own flags (--address, RAY_ADDRESS), not this command's.
        reason = (
            "no running Ray cluster was found to join: start one (ray start --head), "
            "or give --ray no address to start a Ray of its own for this run"
        )
    return CommandError(f"--ray {address or '(local)'}: {reason}")
