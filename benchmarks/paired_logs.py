"""Two arena runs on the same deals, compared pair by pair.

The arena deals pair ``i`` of a run from its seed alone, and each hand of a game from the
game's seed, so two runs of different versions of A against the same B, under the same rules
and from the same ``--seed``, meet the same cards; while the versions make the same moves
they play the same game. Their difference is then judged pair by pair, which is tighter
than two runs on different deals:

    ginrummy arena expert simple --games 1000 --rules standard --seed 9030 --log old.jsonl.gz
    ginrummy arena expert:plan_blend=0.35 simple --games 1000 --rules standard --seed 9030 \\
        --log new.jsonl.gz
    .venv/bin/python benchmarks/paired_logs.py old.jsonl.gz new.jsonl.gz

Only the pairs both logs hold are compared, so a run still going (or stopped) can be read.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from ginrummy.agents.arena import PairResult, paired_interval, t_quantile_975
from ginrummy.cli.arena_log import decode, gunzip


def read(path: str) -> tuple[dict[str, object], dict[int, PairResult]]:
    """A log's first line (who played, the rules, the seed) and its pairs by index; a last
    line cut off mid-write is left out."""
    raw = Path(path).read_bytes()
    text = (gunzip(raw) if path.endswith(".gz") else raw).decode("utf-8")
    lines = text.split("\n")
    head = json.loads(lines[0])
    pairs: dict[int, PairResult] = {}
    for line in lines[1:-1]:  # the text after the last newline is not a whole line
        if line.strip():
            pair = decode(json.loads(line), int(head["arena_log"]))
            pairs[pair.index] = pair
    return head, pairs


def _moves(pair: PairResult) -> tuple[object, ...]:
    """What a pair's games came to, without the decision times (never the same twice)."""
    return tuple(dataclasses.replace(game, times=((), ())) for game in pair.games)


def _tally(log: dict[int, PairResult], pairs: list[int]) -> str:
    """A's hands over ``pairs`` against B's: points a hand, gins, knocks won, undercuts."""
    games = [game for i in pairs for game in log[i].games]
    hands = sum(game.hands for game in games)

    def both(field: str) -> tuple[int, int]:
        return (
            sum(getattr(game, field)[0] for game in games),
            sum(getattr(game, field)[1] for game in games),
        )

    (pa, pb), (ga, gb), (ka, kb), (ua, ub) = map(both, ("points", "gins", "knocks", "undercuts"))
    return (
        f"{hands} hands, points a hand {pa / hands:.2f} / {pb / hands:.2f}, gins {ga} / {gb}, "
        f"knocks won {ka} / {kb}, undercuts {ua} / {ub}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("first", help="the arena log of the first version (the baseline)")
    parser.add_argument("second", help="the arena log of the second, from the same seed")
    args = parser.parse_args(argv)
    (head1, first), (head2, second) = read(args.first), read(args.second)
    for key in ("b", "rules", "seed"):
        if head1.get(key) != head2.get(key):
            print(f"the logs differ in {key}: not the same deals", file=sys.stderr)
            return 2
    common = sorted(set(first) & set(second))
    if len(common) < 2:
        print(f"only {len(common)} pair(s) in both logs: too few to compare", file=sys.stderr)
        return 2
    a = [first[i].value for i in common]
    b = [second[i].value for i in common]
    diff = [y - x for x, y in zip(a, b, strict=True)]
    same = sum(_moves(first[i]) == _moves(second[i]) for i in common)
    print(f"{len(common)} pairs in both logs (seed {head1['seed']}, against {head1['b']})")
    for name, values, log in ((head1["a"], a, first), (head2["a"], b, second)):
        ci = paired_interval(values)
        print(
            f"  {name}: {ci.mean:.1%} (95% CI {ci.low:.1%} to {ci.high:.1%}); {_tally(log, common)}"
        )
    mean = statistics.fmean(diff)
    half = t_quantile_975(len(diff) - 1) * statistics.stdev(diff) / math.sqrt(len(diff))
    corr = statistics.correlation(a, b) if statistics.pstdev(a) and statistics.pstdev(b) else 1.0
    print(
        f"second minus first: {mean:+.1%} (95% CI {mean - half:+.1%} to {mean + half:+.1%}, "
        f"paired); pairs played exactly alike {same} ({same / len(common):.0%}); "
        f"correlation of the pairs' results {corr:.2f}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
