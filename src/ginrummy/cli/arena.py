"""``ginrummy arena``: two computer players play mirrored pairs of whole games."""

from __future__ import annotations

import argparse
import json
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ..agents.arena import ArenaSummary, PairResult, resume, run_arena
from ..agents.registry import PANEL
from ..engine.rules import Rules
from ..speedups import describe
from . import (
    CommandError,
    add_rules_option,
    add_scale_options,
    check_players,
    check_scale_options,
    players_help,
    ray_unreachable,
    rules_preset,
)
from .arena_log import ArenaLog, open_log

if TYPE_CHECKING:
    from .main import Subparsers

EXAMPLES = (
    """\
examples:
  ginrummy arena simple random --games 100 --rules eaai --seed 1
  ginrummy arena intermediate simple --games 300 --jobs 0 --json
  ginrummy arena expert simple --games 1000 --ray auto
  ginrummy arena intermediate --panel --games 20 --rules eaai --seed 1
  ginrummy arena expert:worlds=128 expert --games 50 --rules eaai --jobs 0
  ginrummy arena expert simple --games 100 --rules standard --match --jobs 0

Each of the N deals is played twice, A in seat 0 and then B in seat 0, so 2N games are played.
A's win rate comes with a 95% confidence interval that treats each mirrored pair as one
observation (A's wins in the pair / 2), worked out with one lost and one won pair added, so
that a few pairs give a wide interval rather than a point. Every pair's games are the same for
a seed however they are run: in one process, in --jobs worker processes or as Ray tasks (--ray).
A player's settings can be changed after a colon (the expert's: expert:worlds=128,discards=3;
an unknown one is refused, naming those there are). With --panel, A plays every player of the
panel in turn (the same deals against each) and one table compares them. With --match each
side of a pair is a whole match to the rules' match_target (500 unless the rules say), the
players told the match points, and the win rate is A's share of the matches. The panel:
"""
    + ", ".join(PANEL)
    + "."
)


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "arena",
        help="pit two computer players against each other in mirrored games",
        description=(
            "Play whole games between two computer players, every deal twice with the seats "
            "swapped, and report A's win rate with a 95% confidence interval, points per hand, "
            "how the hands ended and each player's decision time."
        ),
        epilog=f"{players_help()}\n\n{EXAMPLES}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "a", metavar="A", help="the first player (its win rate is reported; players below)"
    )
    parser.add_argument("b", metavar="B", nargs="?", help="the second player (none with --panel)")
    parser.add_argument(
        "--panel",
        action="store_true",
        help=f"play A against each of {', '.join(PANEL)} (but A itself) and compare",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        metavar="N",
        help="mirrored pairs to play: 2N games in all (default 100)",
    )
    add_rules_option(parser)
    parser.add_argument(
        "--match",
        action="store_true",
        help="play whole matches to the rules' match_target (500 unless changed), not games",
    )
    parser.add_argument(
        "--seed", type=int, default=None, metavar="S", help="seed for the deals (default random)"
    )
    add_scale_options(parser, "play the pairs as Ray tasks")
    parser.add_argument(
        "--log",
        metavar="FILE",
        help="write each finished pair to FILE (JSON lines; gzip-compressed when FILE ends in "
        ".gz) as it ends; run the same command again to resume: the pairs in FILE are counted, "
        "not played again",
    )
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def run(args: argparse.Namespace) -> int:
    if args.panel and args.b is not None:
        raise CommandError("give a second player B or --panel, not both")
    if not args.panel and args.b is None:
        raise CommandError("name the second player B, or give --panel to meet them all")
    check_players(*(name for name in (args.a, args.b) if name is not None))
    if args.games < 1:
        raise CommandError(f"--games must be at least 1, not {args.games}")
    check_scale_options(args)
    if args.panel and args.log is not None:
        raise CommandError("--log keeps one run of A against B: it cannot go with --panel")
    rules = rules_preset(args.rules, args.set)
    if args.match and not rules.match_target:
        rules = rules.replace(match_target=500)  # as the web's and the terminal's matches
    log = None
    if args.log is not None:
        log = open_log(args.log, args.a, args.b, rules, args.seed, match=args.match)
        seed = log.seed
    else:
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
    # SIGTERM (``kill``) ends the run like Ctrl-C: the worker processes go with it.
    previous = signal.signal(signal.SIGTERM, _terminate)
    try:
        if args.panel:
            return _panel(args, rules, seed)
        summary = _run(args, rules, seed, log)
    finally:
        signal.signal(signal.SIGTERM, previous)
        if log is not None:
            log.close()
    if args.json:
        # Decision times depend on whether the hot modules run compiled (ginrummy.speedups).
        print(json.dumps({**summary.to_dict(), "speedups": describe()}, indent=2))
    else:
        print(format_summary(summary))
    return 0


