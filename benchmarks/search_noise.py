"""How much does the expert lose to the noise of its own search, and would more worlds pay?

The expert values each candidate move by its mean over a few dozen sampled worlds. Under the
EAAI rules that value is a change in the chance of winning the game, so the error the sampling
makes can be priced in the same unit as the arena's win rate:

1. play games of the expert against ``simple`` and keep every view where the search ran;
2. value each view's candidates on many worlds (``--truth``, every candidate on every world, no
   pruning or gate): the search's own verdict without its sampling noise;
3. let each version of the search (``--version``) decide each view (``--repeats`` times with
   different seeds) and credit it with the true value of the move it chose.

The true values are noisy too, but the versions' worlds are drawn apart from them, so the
difference between two versions' credits is unbiased. Summed over a game's decisions it is
the chance of winning the game that more worlds would buy (under the search's own model of
play, which this cannot check): 0.01 a game is one point of win rate.

    .venv/bin/python benchmarks/search_noise.py --games 8 --truth 2000 --play worlds=96 \
        --version worlds=96 --version worlds=192 --version worlds=384
"""

from __future__ import annotations

import argparse
import dataclasses
import multiprocessing as mp
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from expert_strength import changed_settings
from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.play import play_game
from ginrummy.engine import Rules
from ginrummy.engine.views import PlayerView


def collect(games: int, seed: int, settings: Settings) -> list[tuple[int, PlayerView]]:
    """``(game, view)`` for every decision of the expert with ``settings`` where the search
    weighed two or more candidates."""
    views: list[tuple[int, PlayerView]] = []
    evaluate = ExpertAgent.evaluate
    current = [0]

    def recording(self: ExpertAgent, view: PlayerView, rng: Any, **k: Any) -> Any:
        result = evaluate(self, view, rng, **k)
        if result.worlds and not k:
            views.append((current[0], view))
        return result

    ExpertAgent.evaluate = recording  # type: ignore[method-assign]
    try:
        rules = Rules.preset("eaai")
        for i in range(games):
            current[0] = i
            agents = [ExpertAgent(settings), get_agent("simple")]
            play_game(rules, agents if i % 2 == 0 else agents[::-1], seed + i)
    finally:
        ExpertAgent.evaluate = evaluate  # type: ignore[method-assign]
    return views


def version(spec: str) -> Settings:
    """The kept settings changed by ``spec`` ("name=value,..."; "kept" for none); a new
    number of worlds scales the pruning points alike. Never cut short by the clock."""
    base = Settings()
    items = [item.split("=", 1) for item in spec.split(",") if item not in ("", "kept")]
    changed = changed_settings(base, dict(items))
    k = changed.worlds / base.worlds
    return dataclasses.replace(
        changed,
        min_worlds=changed.worlds,
        budget_ms=1e9,
        prune=tuple(max(4, round(p * k)) for p in base.prune) if k != 1 else changed.prune,
    )


def judge(job: tuple[PlayerView, int, list[str], int, int]) -> dict[str, Any]:
    """The true values of one view's candidates, and what each version chose."""
    view, truth, versions, repeats, seed = job
    exact = ExpertAgent(
        dataclasses.replace(
            Settings(), worlds=truth, min_worlds=truth, budget_ms=1e9, prune=(), keep=(), gate_z=0
        )
    )
    ev = exact.evaluate(view, random.Random(seed))
    # In chances of winning the game (the EAAI rules value a game at twice its target).
    scale = 2.0 * view.rules.game_target
    values = {c.action: v / scale for c, v in zip(ev.candidates, ev.values, strict=True)}
    best = max(values.values())
    kinds = {c.kind for c in ev.candidates}
    kind = "knock" if "knock" in kinds else "draw" if "discard" not in kinds else "discard"
    credit: dict[str, float] = {}
    right: dict[str, float] = {}
    worlds: dict[str, float] = {}
    for w in versions:
        agent = ExpertAgent(version(w))
        got = []
        used = []
        for r in range(repeats):
            e = agent.evaluate(view, random.Random(seed * 1000 + r + 1))
            got.append(values[e.best().action])
            used.append(e.worlds)
        credit[w] = statistics.mean(got)
        right[w] = sum(v >= best for v in got) / repeats
        worlds[w] = statistics.mean(used)
    return {"kind": kind, "credit": credit, "right": right, "worlds": worlds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--truth", type=int, default=1000, help="worlds for the true values")
    parser.add_argument(
        "--version",
        action="append",
        default=[],
        metavar="NAME=VALUE,...",
        help="a version of the expert's Settings to judge (repeatable; the first is the "
        "reference; 'kept' for the kept settings)",
    )
    parser.add_argument(
        "--play", default="kept", help="the version that plays the games the views come from"
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    versions = args.version or ["worlds=96", "kept", "worlds=384"]
    views = collect(args.games, args.seed, version(args.play))
    jobs = [(v, args.truth, versions, args.repeats, i) for i, (_, v) in enumerate(views)]
    with mp.get_context("fork").Pool(args.workers) as pool:
        results = pool.map(judge, jobs, chunksize=1)
    print(
        f"expert vs simple, eaai rules, {args.games} games from seed {args.seed}: "
        f"{len(views)} searched decisions, true values from {args.truth} worlds, "
        f"{args.repeats} decisions per version and view"
    )
    per_game = len(views) / args.games
    base = versions[0]
    kinds = sorted({r["kind"] for r in results})
    print(f"  {per_game:.1f} searched decisions a game; gain over {base} worlds, per game:")
    for w in versions:
        gains = [r["credit"][w] - r["credit"][base] for r in results]
        se = statistics.stdev(gains) / len(gains) ** 0.5 * per_game if len(gains) > 1 else 0.0
        parts = []
        for kind in kinds:
            rs = [r for r in results if r["kind"] == kind]
            g = sum(r["credit"][w] - r["credit"][base] for r in rs) / args.games
            parts.append(f"{kind} {g:+.4f}")
        right = statistics.mean(r["right"][w] for r in results)
        used = statistics.mean(r["worlds"][w] for r in results)
        print(
            f"  {w}: {statistics.mean(gains) * per_game:+.4f} (SE {se:.4f}; "
            f"{', '.join(parts)}); picks the true best {right:.1%}; {used:.0f} worlds a decision"
        )
    print(f"  {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
