"""How long the web server's expert thinks over a move, with and without its time cap.

The server sends its computer's move ``computer_delay`` after the person's (0.4 s by default),
and caps the expert's search to fit (:func:`ginrummy.web.thinking.think_budget`: the delay less
``THINK_MARGIN``), so that no reply comes late and tells the person that the computer had a
close decision or could knock. This times the expert's decisions as a thinking worker makes
them (:func:`ginrummy.web.thinking.move`: the view read from plain data, a fresh player made)
on the positions with a choice that seat 0 meets in seeded hands of ``simple`` against
``intermediate``, each position once uncapped (the expert's own settings, as the arena and the
command line play) and once capped for the delay, one after the other (taking turns at going
first), and counts the decisions cut short of their worlds:

    .venv/bin/python benchmarks/think_cap.py --hands 12 --delay 0.4
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.agents import get_agent
from ginrummy.agents.expert import ExpertAgent
from ginrummy.engine import Hand, PlayerView, Rules
from ginrummy.engine.hand import Phase
from ginrummy.speedups import describe
from ginrummy.web.thinking import move, think_budget

#: Per decision timed, the worlds its search played out and the worlds it was set to (0, 0
#: for one the expert decides without a search).
searched: list[tuple[int, int]] = []
_evaluate = ExpertAgent.evaluate


def _counted(self: ExpertAgent, view: PlayerView, rng: random.Random, **kw: Any) -> Any:
    evaluation = _evaluate(self, view, rng, **kw)
    goal = self.settings.worlds if evaluation.worlds else 0
    searched.append((evaluation.worlds, goal))
    return evaluation


ExpertAgent.evaluate = _counted  # type: ignore[method-assign]


def positions(hands: int) -> list[PlayerView]:
    """The views with a choice (not a layoff) that seat 0 meets in ``hands`` seeded hands."""
    rules = Rules.preset("eaai")
    out: list[PlayerView] = []
    for seed in range(hands):
        rng = random.Random(seed)
        hand = Hand.deal(rules, seed % 2, rng)
        agents = (get_agent("simple"), get_agent("intermediate"))
        while hand.current_player is not None:
            seat = hand.current_player
            view = hand.view(seat)
            if seat == 0 and len(view.legal_actions) > 1 and view.phase is not Phase.LAYOFF:
                out.append(view)
            hand.apply(agents[seat].act(view, rng))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--delay", type=float, default=0.4, help="the server's computer_delay")
    args = parser.parse_args()
    budget = think_budget(args.delay)
    views = positions(args.hands)
    ways = {"uncapped": None, f"capped at {budget:.0f} ms": budget}
    times: dict[str, list[float]] = {way: [] for way in ways}
    cut: dict[str, list[tuple[int, int]]] = {way: [] for way in ways}
    for i, view in enumerate(views):
        payload = {"level": "expert", "view": view.to_dict(), "seed": i, "seen": []}
        # The two ways take turns at going first: the first to meet a position pays for
        # what the second finds cached.
        order = list(ways.items()) if i % 2 == 0 else list(ways.items())[::-1]
        for way, ms in order:
            start = time.perf_counter()
            move({**payload, "budget_ms": ms})
            times[way].append(time.perf_counter() - start)
            cut[way].append(searched.pop() if searched else (0, 0))
    print(f"{len(views)} decisions, {describe()}, delay {args.delay} s")
    for way, seconds in times.items():
        ms = sorted(1000 * s for s in seconds)
        late = sum(s > args.delay for s in seconds)
        searches = [(n, goal) for n, goal in cut[way] if goal]
        short = [n for n, goal in searches if n < goal]
        fewest = f", fewest {min(short)} worlds" if short else ""
        print(
            f"{way}: median {statistics.median(ms):.1f} ms, 95th {ms[int(0.95 * len(ms))]:.1f} "
            f"ms, max {ms[-1]:.1f} ms; {late} over the delay; {len(searches)} searched, "
            f"{len(short)} cut short of their worlds{fewest}"
        )


if __name__ == "__main__":
    main()
