"""The result of one hand and its score under the rules."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .cards import Card
from .errors import check_int, check_seat
from .masks import DEFENDER, KNOCKER, knock_score
from .melds import Arrangement, Meld
from .rules import Rules


class ResultKind(StrEnum):
    KNOCK = "knock"
    GIN = "gin"
    BIG_GIN = "big_gin"
    UNDERCUT = "undercut"
    DEAD = "dead"


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended and who scored what.

    ``points`` are scored by ``winner`` (0 and ``winner`` None for a dead hand, or for a tie
    when ties are not undercuts). ``multiplier`` is 2 for an Oklahoma spade upcard hand and is
    already included in ``points``. Hands played in the engine fill in the arrangements; results
    entered by hand for real-card play (the constructors below) leave them empty.
    """

    kind: ResultKind
    knocker: int | None
    winner: int | None
    points: int
    knocker_deadwood: int = 0
    defender_deadwood: int = 0
    multiplier: int = 1
    knocker_arrangement: Arrangement | None = None
    defender_arrangement: Arrangement | None = None
    #: The defender's layoffs: (card, the knocker's meld it went onto, as laid down).
    layoffs: tuple[tuple[Card, Meld], ...] = ()

    @property
    def loser(self) -> int | None:
        return None if self.winner is None else 1 - self.winner

    @property
    def defender(self) -> int | None:
        return None if self.knocker is None else 1 - self.knocker

    # -- constructors for results entered by hand ------------------------------------------

    @classmethod
    def knock(
        cls,
        rules: Rules,
        knocker: int,
        knocker_deadwood: int,
        defender_deadwood: int,
        multiplier: int = 1,
    ) -> HandResult:
        """A knock: the knocker's deadwood and the defender's after layoffs."""
        knocker = check_seat(knocker, "the knocker")
        knocker_deadwood = _deadwood(knocker_deadwood, "the knocker's deadwood")
        defender_deadwood = _deadwood(defender_deadwood, "the defender's deadwood")
        multiplier = _multiplier(multiplier)
        if knocker_deadwood == 0:
            return cls.gin(rules, knocker, defender_deadwood, multiplier)
        k, d = knocker_deadwood, defender_deadwood
        winner, pts = _score(rules, k, d, multiplier)
        if winner == DEFENDER:
            return cls(ResultKind.UNDERCUT, knocker, 1 - knocker, pts, k, d, multiplier)
        seat = knocker if winner == KNOCKER else None
        return cls(ResultKind.KNOCK, knocker, seat, pts, k, d, multiplier)

    @classmethod
    def gin(
        cls, rules: Rules, knocker: int, defender_deadwood: int, multiplier: int = 1
    ) -> HandResult:
        knocker, defender_deadwood, multiplier = _checked(knocker, defender_deadwood, multiplier)
        _, pts = _score(rules, 0, defender_deadwood, multiplier)
        return cls(ResultKind.GIN, knocker, knocker, pts, 0, defender_deadwood, multiplier)

    @classmethod
    def big_gin(
        cls, rules: Rules, knocker: int, defender_deadwood: int, multiplier: int = 1
    ) -> HandResult:
        knocker, defender_deadwood, multiplier = _checked(knocker, defender_deadwood, multiplier)
        pts = (defender_deadwood + rules.big_gin_bonus) * multiplier
        return cls(ResultKind.BIG_GIN, knocker, knocker, pts, 0, defender_deadwood, multiplier)

    @classmethod
    def dead(cls) -> HandResult:
        return cls(ResultKind.DEAD, None, None, 0)


#: The most deadwood ten cards can hold: two each of K, Q, J, 10 and 9, no three in a run.
MAX_DEADWOOD = 98


def _deadwood(value: int, what: str) -> int:
    return check_int(value, what, 0, MAX_DEADWOOD)


def _multiplier(value: int) -> int:
    return check_int(value, "the multiplier", 1)


def _checked(knocker: int, defender_deadwood: int, multiplier: int) -> tuple[int, int, int]:
    """A gin's or big gin's arguments, checked, as plain ints."""
    return (
        check_seat(knocker, "the knocker"),
        _deadwood(defender_deadwood, "the defender's deadwood"),
        _multiplier(multiplier),
    )


def _score(rules: Rules, knocker_dw: int, defender_dw: int, multiplier: int) -> tuple[int, int]:
    """:func:`~.masks.knock_score` under ``rules``."""
    return knock_score(
        knocker_dw,
        defender_dw,
        rules.gin_bonus,
        rules.undercut_bonus,
        rules.undercut_on_tie,
        multiplier,
    )
