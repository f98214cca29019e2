"""The chance of winning the game from a score, and what a hand's points are worth.

A hand's worth depends on the game score: 20 points matter more at 85-90 than at 0-0. The
model: each hand is won by either player with equal chance, for a number of points drawn from
the distribution measured in hands between two baseline players (knocks of a few points, now
and then an undercut or a gin for 25 or more). :func:`win_table` solves the chance of reaching
the target first from every score by dynamic programming.

:class:`Utility` turns a hand's points into the value the expert maximises. Under rules with no
end-of-game bonus (the EAAI preset) only winning the game counts, so the value is the change
in the chance of winning. Otherwise the final net counts too, so the value is the points won,
plus the box bonus, plus the game bonus weighted by the change in the chance of winning.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from ..engine.rules import Rules

#: Points a hand's winner scores, in buckets (points, chance), measured over simple-vs-simple
#: hands under the EAAI rules (mean about 16).
HAND_POINTS: Final = (
    (2, 0.087),
    (5, 0.148),
    (8, 0.131),
    (11, 0.129),
    (14, 0.097),
    (17, 0.069),
    (21, 0.080),
    (25, 0.078),
    (29, 0.062),
    (34, 0.036),
    (39, 0.033),
    (45, 0.024),
    (52, 0.016),
    (62, 0.011),
)


@lru_cache(maxsize=8)
def win_table(target: int) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance that the player with ``a`` points reaches ``target`` before
    the player with ``b`` (both below the target), each hand a fair coin for who scores."""
    total = sum(p for _, p in HAND_POINTS)
    dist = [(x, p / total / 2) for x, p in HAND_POINTS]
    rows: list[list[float]] = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        row = rows[a]
        for b in range(target - 1, -1, -1):
            v = 0.0
            for x, p in dist:
                v += p * (1.0 if a + x >= target else rows[a + x][b])
                if b + x < target:
                    v += p * row[b + x]
            row[b] = v
    return tuple(tuple(r) for r in rows)


def win_chance(target: int, mine: int, theirs: int) -> float:
    """The chance of winning the game at ``mine`` to ``theirs``."""
    if mine >= target:
        return 1.0 if mine >= theirs or theirs < target else 0.5
    if theirs >= target:
        return 0.0
    return win_table(target)[max(0, mine)][max(0, theirs)]


class Utility:
    """The value of a hand ending with ``(my points, his points)``, at the current score."""

    __slots__ = ("box", "game", "mine", "target", "theirs", "win_only")

    def __init__(
        self, rules: Rules, scores: tuple[int, int], seat: int, *, win_only: bool = False
    ) -> None:
        self.target = max(1, rules.game_target)
        self.mine = scores[seat]
        self.theirs = scores[1 - seat]
        self.box = rules.box_bonus
        self.game = rules.game_bonus
        #: Whether only winning the game counts: under rules with no end-of-game bonus, or
        #: when asked (``win_only``) whatever the bonuses.
        self.win_only = win_only or (
            rules.game_bonus == 0 and rules.box_bonus == 0 and rules.shutout == "none"
        )

    def __call__(self, mine: int, theirs: int) -> float:
        p = win_chance(self.target, self.mine + mine, self.theirs + theirs)
        if self.win_only:
            # In points of a typical game: the whole game is worth the target.
            return 2.0 * self.target * p
        value = 2.0 * self.game * p + mine - theirs
        if mine:
            value += self.box
        elif theirs:
            value -= self.box
        return value
