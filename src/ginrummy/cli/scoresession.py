"""The scorekeeper's conversation: setting a game up, the hand prompt, and the end of a game.

Every accepted entry is written to the store in one transaction (with the game's final
summary, when it ends the game) before the screen says it was taken; the state shown is then
rebuilt from the stored entries, so the screen and the database never disagree.

Input comes from :class:`Reader`: ``input()`` on a terminal, or lines read from a pipe, which are
echoed after their prompt so that the transcript reads like a session.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO, TypeVar

from ..engine.cards import parse_cards
from ..engine.errors import GinRummyError
from ..engine.game import Cut, Game, cut_dealer
from ..engine.match import Match
from ..engine.rules import Rules
from ..engine.rulings import Remedy, parse_irregularity
from ..engine.serial import result_from_dict
from ..engine.sheet import MatchSheet, ScoreSheet
from ..storage import GameInfo, SavedGame, Store
from . import CommandError
from .entries import (
    RESERVED,
    Command,
    EntryError,
    IrregularityEntry,
    ResultEntry,
    help_text,
    parse_entry,
    resolve_name,
)
from .keeper import Keeper, KeeperError, Setup
from .score import build_rules, rules_from_words
from .scoreview import GameRow, View

T = TypeVar("T")
MAX_NAME = 20
_YES = {"y", "yes", ""}
_NO = {"n", "no", "q", "quit", "exit"}


class Reader:
    """Lines typed (or piped) by the user; None at the end of input."""

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.interactive = self.stdin.isatty() and self.stdout.isatty()

    def ask(self, prompt: str) -> str | None:
        if self.interactive:
            try:
                return input(prompt).strip()
            except EOFError:
                self.stdout.write("\n")
                return None
        self.stdout.write(prompt)
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            self.stdout.flush()
            return None
        self.stdout.write(line if line.endswith("\n") else line + "\n")
        self.stdout.flush()
        return line.strip()


class Quit(Exception):
    """The input ended, or the user asked to stop, while a question was open."""


class ScoreSession:
    def __init__(self, store: Store, view: View, reader: Reader | None = None) -> None:
        self.store = store
        self.view = view
        self.reader = reader or Reader()

    # -- asking --------------------------------------------------------------------------

    def ask(self, prompt: str) -> str:
        line = self.reader.ask(prompt)
        if line is None:
            raise Quit
        return line

    def ask_until(self, prompt: str, parse: Callable[[str], T]) -> T:
        """Ask until ``parse`` accepts the answer; each refusal is one error line."""
        while True:
            answer = self.ask(prompt)
            try:
                return parse(answer)
            except (CommandError, GinRummyError, ValueError) as exc:
                self.view.error(str(exc))

    # -- starting ------------------------------------------------------------------------

    def start(self, args: argparse.Namespace, *, new: bool) -> int:
        try:
            game_id = self._choose(args, new)
            while game_id is not None:
                game_id = self.play(game_id)
        except Quit:
            self.view.say("Stopped; everything entered is saved.")
        except KeyboardInterrupt:
            self.view.say("\nInterrupted; everything entered is saved.")
            return 130
        return 0

    def _choose(self, args: argparse.Namespace, new: bool) -> str | None:
        if args.game:
            game = self.store.get_game(args.game)
            if game is None or game.kind != "scorekeeper":
                raise CommandError(f"there is no scorekeeper game {args.game!r} (see --list)")
            if game.status != "open":
                self.view.say(f"Game {game.id} is {game.status}; here is its sheet.")
                keeper = self._keeper(game.id)
                self._show_all(keeper)
                return None
            return game.id
        if not new:
            open_games = self.store.list_games("scorekeeper", "open", limit=1)
            if open_games:
                game = open_games[0]
                self.view.say(
                    f"Resuming game {game.id}: {game.names[0]} v {game.names[1]} "
                    "('ginrummy score --new' starts another)."
                )
                return game.id
        setup = self._setup(args, asked_all=not new)
        return self._create(setup)

    def _setup(self, args: argparse.Namespace, *, asked_all: bool) -> Setup:
        if args.players:
            names = (check_name(args.players[0]), check_name(args.players[1], args.players[0]))
        else:
            self.view.say("New game. Names are one word each; you can shorten them when scoring.")
            first = self.ask_until("Player 1's name: ", check_name)
            names = (first, self.ask_until("Player 2's name: ", lambda n: check_name(n, first)))
        if asked_all:
            rules = self.ask_until(
                f"Rules [standard] ({', '.join(Rules.presets())}; add changes like gin_bonus=20): ",
                rules_from_words,
            )
        else:
            rules = build_rules(args.rules, args.set, args.stake)
        mode = args.mode or "game"
        if asked_all:
            mode = self.ask_until(
                f"A single game, or a match to {rules.match_target or 'a target'}? [game]: ",
                lambda a: _mode(a, rules),
            )
            if not rules.stake:
                rules = self.ask_until("Stake per point [none]: ", lambda a: _stake(rules, a))
        elif mode == "match" and not rules.match_target:
            raise CommandError("these rules play no match: add --set match_target=500")
        self.view.rules(rules)
        self.view.say(
            f"Playing a match to {rules.match_target}." if mode == "match" else "Playing one game."
        )
        cuts: list[Cut] = []
        if args.dealer and args.cut:
            raise CommandError("give --dealer or --cut, not both")
        if args.dealer:
            dealer = _dealer(args.dealer, names)
        elif args.cut:
            low, cut = _cut(args.cut, names)
            if low is None:
                raise CommandError(f"{cut[0]} and {cut[1]} are the same rank: cut again")
            dealer = low
            cuts.append(cut)
        else:
            question = (
                f"Who deals first? A name [{names[0]}/{names[1]}], or the cut, "
                f"{names[0]}'s card then {names[1]}'s (low card deals): "
            )
            while True:
                answer = self.ask_until(question, lambda a: _dealer_or_cut(a, names))
                if isinstance(answer, int):
                    dealer = answer
                    break
                cuts.append(answer[1])
                if answer[0] is not None:
                    dealer = answer[0]
                    self.view.say(f"{names[dealer]} cut low and deals.")
                    break
                self.view.say("The same rank: cut again.")
        return Setup(names, rules, mode, dealer, tuple(cuts))

    def _create(self, setup: Setup) -> str:
        with self.store.transaction() as tx:
            ids = [tx.ensure_player(name).id for name in setup.names]
            game_id = tx.create_game(
                "scorekeeper", setup.rules, setup.names, player_ids=ids, options=setup.options()
            )
        what = "match" if setup.mode == "match" else "game"
        self.view.say(f"Started {what} {game_id}: {setup.names[0]} v {setup.names[1]}.")
        return game_id

    # -- playing -------------------------------------------------------------------------

    def _keeper(self, game_id: str) -> Keeper:
        saved = self.store.load_game(game_id)
        if saved is None:
            raise CommandError(f"game {game_id} has gone from the database")
        return keeper_of(saved)

    def play(self, game_id: str) -> str | None:
        """Score game ``game_id`` until the user stops (None) or starts another (its id)."""
        keeper = self._keeper(game_id)
        if keeper.hands_played:
            self._show(keeper)
        self._next(keeper)
        while True:
            if keeper.is_over:
                answer = self._after_end(keeper)
                if answer == "undo":
                    keeper = self._undo(game_id, keeper)
                    continue
                if answer == "again":
                    return self._create(
                        Setup(keeper.names, keeper.rules, keeper.setup.mode, keeper.expected)
                    )
                return None
            line = self.ask(_prompt(keeper))
            try:
                entry = parse_entry(line, keeper)
            except EntryError as exc:
                self.view.error(str(exc))
                continue
            if isinstance(entry, Command):
                if entry.name == "quit":
                    self.view.say(f"Saved. Run 'ginrummy score' to go on with game {game_id}.")
                    return None
                keeper = self._command(entry.name, game_id, keeper)
            elif isinstance(entry, ResultEntry):
                keeper = self._result(game_id, keeper, entry, line)
            else:
                keeper = self._irregularity(game_id, keeper, entry)

    def _command(self, name: str, game_id: str, keeper: Keeper) -> Keeper:
        if name == "help":
            self.view.say(help_text())
        elif name == "sheet":
            self._show(keeper)
        elif name == "rules":
            self.view.rules(keeper.rules)
        elif name == "undo":
            keeper = self._undo(game_id, keeper)
        return keeper

    def _result(self, game_id: str, keeper: Keeper, entry: ResultEntry, line: str) -> Keeper:
        data = keeper.result_data(entry.result, line)
        games_before = keeper.finished_games
        after = self._store_entry(game_id, keeper, "result", data)
        self.view.say(f"Hand {keeper.hand_number}: {entry.summary}", "bold")
        if after.finished_games > games_before and not after.is_over:
            self.view.sheet(after, after.finished_games)
            self.view.match(after)
            if not self._offer_next_game(after):
                raise Quit
        else:
            self._show(after)
        self._next(after)
        return after

    def _irregularity(self, game_id: str, keeper: Keeper, entry: IrregularityEntry) -> Keeper:
        text = entry.text
        dealt_by = 1 - keeper.expected if text.startswith("wrong dealer") else keeper.dealer
        try:
            ruling = parse_irregularity(text, dealt_by)
            if ruling.remedy is Remedy.PLAYER_CHOOSES:
                self.view.say(keeper.with_names(ruling.explanation), "yellow")
                chooser = keeper.names[ruling.chooser or 0]
                choice = self.ask_until(f"{chooser} chooses: redeal or play on? ", _choice)
                text = f"{text} {choice}"
                ruling = parse_irregularity(text, dealt_by)
        except GinRummyError as exc:
            self.view.error(str(exc))
            return keeper
        data = keeper.ruling_data(ruling, text, dealt_by)
        after = self._store_entry(game_id, keeper, "irregularity", data)
        self.view.say(f"Ruling: {keeper.with_names(ruling.explanation)}", "yellow")
        self._next(after)
        return after

    def _store_entry(self, game_id: str, keeper: Keeper, kind: str, data: dict[str, Any]) -> Keeper:
        """Save one entry (and the final, when it ends the game); return the new state."""
        saved = self.store.load_game(game_id)
        if saved is None:
            raise CommandError(f"game {game_id} has gone from the database")
        after = Keeper.replay(
            keeper.setup, [*((e.kind, e.data) for e in saved.entries), (kind, data)]
        )
        with self.store.transaction() as tx:
            tx.add_entry(game_id, kind, data)
            if after.is_over:
                tx.finish_game(game_id, after.final_data())
        return after

    def _undo(self, game_id: str, keeper: Keeper) -> Keeper:
        with self.store.transaction() as tx:
            removed = tx.remove_last_entry(game_id)
            if removed is not None and keeper.is_over:
                tx.reopen_game(game_id)
        if removed is None:
            self.view.error("there is nothing to undo")
            return keeper
        what = "hand" if removed.kind == "result" else removed.kind
        self.view.say(f"Undone: {what} {removed.data.get('text', '')!r}.")
        after = self._keeper(game_id)
        self._next(after)
        return after

    def _offer_next_game(self, keeper: Keeper) -> bool:
        number = keeper.game_number
        dealer = keeper.names[keeper.dealer]
        self.view.say(f"Game {number} of the match: {dealer} deals first.")
        answer = self.ask_until(f"Start game {number}? [Y/n]: ", _yes_no)
        if not answer:
            self.view.say("The match is saved; run 'ginrummy score' to play on.")
        return answer

    def _after_end(self, keeper: Keeper) -> str:
        what = "match" if keeper.match is not None else "game"
        return self.ask_until(
            f"Another {what} with the same players and rules? [y/n/undo]: ", _again
        )

    # -- showing -------------------------------------------------------------------------

    def _show(self, keeper: Keeper) -> None:
        self.view.sheet(keeper)
        if keeper.match is not None and keeper.finished_games:
            self.view.match(keeper)

    def _show_all(self, keeper: Keeper) -> None:
        for number in range(1, keeper.game_number + 1):
            if keeper.games[number - 1].hands or number == 1:
                self.view.sheet(keeper, number)
        if keeper.match is not None:
            self.view.match(keeper)

    def _next(self, keeper: Keeper) -> None:
        if keeper.is_over:
            return
        self.view.say(
            f"{keeper.names[keeper.dealer]} deals hand {keeper.hand_number}"
            + (f" of game {keeper.game_number}." if keeper.match is not None else ".")
        )


# -- answers ----------------------------------------------------------------------------------


def check_name(name: str, other: str | None = None) -> str:
    name = name.strip()
    if not name:
        raise CommandError("a name cannot be empty")
    if len(name.split()) > 1:
        raise CommandError(f"a name is one word (e.g. {'-'.join(name.split())}), not {name!r}")
    if not name[0].isalpha():
        raise CommandError(f"a name starts with a letter, not {name!r}")
    if len(name) > MAX_NAME:
        raise CommandError(f"a name has at most {MAX_NAME} characters")
    if name.lower() in RESERVED:
        raise CommandError(f"{name!r} is a command word; choose another name")
    if other is not None and name.lower() == other.strip().lower():
        raise CommandError(f"the players need different names, not {name!r} twice")
    return name


def _mode(answer: str, rules: Rules) -> str:
    word = answer.strip().lower() or "game"
    if word in ("g", "game", "single", "s"):
        return "game"
    if word in ("m", "match"):
        if not rules.match_target:
            raise CommandError("these rules play no match (match_target is 0)")
        return "match"
    raise CommandError(f"answer game or match, not {answer!r}")


def _stake(rules: Rules, answer: str) -> Rules:
    return rules.replace(stake=answer.strip() or "0")


def _cut(answer: str, names: tuple[str, str]) -> tuple[int | None, Cut]:
    """The cut ``"7h 3c"`` (player 1's card, then player 2's): who deals, and the cut."""
    try:
        cards = parse_cards(answer)
    except GinRummyError as exc:
        raise CommandError(str(exc)) from None
    if len(cards) != 2:
        raise CommandError(
            f"a cut is two cards, {names[0]}'s then {names[1]}'s (e.g. 7h 3c), not {answer!r}"
        )
    cut = (cards[0], cards[1])
    try:
        return cut_dealer(cut), cut
    except GinRummyError as exc:
        raise CommandError(str(exc)) from None


def _dealer_or_cut(answer: str, names: tuple[str, str]) -> int | tuple[int | None, Cut]:
    """A name (that player deals) or a cut of two cards."""
    try:
        return _dealer(answer, names)
    except CommandError as not_a_name:
        try:
            parse_cards(answer)
        except GinRummyError as exc:
            if len(answer.split()) == 2:
                raise CommandError(f"not a cut: {exc}") from None
            raise not_a_name from None
        return _cut(answer, names)


def _dealer(answer: str, names: tuple[str, str]) -> int:
    try:
        seat = resolve_name(answer.strip(), names)
    except EntryError as exc:
        raise CommandError(str(exc)) from None
    if seat is None:
        raise CommandError(f"the first dealer is {names[0]} or {names[1]}, not {answer!r}")
    return seat


def _choice(answer: str) -> str:
    word = answer.strip().lower()
    if word in ("r", "redeal", "new deal", "stop"):
        return "redeal"
    if word in ("p", "play", "play on", "stand"):
        return "play on"
    raise CommandError(f"answer redeal or play on, not {answer!r}")


def _yes_no(answer: str) -> bool:
    word = answer.strip().lower()
    if word in _YES:
        return True
    if word in _NO:
        return False
    raise CommandError(f"answer y or n, not {answer!r}")


def _again(answer: str) -> str:
    word = answer.strip().lower()
    if word in ("y", "yes"):
        return "again"
    if word in ("n", "no", "q", "quit", "exit", ""):
        return "stop"
    if word == "undo":
        return "undo"
    raise CommandError(f"answer y, n or undo, not {answer!r}")


def _prompt(keeper: Keeper) -> str:
    dealer = keeper.names[keeper.dealer]
    if keeper.match is not None:
        return f"Game {keeper.game_number}, hand {keeper.hand_number}, {dealer} deals> "
    return f"Hand {keeper.hand_number}, {dealer} deals> "


# -- saved games ------------------------------------------------------------------------------


def keeper_of(saved: SavedGame) -> Keeper:
    game = saved.game
    try:
        setup = Setup.from_stored(game.names, game.rules, game.options)
        return Keeper.replay(setup, ((e.kind, e.data) for e in saved.entries))
    except KeeperError as exc:
        raise CommandError(f"game {game.id}: {exc}") from None


def sheet_of(saved: SavedGame) -> ScoreSheet | MatchSheet:
    """The sheet of a saved game: from the scorekeeper's entries, or an online game's hands."""
    game = saved.game
    if game.kind == "scorekeeper":
        keeper = keeper_of(saved)
        match = keeper.match_sheet()
        return match if match is not None else keeper.sheet()
    first = saved.hands[0].dealer if saved.hands else 0
    seed = game.seed or 0
    scored: Game | Match
    if game.options.get("mode") == "match" and game.rules.match_target:
        scored = Match(game.rules, seed, first_dealer=first)
    else:
        scored = Game(game.rules, seed, first_dealer=first)
    for hand in saved.hands:
        if hand.result is not None and not scored.is_over:
            scored.record(result_from_dict(hand.result))
    return scored.sheet(game.names)


def list_games(store: Store, view: View) -> int:
    rows = []
    for game in store.list_games():
        saved = store.load_game(game.id)
        if saved is None:
            continue
        hands = (
            sum(1 for e in saved.entries if e.kind == "result")
            if game.kind == "scorekeeper"
            else sum(1 for h in saved.hands if h.result is not None)
        )
        rows.append(
            GameRow(
                game.id,
                game.updated_at.astimezone().strftime("%Y-%m-%d %H:%M"),
                f"{game.names[0]} v {game.names[1]}",
                _mode_text(game),
                hands,
                _status(game),
            )
        )
    view.games(rows)
    return 0


def _mode_text(game: GameInfo) -> str:
    mode = str(game.options.get("mode", "game"))
    return mode if game.kind == "scorekeeper" else f"{game.kind} {mode}"


def _status(game: GameInfo) -> str:
    if game.status != "finished" or game.final is None:
        return game.status
    winner = game.winner
    if winner is None:
        return "even"
    net = game.final.get("net")
    return f"{game.names[winner]} won" + (f" +{net}" if net is not None else "")


def export_game(store: Store, view: View, file: str, game_id: str | None) -> int:
    path = Path(file)
    suffix = path.suffix.lower()
    if suffix not in (".json", ".csv"):
        raise CommandError(f"the export file must end in .json or .csv, not {file!r}")
    if game_id is None:
        latest = store.list_games(limit=1)
        if not latest:
            raise CommandError("there are no saved games to export")
        game_id = latest[0].id
    saved = store.load_game(game_id)
    if saved is None:
        raise CommandError(f"there is no game {game_id!r} (see --list)")
    sheet = sheet_of(saved)
    text = sheet.to_json() + "\n" if suffix == ".json" else sheet.to_csv()
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {file}: {exc.strerror or exc}") from None
    names = saved.game.names
    view.say(f"Wrote the sheet of game {game_id} ({names[0]} v {names[1]}) to {path}.")
    return 0
