"""The arena: mirrored pairs, the paired confidence interval, the summary and the command."""

from __future__ import annotations

import json
import math
import re
import signal
import statistics
import subprocess
import sys
import time

import psutil
import pytest

from ginrummy.agents.arena import (
    GameStats,
    PairResult,
    paired_interval,
    percentile,
    play_pair,
    run_arena,
    summarize,
    t_quantile_975,
)
from ginrummy.agents.play import play_game, play_match
from ginrummy.agents.registry import PANEL
from ginrummy.cli.arena import duration
from ginrummy.cli.main import main
from ginrummy.engine import Rules

EAAI = Rules.preset("eaai")


# ---------------------------------------------------------------------------------------------
# Statistics on known inputs


def test_t_quantiles() -> None:
    assert t_quantile_975(1) == pytest.approx(12.706)
    assert t_quantile_975(7) == pytest.approx(2.365)
    assert t_quantile_975(30) == pytest.approx(2.042)
    # Past the table the expansion takes over, continuous with it and falling towards z.
    assert t_quantile_975(31) == pytest.approx(2.0395, abs=2e-4)
    assert t_quantile_975(60) == pytest.approx(2.0003, abs=2e-4)
    assert t_quantile_975(120) == pytest.approx(1.9799, abs=2e-4)
    assert t_quantile_975(10**6) == pytest.approx(1.96, abs=1e-3)
    with pytest.raises(ValueError):
        t_quantile_975(0)


def test_paired_interval_on_known_values() -> None:
    values = [1, 1, 0.5, 1, 0.5, 0.5, 1, 0.5]
    interval = paired_interval(values)
    assert interval.mean == 0.75
    # A t-interval over the values with a lost and a won pair added, about their mean.
    padded = [*values, 0, 1]
    centre = statistics.fmean(padded)
    assert centre == 0.7
    half = 2.262 * statistics.stdev(padded) / math.sqrt(10)
    assert half == pytest.approx(0.2501, abs=1e-4)
    assert interval.low == pytest.approx(centre - half)
    assert interval.high == pytest.approx(centre + half)


def test_paired_interval_is_clipped_and_never_a_point() -> None:
    wide = paired_interval([1, 0, 1, 0])
    assert (wide.mean, wide.low, wide.high) == (0.5, 0.0, 1.0)
    single = paired_interval([0.5])
    assert (single.mean, single.low, single.high) == (0.5, 0.0, 1.0)
    # Pairs that all ended alike have no variance: the interval still has a width, which
    # shrinks as the pairs add up (about Wilson's score interval over the pairs).
    lows = [paired_interval([1.0] * n).low for n in (2, 3, 10, 100)]
    assert lows == pytest.approx([0.0, 0.2448, 0.7333, 0.9707], abs=1e-4)
    assert all(paired_interval([1.0] * n).high == 1.0 for n in (2, 3, 10, 100))
    split = paired_interval([0.5] * 20)
    assert split.low == pytest.approx(0.4316, abs=1e-4) and split.high == pytest.approx(
        0.5684, abs=1e-4
    )
    with pytest.raises(ValueError):
        paired_interval([])


def test_percentile_interpolates() -> None:
    assert percentile([3, 1, 2], 50) == 2
    assert percentile(list(range(101)), 99) == 99
    assert percentile([0, 10], 99) == pytest.approx(9.9)
    assert percentile([], 99) == 0.0


def stats(a_seat: int, score: float, points: tuple[int, int] = (0, 0)) -> GameStats:
    return GameStats(
        seed=1,
        a_seat=a_seat,
        score=score,
        hands=4,
        points=points,
        gins=(1, 0),
        big_gins=(0, 0),
        knocks=(2, 1),
        undercuts=(0, 1),
        dead=0,
        ties=0,
        times=((0.001, 0.003), (0.002,)),
    )


def test_summary_counts_each_pair_as_one_observation() -> None:
    results = [
        PairResult(0, 1, (stats(0, 1.0, (100, 20)), stats(1, 1.0, (110, 0)))),
        PairResult(1, 2, (stats(0, 1.0, (105, 50)), stats(1, 0.0, (30, 100)))),
        PairResult(2, 3, (stats(0, 0.0, (0, 100)), stats(1, 0.5, (10, 10)))),
    ]
    summary = summarize("x", "y", EAAI, 9, results)
    assert [r.value for r in results] == [1.0, 0.5, 0.25]
    expected = paired_interval([1.0, 0.5, 0.25])
    assert summary.win_rate == expected
    assert summary.win_rate.mean == pytest.approx(sum([1.0, 0.5, 0.25]) / 3)
    a, b = summary.agents
    assert (a.wins, b.wins, summary.undecided) == (3, 2, 1)
    assert (a.points, b.points, summary.hands) == (355, 280, 24)
    assert (a.gins, a.knocks, a.undercuts, b.undercuts) == (6, 12, 0, 6)
    assert a.decisions == 12 and a.median_ms == pytest.approx(2.0)
    data = summary.to_dict()
    assert data["games"] == 6 and data["pairs"] == 3
    assert data["ci95"] == [round(expected.low, 4), round(expected.high, 4)]
    assert data["net_points_per_hand"] == round(75 / 24, 3)


