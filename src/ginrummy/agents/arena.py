"""The arena: two agents play whole games, every deal twice with the seats swapped.

Pair ``i`` plays game ``i`` with A in seat 0 and B in seat 1, then the same game seed with B in
seat 0 and A in seat 1, so both agents are dealt the same cards (until the games part ways).
The summary treats each mirrored pair as one observation, worth A's wins in the pair divided by
two, and gives A's win rate with a 95% t-interval over the pairs: the pairing takes the luck of
the deal out of the comparison, which a per-game interval would ignore. The interval is worked
out with one lost and one won pair added (Agresti and Coull's "two wins and two losses", in
games), so that a few pairs, or pairs that all ended alike, give an honest wide interval rather
than a point (3 pairs all won: 24.5% to 100%, not 100% to 100%); over hundreds of pairs the two
added ones change it by a fraction of a point.

With ``match`` each side of a pair is a whole match to ``rules.match_target`` from the pair's
seed (:func:`~.play.play_match`), and the win rate is A's share of the matches.
"""

from __future__ import annotations

import dataclasses
import math
import os
import statistics
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing import get_context
from typing import Any, Final

from ..engine import ResultKind, Rules
from ..engine.game import derived_seed
from .play import play_game, play_match
from .registry import get_agent

#: Two-sided 95% quantiles of Student's t for 1..30 degrees of freedom.
_T975: Final = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)  # fmt: skip
_Z975: Final = 1.959963984540054


def t_quantile_975(df: int) -> float:
    """The 97.5% quantile of Student's t with ``df`` degrees of freedom (a table to 30, then
    the Cornish-Fisher expansion, accurate to 1e-4)."""
    if df < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {df}")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


@dataclass(frozen=True)
class Interval:
    """A mean and its 95% confidence interval."""

    mean: float
    low: float
    high: float


#: The pairs added to the observed ones before the interval is worked out: one lost, one won.
PRIOR_PAIRS: Final = (0.0, 1.0)


