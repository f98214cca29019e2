"""Rulings on irregularities in real-card play (RULES.md, "Irregularities"; seed 000).

A scorekeeper describes what went wrong and gets the ruling back as data. Seats are 0 and 1.

>>> wrong_dealer(dealt_by=1, upcard_turned=False, choice="redeal").remedy
<Remedy.REDEAL_RIGHT_DEALER: 'redeal_right_dealer'>
>>> print(parse_irregularity("irregular hand 1 after draw", dealer=0).explanation)
Seat 1 holds the wrong number of cards, found after the non-dealer's first draw: seat 0, \
whose hand is correct, chooses a new deal by seat 0 or to play on.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum

from .errors import InvalidArgumentError, InvalidNotationError, check_int, check_seat


class IrregularityError(InvalidArgumentError):
    """An irregularity described with impossible or contradictory facts. (A seat that is not
    0 or 1 raises InvalidArgumentError itself, as everywhere in the engine.)"""


class Remedy(StrEnum):
    """What happens next: the remedy a ruling gives (not a move of play, which is an
    :class:`~ginrummy.engine.actions.Action`)."""

    #: The same dealer shuffles and deals again.
    REDEAL_SAME_DEALER = "redeal_same_dealer"
    #: The deal is abandoned and the player whose turn it was to deal deals.
    REDEAL_RIGHT_DEALER = "redeal_right_dealer"
    #: The deal counts as it is; play goes on.
    DEAL_STANDS = "deal_stands"
    #: ``chooser`` picks one of ``options``; ask, then rule again with the choice.
    PLAYER_CHOOSES = "player_chooses"
    #: Play goes on; ``corrector`` fixes his hand by drawing without discarding, or
    #: discarding without drawing.
    PLAY_ON_CORRECT_HAND = "play_on_correct_hand"


class Choice(StrEnum):
    """The choice a player may have: throw the deal in, or go on with it."""

    REDEAL = "redeal"
    PLAY_ON = "play on"


@dataclass(frozen=True, slots=True)
class Ruling:
    """A ruling. ``dealer`` is whose deal the hand is then played on: the new dealer for a
    redeal, the one who dealt when play goes on, None while a player still has to choose.
    ``surplus`` is how many cards the wrong hand has too many (negative: too few), when known.
    """

    remedy: Remedy
    explanation: str
    dealer: int | None = None
    chooser: int | None = None
    options: tuple[Remedy, ...] = ()
    corrector: int | None = None
    surplus: int | None = None

    @property
    def redeal(self) -> bool:
        """Whether the cards are dealt again."""
        return self.remedy in (Remedy.REDEAL_SAME_DEALER, Remedy.REDEAL_RIGHT_DEALER)


def wrong_dealer(dealt_by: int, upcard_turned: bool, choice: Choice | str | None = None) -> Ruling:
    """The wrong player dealt. Before the upcard is turned the opponent (the right dealer) may
    stop the deal and deal himself (``choice`` REDEAL) or let it stand (PLAY_ON); without a
    choice the ruling is that he chooses. Once the upcard is turned the deal stands.
    """
    wrong = _seat(dealt_by, "dealt_by")
    right = 1 - wrong
    made = _choice(choice)
    if _flag(upcard_turned, "upcard_turned"):
        if made is not None:
            raise IrregularityError("once the upcard is turned the deal stands: there is no choice")
        why = f"Seat {wrong} dealt out of turn, found after the upcard was turned: the deal stands."
        return Ruling(Remedy.DEAL_STANDS, why, dealer=wrong)
    found = f"Seat {wrong} dealt out of turn, found before the upcard was turned"
    if made is Choice.REDEAL:
        why = f"{found}: seat {right} stops the deal and deals."
        return Ruling(Remedy.REDEAL_RIGHT_DEALER, why, dealer=right)
    if made is Choice.PLAY_ON:
        why = f"{found}: seat {right} lets the deal stand."
        return Ruling(Remedy.DEAL_STANDS, why, dealer=wrong)
    why = f"{found}: seat {right}, the right dealer, may stop the deal and deal, or let it stand."
    options = (Remedy.REDEAL_RIGHT_DEALER, Remedy.DEAL_STANDS)
    return Ruling(Remedy.PLAYER_CHOOSES, why, chooser=right, options=options)


def exposed_card(dealer: int, *, in_dealing: bool = False) -> Ruling:
    """A face-up card found in the pack before the upcard was turned, or (``in_dealing``) a card
    exposed in dealing: the same dealer deals again. The rules do not cover a face-up card
    found later, once the upcard is turned.
    """
    seat = _seat(dealer, "dealer")
    found = (
        "A card was exposed in dealing"
        if _flag(in_dealing, "in_dealing")
        else "A face-up card was found in the pack before the upcard was turned"
    )
    why = f"{found}: seat {seat} deals again."
    return Ruling(Remedy.REDEAL_SAME_DEALER, why, dealer=seat)


def irregular_hand(
    dealer: int,
    wrong_seats: Iterable[int],
    first_draw_made: bool,
    choice: Choice | str | None = None,
    surplus: int | None = None,
) -> Ruling:
    """A hand with the wrong number of cards. Found before the non-dealer's first draw, or with
    both hands wrong: a new deal by the same dealer. Otherwise the player whose hand is correct
    chooses a new deal (``choice`` REDEAL) or to play on (PLAY_ON), when the wrong hand is
    corrected by drawing without discarding or discarding without drawing.
    """
    seat = _seat(dealer, "dealer")
    wrong = _seats(wrong_seats)
    after = _flag(first_draw_made, "first_draw_made")
    made = _choice(choice)
    extra = _surplus(surplus, len(wrong))
    if len(wrong) == 2:
        holds = "Both players hold the wrong number of cards"
    else:
        holds = f"Seat {wrong[0]} holds {_count(extra)}"
    timing = "after" if after else "before"
    found = f"{holds}, found {timing} the non-dealer's first draw"
    if not after or len(wrong) == 2:
        if made is not None:
            raise IrregularityError(
                "there is no choice: the rules call for a new deal when a wrong hand is found "
                "before the non-dealer's first draw, or when both hands are wrong"
            )
        why = f"{found}: new deal by seat {seat}."
        return Ruling(Remedy.REDEAL_SAME_DEALER, why, dealer=seat, surplus=extra)
    bad = wrong[0]
    good = 1 - bad
    if made is Choice.REDEAL:
        why = f"{found}: seat {good}, whose hand is correct, calls for a new deal by seat {seat}."
        return Ruling(Remedy.REDEAL_SAME_DEALER, why, dealer=seat, surplus=extra)
    if made is Choice.PLAY_ON:
        why = (
            f"{found}: seat {good}, whose hand is correct, plays on; "
            f"seat {bad} corrects his hand by {_fix(extra)}."
        )
        return Ruling(Remedy.PLAY_ON_CORRECT_HAND, why, dealer=seat, corrector=bad, surplus=extra)
    why = (
        f"{found}: seat {good}, whose hand is correct, chooses a new deal by seat {seat} "
        "or to play on."
    )
    options = (Remedy.REDEAL_SAME_DEALER, Remedy.PLAY_ON_CORRECT_HAND)
    return Ruling(Remedy.PLAYER_CHOOSES, why, chooser=good, options=options, surplus=extra)


# -- the scorekeeper's short forms ---------------------------------------------------------------

FORMS = (
    "wrong dealer [before upcard | after upcard] [redeal | play on]",
    "exposed card [in dealing | in pack]",
    "irregular hand <seat | 0 1 | both> [before draw | after draw] [redeal | play on] [+N | -N]",
)

_KINDS: dict[tuple[str, ...], str] = {
    ("wrong", "dealer"): "dealer",
    ("exposed", "card"): "exposed",
    ("faced", "card"): "exposed",
    ("irregular", "hand"): "hand",
    ("irregular", "hands"): "hand",
    ("wrong", "hand"): "hand",
}
_FILLER = frozenset({"the", "and", "&", "in", "seat", "seats", "first"})
_CHOICE_WORDS = {
    "redeal": Choice.REDEAL,
    "stop": Choice.REDEAL,
    "stand": Choice.PLAY_ON,
    "play": Choice.PLAY_ON,
}


def parse_irregularity(text: str, dealer: int) -> Ruling:
    """Rule on a short form (see ``FORMS``); ``dealer`` is the seat that dealt the hand.

    A wrong dealer is taken as caught before the upcard and a wrong hand as found before
    the first draw unless the text says ``after``.
    """
    if not isinstance(text, str):
        raise InvalidNotationError(f"an irregularity must be text, not {text!r}")
    words = [w for w in text.lower().replace(",", " ").split() if w not in _FILLER]
    kind = _KINDS.get(tuple(words[:2]))
    if kind is None:
        raise _unknown(text)
    rest = words[2:]
    after: bool | None = None
    choice: Choice | None = None
    seats: list[int] = []
    surplus: int | None = None
    in_dealing: bool | None = None
    timing_noun = {"dealer": "upcard", "hand": "draw"}.get(kind)
    i = 0
    while i < len(rest):
        word, following = rest[i], rest[i + 1] if i + 1 < len(rest) else ""
        if word in ("before", "after") and following == timing_noun and after is None:
            after, i = word == "after", i + 2
        elif word in _CHOICE_WORDS and kind != "exposed" and choice is None:
            choice = _CHOICE_WORDS[word]
            i += 2 if word == "play" and following == "on" else 1
        elif word in ("0", "1", "both") and kind == "hand":
            seats += [0, 1] if word == "both" else [int(word)]
            i += 1
        elif word[:1] in "+-" and word[1:].isdigit() and kind == "hand" and surplus is None:
            surplus, i = int(word), i + 1
        elif (
            word in ("dealing", "deal", "pack", "deck") and kind == "exposed" and in_dealing is None
        ):
            in_dealing, i = word in ("dealing", "deal"), i + 1
        else:
            raise _unknown(text, word)
    if kind == "dealer":
        return wrong_dealer(dealer, bool(after), choice)
    if kind == "exposed":
        return exposed_card(dealer, in_dealing=bool(in_dealing))
    if not seats:
        raise InvalidNotationError(f"say whose hand is wrong (0, 1 or both) in {text!r}")
    return irregular_hand(dealer, seats, bool(after), choice, surplus)


# -- checks and words ----------------------------------------------------------------------------


def _unknown(text: str, word: str | None = None) -> InvalidNotationError:
    what = f"unexpected {word!r} in {text!r}" if word else f"unknown irregularity {text!r}"
    return InvalidNotationError(f"{what}; the forms are: " + "; ".join(FORMS))


def _seat(value: object, name: str) -> int:
    return check_seat(value, name)


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise IrregularityError(f"{name} must be true or false, not {value!r}")
    return value


def _seats(values: Iterable[int]) -> tuple[int, ...]:
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise IrregularityError(f"wrong_seats must be a collection of seats, not {values!r}")
    seats = [_seat(v, "each wrong seat") for v in values]
    if not seats:
        raise IrregularityError("name at least one seat whose hand is wrong")
    if len(set(seats)) != len(seats):
        raise IrregularityError(f"a seat is named twice in wrong_seats: {seats}")
    return tuple(sorted(seats))


def _choice(value: object) -> Choice | None:
    if value is None or isinstance(value, Choice):
        return value
    if isinstance(value, str):
        try:
            return Choice(value.strip().lower())
        except ValueError:
            pass
    raise IrregularityError(f"the choice must be 'redeal' or 'play on', not {value!r}")


def _surplus(value: object, wrong: int) -> int | None:
    if value is None:
        return None
    why = "how many cards too many (or, negative, too few)"
    surplus = check_int(value, f"surplus ({why})", error=IrregularityError)
    if surplus == 0:
        raise IrregularityError(f"surplus is {why}, not 0")
    if wrong != 1:
        raise IrregularityError("give a surplus only when one hand is wrong")
    return surplus


def _count(surplus: int | None) -> str:
    if surplus is None:
        return "the wrong number of cards"
    n = abs(surplus)
    return f"{n} card{'s' if n != 1 else ''} too {'many' if surplus > 0 else 'few'}"


def _fix(surplus: int | None) -> str:
    if surplus is None:
        return "drawing without discarding, or discarding without drawing"
    n = abs(surplus)
    cards = f"{n} card{'s' if n != 1 else ''}"
    if surplus > 0:
        return f"discarding {cards} without drawing"
    return f"drawing {cards} without discarding"
