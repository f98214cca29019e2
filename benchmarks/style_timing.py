"""The expert's decision time with and without reading the opponent's knocking style.

Collects the decisions with a choice that seat 0 meets in a few hands of ``simple`` against an
opponent (``gin-hunter`` by default), and times the default expert (768 worlds) on each of them
three ways, one after the other on the same positions: as before (``read_style=false,
bar_knocks=false``), reading his style with nothing seen yet, and having seen two knocks he
passed up late in a hand (a gin player, whose worlds guess his hand with more tries):

    .venv/bin/python benchmarks/style_timing.py --opponent gin-hunter --hands 6
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.style import Evidence
from ginrummy.engine import Hand, PlayerView, Rules


def positions(opponent: str, hands: int) -> list[PlayerView]:
    rules = Rules.preset("eaai")
    out: list[PlayerView] = []
    for seed in range(hands):
        rng = random.Random(seed)
        hand = Hand.deal(rules, seed % 2, rng)
        agents = (get_agent("simple"), get_agent(opponent))
        while hand.current_player is not None:
            seat = hand.current_player
            view = hand.view(seat)
            if seat == 0 and len(view.legal_actions) > 1:
                out.append(view)
            hand.apply(agents[seat].act(view, rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--opponent", default="gin-hunter")
    parser.add_argument("--hands", type=int, default=6)
    args = parser.parse_args()
    views = positions(args.opponent, args.hands)
    ways = ("before", "reading, nothing seen", "reading a gin player")
    times: dict[str, list[float]] = {way: [] for way in ways}
    for i, view in enumerate(views):
        for way in ways:
            settings = (
                Settings(read_style=False, bar_knocks=False) if way == "before" else Settings()
            )
            expert = ExpertAgent(settings)
            if way == "reading a gin player":
                expert.style.update(Evidence(7, 4, False))
                expert.style.update(Evidence(8, 3, False))
            start = time.perf_counter()
            expert.act(view, random.Random(i))
            times[way].append(time.perf_counter() - start)
    print(f"{len(views)} decisions")
    for way, seconds in times.items():
        ms = sorted(1000 * s for s in seconds)
        print(f"{way}: median {statistics.median(ms):.1f} ms, max {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
