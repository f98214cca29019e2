"""Ray: the arena's pairs and the self-play chunks as Ray tasks give exactly what one process
gives. Every test that needs Ray shares one local Ray with 2 CPUs (it takes seconds to start)."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from exampleutil import load_example
from ginrummy.agents.arena import PairResult, play_pair, run_arena
from ginrummy.cli.main import main
from ginrummy.engine import Rules
from ginrummy.rl import selfplay
from ginrummy.rl.ray_arena import INSTALL_HINT, import_ray, run_arena_on_ray

EAAI = Rules.preset("eaai")


@pytest.fixture(scope="module")
def ray() -> Iterator[ModuleType]:
    module = import_ray()
    module.init(num_cpus=2, include_dashboard=False)
    try:
        yield module
    finally:
        module.shutdown()


def without_times(result: PairResult) -> PairResult:
    games = tuple(dataclasses.replace(g, times=((), ())) for g in result.games)
    return dataclasses.replace(result, games=(games[0], games[1]))


def pairs(summary_pairs: list[PairResult]) -> list[PairResult]:
    return [without_times(r) for r in sorted(summary_pairs, key=lambda r: r.index)]


def test_ray_pairs_equal_one_process_and_worker_processes(ray: ModuleType) -> None:
    seen: dict[str, list[PairResult]] = {"one": [], "jobs": [], "ray": []}
    kwargs = {"pairs": 3, "rules": EAAI, "seed": 5}
    one = run_arena("simple", "greedy", jobs=1, on_pair=seen["one"].append, **kwargs)
    jobs = run_arena("simple", "greedy", jobs=2, on_pair=seen["jobs"].append, **kwargs)
    on_ray = run_arena_on_ray("simple", "greedy", on_pair=seen["ray"].append, **kwargs)
    assert pairs(seen["ray"]) == pairs(seen["one"]) == pairs(seen["jobs"])
    assert [r.index for r in sorted(seen["ray"], key=lambda r: r.index)] == [0, 1, 2]
    summaries = [s.to_dict() for s in (one, jobs, on_ray)]
    for summary in summaries:
        for agent in summary["agents"]:
            del agent["decision_ms"]
    assert summaries[0] == summaries[1] == summaries[2]


def test_ray_plays_matches_as_one_process_does(ray: ModuleType) -> None:
    rules = EAAI.replace(game_target=25, match_target=100)
    kwargs = {"pairs": 2, "rules": rules, "seed": 5, "match": True}
    one = run_arena("simple", "greedy", **kwargs).to_dict()
    on_ray = run_arena_on_ray("simple", "greedy", **kwargs).to_dict()
    for summary in (one, on_ray):
        for agent in summary["agents"]:
            del agent["decision_ms"]
    assert on_ray == one and on_ray["matches"] == 4


def test_ray_plays_only_the_pairs_not_done(ray: ModuleType) -> None:
    kwargs = {"pairs": 3, "rules": EAAI, "seed": 5}
    done = {1: play_pair("simple", "greedy", EAAI, 5, 1)}
    played: list[PairResult] = []
    on_ray = run_arena_on_ray("simple", "greedy", on_pair=played.append, done=done, **kwargs)
    assert sorted(r.index for r in played) == [0, 2]
    one = run_arena("simple", "greedy", **kwargs)
    assert on_ray.win_rate == one.win_rate and on_ray.hands == one.hands


def test_arena_command_on_ray(ray: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["arena", "simple", "random", "--games", "2", "--rules", "eaai", "--seed", "3"]
    assert main([*argv, "--json"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert main([*argv, "--json", "--ray"]) == 0
    captured = capsys.readouterr()
    remote = json.loads(captured.out)
    assert "simple vs random: 2/2 pairs" in captured.err
    for data in (local, remote):
        for agent in data["agents"]:
            del agent["decision_ms"]
    assert remote == local


def test_selfplay_on_ray_writes_the_same_rows(ray: ModuleType, tmp_path: Path) -> None:
    config = selfplay.SelfPlay(episodes=70, agents=("simple", "random"), rules=EAAI, seed=9)
    here = selfplay.concatenate(list(selfplay.generate(config)))
    there = selfplay.concatenate(list(selfplay.generate(config, ray="")))
    assert here.keys() == there.keys()
    for name in here:
        assert np.array_equal(here[name], there[name]), name
    out = tmp_path / "hands.parquet"
    argv = ["selfplay", str(out), "--episodes", "70", "--agents", "simple", "random"]
    assert main([*argv, "--rules", "eaai", "--seed", "9", "--ray"]) == 0
    written, meta = selfplay.load(out)
    assert meta["seed"] == 9 and meta["episodes"] == 70
    for name in here:
        assert np.array_equal(written[name], here[name]), name


def test_ray_example_runs(ray: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    load_example("ray_arena").main(["--pairs", "2", "--seed", "1"])
    out = capsys.readouterr().out
    assert "simple vs random" in out and "win rate" in out


def test_a_clear_error_without_ray(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` now raises ImportError
    with pytest.raises(ImportError, match="pip install 'ginrummy\\[ray\\]'"):
        import_ray()
    assert main(["arena", "simple", "random", "--games", "1", "--ray"]) == 2
    assert capsys.readouterr().err.strip() == f"ginrummy: error: --ray: {INSTALL_HINT}"
    assert main(["selfplay", "x.npz", "--ray"]) == 2
    assert INSTALL_HINT in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["arena", "simple", "random", "--ray", "auto", "--jobs", "2"], "cannot go with"),
        (["selfplay", "out.npz", "--ray", "auto", "--jobs", "2"], "cannot go with"),
    ],
)
def test_command_errors(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


class _RayWithoutClient:
    """Ray as ``pip install ray`` installs it: ``ray.init("ray://...")`` needs Ray Client, which
    that install lacks, and says so with a ValueError."""

    @staticmethod
    def is_initialized() -> bool:
        return False

    @staticmethod
    def init(address: str | None = None, **options: object) -> None:
        if address and address.startswith("ray://"):
            raise ValueError(
                "Ray Client requires pip package `ray[client]`. If you installed the minimal "
                "Ray (e.g. `pip install ray`), please reinstall by executing "
                "`pip install ray[client]`."
            )
        raise AssertionError("not reached")


@pytest.mark.parametrize("command", ["arena", "selfplay"])
def test_a_ray_client_address_without_ray_client_is_a_one_line_error(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--ray ray://host:10001``, as the help offers it, once ended in a traceback when the
    installed Ray had no client (the ``ray`` extra installed Ray without it)."""
    import ginrummy.rl.ray_arena

    monkeypatch.setattr(ginrummy.rl.ray_arena, "import_ray", lambda: _RayWithoutClient)
    args = ["simple", "random", "--games", "1"] if command == "arena" else ["x.npz"]
    assert main([command, *args, "--ray", "ray://head:10001"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("ginrummy: error: --ray ray://head:10001: ")
    assert "pip install 'ginrummy[ray]'" in err and "\n" not in err
