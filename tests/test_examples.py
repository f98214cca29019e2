"""The examples in examples/ run, each for a few steps (the Ray one in test_rl_ray.py, on the
Ray the tests there share)."""

from __future__ import annotations

from pathlib import Path

import pytest

from exampleutil import load_example


def test_openspiel_random_loop(capsys: pytest.CaptureFixture[str]) -> None:
    load_example("openspiel_random").main(["--games", "2", "--rules", "oklahoma"])
    out = capsys.readouterr().out
    assert "python_ginrummy(" in out and "game 2: returns" in out
    assert "gin_rummy() for comparison" in out


def test_policy_gradient_learner(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    png = tmp_path / "curve.png"
    example = load_example("policy_gradient")
    history = example.main(["--hands", "34", "--window", "5", "--plot", str(png)])
    assert {name: len(points) for name, points in history.items()} == {"random": 17, "simple": 17}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "against simple:" in capsys.readouterr().out
    # Training moves the policy: two updates of 16 hands happened.
    policy = example.Policy(8, example.np.random.default_rng(0))
    before = {k: v.copy() for k, v in policy.params.items()}
    steps = example.Steps()
    rng = example.random.Random(0)
    _, made = example.play_hand(policy, "random", example.Rules(), 5, rng, steps)
    assert made == len(steps.action) > 0
    advantages = example.np.ones(made)
    policy.update(
        example.np.array(steps.x),
        example.np.array(steps.mask),
        example.np.array(steps.action),
        advantages,
        1e-2,
        0.0,
    )
    assert any(not (before[k] == policy.params[k]).all() for k in before)


def test_environment_random_loops(capsys: pytest.CaptureFixture[str]) -> None:
    load_example("env_random").main(["--episodes", "1", "--rows", "3", "--steps", "40"])
    out = capsys.readouterr().out
    for line in ("AEC episode 1:", "parallel episode 1:", "Gymnasium episode 1 against random"):
        assert line in out
    assert "VectorEnv(3): 40 steps, observations (696,)" in out


def test_environment_random_loops_replay_with_the_same_seed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--seed`` once seeded only the deals: the random agents drew from action spaces no one
    had seeded, so the same command printed other episodes at every run."""
    example = load_example("env_random")
    outputs = []
    for _ in range(2):
        example.main(["--episodes", "2", "--rows", "2", "--steps", "20", "--seed", "3"])
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
