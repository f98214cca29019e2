"""How fast does the expert decide? CPU seconds for a fixed set of its decisions, for this
checkout and, in the same run, for a baseline copy of the sources.

The expert plays the same hands against ``intermediate`` (three seeds under each of four
presets), with its time cap lifted so that the search is counted in worlds only: every run
does exactly the same work however loaded the machine is. The figure is the CPU time
(``time.process_time``) spent inside the expert's ``act``, so other processes on the machine
matter less than they would to a wall clock.

Each measurement runs in a fresh interpreter with ``PYTHONPATH`` set to the sources measured,
so a tree holding compiled modules (``make``, or ``python setup.py build_ext --inplace``) is
measured compiled; the line printed says which. The trees take turns, ABBA, so that a drift in
the machine's speed falls on both alike.

    python benchmarks/expert_speed.py                                  # this checkout only
    python benchmarks/expert_speed.py --baseline /tmp/main/src --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1] / "src"
PRESETS = ("standard", "oklahoma", "hollywood", "straight")
SEEDS = (701, 702, 703)

#: Run in the child interpreter: the expert's CPU seconds over the fixed hands, as JSON.
CHILD = """
import json, math, sys, time
from dataclasses import replace
from ginrummy.agents import BaseAgent
from ginrummy.agents.expert import ExpertAgent, Settings
from ginrummy.agents.play import play_hand
from ginrummy.engine import Rules
from ginrummy.speedups import describe

class Timed(BaseAgent):
    name = "expert"

    def __init__(self):
        self.inner = ExpertAgent(replace(Settings(), budget_ms=math.inf))
        self.cpu = 0.0
        self.decisions = 0

    def act(self, view, rng):
        start = time.process_time()
        action = self.inner.act(view, rng)
        self.cpu += time.process_time() - start
        self.decisions += 1
        return action

presets, seeds = sys.argv[1].split(","), [int(s) for s in sys.argv[2].split(",")]
total, decisions = 0.0, 0
for preset in presets:
    for seed in seeds:
        timed = Timed()
        play_hand(Rules.preset(preset), seed % 2, seed, (timed, "intermediate"))
        total += timed.cpu
        decisions += timed.decisions
print(json.dumps({"build": describe(), "seconds": total, "decisions": decisions}))
"""


def measure(src: Path) -> dict[str, object]:
    """One run of the fixed decisions on the sources in ``src``."""
    env = {**os.environ, "PYTHONPATH": str(src)}
    args = [sys.executable, "-c", CHILD, ",".join(PRESETS), ",".join(map(str, SEEDS))]
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, help="another tree's src directory")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each tree")
    args = parser.parse_args()
    trees = {"this checkout": HERE}
    if args.baseline is not None:
        trees["baseline"] = args.baseline.resolve()
    names = list(trees)
    seconds: dict[str, list[float]] = {name: [] for name in names}
    for r in range(args.rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            result = measure(trees[name])
            secs = float(str(result["seconds"]))
            seconds[name].append(secs)
            print(f"{name:14} {result['build']:18} {result['decisions']} decisions {secs:7.2f} s")
    for name in names:
        mean = statistics.mean(seconds[name])
        print(f"{name:14} mean {mean:7.2f} s, best {min(seconds[name]):7.2f} s")
    if len(names) == 2:
        ratio = statistics.mean(seconds[names[0]]) / statistics.mean(seconds[names[1]])
        print(f"this checkout takes {ratio:.3f} times the baseline's time")


if __name__ == "__main__":
    main()
