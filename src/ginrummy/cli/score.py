"""``ginrummy score``: keep the score of a game played with real cards.

Start a game (players, rules, single game or match, stake, first dealer), then type each hand
as it ends: ``ann knock 7 bob 23``, ``bob gin 41``, ``dead``... (``help`` lists them). Every
entry is saved as soon as it is accepted, so quitting (or a crash) loses nothing: run
``ginrummy score`` again to go on with the unfinished game. ``--list`` lists saved games and
``--export FILE`` writes a game whole as JSON or CSV, which ``--import FILE`` reads back.

This module is the command's options; :mod:`.scoreprompt` holds the conversation and
:mod:`.scoreview` and :mod:`.scorerich` the printing. The score itself is kept by
:mod:`ginrummy.scorekeeper`, and rules are read from words by the engine (``Rules.from_words``).
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, TextIO

from . import CommandError, database_url

if TYPE_CHECKING:
    from .main import Subparsers
    from .scoreview import View

EXAMPLES = """\
examples:
  ginrummy score                          resume the unfinished game, or start one
  ginrummy score --players Ann Bob --rules classic --set gin_bonus=25 --stake 0.10
  ginrummy score --new --match            start a match even though a game is unfinished
  ginrummy score --list
  ginrummy score --abandon Xy3_k9Qa       end an unfinished game as abandoned
  ginrummy score --delete Xy3_k9Qa --yes  delete a game without being asked
  ginrummy score --export game.csv --game Xy3_k9Qa
  ginrummy score --import game.csv        the same game again, e.g. in another database

At the prompt: "ann knock 7 bob 23", "bob gin 41", "dead" (or "draw"), "ann gin 20 up 7s"
(Oklahoma: every hand's first upcard), "wrong dealer", "edit 2 bob knock 4 ann 30", "undo",
"sheet", "rules", "abandon", "quit", "help"."""


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "score",
        help="keep the score of a game played with real cards",
        description=(
            "An interactive scorekeeper for games played with real cards: enter each hand, "
            "see the score sheet with boxes and bonuses, rulings on irregularities, and the "
            "settlement. Games are saved as you go; run it again to resume."
        ),
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--db",
        metavar="URL",
        help="database URL or SQLite file path (default: $GINRUMMY_DATABASE_URL, else "
        "ginrummy.db in your data directory)",
    )
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--list", action="store_true", help="list saved games and exit")
    what.add_argument(
        "--export",
        metavar="FILE",
        help="write a game to FILE (.json or .csv), whole: rules, every entry with its date "
        "and upcard, rulings, each game's and the match's totals; then exit",
    )
    what.add_argument(
        "--import",
        dest="import_file",
        metavar="FILE",
        help="add the game in FILE (as --export writes it) as a new saved game, and exit",
    )
    what.add_argument(
        "--new", action="store_true", help="start a new game even if one is unfinished"
    )
    what.add_argument(
        "--delete", metavar="ID", help="delete a saved game (asked to confirm unless --yes)"
    )
    what.add_argument(
        "--abandon",
        metavar="ID",
        help="end an unfinished game as abandoned: listed so, never resumed (asked unless --yes)",
    )
    parser.add_argument(
        "--game", metavar="ID", help="the game to resume or export (default: the latest)"
    )
    new = parser.add_argument_group("a new game (anything not given is asked)")
    new.add_argument("--players", nargs=2, metavar=("NAME1", "NAME2"), help="the two players")
    new.add_argument("--rules", metavar="PRESET", help="a preset: standard, classic, modern...")
    new.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="change one rule option, e.g. gin_bonus=20 (repeatable)",
    )
    mode = new.add_mutually_exclusive_group()
    mode.add_argument(
        "--match",
        dest="mode",
        action="store_const",
        const="match",
        help="play a match (to the rules' match_target)",
    )
    mode.add_argument(
        "--single",
        dest="mode",
        action="store_const",
        const="game",
        help="play a single game (the default answer when asked)",
    )
    new.add_argument("--stake", metavar="AMOUNT", help="money per point, e.g. 0.05")
    new.add_argument("--dealer", metavar="NAME", help="who deals first (as cut for)")
    new.add_argument(
        "--cut",
        metavar="CARDS",
        help="the cards cut for the first deal, player 1's then player 2's: \"7h 3c\"",
    )
    parser.add_argument(
        "--yes", action="store_true", help="do not ask to confirm --delete or --abandon"
    )
    parser.add_argument(
        "--plain", action="store_true", help="plain text, without Rich tables or colour"
    )


def run(args: argparse.Namespace) -> int:
    try:
        from ..storage import StorageError, Store
    except ImportError as exc:
        raise CommandError(
            f"the scorekeeper needs the storage extra ({exc}): pip install 'ginrummy[storage]'"
        ) from None
    from sqlalchemy.exc import SQLAlchemyError

    from ..scorekeeper.errors import ScorekeeperError
    from .scoreprompt import ScorePrompt, close_game, export_game, import_game, list_games

    view = make_view(args.plain)
    if args.game and (args.list or args.import_file or _new_game_options(args)):
        raise CommandError("--game picks a game to resume or export; it starts no new game")
    closing = args.delete or args.abandon
    if closing and (args.game or _new_game_options(args)):
        raise CommandError("--delete and --abandon take the game's id and nothing else")
    if args.yes and not closing:
        raise CommandError("--yes confirms --delete or --abandon; give one of them")
    try:
        store = Store(database_url(args.db))
    except (SQLAlchemyError, StorageError, OSError, ImportError) as exc:
        raise CommandError(f"cannot open the database: {_first_line(exc)}") from None
    try:
        with store:
            if args.list:
                return list_games(store, view)
            if args.export:
                return export_game(store, view, args.export, args.game)
            if args.import_file:
                return import_game(store, view, args.import_file)
            if closing:
                return close_game(store, view, args)
            return ScorePrompt(store, view).start(args, new=_new_game_options(args))
    except (SQLAlchemyError, StorageError) as exc:
        raise CommandError(f"database error: {_first_line(exc)}") from None
    except ScorekeeperError as exc:
        raise CommandError(str(exc)) from None


def make_view(plain: bool = False, out: TextIO | None = None) -> View:
    """The Rich view unless ``plain`` or Rich is missing."""
    from .scoreview import PlainView

    if not plain:
        try:
            from .scorerich import RichView
        except ImportError:
            pass
        else:
            return RichView(out)
    return PlainView(out)


def _new_game_options(args: argparse.Namespace) -> bool:
    return bool(
        args.new
        or args.players
        or args.rules
        or args.set
        or args.mode
        or args.stake is not None
        or args.dealer
        or args.cut
    )


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]
