"""Typed commands (``draw``, ``discard Kh``, ``knock 7c``, ``hint``, ``quit`` ...) and the choices
behind the knock dialog, shared by the plain mode and the app's command line.

A command becomes either a protocol message to send or something the screen does itself
(show the sheet, quit). Knocks and gins are special: the player may have several best
arrangements to lay down, so :func:`parse_command` returns them as a ``knock`` for the screen
to ask about (:func:`knock_choices`, :func:`knock_action`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Card
from ..engine.errors import InvalidNotationError
from .session import Message
from .words import State, action_words, legal, pretty

#: Commands the screen answers itself, with their short forms.
LOCAL = {
    "sheet": "sheet",
    "s": "sheet",
    "help": "help",
    "?": "help",
    "quit": "quit",
    "q": "quit",
    "exit": "quit",
    "hand": "hand",
    "log": "log",
}
#: Messages to send, by command and short form.
MESSAGES = {
    "hint": "hint",
    "h": "hint",
    "undo": "undo",
    "u": "undo",
    "next": "next",
    "n": "next",
    "rematch": "rematch",
    "r": "rematch",
}
#: Actions without a card, by command and short form.
BARE = {
    "draw": "draw",
    "d": "draw",
    "take": "take",
    "t": "take",
    "pass": "pass",
    "p": "pass",
    "auto": "auto",
    "a": "auto",
    "done": "done",
    "f": "done",
    "biggin": "biggin",
    "b": "biggin",
}
#: Actions that name a card, by command and short form.
WITH_CARD = {
    "discard": "discard",
    "x": "discard",
    "knock": "knock",
    "k": "knock",
    "gin": "gin",
    "g": "gin",
    "layoff": "layoff",
    "l": "layoff",
}

HELP = """\
Commands (short forms in brackets):
  draw (d), take (t), pass (p)      draw from the stock, take the discard, pass the upcard
  discard Kh (x Kh, or just Kh)     discard a card
  knock 7c (k), gin 7c (g)          knock or go gin, discarding that card (no card: the best)
  biggin (b)                        big gin: lay down all eleven cards
  layoff Kh (l), auto (a), done (f) lay off onto the knocker's melds
  hint (h), undo (u)                the expert's ranked hints; take back your last move
  next (n), rematch (r)             the next hand once one is over; a new game once it is over
  hand, log, sheet (s)              your hand, the hand's moves, the score sheet
  help (?), quit (q)                this list; stop (the game is saved)"""


class CommandWordsError(ValueError):
    """A command that cannot be read or is not possible now (the message says why)."""


@dataclass(frozen=True)
class Command:
    """``send`` (``message``), ``knock`` (``action`` without melds: ask which arrangement)
    or ``local`` (``name``: sheet, help, quit, hand, log)."""

    kind: str
    message: Message | None = None
    action: str = ""
    name: str = ""


def error_sentence(exc: CommandWordsError) -> str:
    """The error as the sentence a person reads: a capital first, a full stop last."""
    text = str(exc)
    return f"{text[:1].upper()}{text[1:]}."


def _held(card: str, state: State) -> str:
    """The card, refused in words when the hand the state shows does not hold it."""
    hand = (state.get("view") or {}).get("hand")
    if isinstance(hand, str) and card not in hand.split():
        raise CommandWordsError(f"{pretty(card)} is not in your hand")
    return card


def _not_the_taken_card(card: str, state: State) -> None:
    """Refuse, saying why, the card just taken from the pile (not to be discarded this turn),
    or a card that lays off nowhere."""
    view = state.get("view") or {}
    moves = legal(state)
    if view.get("phase") == "layoff" and "done" in moves and f"layoff {card}" not in moves:
        raise CommandWordsError(f"{pretty(card)} fits none of the knocker's melds")
    if view.get("phase") == "discard" and view.get("taken_card") == card:
        raise CommandWordsError(f"{pretty(card)} was just taken from the pile: not this turn")


#: The most characters of a word not understood that a refusal repeats.
QUOTED = 20


def _quoted(word: str) -> str:
    """A word not understood, quoted as the refusal repeats it: cut after :data:`QUOTED`
    characters (a line pasted by mistake is not printed back whole)."""
    return repr(word if len(word) <= QUOTED else word[: QUOTED - 1] + "…")


def _card(word: str) -> str:
    try:
        return str(Card.parse(word))
    except InvalidNotationError:
        raise CommandWordsError(
            f"{_quoted(word)} is not a card (write it like Kh, 10d or 7♣)"
        ) from None


def best_end(state: State, kind: str, selected: str | None = None) -> str | None:
    """The card to knock (or go gin) with: the selected one when that is possible, else the
    one that leaves the least deadwood (as the page offers), or the only one. None: no such
    move, or (at a table without hints, whose states leave out each discard's deadwood) more
    than one card to choose from, which the player names."""
    moves = legal(state)
    if selected is not None and f"{kind} {selected}" in moves:
        return selected
    view = state.get("view") or {}
    after: Mapping[str, int] = view.get("discard_deadwood") or {}
    cards = [m.split()[1] for m in moves if m.startswith(f"{kind} ")]
    if not cards or ("discard_deadwood" not in view and len(cards) > 1):
        return None
    return min(cards, key=lambda c: after.get(c, 99))


def _split_card(words: list[str]) -> str | None:
    """The card that a rank and a suit typed apart (``q h``) would be, else None."""
    if len(words) != 2 or words[1].lower() not in ("s", "h", "d", "c", "♠", "♥", "♦", "♣"):
        return None
    try:
        return str(Card.parse(words[0] + words[1]))
    except InvalidNotationError:
        return None


def parse_command(text: str, state: State) -> Command:
    """Read one typed command against the current state (raises CommandWordsError)."""
    words = text.split()
    if not words:
        raise CommandWordsError("type a command (help lists them)")
    head, rest = words[0].lower(), words[1:]
    split = _split_card(words)
    if split is not None:  # "q h": a queen meant, not quit (nor "t h" take, "a h" auto)
        raise CommandWordsError(
            f"{_quoted(' '.join(words))} is not a command: a card is one word, {split} for "
            f"{pretty(split)}"
        )
    if head in LOCAL:
        return Command("local", name=LOCAL[head])
    if head in MESSAGES:
        return Command("send", {"type": MESSAGES[head]})
    moves = legal(state)
    if head in BARE:
        action = BARE[head]
        if action not in moves:
            raise CommandWordsError(f"you cannot {action_words(action)} now")
        if action == "biggin":
            return Command("knock", action=action)
        return Command("send", {"type": "action", "action": action})
    if head in WITH_CARD:
        kind = WITH_CARD[head]
        if not rest:
            if kind in ("knock", "gin"):
                card = best_end(state, kind)
                if card is None and any(m.startswith(f"{kind} ") for m in moves):
                    raise CommandWordsError(f"{kind} with which card? e.g. {head} Kh")
                if card is None:
                    raise CommandWordsError(f"you cannot {kind} now")
                return Command("knock", action=f"{kind} {card}")
            verb = "lay off" if kind == "layoff" else kind
            raise CommandWordsError(f"{verb} which card? e.g. {head} Kh")
        card = _held(_card(rest[0]), state)
        action = f"{kind} {card}"
        if kind in ("knock", "gin") and len(rest) > 1:
            action = f"{action} {' '.join(rest[1:])}"  # melds named: sent as they are
            return Command("send", {"type": "action", "action": action})
        if action not in moves:
            _not_the_taken_card(card, state)
            raise CommandWordsError(f"you cannot {action_words(action)} now")
        if kind in ("knock", "gin"):
            return Command("knock", action=action)
        return Command("send", {"type": "action", "action": action})
    if len(words) == 1:  # a card alone: discard it, or lay it off
        try:
            card = str(Card.parse(words[0]))
        except InvalidNotationError:
            raise CommandWordsError(
                f"unknown command {_quoted(words[0])} (help lists them)"
            ) from None
        _held(card, state)
        for kind in ("discard", "layoff"):
            if f"{kind} {card}" in moves:
                return Command("send", {"type": "action", "action": f"{kind} {card}"})
        _not_the_taken_card(card, state)
        raise CommandWordsError(f"{pretty(card)} cannot be discarded or laid off now")
    raise CommandWordsError(f"unknown command {_quoted(words[0])} (help lists them)")


def knock_choices(state: State, action: str) -> list[dict[str, Any]]:
    """The best arrangements to lay down with this knock or gin (the first is the default)."""
    options = (state.get("view") or {}).get("knock_options") or {}
    found: Sequence[dict[str, Any]] = options.get(action) or []
    return list(found)


def knock_action(action: str, choices: Sequence[Mapping[str, Any]], index: int) -> str:
    """The action that lays down arrangement ``index`` (the first needs no naming)."""
    if index <= 0 or index >= len(choices):
        return action
    melds = str(choices[index]["text"]).split("|")[0].strip()
    return action if melds in ("", "-") else f"{action} {melds}"


def arrangement_words(choice: Mapping[str, Any]) -> str:
    """``A♠ 2♠ 3♠ | 7♥ 7♦ 7♣ — deadwood K♦``."""
    melds = "  |  ".join(" ".join(pretty(c) for c in meld) for meld in choice["melds"])
    dead = choice.get("deadwood") or []
    tail = f"  — deadwood {' '.join(pretty(c) for c in dead)}" if dead else "  — no deadwood"
    return (melds or "no melds") + tail


def knock_title(action: str) -> str:
    kind, _, card = action.partition(" ")
    if kind == "gin":
        return f"Go gin, discarding {pretty(card)}?"
    if kind == "biggin":
        return "Big gin: lay down all eleven cards?"
    return f"Knock, discarding {pretty(card)}?"
