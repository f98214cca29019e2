"""How strong is ``expert``? Mirrored pairs of whole games against a baseline, with timing.

Each pair plays the same game seed twice with the seats swapped, so both players get the same
cards in turn. Prints the agent's game win rate with a 95% confidence interval (Wilson), its
points per hand, and the median and 99th percentile of its time per decision (decisions with a
single legal action included, as the referee times them).

    .venv/bin/python benchmarks/expert_strength.py --pairs 200 --workers 2
    .venv/bin/python benchmarks/expert_strength.py --agent intermediate-expert --pairs 500
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import multiprocessing as mp
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import ginrummy.agents.expert  # noqa: F401  (registers expert)
from ginrummy.agents import Agent, get_agent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.play import play_game, play_match
from ginrummy.engine import Rules


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return centre - half, centre + half


def changed_settings(base: Settings, settings: dict[str, str]) -> Settings:
    """``base`` with the named fields set from text (numbers, true/false, or numbers joined by
    ``/`` for a tuple such as ``prune=64/160``)."""
    values: dict[str, object] = {}
    for key, text in settings.items():
        current = getattr(base, key)
        if isinstance(current, tuple):
            values[key] = tuple(int(x) for x in text.split("/"))
            continue
        values[key] = (
            type(current)(float(text))
            if isinstance(current, int | float) and not isinstance(current, bool)
            else (text.lower() in ("1", "true", "yes"))
        )
    return dataclasses.replace(base, **values)


def make_agent(name: str, settings: dict[str, str]) -> Agent:
    """The agent by name; ``settings`` override the expert's :class:`Settings` fields."""
    if not settings:
        return get_agent(name)
    base = get_agent(name)
    assert isinstance(base, ExpertAgent), "--set applies to the expert agents only"
    base.settings = changed_settings(base.settings, settings)
    return base


#: One pair to play: the agent, its opponent, the preset, the seed, the agent's changed
#: settings, and whether each side of the pair is a match rather than a game.
Job = tuple[str, str, str, int, dict[str, str], bool]


def play_pair(job: Job) -> dict[str, object]:
    """Play one mirrored pair; ``net`` is the agent's final net over both games (of a match:
    its match points less the opponent's)."""
    agent_name, opponent_name, preset, seed, settings, match = job
    rules = Rules.preset(preset)
    play = play_match if match else play_game
    wins = 0.0
    times: list[float] = []
    points = 0
    hands = 0
    net = 0
    for seat in (0, 1):
        agent = make_agent(agent_name, settings)
        opponent = get_agent(opponent_name)
        agents = [agent, opponent] if seat == 0 else [opponent, agent]
        outcome = play(rules, agents, seed)
        if outcome.winner == seat:
            wins += 1
        elif outcome.winner is None:
            wins += 0.5
        times.extend(outcome.times[seat])
        net += outcome.totals[seat] - outcome.totals[1 - seat]
        for result in outcome.results:
            hands += 1
            if result.winner == seat:
                points += result.points
            elif result.winner is not None:
                points -= result.points
    return {
        "wins": wins,
        "games": 2,
        "times": times,
        "points": points,
        "hands": hands,
        "net": net,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--agent", default="expert")
    parser.add_argument("--opponent", default="simple")
    parser.add_argument("--rules", default="eaai", choices=Rules.presets())
    parser.add_argument("--pairs", type=int, default=100, help="mirrored pairs of games")
    parser.add_argument("--seed", type=int, default=1, help="first game seed")
    parser.add_argument("--workers", type=int, default=2, help="processes (one core each)")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override one of the expert's Settings (repeatable), e.g. --set worlds=32",
    )
    parser.add_argument(
        "--match",
        action="store_true",
        help="play each side of a pair as a match to the rules' match_target, not a game",
    )
    args = parser.parse_args(argv)
    settings = dict(item.split("=", 1) for item in args.set)
    jobs: list[Job] = [
        (args.agent, args.opponent, args.rules, args.seed + i, settings, args.match)
        for i in range(args.pairs)
    ]
    wins = 0.0
    games = 0
    points = 0
    hands = 0
    times: list[float] = []
    start = time.perf_counter()
    ctx = mp.get_context("fork")
    with ctx.Pool(args.workers) as pool:
        for done, res in enumerate(pool.imap_unordered(play_pair, jobs), 1):
            wins += float(res["wins"])  # type: ignore[arg-type]
            games += int(res["games"])  # type: ignore[call-overload]
            points += int(res["points"])  # type: ignore[call-overload]
            hands += int(res["hands"])  # type: ignore[call-overload]
            times.extend(res["times"])  # type: ignore[arg-type]
            if done % max(1, args.pairs // 10) == 0:
                lo, hi = wilson(wins, games)
                print(
                    f"  {games} games: {wins / games:.1%} [{lo:.1%}, {hi:.1%}]",
                    file=sys.stderr,
                    flush=True,
                )
    lo, hi = wilson(wins, games)
    times.sort()
    median = statistics.median(times) * 1000
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1000
    extra = f" with {' '.join(args.set)}" if args.set else ""
    print(
        f"{args.agent}{extra} vs {args.opponent}, {args.rules} rules, "
        f"{games} games ({args.pairs} pairs)"
    )
    print(f"  games won: {wins / games:.1%}  (95% CI {lo:.1%} to {hi:.1%})")
    print(f"  points per hand: {points / max(1, hands):+.2f} over {hands} hands")
    print(
        f"  time per decision: median {median:.1f} ms, p99 {p99:.1f} ms, "
        f"max {times[-1] * 1000:.1f} ms over {len(times)} decisions"
    )
    print(f"  wall time {time.perf_counter() - start:.0f} s with {args.workers} workers")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
