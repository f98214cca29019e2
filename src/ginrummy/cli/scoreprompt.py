"""``ginrummy score``'s conversation: setting a game up, the hand prompt, and the end of a game.

The scorekeeper (:mod:`ginrummy.scorekeeper`) reads the answers and keeps the game; this module
asks the questions, says what happened, and shows the sheet through a :class:`View`. Each entry
is stored by the :class:`~ginrummy.scorekeeper.Session` before the screen says it was taken.

Input comes from :class:`Reader`: ``input()`` on a terminal, or lines read from a pipe, which are
echoed after their prompt so that the transcript reads like a session.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TextIO, TypeVar

from ..engine.errors import GinRummyError
from ..engine.game import Cut
from ..engine.rules import Rules
from ..engine.rulings import Remedy, parse_irregularity
from ..scorekeeper import (
    EXPORT_FORMATS,
    Command,
    EditEntry,
    EntryError,
    ImportFileError,
    IrregularityEntry,
    Keeper,
    ResultEntry,
    Session,
    Setup,
    SetupError,
    export_text,
    find_game,
    help_text,
    latest_open_game,
    listed_games,
    newgame,
    parse_entry,
    read_game,
)
from ..scorekeeper.entries import COMMANDS
from ..scorekeeper.saved import ExportFormat, is_edit
from ..storage import Store
from . import CommandError
from .scoreview import View

T = TypeVar("T")
_YES = {"y", "yes", ""}
_NO = {"n", "no", "q", "quit", "exit"}
_BACK = {"", "b", "back", "cancel"}


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


class ScorePrompt:
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

    def ask_setup(self, prompt: str, parse: Callable[[str], T]) -> T:
        """A question of a new game's setup: ``ask_until``, but "quit" (or "exit", "q", as at
        the scoring prompt) stops before the game begins instead of being refused."""

        def parse_or_quit(answer: str) -> T:
            if COMMANDS.get(answer.strip().lower()) == "quit":
                raise Quit
            return parse(answer)

        return self.ask_until(prompt, parse_or_quit)

    # -- starting ------------------------------------------------------------------------

    def start(self, args: argparse.Namespace, *, new: bool) -> int:
        session: Session | None = None
        try:
            session = self._choose(args, new)
            while session is not None:
                session = self.play(session)
        except Quit:
            self.view.say(self._stopped("Stopped", session))
        except KeyboardInterrupt:
            self.view.say("\n" + self._stopped("Interrupted", session))
            return 130
        return 0

    @staticmethod
    def _stopped(how: str, session: Session | None) -> str:
        """What stopping keeps: everything entered, or nothing if no game had begun."""
        if session is None:
            return f"{how} before the game began; nothing was saved."
        return f"{how}; everything entered is saved."

    def _choose(self, args: argparse.Namespace, new: bool) -> Session | None:
        if args.game:
            game = find_game(self.store, args.game)
            if game is None:
                raise CommandError(f"there is no scorekeeper game {args.game!r} (see --list)")
            if game.status != "open":
                self.view.say(f"Game {game.id} is {game.status}; here is its sheet.")
                self._show_all(Session(self.store, game.id).keeper)
                return None
            return Session(self.store, game.id)
        if not new:
            game = latest_open_game(self.store)
            if game is not None:
                self.view.say(
                    f"Resuming game {game.id}: {game.names[0]} v {game.names[1]} "
                    "('ginrummy score --new' starts another)."
                )
                return Session(self.store, game.id)
        return self._started(Session.create(self.store, self._setup(args)))

    def _setup(self, args: argparse.Namespace) -> Setup:
        """The new game's setup: what the command line gave (checked before anything is
        asked), and an answer to each question it did not."""
        if args.dealer and args.cut:
            raise CommandError("give --dealer or --cut, not both")
        given_rules = bool(args.rules or args.set)
        rules: Rules | None = None
        if given_rules:
            rules = rules_from_options(args.rules, args.set, args.stake)
        elif args.stake is not None:
            Rules().replace(stake=args.stake)  # a bad stake stops before any question
        if rules is not None and args.mode == "match" and not rules.match_target:
            raise CommandError("these rules play no match: add --set match_target=500")
        check_name = newgame.check_name
        if args.players:
            names = (check_name(args.players[0]), check_name(args.players[1], args.players[0]))
        else:
            self.view.say("New game. Names are one word each; you can shorten them when scoring.")
            first = self.ask_setup("Player 1's name: ", check_name)
            names = (first, self.ask_setup("Player 2's name: ", lambda n: check_name(n, first)))
        dealer, cuts = self._dealer_given(args, names)
        if rules is None:
            rules = self.ask_setup(
                f"Rules [standard] ({', '.join(Rules.presets())}; add changes like gin_bonus=20): ",
                lambda a: _with_stake_option(Rules.from_words(a), args.stake),
            )
        mode = args.mode
        if mode is None:
            asked = rules
            mode = self.ask_setup(
                f"A single game, or a match to {rules.match_target or 'a target'}? [game]: ",
                lambda a: newgame.game_mode(a, asked),
            )
        if args.stake is None and not _stake_set(args.set) and not rules.stake:
            asked = rules
            rules = self.ask_setup(
                "Stake per point [none]: ", lambda a: newgame.with_stake(asked, a)
            )
        self.view.rules(rules, match=mode == "match")
        self.view.say(
            f"Playing a match to {rules.match_target}." if mode == "match" else "Playing one game."
        )
        if dealer is None:
            dealer = self._ask_dealer(names, cuts)
        return Setup(names, rules, mode, dealer, tuple(cuts))

    def _dealer_given(
        self, args: argparse.Namespace, names: tuple[str, str]
    ) -> tuple[int | None, list[Cut]]:
        """The first dealer given by ``--dealer`` or ``--cut`` (None if neither), and the cut."""
        if args.dealer:
            return newgame.first_dealer(args.dealer, names), []
        if args.cut:
            try:
                low, cut = newgame.cut(args.cut, names)
            except SetupError as exc:
                raise CommandError(f"--cut: {exc}") from None
            if low is None:
                raise CommandError(f"--cut: {cut[0]} and {cut[1]} are the same rank: cut again")
            return low, [cut]
        return None, []

    def _ask_dealer(self, names: tuple[str, str], cuts: list[Cut]) -> int:
        """Who deals first, named or cut for (each cut added to ``cuts``)."""
        question = (
            f"Who deals first? A name [{names[0]}/{names[1]}], or the cut, "
            f"{names[0]}'s card then {names[1]}'s (low card deals): "
        )
        while True:
            answer = self.ask_setup(question, lambda a: newgame.dealer_or_cut(a, names))
            if isinstance(answer, int):
                return answer
            cuts.append(answer[1])
            if answer[0] is not None:
                self.view.say(f"{names[answer[0]]} cut low and deals.")
                return answer[0]
            self.view.say("The same rank: cut again.")

    def _started(self, session: Session) -> Session:
        setup = session.keeper.setup
        what = "match" if setup.mode == "match" else "game"
        self.view.say(f"Started {what} {session.id}: {setup.names[0]} v {setup.names[1]}.")
        return session

    # -- playing -------------------------------------------------------------------------

    def play(self, session: Session) -> Session | None:
        """Score ``session``'s game until the user stops (None) or starts another (its
        session)."""
        keeper = session.keeper
        if keeper.hands_played:
            self._show(keeper)
        self._next(keeper)
        while True:
            keeper = session.keeper
            if keeper.is_over:
                answer = self._after_end(keeper)
                if answer == "undo":
                    self._undo(session)
                    continue
                if answer == "again":
                    return self._started(session.again())
                if answer == "sheet":
                    self._show_all(keeper)
                    continue
                if answer.startswith("edit"):
                    edit = self._edit_of(answer, keeper)
                    if edit is not None:
                        self._edit(session, edit)
                    continue
                return None
            line = self.ask(_prompt(keeper))
            try:
                entry = parse_entry(line, keeper)
            except EntryError as exc:
                self.view.error(str(exc))
                continue
            if isinstance(entry, Command):
                if entry.name == "quit":
                    self.view.say(f"Saved. Run 'ginrummy score' to go on with game {session.id}.")
                    return None
                if entry.name == "abandon":
                    if self.confirm_abandon(session.id):
                        return None
                    continue
                if entry.name == "delete":
                    if self.confirm_delete(session.id, yes=False):
                        return None
                    continue
                self._command(entry.name, session)
            elif isinstance(entry, EditEntry):
                self._edit(session, entry)
            elif isinstance(entry, ResultEntry):
                self._result(session, entry, line)
            else:
                self._irregularity(session, entry)

    def _command(self, name: str, session: Session) -> None:
        if name == "help":
            self.view.say(help_text())
        elif name == "sheet":
            self._show(session.keeper)
        elif name == "rules":
            self.view.rules(session.keeper.rules, match=session.keeper.match is not None)
        elif name == "undo":
            self._undo(session)

    def _result(self, session: Session, entry: ResultEntry, line: str) -> None:
        before = session.keeper
        after = session.enter_result(entry.result, line, entry.upcard)
        self.view.say(f"Hand {before.hand_number}: {entry.summary}", "bold")
        if after.finished_games > before.finished_games and not after.is_over:
            self.view.sheet(after, after.finished_games)
            self.view.match(after)
            choice = self._offer_next_game(session)
            if choice == "stop":
                raise Quit
            if choice == "answered":  # undone or edited: where scoring goes on is said
                return
        else:
            self._show(after)
        self._next(after)

    def _irregularity(self, session: Session, entry: IrregularityEntry) -> None:
        keeper = session.keeper
        text = entry.text
        dealt_by = 1 - keeper.expected if text.startswith("wrong dealer") else keeper.dealer
        try:
            ruling = parse_irregularity(text, dealt_by)
            if ruling.remedy is Remedy.PLAYER_CHOOSES:
                self.view.say(keeper.with_names(ruling.explanation), "yellow")
                chooser = keeper.names[ruling.chooser or 0]
                choice = self._choose_remedy(f"{chooser} chooses: redeal or play on? [back]: ")
                if choice is None:
                    self.view.say("Nothing recorded.")
                    self._next(keeper)
                    return
                text = f"{text} {choice}"
                ruling = parse_irregularity(text, dealt_by)
        except GinRummyError as exc:
            self.view.error(str(exc))
            return
        after = session.enter_ruling(ruling, text, dealt_by)
        self.view.say(f"Ruling: {keeper.with_names(ruling.explanation)}", "yellow")
        self._next(after)

    def _edit(self, session: Session, edit: EditEntry) -> None:
        after = self._edited(session, edit)
        if after is not None:
            self._show(after)
            self._next(after)

    def _edit_of(self, answer: str, keeper: Keeper) -> EditEntry | None:
        """The edit an "edit ..." answer asks for, or None (saying why) if it is not one."""
        try:
            edit = parse_entry(answer, keeper)
        except EntryError as exc:
            self.view.error(str(exc))
            return None
        assert isinstance(edit, EditEntry)
        return edit

    def _edited(self, session: Session, edit: EditEntry) -> Keeper | None:
        """Make the edit and say it; the new state (None, saying why, if it cannot be)."""
        try:
            after = session.edit(
                edit.game, edit.hand, edit.entry.result, edit.text, edit.entry.upcard
            )
        except EntryError as exc:
            self.view.error(str(exc))
            return None
        where = f"Game {edit.game}, hand {edit.hand}" if after.match else f"Hand {edit.hand}"
        self.view.say(f"{where} is now: {edit.entry.summary}", "bold")
        return after

    def confirm_abandon(self, game_id: str) -> bool:
        """Ask, then end the game as abandoned; whether it was."""
        question = f"End game {game_id} unfinished, as abandoned? It is not resumed. [y/N]: "
        line = self.reader.ask(question)
        if line is None or line.strip().lower() not in ("y", "yes"):
            self.view.say("Not abandoned.")
            return False
        Session(self.store, game_id).abandon()
        self.view.say(f"Game {game_id} is abandoned; 'ginrummy score --list' lists it so.")
        return True

    def confirm_delete(self, game_id: str, *, yes: bool) -> bool:
        """Ask (unless ``yes``), then delete the game; whether it was."""
        keeper = Session(self.store, game_id).keeper
        names = f"{keeper.names[0]} v {keeper.names[1]}"
        if not yes:
            question = (
                f"Delete game {game_id} ({names}, {keeper.hands_played} hands) and all its "
                "entries? This cannot be undone. [y/N]: "
            )
            line = self.reader.ask(question)
            if line is None or line.strip().lower() not in ("y", "yes"):
                self.view.say("Not deleted.")
                return False
        Session(self.store, game_id).delete()
        self.view.say(f"Deleted game {game_id} ({names}).")
        return True

    def _choose_remedy(self, prompt: str) -> str | None:
        """``redeal`` or ``play on``; None when the user backs out (``back``, an empty answer,
        or the end of input), to record nothing."""
        while True:
            answer = self.reader.ask(prompt)
            if answer is None or answer.strip().lower() in _BACK:
                return None
            try:
                return _choice(answer)
            except CommandError as exc:
                self.view.error(str(exc))

    def _undo(self, session: Session) -> None:
        removed = session.undo()
        if removed is None:
            self.view.error("there is nothing to undo")
            return
        if is_edit(removed.kind, removed.data):
            self.view.say(f"Undone: {_undone_edit(removed.data, session.keeper)}")
        else:
            what = "hand" if removed.kind == "result" else removed.kind
            self.view.say(f"Undone: {what} {removed.data.get('text', '')!r}.")
        self._next(session.keeper)

    def _offer_next_game(self, session: Session) -> str:
        """Whether to score the next game of the match now: "start", "stop" (the match is
        saved), or "answered" by an undo or an edit that reopened the game just ended (or
        ended the match), as at the end of a single game; 'sheet' and an edit that leaves the
        game ended ask again."""
        while True:
            keeper = session.keeper
            number = keeper.game_number
            dealer = keeper.names[keeper.dealer]
            self.view.say(f"Game {number} of the match: {dealer} deals first.")
            answer = self.ask_until(
                f"Start game {number}? [Y/n/sheet/undo/edit]: ", _start_next_game
            )
            if answer == "start":
                return answer
            if answer == "stop":
                self.view.say("The match is saved; run 'ginrummy score' to play on.")
                return answer
            if answer == "sheet":
                self._show_all(keeper)
                continue
            if answer == "undo":
                self._undo(session)
                return "answered"
            edit = self._edit_of(answer, keeper)
            if edit is None:
                continue
            after = self._edited(session, edit)
            if after is None:
                continue
            if after.is_over or after.finished_games < keeper.finished_games:
                self._show(after)
                self._next(after)
                return "answered"
            self.view.sheet(after, after.finished_games)  # still ended: asked again
            self.view.match(after)

    def _after_end(self, keeper: Keeper) -> str:
        what = "match" if keeper.match is not None else "game"
        return self.ask_until(
            f"Another {what} with the same players and rules? [y/n/sheet/undo/edit]: ", _again
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


# -- rules from the command line's options -----------------------------------------------------


def rules_from_options(preset: str | None, settings: list[str], stake: str | None) -> Rules:
    """``--rules PRESET``, each ``--set OPTION=VALUE`` and ``--stake`` (which wins over a
    ``--set stake=``), read by the engine: a bad word raises its ``RulesWordError``."""
    changes = settings if stake is None else [*settings, f"stake={stake}"]
    return Rules.from_changes(preset or "standard", changes)


def _with_stake_option(rules: Rules, stake: str | None) -> Rules:
    """The rules typed, with the stake given by ``--stake`` (if it was)."""
    return rules if stake is None else rules.replace(stake=stake)


def _stake_set(settings: list[str]) -> bool:
    """Whether one of the ``--set`` changes sets the stake."""
    return any(s.partition("=")[0].strip().lower() == "stake" for s in settings)


# -- answers to the conversation's own questions ------------------------------------------------


def _choice(answer: str) -> str:
    word = answer.strip().lower()
    if word in ("r", "redeal", "new deal", "stop"):
        return "redeal"
    if word in ("p", "play", "play on", "stand"):
        return "play on"
    raise CommandError(f"answer redeal or play on (or back), not {answer!r}")


def _start_next_game(answer: str) -> str:
    word = answer.strip().lower()
    if word in _YES:
        return "start"
    if word in _NO:
        return "stop"
    if word in ("undo", "sheet"):
        return word
    if word.split()[0] == "edit":
        return answer.strip()
    raise CommandError(f"answer y, n, sheet, undo or edit <hand> <result>, not {answer!r}")


def _again(answer: str) -> str:
    word = answer.strip().lower()
    if word in ("y", "yes"):
        return "again"
    if word in ("n", "no", "q", "quit", "exit", ""):
        return "stop"
    if word in ("undo", "sheet"):
        return word
    if word.split()[0] == "edit":
        return answer.strip()
    raise CommandError(f"answer y, n, sheet, undo or edit <hand> <result>, not {answer!r}")


def _prompt(keeper: Keeper) -> str:
    dealer = keeper.names[keeper.dealer]
    if keeper.match is not None:
        return f"Game {keeper.game_number}, hand {keeper.hand_number}, {dealer} deals> "
    return f"Hand {keeper.hand_number}, {dealer} deals> "


# -- saved games ------------------------------------------------------------------------------


def _form(file: str) -> ExportFormat:
    form = {f".{form}": form for form in EXPORT_FORMATS}.get(Path(file).suffix.lower())
    if form is None:
        raise CommandError(f"the file must end in .json or .csv, not {file!r}")
    return form


def list_games(store: Store, view: View) -> int:
    view.games(listed_games(store))
    return 0


def export_game(store: Store, view: View, file: str, game_id: str | None) -> int:
    path = Path(file)
    form = _form(file)
    if game_id is None:
        latest = store.list_games(limit=1)
        if not latest:
            raise CommandError("there are no saved games to export")
        game_id = latest[0].id
    saved = store.load_game(game_id)
    if saved is None:
        raise CommandError(f"there is no game {game_id!r} (see --list)")
    text = export_text(saved, form)
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"cannot write {file}: {exc.strerror or exc}") from None
    names = saved.game.names
    view.say(f"Wrote game {game_id} ({names[0]} v {names[1]}) to {path}.")
    return 0


def import_game(store: Store, view: View, file: str) -> int:
    """``--import FILE``: the game in FILE as a new saved game; nothing stored if it is bad."""
    path = Path(file)
    form = _form(file)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        raise CommandError(f"cannot read {file}: {why}") from None
    try:
        record = read_game(text, form)
    except ImportFileError as exc:
        raise CommandError(f"{file}: {exc}") from None
    session = Session.imported(store, record)
    keeper = session.keeper
    view.say(
        f"Imported game {session.id} ({keeper.names[0]} v {keeper.names[1]}, "
        f"{keeper.hands_played} hands, {record.status}) from {path}."
    )
    return 0


def close_game(store: Store, view: View, args: argparse.Namespace) -> int:
    """``--delete ID`` or ``--abandon ID``: asked to confirm unless ``--yes``."""
    game_id = args.delete or args.abandon
    game = find_game(store, game_id)
    if game is None:
        raise CommandError(f"there is no scorekeeper game {game_id!r} (see --list)")
    prompt = ScorePrompt(store, view)
    if args.delete:
        prompt.confirm_delete(game_id, yes=args.yes)
        return 0
    if game.status != "open":
        raise CommandError(f"game {game_id} is {game.status}, not open: it cannot be abandoned")
    if args.yes:
        Session(store, game_id).abandon()
        view.say(f"Game {game_id} is abandoned.")
    else:
        prompt.confirm_abandon(game_id)
    return 0


def _undone_edit(data: Mapping[str, Any], keeper: Keeper) -> str:
    """An edit taken back, in words: ``the edit of hand 3 to 'ann knock 5 bob 20'; it is
    again 'ann knock 5 bob 25'.``"""
    game, hand = data.get("game"), data.get("hand")
    where = f"game {game}, hand {hand}" if keeper.match is not None else f"hand {hand}"
    before = data["edit"]["before"].values()
    was = next(
        (str(e.get("text", "")) for e in before if (e.get("game"), e.get("hand")) == (game, hand)),
        "",
    )
    return f"the edit of {where} to {str(data.get('text', ''))!r}; it is again {was!r}."