def _panel(args: argparse.Namespace, rules: Rules, seed: int) -> int:
    """A against every player of the panel but itself, on the same deals, in one table."""
    summaries = []
    for opponent in (name for name in PANEL if name != args.a):
        summaries.append(_run(argparse.Namespace(**{**vars(args), "b": opponent}), rules, seed))
    if args.json:
        runs = [summary.to_dict() for summary in summaries]
        print(json.dumps({"panel": runs, "speedups": describe()}, indent=2))
    else:
        print(format_panel(summaries))
    return 0


def _terminate(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _run(
    args: argparse.Namespace, rules: Rules, seed: int, log: ArenaLog | None = None
) -> ArenaSummary:
    a, b = labels(args.a, args.b)
    done = log.done if log is not None else {}
    try:
        resume(done, args.games, seed)
    except ValueError as exc:
        raise CommandError(f"--log {args.log}: {exc}") from None
    before = [done[i] for i in range(args.games) if i in done]
    with _progress(args.games, a, f"{a} vs {b}", before) as progress:

        def advance(result: PairResult) -> None:
            if log is not None:
                log.write(result)
            progress(result)

        if args.ray is not None:
            return _run_on_ray(args, rules, seed, advance, done)
        summary = run_arena(
            args.a,
            args.b,
            pairs=args.games,
            rules=rules,
            seed=seed,
            jobs=1 if args.jobs is None else args.jobs,
            on_pair=advance,
            done=done,
            match=args.match,
        )
    return summary


def _run_on_ray(
    args: argparse.Namespace,
    rules: Rules,
    seed: int,
    advance: Callable[[PairResult], None],
    done: dict[int, PairResult],
) -> ArenaSummary:
    from ..rl.ray_arena import import_ray, run_arena_on_ray

    try:
        import_ray()
    except ImportError as exc:
        raise CommandError(f"--ray: {exc}") from None
    try:
        return run_arena_on_ray(
            args.a,
            args.b,
            pairs=args.games,
            rules=rules,
            seed=seed,
            address=args.ray or None,
            num_cpus=args.jobs or None,
            on_pair=advance,
            done=done,
            match=args.match,
        )
    except ConnectionError as exc:
        raise ray_unreachable(args.ray, exc) from None


class _Tally:
    """A's share of the games so far."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.pairs = 0
        self.score = 0.0

    def add(self, result: PairResult) -> None:
        self.pairs += 1
        self.score += result.value

    def __str__(self) -> str:
        return f"{self.name} {self.score / self.pairs:.1%} so far"


@contextmanager
def _progress(
    total: int, a: str, label: str, before: Sequence[PairResult] = ()
) -> Iterator[Callable[[PairResult], None]]:
    """A rich progress bar on stderr when rich is installed and stderr is a terminal, with A's
    (labelled ``a``) win rate so far (a long run can be judged, or stopped, before it ends);
    ``before`` are the pairs a resumed run already has."""
    tally = _Tally(a)
    for result in before:
        tally.add(result)
    try:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
    except ImportError:
        rich_ok = False
    else:
        rich_ok = sys.stderr.isatty()
    if not rich_ok:
        # Not a terminal (a log file, a pipe): a plain line every tenth of the run, with the
        # time it has taken and, from the pace of the pairs it has played, the time left.
        step = max(1, total // 10)
        started, resumed = time.monotonic(), tally.pairs

        def line(result: PairResult) -> None:
            tally.add(result)
            if tally.pairs % step == 0 or tally.pairs == total:
                spent = time.monotonic() - started
                text = f"{label}: {tally.pairs}/{total} pairs, {tally}, {duration(spent)} spent"
                played = tally.pairs - resumed
                if tally.pairs < total and played > 0:
                    left = spent / played * (total - tally.pairs)
                    text += f", about {duration(left)} left"
                print(text, file=sys.stderr, flush=True)

        yield line
        return
    columns = (
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"{label} (pairs)", total=total, completed=len(before))

        def advance(result: PairResult) -> None:
            tally.add(result)
            bar.update(task, advance=1, description=f"{label} (pairs), {tally}")

        yield advance


def duration(seconds: float) -> str:
    """A length of time as a person reads it: ``"45 s"``, ``"12 min"``, ``"2 h 05 min"``."""
    whole = round(seconds)
    if whole < 1:
        return "under 1 s"
    if whole < 60:
        return f"{whole} s"
    minutes = round(seconds / 60)
    if minutes < 60:
        return f"{minutes} min"
    return f"{minutes // 60} h {minutes % 60:02d} min"


def labels(a: str, b: str) -> tuple[str, str]:
    """How the report names A and B: their names, or "random (A)" and "random (B)" when a
    player meets itself."""
    return (a, b) if a != b else (f"{a} (A)", f"{b} (B)")


def undercut_rate(summary: ArenaSummary) -> float | None:
    """The share of A's knocks (gin aside) that B undercut (None: A never knocked)."""
    a, b = summary.agents
    knocked = a.knocks + b.undercuts
    return b.undercuts / knocked if knocked else None


def format_panel(summaries: list[ArenaSummary]) -> str:
    """A's results against each opponent, one line each."""
    first = summaries[0]
    a = first.agents[0].name
    lines = [
        f"{a} against the panel: {first.pairs} mirrored pairs"
        f"{' of matches' if first.match else ''} each, rules {first.rules}, "
        f"seed {first.seed}",
        "",
        f"{'opponent':<14}{'win rate':>9}  {'95% CI':<16}{'points/hand':>14}"
        f"{'gins':>11}{'undercut':>10}{'median ms':>11}",
    ]
    for summary in summaries:
        mine, theirs = summary.agents
        rate = summary.win_rate
        hands = summary.hands or 1
        cut = undercut_rate(summary)
        points = f"{mine.points / hands:.2f} / {theirs.points / hands:.2f}"
        lines.append(
            f"{theirs.name:<14}{rate.mean:>9.1%}  {f'{rate.low:.1%} to {rate.high:.1%}':<16}"
            f"{points:>14}{f'{mine.gins} / {theirs.gins}':>11}"
            f"{'-' if cut is None else f'{cut:.1%}':>10}{mine.median_ms:>11.3f}"
        )
    lines += [
        "",
        f"undercut: the share of {a}'s knocks (gin aside) the opponent undercut",
        f"hot modules: {describe()}",
    ]
    return "\n".join(lines)


def format_summary(summary: ArenaSummary) -> str:
    """The arena's report as plain text."""
    a, b = summary.agents
    a_name, b_name = labels(a.name, b.name)
    rate = summary.win_rate
    ci = f"{rate.low:.1%} to {rate.high:.1%}"
    hands = summary.hands or 1
    lines = [
        f"{a_name} vs {b_name}: {summary.games} {'matches' if summary.match else 'games'} "
        f"({summary.pairs} mirrored pairs), "
        f"rules {summary.rules}, seed {summary.seed}",
        f"{a_name} won {a.wins}, {b_name} won {b.wins}"
        + (f", undecided {summary.undecided}" if summary.undecided else ""),
        f"{a_name} win rate {rate.mean:.1%}  (95% CI {ci}, over pairs)",
        f"hands {summary.hands}: dead {summary.dead}"
        + (f", tied knocks {summary.ties}" if summary.ties else ""),
        "",
    ]
    width = max(12, len(a_name), len(b_name))
    rows = [
        ("", a_name, b_name),
        ("points/hand", f"{a.points / hands:.2f}", f"{b.points / hands:.2f}"),
        ("gins", str(a.gins), str(b.gins)),
        ("knocks won", str(a.knocks), str(b.knocks)),
        ("undercuts", str(a.undercuts), str(b.undercuts)),
        ("median ms", f"{a.median_ms:.3f}", f"{b.median_ms:.3f}"),
        ("p99 ms", f"{a.p99_ms:.3f}", f"{b.p99_ms:.3f}"),
    ]
    if a.big_gins or b.big_gins:
        rows.insert(3, ("big gins", str(a.big_gins), str(b.big_gins)))
    for label, left, right in rows:
        lines.append(f"{label:<12} {left:>{width}} {right:>{width}}")
    lines.append(f"hot modules: {describe()}")
    return "\n".join(lines)