def paired_interval(values: Sequence[float]) -> Interval:
    """The mean of the per-pair values (each 0 to 1) and its 95% interval: Student's t over
    the values with :data:`PRIOR_PAIRS` added, about the mean of them all, clipped to [0, 1].

    The added pairs keep the interval honest where a plain t-interval collapses to a point
    (pairs that all ended alike have no variance) and make it about Wilson's score interval
    when every pair went one way; with many pairs they hardly move it.
    """
    if not values:
        raise ValueError("no values")
    padded = [*values, *PRIOR_PAIRS]
    centre = statistics.fmean(padded)
    half = t_quantile_975(len(padded) - 1) * statistics.stdev(padded) / math.sqrt(len(padded))
    return Interval(statistics.fmean(values), max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between order statistics."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    low = math.floor(pos)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (pos - low)


# ---------------------------------------------------------------------------------------------
# Playing


@dataclass(frozen=True)
class GameStats:
    """One arena game from agent A's side; pairs of numbers are (A, B)."""

    seed: int
    a_seat: int
    score: float  # 1 when A won the game (or match), 0 when B did, 0.5 when neither
    hands: int
    points: tuple[int, int]  # hand points scored
    gins: tuple[int, int]
    big_gins: tuple[int, int]
    knocks: tuple[int, int]  # knocks that won the hand
    undercuts: tuple[int, int]  # hands won by undercutting the other's knock
    dead: int
    ties: int  # tied knocks that scored nothing (``undercut_on_tie`` off)
    times: tuple[tuple[float, ...], tuple[float, ...]]


@dataclass(frozen=True)
class PairResult:
    """A mirrored pair: the same game seed with A in seat 0, then in seat 1."""

    index: int
    seed: int
    games: tuple[GameStats, GameStats]

    @property
    def value(self) -> float:
        """A's wins in the pair divided by two: the pair's single observation."""
        return (self.games[0].score + self.games[1].score) / 2

    def to_dict(self) -> dict[str, Any]:
        """The pair as plain JSON data (an arena log's line); :meth:`from_dict` reads it back."""
        return {
            "index": self.index,
            "seed": self.seed,
            "games": [dataclasses.asdict(game) for game in self.games],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PairResult:
        """The pair :meth:`to_dict` wrote; ``ValueError`` when the data is not one."""
        try:
            games = tuple(_game_from_dict(game) for game in data["games"])
            index, seed = data["index"], data["seed"]
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not an arena pair: {exc!r}") from None
        if len(games) != 2 or type(index) is not int or type(seed) is not int:
            raise ValueError("not an arena pair: it needs an index, a seed and two games")
        return cls(index, seed, (games[0], games[1]))


def _game_from_dict(data: dict[str, Any]) -> GameStats:
    fields = {field.name for field in dataclasses.fields(GameStats)}
    if set(data) != fields:
        raise ValueError(f"not an arena game: fields {sorted(set(data) ^ fields)}")
    pairs = ("points", "gins", "big_gins", "knocks", "undercuts")
    return GameStats(
        **{
            **data,
            **{name: (int(data[name][0]), int(data[name][1])) for name in pairs},
            "times": (tuple(map(float, data["times"][0])), tuple(map(float, data["times"][1]))),
        }
    )


def pair_seed(seed: int, index: int) -> int:
    """The game seed of pair ``index`` of an arena run with ``seed``."""
    return derived_seed(seed, f"arena:{index}")


def play_pair(
    a: str, b: str, rules: Rules, seed: int, index: int, *, match: bool = False
) -> PairResult:
    """Play pair ``index``: A in seat 0, then the same seed with A in seat 1 (whole matches to
    ``rules.match_target`` with ``match``, each side's stats summed over the match's games)."""
    game_seed = pair_seed(seed, index)
    first = _game_stats(a, b, rules, game_seed, 0, match)
    second = _game_stats(a, b, rules, game_seed, 1, match)
    return PairResult(index, game_seed, (first, second))


def _play_pair_task(task: tuple[str, str, dict[str, Any], int, int, bool]) -> PairResult:
    a, b, rules, seed, index, match = task
    return play_pair(a, b, Rules.from_dict(rules), seed, index, match=match)


def _game_stats(a: str, b: str, rules: Rules, seed: int, a_seat: int, match: bool) -> GameStats:
    seats = (a, b) if a_seat == 0 else (b, a)
    outcome = (play_match if match else play_game)(rules, seats, seed)
    b_seat = 1 - a_seat
    counts = {kind: [0, 0] for kind in ResultKind}
    points = [0, 0]
    ties = 0
    for result in outcome.results:
        if result.winner is None:
            ties += result.kind is not ResultKind.DEAD
            counts[ResultKind.DEAD][0] += result.kind is ResultKind.DEAD
            continue
        side = 0 if result.winner == a_seat else 1
        counts[result.kind][side] += 1
        points[side] += result.points
    score = 0.5 if outcome.winner is None else float(outcome.winner == a_seat)

    def pair(kind: ResultKind) -> tuple[int, int]:
        return counts[kind][0], counts[kind][1]

    return GameStats(
        seed=seed,
        a_seat=a_seat,
        score=score,
        hands=len(outcome.results),
        points=(points[0], points[1]),
        gins=pair(ResultKind.GIN),
        big_gins=pair(ResultKind.BIG_GIN),
        knocks=pair(ResultKind.KNOCK),
        undercuts=pair(ResultKind.UNDERCUT),
        dead=counts[ResultKind.DEAD][0],
        ties=ties,
        times=(outcome.times[a_seat], outcome.times[b_seat]),
    )


def run_arena(
    a: str,
    b: str,
    *,
    pairs: int,
    rules: Rules,
    seed: int,
    jobs: int = 1,
    on_pair: Callable[[PairResult], None] | None = None,
    done: Mapping[int, PairResult] | None = None,
    match: bool = False,
) -> ArenaSummary:
    """Play ``pairs`` mirrored pairs (``2 * pairs`` games; with ``match``, whole matches to
    ``rules.match_target``) of A against B and summarize them.

    ``jobs`` worker processes play the pairs (0: one per CPU core); ``on_pair`` is called in the
    calling process as each pair finishes, in any order. Pairs in ``done`` (by index: those of
    an earlier run of the same players, rules and seed) are counted as they are, not played
    again, and not passed to ``on_pair``.
    """
    if pairs < 1:
        raise ValueError(f"the arena needs at least one pair of games, not {pairs}")
    if jobs < 0:
        raise ValueError(f"jobs must be 0 (all cores) or more, not {jobs}")
    if match and not rules.match_target:
        raise ValueError("these rules play no match (match_target is 0)")
    get_agent(a), get_agent(b)  # unknown names fail here, before any process starts
    results, todo = resume(done, pairs, seed)
    tasks = [(a, b, rules.to_dict(), seed, i, match) for i in todo]
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(tasks)))
    if jobs == 1:
        for task in tasks:
            results.append(_play_pair_task(task))
            if on_pair is not None:
                on_pair(results[-1])
    else:
        # A multiprocessing pool, not an executor: leaving the block for any reason (an error,
        # Ctrl-C, SIGTERM turned into SystemExit) terminates the workers instead of waiting for
        # every queued pair.
        with get_context("spawn").Pool(jobs) as pool:
            for result in pool.imap_unordered(_play_pair_task, tasks):
                results.append(result)
                if on_pair is not None:
                    on_pair(result)
    results.sort(key=lambda r: r.index)
    return summarize(a, b, rules, seed, results, match=match)