# ---------------------------------------------------------------------------------------------
# Playing


def test_a_pair_deals_the_same_game_with_the_seats_swapped() -> None:
    pair = play_pair("simple", "greedy", EAAI, seed=5, index=3)
    first, second = pair.games
    assert (first.a_seat, second.a_seat) == (0, 1)
    assert first.seed == second.seed == pair.seed
    one = play_game(EAAI, ("simple", "greedy"), pair.seed)
    two = play_game(EAAI, ("greedy", "simple"), pair.seed)
    assert one.record.first_dealer == two.record.first_dealer
    assert one.record.hands[0].deck == two.record.hands[0].deck
    assert first.score == (one.winner == 0) and second.score == (two.winner == 1)


def without_times(data: dict[str, object]) -> dict[str, object]:
    agents = data["agents"]
    assert isinstance(agents, list)
    for agent in agents:
        agent.pop("decision_ms")
    return data


def test_arena_smoke_and_reproducible_across_processes() -> None:
    seen: list[int] = []
    summary = run_arena(
        "simple", "random", pairs=3, rules=EAAI, seed=2, on_pair=lambda r: seen.append(r.index)
    )
    assert sorted(seen) == [0, 1, 2]
    assert summary.games == 6 and summary.agents[0].wins == 6
    assert summary.win_rate.mean == 1.0
    parallel = run_arena("simple", "random", pairs=3, rules=EAAI, seed=2, jobs=2)
    assert without_times(parallel.to_dict()) == without_times(summary.to_dict())


def test_arena_rejects_bad_arguments() -> None:
    with pytest.raises(ValueError, match="unknown agent"):
        run_arena("simple", "nobody", pairs=1, rules=EAAI, seed=1)
    with pytest.raises(ValueError, match="at least one pair"):
        run_arena("simple", "random", pairs=0, rules=EAAI, seed=1)


def test_a_match_arena_plays_whole_matches_the_seats_swapped() -> None:
    rules = EAAI.replace(game_target=25, match_target=100)  # a few games a match
    pair = play_pair("simple", "greedy", rules, seed=5, index=2, match=True)
    first, second = pair.games
    one = play_match(rules, ("simple", "greedy"), pair.seed)
    two = play_match(rules, ("greedy", "simple"), pair.seed)
    assert first.score == (one.winner == 0) and second.score == (two.winner == 1)
    assert first.hands == len(one.results) > 3 and second.hands == len(two.results)
    assert one.totals[one.winner] >= 100
    summary = run_arena("simple", "greedy", pairs=3, rules=rules, seed=5, match=True)
    data = summary.to_dict()
    assert summary.match and data["match"] is True and data["matches"] == 6
    assert "games" not in data
    parallel = run_arena("simple", "greedy", pairs=3, rules=rules, seed=5, jobs=2, match=True)
    assert without_times(parallel.to_dict()) == without_times(data)
    with pytest.raises(ValueError, match="play no match"):
        run_arena(
            "simple", "greedy", pairs=1, rules=rules.replace(match_target=0), seed=1, match=True
        )


def test_the_arena_command_plays_matches(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "simple", "greedy", "--games", "1", "--rules", "eaai", "--seed", "3"]
    assert main([*argv, "--match"]) == 0
    out = capsys.readouterr().out
    assert "simple vs greedy: 2 matches (1 mirrored pairs), rules eaai, seed 3" in out
    assert main([*argv, "--match", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] == 2 and data["hands"] > 20  # matches to 500 of games to 100


# ---------------------------------------------------------------------------------------------
# The command


def test_arena_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "greedy", "simple", "--games", "2", "--rules", "eaai", "--seed", "4"]
    assert main([*argv, "--json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    # Not a terminal: plain progress lines on stderr instead of a bar.
    assert "greedy vs simple: 2/2 pairs" in captured.err
    assert [a["name"] for a in data["agents"]] == ["greedy", "simple"]
    assert (data["games"], data["pairs"], data["rules"], data["seed"]) == (4, 2, "eaai", 4)
    assert data["agents"][0]["wins"] + data["agents"][1]["wins"] + data["undecided_games"] == 4
    assert 0 <= data["win_rate"] <= 1 and len(data["ci95"]) == 2
    for agent in data["agents"]:
        assert set(agent["decision_ms"]) == {"median", "p99"}
        assert agent["decisions"] > 0
    assert {"hands", "dead_hands", "net_points_per_hand"} <= set(data)


def test_arena_command_text(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "simple", "random", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "simple vs random: 4 games (2 mirrored pairs), rules standard, seed 1" in out
    assert "simple win rate 100.0%  (95% CI 0.0% to 100.0%, over pairs)" in out
    for row in ("points/hand", "gins", "knocks won", "undercuts", "median ms", "p99 ms"):
        assert row in out


def _busy(process: psutil.Process) -> bool:
    try:
        return bool(process.cpu_times().user > 0.2)
    except psutil.NoSuchProcess:
        return False


def test_a_killed_arena_takes_its_workers_with_it() -> None:
    cmd = [sys.executable, "-m", "ginrummy.cli.main", "arena", "simple", "simple"]
    cmd += ["--games", "100000", "--jobs", "2", "--seed", "1"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        parent = psutil.Process(proc.pid)
        deadline = time.monotonic() + 60
        workers: list[psutil.Process] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
            workers = [p for p in parent.children(recursive=True) if _busy(p)]
        assert len(workers) >= 2, "the workers never got to work"
        children = parent.children(recursive=True)
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=30) != 0
        _, alive = psutil.wait_procs(children, timeout=30)
        assert alive == []
    finally:
        proc.kill()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nobody", "simple"], "unknown player 'nobody'"),
        (["simple", "random", "--games", "0"], "--games must be at least 1"),
        (["simple", "random", "--rules", "nope"], "unknown rules preset 'nope'"),
        (["simple", "random", "--jobs", "-1"], "--jobs must be 0"),
        (
            ["simple", "random", "--set", "next_dealer=alt"],
            "--set: next_dealer must be one of winner, alternate, loser; not 'alt'",
        ),
        (["simple", "random", "--set", "gin"], "a rule change is OPTION=VALUE"),
    ],
)
def test_arena_command_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["arena", *args]) == 2
    assert message in capsys.readouterr().err


