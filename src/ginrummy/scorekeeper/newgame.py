"""The answers that set a new game up: the players' names, a single game or a match, the stake,
and who deals first, named or decided by the real cards cut.

Each function reads one answer as typed and returns its value, or raises :class:`SetupError`
saying in one line what is wrong, so a prompt can ask again and a command line can stop.

>>> names = (check_name(" Ann "), check_name("Bob", "Ann"))
>>> names
('Ann', 'Bob')
>>> dealer_or_cut("b", names), dealer_or_cut("Kh 3c", names)
(1, (1, (Card('Kh'), Card('3c'))))
>>> check_name("ann", "Ann")
Traceback (most recent call last):
  ...
ginrummy.scorekeeper.errors.SetupError: the players need different names, not 'ann' twice
"""

from __future__ import annotations

from ..engine.cards import parse_cards
from ..engine.errors import GinRummyError
from ..engine.game import Cut, cut_dealer
from ..engine.rules import Rules
from .entries import RESERVED, resolve_name
from .errors import EntryError, SetupError

MAX_NAME = 20


def check_name(name: str, other: str | None = None) -> str:
    """A player's name: one word, starting with a letter, not a command word, and not the name
    of the ``other`` player in any case (a typed prefix must tell them apart)."""
    name = name.strip()
    if not name:
        raise SetupError("a name cannot be empty")
    if len(name.split()) > 1:
        raise SetupError(f"a name is one word (e.g. {'-'.join(name.split())}), not {name!r}")
    if not name[0].isalpha():
        raise SetupError(f"a name starts with a letter, not {name!r}")
    if len(name) > MAX_NAME:
        raise SetupError(f"a name has at most {MAX_NAME} characters")
    if name.lower() in RESERVED:
        raise SetupError(f"{name!r} is a command word; choose another name")
    if other is not None and name.lower() == other.strip().lower():
        raise SetupError(f"the players need different names, not {name!r} twice")
    return name


def game_mode(answer: str, rules: Rules) -> str:
    """``"game"`` or ``"match"`` (the default is a single game); a match needs a match target."""
    word = answer.strip().lower() or "game"
    if word in ("g", "game", "single", "s"):
        return "game"
    if word in ("m", "match"):
        if not rules.match_target:
            raise SetupError("these rules play no match (match_target is 0)")
        return "match"
    raise SetupError(f"answer game or match, not {answer!r}")


def with_stake(rules: Rules, answer: str) -> Rules:
    """The rules with the stake per point typed (nothing for none)."""
    return rules.replace(stake=answer.strip() or "0")


def first_dealer(answer: str, names: tuple[str, str]) -> int:
    """The seat of the player named (or a prefix of the name) to deal first."""
    try:
        seat = resolve_name(answer.strip(), names)
    except EntryError as exc:
        raise SetupError(str(exc)) from None
    if seat is None:
        raise SetupError(f"the first dealer is {names[0]} or {names[1]}, not {answer!r}")
    return seat


def cut(answer: str, names: tuple[str, str]) -> tuple[int | None, Cut]:
    """The cut ``"7h 3c"`` (player 1's card, then player 2's): who deals (None for the same
    rank, to cut again), and the cut."""
    try:
        cards = parse_cards(answer)
    except GinRummyError as exc:
        raise SetupError(str(exc)) from None
    if len(cards) != 2:
        raise SetupError(
            f"a cut is two cards, {names[0]}'s then {names[1]}'s (e.g. 7h 3c), not {answer!r}"
        )
    pair = (cards[0], cards[1])
    try:
        return cut_dealer(pair), pair
    except GinRummyError as exc:
        raise SetupError(str(exc)) from None


def dealer_or_cut(answer: str, names: tuple[str, str]) -> int | tuple[int | None, Cut]:
    """A name (that player deals) or a cut of two cards (see :func:`cut`)."""
    try:
        return first_dealer(answer, names)
    except SetupError as not_a_name:
        try:
            parse_cards(answer)
        except GinRummyError as exc:
            if len(answer.split()) == 2:
                raise SetupError(f"not a cut: {exc}") from None
            raise not_a_name from None
        return cut(answer, names)
