"""``ginrummy play``: play the computer in the terminal, or join a served table by its link."""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import sys
from typing import TYPE_CHECKING, Any

from . import CommandError, add_set_option, database_error, database_url

if TYPE_CHECKING:
    from ..tui.session import Session
    from .main import Subparsers

EXAMPLES = """\
examples:
  ginrummy play                           the intermediate computer, standard rules
  ginrummy play --level expert --rules oklahoma --match
  ginrummy play --rules classic --set gin_bonus=20
  ginrummy play --resume                  the latest unfinished game here
  ginrummy play --join 'http://127.0.0.1:8000/t/AbC123xy#s=...'
  ginrummy play --plain                   line by line (screen readers, pipes)

Games against the computer are saved as you play, in the same database as `ginrummy serve`
(--db, else $GINRUMMY_DATABASE_URL, else ginrummy.db in your data directory)."""


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play the computer (or a person at a served table) in the terminal",
        description=(
            "Play Gin Rummy in the terminal: against the computer at any level and any rules, "
            "a single game or a match, or at a table of a running `ginrummy serve` against "
            "a person in a browser (--join). Keys: d draw, t take, p pass, x discard, k knock, "
            "g gin, h hint, u undo, s score sheet, ? help, q quit; ←/→ or typing a card (K "
            "then h) chooses it."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--level",
        metavar="LEVEL",
        help="the computer: beginner, intermediate (the default) or expert, or one of the "
        "research players (random, simple, greedy, ...)",
    )
    parser.add_argument(
        "--rules",
        "--preset",
        dest="rules",
        metavar="PRESET",
        help="a rules preset: standard (the default), modern, classic, eaai, oklahoma, "
        "straight, hollywood",
    )
    add_set_option(parser)
    parser.add_argument(
        "--match", action="store_true", help="play a match (to the rules' match target, 500)"
    )
    parser.add_argument(
        "--name", metavar="NAME", help="your name on the score sheet (at a joined table too)"
    )
    parser.add_argument(
        "--seed",
        type=int,
        metavar="S",
        help="seed the cut, the deals and the computer's choices (a repeatable game; "
        "default: the system's cryptographic generator, as the web app deals)",
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="ID",
        help="go on with a saved game (no ID: the latest unfinished one)",
    )
    parser.add_argument(
        "--join",
        metavar="URL",
        help="a seat or invite link of a table of `ginrummy serve` "
        "(http://host:port/t/<table>#s=<token>)",
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line by line, without cursor control (also when not run in a terminal)",
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database: a SQLAlchemy URL or a SQLite file (default: the one `ginrummy serve` uses)",
    )
    parser.add_argument(
        "--computer-delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help="seconds from the start of the computer's turn to its move, which it thinks "
        "over meanwhile (default %(default)g)",
    )


def _level(name: str | None) -> str:
    from ..agents import LEVELS, agent_names

    if name is None:
        return "intermediate"
    known = agent_names()
    if name not in known:
        others = ", ".join(a for a in known if a not in LEVELS)
        raise CommandError(
            f"unknown level {name!r}; levels are {', '.join(LEVELS)} (and the research "
            f"players {others})"
        )
    return name


def _check(args: argparse.Namespace) -> None:
    """Options that do not go together, and values out of range."""
    new_game = [
        flag
        for flag, given in (
            ("--level", args.level is not None),
            ("--rules", args.rules is not None),
            ("--set", bool(args.set)),
            ("--match", args.match),
            ("--seed", args.seed is not None),
        )
        if given
    ]
    if args.join is not None and args.resume is not None:
        raise CommandError("--join and --resume do not go together")
    if args.join is not None and (new_game or args.db is not None):
        what = ", ".join(new_game + (["--db"] if args.db is not None else []))
        raise CommandError(f"{what}: a joined table has its own rules, players and database")
    if args.resume is not None and args.name is not None:
        new_game.append("--name")
    if args.resume is not None and new_game:
        raise CommandError(f"{', '.join(new_game)}: --resume goes on with a game as it was made")
    delay = args.computer_delay
    if not (math.isfinite(delay) and 0 <= delay <= 10):
        raise CommandError(f"--computer-delay must be 0 to 10 seconds, not {delay:g}")
    if args.seed is not None and not -(1 << 63) <= args.seed < 1 << 63:
        raise CommandError("--seed must be a 64-bit whole number")


