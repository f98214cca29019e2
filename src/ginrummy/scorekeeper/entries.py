"""The scorekeeper's short forms: what a line typed at the hand prompt means.

Hands (names may be shortened to any unambiguous prefix, in any case)::

    ann knock 7 bob 23     Ann knocks with 7; Bob has 23 after laying off (the numbers decide
                           between a knock and an undercut); "ann knock 7 23" says the same
    bob gin 41             Bob goes gin; Ann has 41
    ann biggin 30          big gin (when the rules play it)
    dead                   a dead hand (the stock ran down to two cards); also "draw"

Oklahoma hands add ``up <card>`` (the first upcard: it sets the knock limit and a spade
doubles the hand), once; ``x2`` may say the doubling too. Irregularities use the rulings'
forms (``wrong dealer``, ``exposed card``, ``irregular hand bob after draw play on``...),
with names for seats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..engine.cards import Card
from ..engine.errors import GinRummyError
from ..engine.results import HandResult, ResultKind
from ..engine.rulings import FORMS
from .errors import EntryError
from .keeper import Keeper

COMMANDS = {
    "help": "help",
    "?": "help",
    "h": "help",
    "undo": "undo",
    "sheet": "sheet",
    "score": "sheet",
    "rules": "rules",
    "quit": "quit",
    "exit": "quit",
    "q": "quit",
    "abandon": "abandon",
    "delete": "delete",
}
DEAD_WORDS = ("dead", "dead hand", "wall", "draw")
#: Words a player may not be called, since they start an entry.
RESERVED = frozenset({*COMMANDS, "dead", "wall", "draw", "wrong", "exposed", "faced", "irregular"})

_KNOCK = {"knock", "knocks", "knocked", "k"}
_GIN = {"gin", "gins", "g"}
_BIG_GIN = {"biggin", "big-gin", "bg"}
_UNDERCUT = {"undercut", "undercuts", "u"}
_FILLER = {"with", "has", "had", "holds", "v", "vs", "against", "and", "deadwood", "dw", "on"}
_IRREGULAR_STARTS = (
    ("wrong", "dealer"),
    ("exposed", "card"),
    ("faced", "card"),
    ("irregular", "hand"),
    ("irregular", "hands"),
    ("wrong", "hand"),
)
#: The rulings' own words, which are never read as a player's name.
_RULING_WORDS = frozenset(
    {
        "the",
        "and",
        "&",
        "in",
        "seat",
        "seats",
        "first",
        "before",
        "after",
        "upcard",
        "draw",
        "redeal",
        "stop",
        "stand",
        "play",
        "on",
        "both",
        "dealing",
        "deal",
        "pack",
        "deck",
    }
)
MAX_DEADWOOD = 98

HELP = """\
Enter each hand as it ends (names can be shortened: "a" for Ann):
  ann knock 7 bob 23    Ann knocked with 7; Bob had 23 after laying off
                        (a knock or an undercut: the numbers decide)
  ann knock 7 23        the same, without the defender's name
  bob gin 41            Bob went gin; Ann had 41
  ann biggin 30         big gin, when the rules play it
  dead (or draw)        a dead hand: nobody scores
Oklahoma: add the hand's first upcard, "up 7s" (it sets the knock limit; a spade
  doubles the hand, which "x2" may also say).
Irregularities (the ruling is shown and recorded):
  {forms}
  e.g. "wrong dealer", "exposed card in dealing", "irregular hand bob after draw play on"
  When a player is to choose (redeal or play on), "back" or an empty answer records nothing.
