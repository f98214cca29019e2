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
Under Hollywood scoring three games are played at once, and a win counts in every game its
winner has scored in and in his next: given the score columns, each open game is valued so and
the games are added up.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from ..engine.rules import Rules
from ..engine.scoring import Column, column_targets

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


#: A side's hands as ``(points, share of all hands)`` pairs: what it scores, and how often.
#: The shares of both sides add up to at most 1; the rest are dead hands, dealt again.
Points = tuple[tuple[int, float], ...]


def _even() -> Points:
    total = sum(p for _, p in HAND_POINTS)
    return tuple((x, p / total / 2) for x, p in HAND_POINTS)


#: The even model: each hand a fair coin for who scores, the points as in :data:`HAND_POINTS`.
EVEN: Final = _even()


def bucket_points(points: list[int], hands: int) -> Points:
    """A side's :data:`Points` from the points of each hand it won, out of ``hands`` hands
    in all: each count goes to the nearest of :data:`HAND_POINTS`' buckets (the lower of two
    as near)."""
    counts = [0] * len(HAND_POINTS)
    for x in points:
        k = min(range(len(HAND_POINTS)), key=lambda i: (abs(HAND_POINTS[i][0] - x), i))
        counts[k] += 1
    return tuple((x, c / max(1, hands)) for (x, _), c in zip(HAND_POINTS, counts, strict=True))


#: The expert's hands and his, as the expert (768 worlds) meets ``simple`` under the EAAI
#: rules (2,000 single hands at 0-0, 2026-12-07; ``benchmarks/hand_points.py --agent expert
#: --deals 1000 --seed 180001``): it wins 51% of the hands, nearly all of them by gin or
#: undercut, 30.3 points a hand won against his 15.1, so :func:`win_table` gives it 84% of
#: games from 0-0 (the arena: 85%). Measured again whenever the expert's hands change: the
#: expert values a hand's ending by what its own hands make of the score.
AHEAD: Final[tuple[Points, Points]] = (
    (
        (2, 0.0085),
        (5, 0.016),
        (8, 0.0085),
        (11, 0.019),
        (14, 0.0105),
        (17, 0.0185),
        (21, 0.017),
        (25, 0.1225),
        (29, 0.11),
        (34, 0.0585),
        (39, 0.044),
        (45, 0.032),
        (52, 0.031),
        (62, 0.018),
    ),
    (
        (2, 0.085),
        (5, 0.081),
        (8, 0.051),
        (11, 0.043),
        (14, 0.0415),
        (17, 0.04),
        (21, 0.036),
        (25, 0.0245),
        (29, 0.021),
        (34, 0.0215),
        (39, 0.0155),
        (45, 0.013),
        (52, 0.004),
        (62, 0.006),
    ),
)


@lru_cache(maxsize=16)
def hand_model(edge: float) -> tuple[Points, Points]:
    """The hands (this player's, the other's) ``edge`` of the way from :data:`EVEN` to
    :data:`AHEAD`: each bucket's share mixed ``1 - edge`` to ``edge`` (0: the even model)."""
    if edge == 0:
        return EVEN, EVEN
    mine, theirs = AHEAD

    def mix(ahead: Points) -> Points:
        return tuple(
            (x, (1.0 - edge) * p + edge * q) for (x, p), (_, q) in zip(EVEN, ahead, strict=True)
        )

    return mix(mine), mix(theirs)


@lru_cache(maxsize=16)
def win_table(
    target: int, mine: Points = EVEN, theirs: Points = EVEN
) -> tuple[tuple[float, ...], ...]:
    """``table[a][b]``: the chance that the player with ``a`` points reaches ``target`` before
    the player with ``b`` (both below the target), each hand scored for him by ``mine``, for
    the other by ``theirs``, or dead (dealt again) otherwise."""
    dead = 1.0 - sum(p for _, p in mine) - sum(p for _, p in theirs)
    scale = 1.0 / (1.0 - dead) if dead < 1.0 else 0.0
    ours = [(x, p * scale) for x, p in mine]
    his = [(x, p * scale) for x, p in theirs]
    rows: list[list[float]] = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        row = rows[a]
        for b in range(target - 1, -1, -1):
            v = 0.0
            for x, p in ours:
                v += p * (1.0 if a + x >= target else rows[a + x][b])
            for x, p in his:
                if b + x < target:
                    v += p * row[b + x]
            row[b] = v
    return tuple(tuple(r) for r in rows)


def win_chance(
    target: int, mine: int, theirs: int, model: Points = EVEN, against: Points = EVEN
) -> float:
    """The chance of winning the game at ``mine`` to ``theirs``, hands scored by ``model``
    for this player and ``against`` for the other (the even model by default)."""
    if mine >= target:
        return 1.0 if mine >= theirs or theirs < target else 0.5
    if theirs >= target:
        return 0.0
    return win_table(target, model, against)[max(0, mine)][max(0, theirs)]