def test_a_player_against_itself_has_its_sides_told_apart(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "random", "random", "--games", "2", "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert "random (A) vs random (B): 4 games (2 mirrored pairs)" in out
    assert "random (A) won 2, random (B) won 2" in out
    assert "random (A) win rate 50.0%" in out
    header = next(line for line in out.splitlines() if line.startswith(" "))
    assert header.split() == ["random", "(A)", "random", "(B)"]
    assert "random (A) vs random (B): 2/2 pairs, random (A) 50.0% so far" in err
    # The last line says the time spent; none is left.
    assert re.search(r"2/2 pairs, random \(A\) 50\.0% so far, [\w ]+ spent\n$", err)


def test_the_progress_lines_say_the_time_spent_and_left(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["arena", "random", "simple", "--games", "20", "--seed", "1"]) == 0
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 10 and lines[0].startswith("random vs simple: 2/20 pairs, random ")
    going = r" so far, [\w ]+ spent, about [\w ]+ left$"
    assert all(re.search(going, line) for line in lines[:-1])
    assert re.search(r"20/20 pairs, .* so far, [\w ]+ spent$", lines[-1])


@pytest.mark.parametrize(
    ("seconds", "text"),
    [
        (0.2, "under 1 s"),
        (0.6, "1 s"),
        (44.6, "45 s"),
        (59.4, "59 s"),
        (61, "1 min"),
        (725, "12 min"),
        (3569, "59 min"),
        (3600, "1 h 00 min"),
        (7500, "2 h 05 min"),
    ],
)
def test_a_duration_reads_as_a_person_says_it(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_arena_panel_meets_every_other_player_of_the_panel_on_the_same_deals(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["arena", "camper", "--panel", "--games", "1", "--rules", "eaai", "--seed", "5"]
    assert main([*argv, "--json"]) == 0
    runs = json.loads(capsys.readouterr().out)["panel"]
    assert [run["agents"][1]["name"] for run in runs] == [p for p in PANEL if p != "camper"]
    assert {(run["agents"][0]["name"], run["seed"], run["pairs"]) for run in runs} == {
        ("camper", 5, 1)
    }
    # Each line of the table is the same run as the arena of that pair alone.
    alone = run_arena("camper", "simple", pairs=1, rules=EAAI, seed=5)
    assert without_times(runs[0]) == without_times(alone.to_dict())
    assert main(argv) == 0
    table = capsys.readouterr().out.splitlines()
    assert table[0] == "camper against the panel: 1 mirrored pairs each, rules eaai, seed 5"
    assert [line.split()[0] for line in table[3 : 3 + len(runs)]] == [
        run["agents"][1]["name"] for run in runs
    ]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["simple", "--panel"], "give a second player B or --panel, not both"),
        ([], "name the second player B, or give --panel to meet them all"),
    ],
)
def test_arena_wants_one_opponent_or_the_panel(
    capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    assert main(["arena", "camper", *extra, "--games", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"ginrummy: error: {message}"


def test_the_rules_can_change_a_presets_options(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "simple", "greedy", "--games", "2", "--seed", "3", "--json"]
    changes = ["--set", "next_dealer=alternate", "--set", "gin_bonus=20"]
    assert main([*argv, "--rules", "Standard", *changes]) == 0
    changed = json.loads(capsys.readouterr().out)
    assert changed["rules"] == "standard gin_bonus=20 next_dealer=alternate"
    assert main([*argv, "--rules", "standard"]) == 0
    assert json.loads(capsys.readouterr().out)["rules"] == "standard"
