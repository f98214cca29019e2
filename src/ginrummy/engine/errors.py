"""The engine's exceptions. All are ``ValueError``s so callers can catch bad input in one place."""

from __future__ import annotations


class GinRummyError(ValueError):
    """Base class of every error the engine raises for bad input."""


class InvalidNotationError(GinRummyError):
    """Text that is not valid card, meld or action notation."""


class IllegalActionError(GinRummyError):
    """An action that the rules do not allow in the current state."""


class InvalidRulesError(GinRummyError):
    """A rule option with an impossible value."""


class RulesWordError(InvalidRulesError):
    """A word of rules written as text (``"classic gin_bonus=20"``) that names no preset or
    option, or gives an option a value it cannot take. ``word`` is that word as written, so an
    interface can point at it; the message names it too."""

    def __init__(self, message: str, word: str = "") -> None:
        super().__init__(message)
        self.word = word