def only_game(rules: Rules) -> bool:
    """Whether the game has no end-of-game bonus under ``rules`` (the EAAI preset), so that
    a game on its own is only won or lost."""
    return rules.game_bonus == 0 and rules.box_bonus == 0 and rules.shutout == "none"


def for_the_game(rules: Rules, win_game: bool = True, *, match: bool = False) -> bool:
    """Whether a player with the setting ``win_game`` values a hand's ending by the chance of
    winning the game alone under ``rules``: so unless the rules set a stake (then the money
    is the final net, points and bonuses together) or the game is one of a ``match`` (whose
    match points are the games' nets added up). Otherwise rules without bonuses have only
    the game whatever ``win_game`` says (:func:`only_game`); with a stake or in a match their
    net is the points alone."""
    if rules.stake != 0 or match:
        return False
    return win_game or only_game(rules)


class Utility:
    """The value of a hand ending with ``(my points, his points)``, at the current score.

    Under Hollywood scoring, given the game's score ``columns`` (:attr:`PlayerView.columns
    <ginrummy.engine.views.PlayerView.columns>`), each open column is valued as one game is
    (its game bonus weighted by the chance of winning it, plus the points and the box the hand
    scores in it), and the columns are added up, as the game's net adds them: a win counts in
    every column its winner has entered and in the next he has not, so the same points can be
    worth once to one player and three times to the other. Without the columns a Hollywood
    hand is worth its points and box once.
    """

    __slots__ = (
        "against",
        "box",
        "game",
        "hand_only",
        "mine",
        "model",
        "open_columns",
        "points_only",
        "target",
        "theirs",
        "win_only",
    )

    def __init__(
        self,
        rules: Rules,
        scores: tuple[int, int],
        seat: int,
        *,
        win_only: bool | None = None,
        hand_only: bool = False,
        model: tuple[Points, Points] = (EVEN, EVEN),
        columns: Sequence[Column] = (),
    ) -> None:
        #: The hands of the rest of the game, this player's and the other's (:func:`win_table`).
        self.model, self.against = model
        self.target = max(1, rules.game_target)
        self.mine = scores[seat]
        self.theirs = scores[1 - seat]
        self.box = rules.box_bonus
        self.game = rules.game_bonus
        #: Under Hollywood scoring, the open columns as ``(my points, his points, whether my
        #: win would count in it, whether his would)`` (empty without ``columns``).
        self.open_columns = _open_columns(columns, seat) if rules.hollywood else ()
        #: Whether only winning the game counts: when asked (``win_only``, as
        #: :func:`for_the_game` decides), whatever the bonuses; by default (None) under rules
        #: with no end-of-game bonus (:func:`only_game`), where ``win_only=False`` values an
        #: ending by its points (the net that a stake or a match counts).
        #: Under Hollywood scoring without its columns, the score a view is given sums three
        #: games, each with its own target, so no one game's chance can be read from it: a
        #: hand's ending is worth its points (and box), which count in every game they are
        #: scored in.
        self.points_only = rules.hollywood and not self.open_columns
        #: Whether the hand is all there is (single-hand play, as in OpenSpiel's or RLCard's
        #: game, asked for with ``hand_only``): its points, and nothing of boxes or games.
        self.hand_only = hand_only
        game = only_game(rules) if win_only is None else win_only
        self.win_only = not (rules.hollywood or hand_only) and game

    def __call__(self, mine: int, theirs: int) -> float:
        if self.hand_only:
            return float(mine - theirs)
        if self.open_columns:
            return self._columns(mine, theirs)
        if self.points_only:
            return float(mine - theirs + (self.box if mine else -self.box if theirs else 0))
        p = win_chance(
            self.target, self.mine + mine, self.theirs + theirs, self.model, self.against
        )
        if self.win_only:
            # In points of a typical game: the whole game is worth the target.
            return 2.0 * self.target * p
        value = 2.0 * self.game * p + mine - theirs
        if mine:
            value += self.box
        elif theirs:
            value -= self.box
        return value

    def _columns(self, mine: int, theirs: int) -> float:
        value = 0.0
        for my_score, his_score, my_entry, his_entry in self.open_columns:
            if mine and my_entry:
                my_score += mine
                value += mine + self.box
            elif theirs and his_entry:
                his_score += theirs
                value -= theirs + self.box
            value += (
                2.0
                * self.game
                * win_chance(self.target, my_score, his_score, self.model, self.against)
            )
        return value


def _open_columns(columns: Sequence[Column], seat: int) -> tuple[tuple[int, int, bool, bool], ...]:
    """The open columns for :class:`Utility`, with whether a win by this player and by the
    other would count in each (:func:`~ginrummy.engine.scoring.column_targets`; a player has
    scored in a column when he has won a hand in it)."""
    mine, his = (
        column_targets(columns, {i for i, c in enumerate(columns) if c.wins[s] > 0})
        for s in (seat, 1 - seat)
    )
    return tuple(
        (c.points[seat], c.points[1 - seat], i in mine, i in his)
        for i, c in enumerate(columns)
        if not c.is_over
    )
