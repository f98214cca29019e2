"""How much could a learned model read from the history about the danger of a discard?

At each of the expert's discards against ``simple`` (EAAI rules), every card in its hand is a
case: will the opponent be able to put it into a meld (he holds two cards it melds with)? The
features are what the history shows: the expert's heuristic estimate (``Beliefs.danger``), the
share of 32 sampled worlds in which it melds, and for each relation to the card (same rank, same
suit one away, two away) how many of those cards he took, passed on and threw, how many are
unseen and how many the expert holds; then his hidden cards, his turns, the stock and the card's
value. A logistic regression (Newton's method, a little L2) is fitted on the first games and
scored on the others with the Brier score, next to the heuristic alone:

    .venv/bin/python benchmarks/danger_model.py --train 30 --test 20
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from card_reading import melds_with
from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent
from ginrummy.agents.inference import RELATIONS, beliefs, sample_world
from ginrummy.agents.play import play_game
from ginrummy.engine import Rules
from ginrummy.engine.hand import Hand, Phase
from ginrummy.engine.masks import VALUES, bits
from ginrummy.engine.views import PlayerView

Case = tuple[list[float], bool]


def collect(first_seed: int, games: int) -> list[Case]:
    """The cases of ``games`` games of the expert against ``simple``, seats alternating."""
    cases: list[Case] = []
    current: dict[str, Any] = {}
    rng = random.Random(first_seed)
    view_of, evaluate = Hand.view, ExpertAgent.evaluate

    def watching_view(self: Hand, seat: int, *a: Any, **k: Any) -> Any:
        current["hand"], current["seat"] = self, seat
        return view_of(self, seat, *a, **k)

    def recording(self: ExpertAgent, view: PlayerView, r: Any, **k: Any) -> Any:
        if view.phase is Phase.DISCARD:
            truth = current["hand"].hand_mask(1 - int(current["seat"]))
            cases.extend(_cases(view, truth, rng))
        return evaluate(self, view, r, **k)

    Hand.view = watching_view  # type: ignore[method-assign]
    ExpertAgent.evaluate = recording  # type: ignore[method-assign,assignment]
    try:
        rules = Rules.preset("eaai")
        for seed in range(first_seed, first_seed + games):
            agents = [get_agent("expert"), get_agent("simple")]
            play_game(rules, agents if seed % 2 == 0 else agents[::-1], seed)
    finally:
        Hand.view = view_of  # type: ignore[method-assign]
        ExpertAgent.evaluate = evaluate  # type: ignore[method-assign]
    return cases


def _cases(view: PlayerView, truth: int, rng: random.Random) -> list[Case]:
    b = beliefs(view)
    danger = b.danger()
    worlds = [sample_world(b, rng)[0] for _ in range(32)]
    obs = b.observed
    took = sum(1 << c for c in obs.took)
    passed = sum(1 << c for c in obs.passed)
    threw = sum(1 << c for c in obs.discarded)
    mine = view.hand.mask
    out: list[Case] = []
    for card in bits(mine):
        x = [danger[card], sum(melds_with(w, card) for w in worlds) / len(worlds)]
        for rel in RELATIONS[card]:
            x += [float((rel & m).bit_count()) for m in (took, passed, threw, b.unseen, mine)]
        turns = len(obs.took) + obs.stock_draws
        x += [float(b.hidden), float(turns), float(view.stock_count), float(VALUES[card])]
        out.append((x, melds_with(truth, card)))
    return out


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(cases: list[Case], l2: float = 1.0, steps: int = 12) -> tuple[list[float], Any]:
    """Logistic regression on standardised features; returns the weights and a predictor."""
    k = len(cases[0][0])
    mean = [sum(x[j] for x, _ in cases) / len(cases) for j in range(k)]
    sd = [
        math.sqrt(sum((x[j] - mean[j]) ** 2 for x, _ in cases) / len(cases)) or 1.0
        for j in range(k)
    ]

    def row(x: list[float]) -> list[float]:
        return [1.0] + [(x[j] - mean[j]) / sd[j] for j in range(k)]

    rows = [(row(x), float(y)) for x, y in cases]
    w = [0.0] * (k + 1)
    for _ in range(steps):
        grad = [l2 * wi for wi in w]
        hess = [[l2 if i == j else 0.0 for j in range(k + 1)] for i in range(k + 1)]
        for z, y in rows:
            p = 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, z, strict=True))))
            s = p * (1.0 - p)
            for i, zi in enumerate(z):
                grad[i] += (p - y) * zi
                hi = hess[i]
                szi = s * zi
                for j in range(i, k + 1):
                    hi[j] += szi * z[j]
        for i in range(k + 1):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]

    def predict(x: list[float]) -> float:
        return 1.0 / (1.0 + math.exp(-sum(a * b for a, b in zip(w, row(x), strict=True))))

    return w, predict


def brier(pairs: list[tuple[float, bool]]) -> float:
    return sum((p - y) ** 2 for p, y in pairs) / len(pairs)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--train", type=int, default=30, help="games to fit on")
    parser.add_argument("--test", type=int, default=20, help="games to score on")
    args = parser.parse_args(argv)
    train = collect(1000, args.train)
    test = collect(1, args.test)
    _, predict = fit(train)
    rate = sum(y for _, y in train) / len(train)
    print(f"{len(train)} cards to fit on ({args.train} games), {len(test)} to score on")
    print(f"  Brier, heuristic          {brier([(x[0], y) for x, y in test]):.4f}")
    print(f"  Brier, sampled worlds     {brier([(x[1], y) for x, y in test]):.4f}")
    print(f"  Brier, logistic model     {brier([(predict(x), y) for x, y in test]):.4f}")
    print(f"  Brier, constant {rate:.3f}    {brier([(rate, y) for _, y in test]):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
