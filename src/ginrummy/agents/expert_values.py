"""What the expert's search weighs and how it reads what it finds: a move it weighs
(:class:`Candidate`), its verdict (:class:`Evaluation`), and the arithmetic over the sampled
worlds that turns values world by world into that verdict (a move's best plan, the paired
statistics, the gate on discards, the values of moves not played out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.actions import Action
from ..engine.melds import Meld
from ..engine.views import PlayerView
from .inference import Beliefs
from .winprob import Utility


@dataclass(frozen=True, slots=True)
class Candidate:
    """One move the search weighs."""

    action: Action
    #: What the search does with it: "take", "draw", "pass", "discard", "knock".
    kind: str
    card: int = -1
    melds: tuple[Meld, ...] | None = None
    #: The heuristic's score (lower is better), for ties and for explanations.
    prior: float = 0.0
    #: Whether the search plays it out; a discard it does not is valued from the best searched
    #: discard and the heuristic's difference between them.
    searched: bool = True


@dataclass
class Evaluation:
    """The search's verdict: each candidate's mean value over the same worlds."""

    candidates: list[Candidate]
    values: list[float]
    worlds: int
    #: The value of the score as it stands (a dead hand), for hints.
    baseline: float
    beliefs: Beliefs | None = None
    extra: dict[str, object] = field(default_factory=dict)

    def best(self) -> Candidate:
        order = sorted(
            range(len(self.candidates)),
            key=lambda i: (-self.values[i], self.candidates[i].prior),
        )
        return self.candidates[order[0]]


def _mean(xs: list[float]) -> float:
    return sum(xs) / len(xs)


def _best_plan(
    lists: list[list[float]], blend: float, keys: Sequence[int] | None = None
) -> list[float]:
    """A move's values world by world from its plans' (``lists``, one per plan, each over
    the same worlds): the best plan's, and with ``blend`` that much of the best of any plan in
    each world mixed in (:attr:`Settings.plan_blend`). With ``keys`` (one a world), each group
    of worlds with the same key takes the plan best over that group (:attr:`Settings.plan_info`).
    """
    if keys is not None and len(lists) > 1:
        totals: dict[int, list[float]] = {}
        for w, key in enumerate(keys):
            sums = totals.setdefault(key, [0.0] * len(lists))
            for k, values in enumerate(lists):
                sums[k] += values[w]
        choice = {key: max(range(len(sums)), key=sums.__getitem__) for key, sums in totals.items()}
        return [lists[choice[key]][w] for w, key in enumerate(keys)]
    best = max(lists, key=_mean)
    if blend <= 0.0 or len(lists) == 1:
        return best
    worlds = zip(*lists, strict=True)  # every plan met the same worlds
    return [(1.0 - blend) * b + blend * max(vs) for b, vs in zip(best, worlds, strict=True)]


def _plan_key(parted: list[tuple[int, int]] | None, info: int) -> int:
    """The group of a world by where its plans first parted (``parted``: its deadwood and the
    turns it had begun), as :attr:`Settings.plan_info` says; -1 where they never parted."""
    if not parted:
        return -1
    deadwood, turns = parted[0]
    return deadwood if info == 1 else deadwood * 8 + min(turns // 3, 7)


def _gate_discards(
    cands: list[Candidate], values: list[float], samples: dict[int, list[float]], z: float
) -> None:
    """Keep the heuristic's best discard unless the search finds a better one by ``z``
    standard errors, paired over the worlds both met: a few dozen worlds are too few to rank
    discards that differ by a point or two, and the heuristic is the better judge of noise."""
    discards = [i for i, c in enumerate(cands) if c.kind == "discard" and i in samples]
    if len(discards) < 2:
        return
    ref = min(discards, key=lambda i: cands[i].prior)
    best = max(discards, key=lambda i: values[i])
    if best == ref:
        return
    a, base = samples[best], samples[ref]
    if min(len(a), len(base)) < 2:
        return
    mean, se = _paired(a, base)
    if mean <= z * se:
        values[ref] = max(values[ref], values[best] + 1e-9)


def _paired(a: list[float], b: list[float]) -> tuple[float, float]:
    """The mean of ``a - b`` over the worlds both met (the first of each) and its standard
    error (at least two worlds)."""
    n = min(len(a), len(b))
    diffs = [x - y for x, y in zip(a[:n], b[:n], strict=True)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, (var / n) ** 0.5


def _close(active: list[int], samples: dict[int, list[float]], z: float) -> bool:
    """Whether the two best of ``active`` differ by less than ``z`` standard errors of their
    paired difference."""
    if len(active) < 2:
        return False
    first, second = sorted(active, key=lambda i: -_mean(samples[i]))[:2]
    mean, se = _paired(samples[first], samples[second])
    return mean < z * se


def _behind(view: PlayerView) -> bool:
    """Whether the searching player's game score is below his (Hollywood's summed columns
    aside: no one game's score is read from them)."""
    if view.rules.hollywood:
        return False
    return view.scores[view.seat] < view.scores[1 - view.seat]


def _per_point(utility: Utility) -> float:
    """What a point of this hand is worth at the current score (at least 0.05)."""
    return max(0.05, (utility(5, 0) - utility(0, 5)) / 10.0)


def _derive_values(cands: list[Candidate], values: list[float], utility: Utility) -> None:
    """Value the discards the search did not play out: the best searched discard's value, less
    the heuristic's difference converted from deadwood points to value (what a few points in
    this hand are worth at the current score)."""
    if all(c.searched for c in cands):
        return
    per_point = _per_point(utility)
    for kind in ("discard", "draw", "pass"):
        searched = [i for i, c in enumerate(cands) if c.kind == kind and c.searched]
        if not searched:
            continue
        ref = max(searched, key=lambda i: values[i])
        for i, c in enumerate(cands):
            if not c.searched and (c.kind == kind or (kind != "discard" and c.kind == "take")):
                values[i] = values[ref] - per_point * max(0.0, c.prior - cands[ref].prior)


__all__ = ["Candidate", "Evaluation"]
