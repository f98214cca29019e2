"""``ginrummy score``: keep the score of a game played with real cards.

Start a game (players, rules, single game or match, stake, first dealer), then type each hand
as it ends: ``ann knock 7 bob 23``, ``bob gin 41``, ``dead``... (``help`` lists them). Every
entry is saved as soon as it is accepted, so quitting (or a crash) loses nothing: run
``ginrummy score`` again to go on with the unfinished game. ``--list`` lists saved games and
``--export FILE`` writes a game's sheet as JSON or CSV.
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING, Any

from . import CommandError

if TYPE_CHECKING:
    from ..engine.rules import Rules
    from .main import Subparsers

EXAMPLES = """\
examples:
  ginrummy score                          resume the unfinished game, or start one
  ginrummy score --players Ann Bob --rules classic --set gin_bonus=25 --stake 0.10
  ginrummy score --new --match            start a match even though a game is unfinished
  ginrummy score --list
  ginrummy score --export sheet.csv --game Xy3_k9Qa

At the prompt: "ann knock 7 bob 23", "bob gin 41", "dead", "wrong dealer", "undo", "help"."""

_TRUE = {"true", "yes", "on", "1", "y"}
_FALSE = {"false", "no", "off", "0", "n"}


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
        "--export", metavar="FILE", help="write a game's sheet to FILE (.json or .csv) and exit"
    )
    what.add_argument(
        "--new", action="store_true", help="start a new game even if one is unfinished"
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
        help="play a single game (the default)",
    )
    new.add_argument("--stake", metavar="AMOUNT", help="money per point, e.g. 0.05")
    new.add_argument("--dealer", metavar="NAME", help="who deals first (as cut for)")
    new.add_argument(
        "--cut",
        metavar="CARDS",
        help="the cards cut for the first deal, player 1's then player 2's: \"7h 3c\"",
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

    from .scoresession import ScoreSession, export_game, list_games
    from .scoreview import make_view

    view = make_view(args.plain)
    if args.game and (args.list or _new_game_options(args)):
        raise CommandError("--game picks a game to resume or export; it starts no new game")
    try:
        store = Store(args.db)
    except (SQLAlchemyError, StorageError, OSError, ImportError) as exc:
        raise CommandError(f"cannot open the database: {_first_line(exc)}") from None
    try:
        with store:
            if args.list:
                return list_games(store, view)
            if args.export:
                return export_game(store, view, args.export, args.game)
            return ScoreSession(store, view).start(args, new=_new_game_options(args))
    except (SQLAlchemyError, StorageError) as exc:
        raise CommandError(f"database error: {_first_line(exc)}") from None


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


# -- rules from words -----------------------------------------------------------------------------


def rule_value(key: str, value: str) -> tuple[str, Any]:
    """A ``--set`` option: the name and its value, typed like the option's default."""
    from ..engine.rules import Rules

    name = key.strip().lower().replace("-", "_")
    fields = {f.name for f in dataclasses.fields(Rules)}
    if name not in fields:
        raise CommandError(
            f"unknown rule option {key.strip()!r}; the options are: {', '.join(sorted(fields))}"
        )
    default = getattr(Rules(), name)
    text = value.strip()
    if isinstance(default, bool):
        if text.lower() in _TRUE:
            return name, True
        if text.lower() in _FALSE:
            return name, False
        raise CommandError(f"{name} is true or false, not {text!r}")
    if isinstance(default, int):
        try:
            return name, int(text)
        except ValueError:
            raise CommandError(f"{name} is a whole number, not {text!r}") from None
    return name, text


def build_rules(preset: str | None, settings: list[str], stake: str | None = None) -> Rules:
    """Rules from a preset name, ``OPTION=VALUE`` settings and a stake; raises CommandError."""
    from ..engine.errors import GinRummyError
    from ..engine.rules import Rules

    changes: dict[str, Any] = {}
    for setting in settings:
        key, sep, value = setting.partition("=")
        if not sep or not key.strip():
            raise CommandError(f"a rule change is OPTION=VALUE, e.g. gin_bonus=20; not {setting!r}")
        name, typed = rule_value(key, value)
        changes[name] = typed
    if stake is not None:
        changes["stake"] = stake.strip()
    try:
        return Rules.preset((preset or "standard").strip().lower(), **changes)
    except GinRummyError as exc:
        raise CommandError(str(exc)) from None


def rules_from_words(text: str) -> Rules:
    """``"classic gin_bonus=20 big_gin=true"``: a preset (optional) and changes."""
    words = text.split()
    preset = None
    if words and "=" not in words[0]:
        preset, words = words[0], words[1:]
    for word in words:
        if "=" not in word:
            raise CommandError(f"after the preset, give changes as OPTION=VALUE, not {word!r}")
    return build_rules(preset, words)