def _plain_wanted(args: argparse.Namespace) -> bool:
    """--plain, or no terminal to draw on (a pipe, a dumb terminal)."""
    if args.plain:
        return True
    dumb = os.environ.get("TERM", "") == "dumb"
    return dumb or not (sys.stdin.isatty() and sys.stdout.isatty())


def run(args: argparse.Namespace) -> int:
    _check(args)
    plain = _plain_wanted(args)
    if not plain:
        try:
            import textual  # noqa: F401
        except ImportError:
            raise CommandError(
                "the terminal app needs the 'tui' extra: pip install 'ginrummy[tui]' "
                "(or play line by line with --plain)"
            ) from None
    if args.join is not None:
        try:
            import websockets  # noqa: F401
        except ImportError:
            raise CommandError(
                "joining a game needs the 'tui' extra: pip install 'ginrummy[tui]'"
            ) from None
        return asyncio.run(_join(args.join, plain, args.name))
    store = _open_store(args.db)
    try:
        game = _local_game(args, store)
        try:
            code = asyncio.run(_play(game, plain))
        except KeyboardInterrupt:  # Ctrl-C: every move is saved already; say how to go on
            print()
            code = 130
        table = game.table
        if not table.finished:
            print(_left_off(table.id, store.url))
        return code
    finally:
        store.close()


def _left_off(game: str, url: str) -> str:
    """What becomes of a game left unfinished: saved to resume, unless the database was only
    in memory."""
    from ..storage.database import is_memory

    if is_memory(url):
        return f"Game {game} was kept in memory only (--db {url}): it cannot be resumed."
    return f"Game {game} is saved: ginrummy play --resume {game}"


def _open_store(db: str | None) -> Any:
    try:
        from sqlalchemy.exc import SQLAlchemyError

        from ..storage import StorageError, Store
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise CommandError(
            f"saving games needs the storage extra ({exc}): pip install 'ginrummy[storage]'"
        ) from None
    url = database_url(db)
    try:
        return Store(url)
    except (SQLAlchemyError, StorageError, OSError, ImportError) as exc:
        raise database_error(exc) from None


def _local_game(args: argparse.Namespace, store: Any) -> Any:
    from ..tui.local import LocalGame, ResumeError

    delay = args.computer_delay
    if args.resume is not None:
        try:
            return LocalGame.resume(store, args.resume or None, computer_delay=delay)
        except ResumeError as exc:
            raise CommandError(str(exc)) from None
    from ..engine.rules import Rules

    level = _level(args.level)
    preset = (args.rules or "standard").strip().lower()
    rules = Rules.from_changes(preset, args.set)  # a bad word raises, naming it
    name = " ".join((args.name or "Player 1").split())[:40] or "Player 1"
    return LocalGame.create(
        store,
        rules,
        level=level,
        preset=preset,
        match=args.match,
        name=name,
        seed=args.seed,
        computer_delay=delay,
    )


async def _play(session: Session, plain: bool) -> int:
    if plain:
        from ..tui.plain import play_plain

        return await play_plain(session)
    from ..tui.app import PlayApp

    await PlayApp(session).run_async()
    return 0


async def _join(url: str, plain: bool, name: str | None) -> int:
    from ..tui.remote import JoinError, RemoteSession

    try:
        session = await RemoteSession.join(url)
    except JoinError as exc:
        raise CommandError(str(exc)) from None
    if name is not None:  # as the invited player names herself on the page
        await session.send({"type": "name", "name": name})
    return await _play(session, plain)
