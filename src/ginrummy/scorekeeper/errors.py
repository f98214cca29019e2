"""The scorekeeper's exceptions. All are ``ValueError``s, as the engine's are, and each message
is one line that an interface can show as it is."""

from __future__ import annotations


class ScorekeeperError(ValueError):
    """Bad input to the scorekeeper, or a stored game it cannot keep."""


class EntryError(ScorekeeperError):
    """A line that is not a valid entry at the hand prompt."""


class SetupError(ScorekeeperError):
    """An answer that cannot set a new game up: a name, game or match, the first dealer."""


class KeeperError(ScorekeeperError):
    """Entries that cannot be replayed (a database edited by hand, say)."""


class MissingGameError(ScorekeeperError):
    """A game that is not (or no longer) in the store."""


class ImportFileError(ScorekeeperError):
    """A file that cannot be read back as a scorekeeper game; the message names the line (CSV)
    or the field (JSON)."""
