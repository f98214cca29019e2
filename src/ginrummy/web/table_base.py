"""What the parts of a table share.

:class:`~.tables.Table` is put together from parts, each a base class of it in a module of
its own so that each reads alone: the hands, their scoring, the writing of each step and
deal and undo (:mod:`.tables`), the move clock with the away allowance, its stored fairness
and the requests for the next hand (:mod:`.table_clock`), and the messages that tell each
seat the table's state (:mod:`.table_states`). :class:`TableBase` is the base of every
part: it declares the table's state they share (the fields of the ``Table`` dataclass,
which alone makes them fields: the parts hold methods only) and, for the type checker
only, the calls one part makes into another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine import Hand, Rules
    from ..engine.game import Game
    from ..engine.match import Match
    from .dealing import Deal
    from .tables import Options

COMPUTER_SEAT = 1
#: The seat whose link the creator of a friend table sends out as an invite (the friend's).
INVITED = 1


class TableBase:
    """A table's shared state and the calls between its parts: see the module docstring."""

    id: str
    rules: Rules
    names: tuple[str, str]
    options: Options
    scoring: Game | Match
    hand: Hand | None
    deal: Deal | None
    hand_number: int
    finished: bool
    abandoned: bool
    version: int
    updated: float
    deadline: float | None
    clock_held: float | None
    held_at: float | None
    came: list[bool]
    away_left: list[float]
    ready: set[int]
    ready_since: float | None
    invite_from: str | None
    ready_deadline: float | None
    clock_moves: list[int]
    fairness_stored: tuple[Any, ...] | None
    fairness_pending: tuple[Any, ...] | None
    present: list[int]
    moves: list[int]
    _fixed: dict[str, Any] | None
    _sheet: tuple[tuple[int, bool], dict[str, Any]] | None

    if TYPE_CHECKING:
        # The hands (tables.py)
        @property
        def game(self) -> Game: ...

        @property
        def game_shown(self) -> Game: ...

        @property
        def vs_computer(self) -> bool: ...

        def can_undo(self, seat: int | None) -> bool: ...

        # The move clock (table_clock.py)
        def hold_clock(self) -> bool: ...

        # What a seat sees (table_states.py)
        def connected(self) -> list[bool]: ...
