"""The engine's exceptions, and the checks of its whole-number arguments.

Every error the engine raises for bad input is a :class:`GinRummyError`, itself a ``ValueError``,
so a caller catches bad input in one place and a program that already catches ``ValueError``
keeps working. An argument of the wrong kind or out of range (a seat that is not 0 or 1, a
negative deadwood count) raises :class:`InvalidArgumentError` saying which argument and what it
was, through :func:`check_seat` and :func:`check_int`, the same way in every module.

Whole numbers are read with ``operator.index``, so anything that is an integer (a plain ``int``,
``numpy.int64``) is accepted and stored as a plain ``int``: a seat from a numpy array deals a
hand whose dealer later goes into JSON or compares by type like any other. Floats (``1.0``) and
text (``"1"``) are refused, as are ``True`` and ``False``: ``operator.index(True)`` is 1, but a
flag given where a seat or a count belongs is a mistake, not a number.

>>> check_seat(1)
1
>>> check_seat(True, "the dealer")
Traceback (most recent call last):
  ...
ginrummy.engine.errors.InvalidArgumentError: the dealer must be seat 0 or 1, not True
>>> check_int(-3, "the knocker's deadwood", 0, 98)
Traceback (most recent call last):
  ...
ginrummy.engine.errors.InvalidArgumentError: the knocker's deadwood must be between 0 and 98, not -3
"""

from __future__ import annotations

import operator
from typing import SupportsIndex


class GinRummyError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidNotationError(GinRummyError):
    """Text that is not valid card, meld or action notation."""


class IllegalActionError(GinRummyError):
    """An action that the rules do not allow in the current state."""


class InvalidArgumentError(GinRummyError):
    """An argument of the wrong kind or out of range: a seat that is not 0 or 1, a count that
    is not a whole number or is out of its range."""


class InvalidRulesError(InvalidArgumentError):
    """A rule option with an impossible value."""


class RulesWordError(InvalidRulesError):
    """A word of rules written as text (``"classic gin_bonus=20"``) that names no preset or
    option, or gives an option a value it cannot take. ``word`` is that word as written, so an
    interface can point at it; the message names it too."""

    def __init__(self, message: str, word: str = "") -> None:
        super().__init__(message)
        self.word = word


def check_seat(value: object, what: str = "the player") -> int:
    """``value`` as a plain ``int`` seat, 0 or 1; :class:`InvalidArgumentError` naming ``what``
    otherwise (see the module's notes on which values are whole numbers)."""
    if type(value) is int and 0 <= value <= 1:  # the usual case, first: seats are read often
        return value
    seat = _whole(value)
    if seat is None or not 0 <= seat <= 1:
        raise InvalidArgumentError(f"{what} must be seat 0 or 1, not {value!r}")
    return seat


def check_int(
    value: object,
    what: str,
    low: int | None = None,
    high: int | None = None,
    why: str = "",
    error: type[InvalidArgumentError] = InvalidArgumentError,
) -> int:
    """``value`` as a plain ``int`` within ``low``..``high`` (either may be open); ``error``
    (an :class:`InvalidArgumentError`) naming ``what`` otherwise, with ``why`` after a range
    message."""
    number = _whole(value)
    if number is None:
        raise error(f"{what} must be a whole number, not {value!r}")
    if (low is not None and number < low) or (high is not None and number > high):
        if high is None:
            span = f"at least {low}"
        elif low is None:
            span = f"at most {high}"
        else:
            span = f"between {low} and {high}"
        raise error(f"{what} must be {span}, not {number}{why}")
    return number


def _whole(value: object) -> int | None:
    """``value`` as a plain int, or None when it is not a whole number (bools are not)."""
    if type(value) is int:
        return value
    if isinstance(value, bool) or not isinstance(value, SupportsIndex):
        return None
    return int(operator.index(value))  # a plain int, even from an int subclass