def resume(
    done: Mapping[int, PairResult] | None, pairs: int, seed: int
) -> tuple[list[PairResult], list[int]]:
    """The pairs of ``done`` among the first ``pairs``, and the indexes still to play.
    ``ValueError`` when a pair in ``done`` was not played from ``seed``."""
    kept = [done[i] for i in range(pairs) if done is not None and i in done]
    for result in kept:
        if result.seed != pair_seed(seed, result.index):
            raise ValueError(f"pair {result.index} was played from another seed than {seed}")
    have = {result.index for result in kept}
    return kept, [i for i in range(pairs) if i not in have]


# ---------------------------------------------------------------------------------------------
# The summary


@dataclass(frozen=True)
class AgentSummary:
    """One agent's side of an arena run."""

    name: str
    wins: int
    points: int
    gins: int
    big_gins: int
    knocks: int
    undercuts: int
    decisions: int
    median_ms: float
    p99_ms: float

    def to_dict(self, hands: int) -> dict[str, Any]:
        return {
            "name": self.name,
            "wins": self.wins,
            "points": self.points,
            "points_per_hand": round(self.points / hands, 3) if hands else 0.0,
            "gins": self.gins,
            "big_gins": self.big_gins,
            "knocks": self.knocks,
            "undercuts": self.undercuts,
            "decisions": self.decisions,
            "decision_ms": {"median": round(self.median_ms, 4), "p99": round(self.p99_ms, 4)},
        }


@dataclass(frozen=True)
class ArenaSummary:
    """What an arena run found. ``agents`` is (A, B); the win rate and interval are A's."""

    rules: str
    seed: int
    pairs: int
    agents: tuple[AgentSummary, AgentSummary]
    undecided: int  # games neither agent won
    win_rate: Interval
    hands: int
    dead: int
    ties: int
    #: Whether each side of a pair was a whole match (``games`` then counts matches).
    match: bool = False

    @property
    def games(self) -> int:
        return 2 * self.pairs

    def to_dict(self) -> dict[str, Any]:
        rate = self.win_rate
        return {
            "agents": [agent.to_dict(self.hands) for agent in self.agents],
            "rules": self.rules,
            "seed": self.seed,
            "pairs": self.pairs,
            **({"match": True, "matches": self.games} if self.match else {"games": self.games}),
            "undecided_games": self.undecided,
            "win_rate": round(rate.mean, 4),
            "ci95": [round(rate.low, 4), round(rate.high, 4)],
            "hands": self.hands,
            "net_points_per_hand": round(
                (self.agents[0].points - self.agents[1].points) / self.hands, 3
            )
            if self.hands
            else 0.0,
            "dead_hands": self.dead,
            "tied_knocks": self.ties,
        }


def summarize(
    a: str, b: str, rules: Rules, seed: int, results: Sequence[PairResult], *, match: bool = False
) -> ArenaSummary:
    """Add up the pairs of an arena run (of whole matches with ``match``)."""
    games = [game for result in results for game in result.games]
    sides = tuple(_side(name, side, games) for side, name in enumerate((a, b)))
    return ArenaSummary(
        rules=rules.to_words(),
        seed=seed,
        pairs=len(results),
        agents=(sides[0], sides[1]),
        undecided=sum(g.score == 0.5 for g in games),
        win_rate=paired_interval([r.value for r in results]),
        hands=sum(g.hands for g in games),
        dead=sum(g.dead for g in games),
        ties=sum(g.ties for g in games),
        match=match,
    )


def _side(name: str, side: int, games: Iterable[GameStats]) -> AgentSummary:
    games = list(games)
    times = [t for g in games for t in g.times[side]]
    won = [g.score == 1.0 if side == 0 else g.score == 0.0 for g in games]
    return AgentSummary(
        name=name,
        wins=sum(won),
        points=sum(g.points[side] for g in games),
        gins=sum(g.gins[side] for g in games),
        big_gins=sum(g.big_gins[side] for g in games),
        knocks=sum(g.knocks[side] for g in games),
        undercuts=sum(g.undercuts[side] for g in games),
        decisions=len(times),
        median_ms=statistics.median(times) * 1000 if times else 0.0,
        p99_ms=percentile(times, 99) * 1000,
    )