Other commands:
  edit 3 ann knock 5 bob 20   replace hand 3's result (in a match, "edit 2.3 ..." for
                              game 2's hand 3); every later total is worked out again
  undo     take back the last entry or edit
  sheet    show the score sheet
  rules    the rules of this game        quit    stop (everything is saved)
  abandon  end this game unfinished (it is listed as abandoned)
  delete   delete this game and all its entries (asked to confirm)"""


def help_text() -> str:
    return HELP.format(forms="\n  ".join(FORMS))


@dataclass(frozen=True, slots=True)
class Command:
    name: str  # help, undo, sheet, rules, quit, abandon, delete


@dataclass(frozen=True, slots=True)
class ResultEntry:
    result: HandResult
    summary: str
    #: The hand's first upcard, given in Oklahoma (``up 7s``).
    upcard: Card | None = None


@dataclass(frozen=True, slots=True)
class IrregularityEntry:
    """The text for ``parse_irregularity``, with names turned into seats."""

    text: str


@dataclass(frozen=True, slots=True)
class EditEntry:
    """``edit [G.]H <hand>``: hand ``hand`` of game ``game`` is to be scored as ``entry``,
    typed as ``text``."""

    game: int
    hand: int
    entry: ResultEntry
    text: str


Entry = Command | ResultEntry | IrregularityEntry | EditEntry


def resolve_name(token: str, names: tuple[str, str]) -> int | None:
    """The seat whose name is ``token`` or starts with it (any case); None if neither does.
    Raises ``EntryError`` when it could be either."""
    token = token.lower()
    if not token:
        return None
    lowered = [n.lower() for n in names]
    for seat in (0, 1):
        if lowered[seat] == token:
            return seat
    matches = [seat for seat in (0, 1) if lowered[seat].startswith(token)]
    if len(matches) == 2:
        raise EntryError(f"{token!r} could be {names[0]} or {names[1]}: type more of the name")
    return matches[0] if matches else None


def parse_entry(line: str, keeper: Keeper) -> Entry:
    """What ``line`` means at the hand prompt; raises ``EntryError`` if nothing."""
    text = " ".join(line.replace(",", " ").split())
    lowered = text.lower()
    if not text:
        raise EntryError("type a hand, e.g. 'ann knock 7 bob 23', or 'help'")
    if lowered in COMMANDS:
        return Command(COMMANDS[lowered])
    if lowered in DEAD_WORDS:
        return ResultEntry(HandResult.dead(), "Dead hand: nobody scores.")
    words = lowered.split()
    if words[0] == "edit":
        return _edit(text.split()[1:], keeper)
    if tuple(words[:2]) in _IRREGULAR_STARTS:
        return IrregularityEntry(_seats_for_names(words, keeper.names))
    return _hand(words, keeper)


def _edit(words: list[str], keeper: Keeper) -> EditEntry:
    usage = "say which hand and its result, e.g. 'edit 3 ann knock 5 bob 20'"
    if len(words) < 2:
        raise EntryError(usage)
    where = re.fullmatch(r"(?:(\d+)\.)?(\d+)", words[0])
    if where is None:
        raise EntryError(f"{words[0]!r} is not a hand number: {usage}")
    game = int(where.group(1)) if where.group(1) else keeper.game_number
    if where.group(1) and keeper.match is None:
        raise EntryError(
            f"this is a single game: say just the hand, e.g. 'edit {where.group(2)} ...'"
        )
    text = " ".join(words[1:])
    entry = parse_entry(text, keeper)
    if not isinstance(entry, ResultEntry):
        raise EntryError(f"only a hand's result can be edited, not {text!r}")
    return EditEntry(game, int(where.group(2)), entry, text)


def _seats_for_names(words: list[str], names: tuple[str, str]) -> str:
    out = words[:2]
    for word in words[2:]:
        seat = None if word in _RULING_WORDS else resolve_name(word, names)
        out.append(word if seat is None else str(seat))
    return " ".join(out)


def _who_first(words: list[str], names: tuple[str, str]) -> str:
    """An entry begun with its verb, as it is entered: the player named after the verb (as in
    'knock ann 5 30') moved to the front, else the first player put there."""
    verb = 2 if words[:2] == ["big", "gin"] else 1
    after = words[verb : verb + 1]
    try:
        named = resolve_name(after[0], names) if after else None
    except EntryError:  # could be either player: left where it is
        named = None
    if named is not None:
        return " ".join([after[0], *words[:verb], *words[verb + 1 :]])
    return " ".join([names[0].lower(), *words])


def _refuse_a_command_word(first: str) -> None:
    """A line begun with a command word (or a dead hand's) that is more than the word: said
    how that word is typed, not that it is neither player nor a command."""
    if first in {"dead", "wall", "draw"}:
        raise EntryError("a dead hand is just 'dead' (or 'draw'), nothing after it")
    if first in COMMANDS:
        fix = "; to change an earlier hand: 'edit 3 ann knock 5 bob 20'" if first == "undo" else ""
        raise EntryError(f"{first!r} takes nothing after it{fix}")
    if first in RESERVED:
        raise EntryError(
            "irregularities are 'wrong dealer', 'exposed card' or 'irregular hand ...'; "
            "type 'help' for their forms"
        )


def _hand(words: list[str], keeper: Keeper) -> ResultEntry:
    names = keeper.names
    first = words[0]
    if first in _KNOCK | _GIN | _BIG_GIN | {"big"}:
        raise EntryError(f"say who first: e.g. '{_who_first(words, names)}'")
    winner = resolve_name(first, names)
    if winner is None:
        if first.lstrip("+-").isdigit():
            raise EntryError(f"start with a player's name: {names[0]} or {names[1]}")
        _refuse_a_command_word(first)
        raise EntryError(
            f"{first!r} is neither {names[0]} nor {names[1]} nor a command; type 'help'"
        )
    rest = words[1:]
    if rest[:2] == ["big", "gin"]:
        rest = ["biggin", *rest[2:]]
    if not rest:
        raise EntryError(f"what did {names[winner]} do? e.g. '{first} knock 7 23' or 'help'")
    verb, args = rest[0], rest[1:]
    numbers, upcard, double = _arguments(args, winner, names)
    if verb in _UNDERCUT:
        raise EntryError(
            "enter an undercut as the knock: '<knocker> knock <his deadwood> <yours>'; "
            "the numbers decide"
        )
    if verb in _KNOCK:
        kind = ResultKind.KNOCK
    elif verb in _GIN:
        kind = ResultKind.GIN
    elif verb in _BIG_GIN:
        kind = ResultKind.BIG_GIN
    else:
        raise EntryError(f"{verb!r} is not knock, gin or biggin; type 'help' for examples")
    multiplier = _multiplier(keeper, upcard, double)
    return _result(keeper, kind, winner, numbers, multiplier, upcard)


def _arguments(
    args: list[str], knocker: int, names: tuple[str, str]
) -> tuple[list[int], Card | None, bool]:
    numbers: list[int] = []
    upcard: Card | None = None
    double = False
    i = 0
    while i < len(args):
        word = args[i]
        if word in _FILLER:
            pass
        elif re.fullmatch(r"\d+", word):
            numbers.append(int(word))
        elif word in ("x2", "double", "doubled"):
            double = True
        elif word in ("up", "upcard"):
            if i + 1 == len(args):
                raise EntryError(f"'{word}' needs the upcard after it, e.g. 'up 7s'")
            i += 1
            try:
                card = Card.parse(args[i])
            except GinRummyError:
                raise EntryError(f"{args[i]!r} is not a card (e.g. 7s, Td, Kh)") from None
            if upcard is not None:
                raise EntryError(
                    f"the upcard is given twice (up {upcard}, up {card}): give it once"
                )
            upcard = card
        elif re.fullmatch(r"-\d+", word):
            raise EntryError(f"deadwood cannot be negative: {word}")
        else:
            seat = resolve_name(word, names)
            if seat is None:
                raise EntryError(f"{word!r} is not understood here; type 'help' for examples")
            if seat == knocker:
                raise EntryError(
                    f"{names[knocker]} is the one who went out here: name the other player, "
                    f"{names[1 - knocker]}"
                )
        i += 1
    return numbers, upcard, double


def _multiplier(keeper: Keeper, upcard: Card | None, double: bool) -> int:
    rules = keeper.rules
    if not rules.oklahoma:
        if upcard is not None or double:
            raise EntryError("'up <card>' and 'x2' are for Oklahoma games only")
        return 1
    if upcard is None:
        raise EntryError(
            "Oklahoma: say the hand's first upcard, which sets the knock limit, "
            "e.g. 'ann knock 3 bob 20 up 7s'"
        )
    multiplier = rules.hand_multiplier(upcard)
    if double and multiplier == 1:
        raise EntryError(f"the upcard {upcard} does not double the hand")
    return multiplier


def _result(
    keeper: Keeper,
    kind: ResultKind,
    seat: int,
    numbers: list[int],
    multiplier: int,
    upcard: Card | None,
) -> ResultEntry:
    names, rules = keeper.names, keeper.rules
    who, other = names[seat], names[1 - seat]
    if any(n > MAX_DEADWOOD for n in numbers):
        raise EntryError(f"deadwood is at most {MAX_DEADWOOD}")
    doubled = " (doubled)" if multiplier > 1 else ""
    if kind is ResultKind.KNOCK:
        if len(numbers) != 2:
            raise EntryError(
                f"a knock takes two numbers: {who}'s deadwood and {other}'s after layoffs, "
                f"e.g. '{who.lower()} knock 7 {other.lower()} 23'"
            )
        k, d = numbers
        # Oklahoma's limit comes from the upcard (which _multiplier made sure was given).
        limit = rules.knock_limit_for(upcard) if upcard is not None else rules.knock_limit
        if k > limit:
            if limit == 0:
                raise EntryError(f"only gin ends a hand here (knock limit 0): '{who.lower()} gin'")
            raise EntryError(f"{who} cannot knock with {k}: the knock limit is {limit}")
        result = HandResult.knock(rules, seat, k, d, multiplier)
        if result.kind is ResultKind.GIN:
            summary = f"{who} goes gin (knock with 0); {other} has {d}"
        else:
            summary = f"{who} knocks with {k}, {other} has {d}"
    else:
        if len(numbers) != 1:
            raise EntryError(
                f"gin takes one number, {other}'s deadwood: e.g. '{who.lower()} gin 23'"
            )
        (d,) = numbers
        if kind is ResultKind.BIG_GIN:
            if not rules.big_gin:
                raise EntryError("these rules do not play big gin (start with --set big_gin=true)")
            result = HandResult.big_gin(rules, seat, d, multiplier)
            summary = f"{who} goes big gin; {other} has {d}"
        else:
            result = HandResult.gin(rules, seat, d, multiplier)
            summary = f"{who} goes gin; {other} has {d}"
    if result.winner is None:
        return ResultEntry(result, f"{summary}: a tie, nobody scores{doubled}.", upcard)
    winner = names[result.winner]
    how = " undercuts and" if result.kind is ResultKind.UNDERCUT else ""
    return ResultEntry(result, f"{summary}: {winner}{how} scores {result.points}{doubled}.", upcard)
