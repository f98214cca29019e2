"""Self-play data: what the rows say, that they are the environments' observations and action
ids, that a seed reproduces them in any number of processes, and that Parquet and .npz files
read back the same."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from ginrummy import Action, Hand, Rules
from ginrummy.agents.play import play_hand
from ginrummy.cli.main import main
from ginrummy.rl import raw_env, selfplay
from ginrummy.rl.actions import NUM_ACTIONS, ids_of, to_action
from ginrummy.rl.encoding_registry import get_encoding
from ginrummy.rl.encodings import DEFAULT_SIZE
from ginrummy.rl.openspiel import observation_tensor
from rlutil import observed

EAAI = Rules.preset("eaai")
CONFIG = selfplay.SelfPlay(episodes=12, agents=("simple", "random"), rules=EAAI, seed=4)


@pytest.fixture(scope="module")
def columns() -> selfplay.Columns:
    return selfplay.concatenate(list(selfplay.generate(CONFIG)))


def test_rows_are_the_hands_decisions(columns: selfplay.Columns) -> None:
    rows = len(columns["episode"])
    assert columns["observation"].shape == (rows, DEFAULT_SIZE)
    assert columns["observation"].dtype == np.float32
    assert columns["action_mask"].shape == (rows, NUM_ACTIONS)
    assert sorted(set(columns["episode"].tolist())) == list(range(12))
    # Every action taken was legal, and the rows of a hand are its decisions in order.
    assert columns["action_mask"][np.arange(rows), columns["action"]].all()
    for episode in range(12):
        mine = columns["episode"] == episode
        assert columns["step"][mine].tolist() == list(range(mine.sum()))
        # One last decision a seat, where the hand's points are; zero-sum.
        assert sorted(columns["seat"][mine & columns["done"]].tolist()) == [0, 1]
        assert columns["reward"][mine & ~columns["done"]].tolist() == [0] * int(
            (mine & ~columns["done"]).sum()
        )
        assert columns["reward"][mine].sum() == 0


@pytest.mark.parametrize("encoding", ["default", "rlcard", "infostate", "openspiel"])
def test_rows_are_the_environments_observations_and_ids(encoding: str) -> None:
    """Episode 3 again, in each encoding: every row holds the deciding seat's observation as an
    environment's encoder makes it, the legal ids as the environment's mask, and the id of the
    action played; the points go to the seats' last rows. The shapes are the environment's."""
    config = selfplay.SelfPlay(1, ("simple", "random"), EAAI, seed=4, encoding=encoding)
    episode = 3
    chunk = selfplay.play_chunk(config, episode, episode + 1)
    meta = config.metadata()
    assert meta["encoding"] == encoding and meta["actions"] == "ginrummy_v0"
    env = raw_env(rules=EAAI, encoding=encoding)
    space = env.observation_space("player_0")
    observations = selfplay.observations_of(chunk, meta)
    assert observations.shape[1:] == space["observation"].shape
    assert chunk["action_mask"].shape[1] == space["action_mask"].shape[0]
    make, options = get_encoding(encoding).make, config.options()
    seed = selfplay.episode_seed(config.seed, episode)
    hand = play_hand(EAAI, episode % 2, seed, config.agents)
    replay = Hand.deal(EAAI, episode % 2, seed)
    assert len(chunk["step"]) == len(hand.events)
    for n, event in enumerate(hand.events):
        assert chunk["seat"][n] == event.seat
        assert np.array_equal(
            chunk["observation"][n], observed(hand, n, event.seat, make(options)).reshape(-1)
        )
        if encoding == "openspiel":  # and that is OpenSpiel's tensor of the seat's view
            tensor = observation_tensor(replay.view(event.seat))
            assert np.array_equal(chunk["observation"][n], tensor)
        legal = np.flatnonzero(chunk["action_mask"][n]).tolist()
        assert legal == sorted(ids_of(replay.legal_actions()))
        assert to_action(int(chunk["action"][n])) == Action(event.action.kind, event.action.card)
        replay.apply(event.action)
    result = hand.result
    assert result is not None
    done = chunk["done"]
    if result.winner is not None:
        won = chunk["reward"][done & (chunk["seat"] == result.winner)]
        assert won.tolist() == [result.points]


def test_the_seed_gives_the_same_rows_in_worker_processes(columns: selfplay.Columns) -> None:
    config = selfplay.SelfPlay(episodes=70, agents=("simple", "random"), rules=EAAI, seed=4)
    assert len(config.chunks()) == 2
    one = selfplay.concatenate(list(selfplay.generate(config)))
    two = selfplay.concatenate(list(selfplay.generate(config, jobs=2)))
    for name in one:
        assert np.array_equal(one[name], two[name]), name
    first = one["episode"] < 12
    for name in columns:
        assert np.array_equal(one[name][first], columns[name]), name


@pytest.mark.parametrize("suffix", [".parquet", ".npz"])
def test_files_read_back(columns: selfplay.Columns, tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"hands{suffix}"
    seen: list[int] = []
    rows = selfplay.write(path, CONFIG, iter([columns]), lambda c: seen.append(len(c["step"])))
    assert rows == len(columns["episode"]) == seen[0]
    loaded, meta = selfplay.load(path)
    assert meta == CONFIG.metadata()
    assert meta["rules"] == EAAI.to_dict() and meta["encoding"] == "default"
    assert meta["version"] == 2 and meta["num_actions"] == NUM_ACTIONS
    for name in columns:
        assert np.array_equal(loaded[name], columns[name]), name
        assert loaded[name].dtype == columns[name].dtype, name


@pytest.mark.parametrize("suffix", [".parquet", ".npz"])
def test_an_encoding_of_planes_reads_back_in_its_shape(tmp_path: Path, suffix: str) -> None:
    config = selfplay.SelfPlay(episodes=2, rules=EAAI, seed=1, encoding="rlcard")
    chunks = list(selfplay.generate(config))
    path = tmp_path / f"planes{suffix}"
    selfplay.write(path, config, iter(chunks))
    loaded, meta = selfplay.load(path)
    assert meta["observation_shape"] == [5, 52]
    planes = selfplay.observations_of(loaded, meta)
    assert planes.shape == (len(loaded["step"]), 5, 52)
    assert np.array_equal(planes.reshape(len(planes), -1), chunks[0]["observation"])


def test_selfplay_command(
    columns: selfplay.Columns, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hands.npz"
    argv = ["selfplay", str(out), "--episodes", "12", "--agents", "simple", "random"]
    assert main([*argv, "--rules", "eaai", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert "12 hands" in captured.out and "seed 4" in captured.out
    assert "selfplay: 12/12 episodes" in captured.err
    loaded, meta = selfplay.load(out)
    assert meta["agents"] == ["simple", "random"]
    for name in columns:
        assert np.array_equal(loaded[name], columns[name]), name


def test_bad_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        selfplay.SelfPlay(episodes=0)
    with pytest.raises(ValueError, match="unknown encoding"):
        selfplay.SelfPlay(episodes=1, encoding="pixels")
    with pytest.raises(ValueError, match="unknown agent"):
        selfplay.SelfPlay(episodes=1, agents=("simple", "nobody"))
    with pytest.raises(ValueError, match=r"\.parquet or \.npz"):
        selfplay.write("hands.csv", CONFIG, iter([]))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["out.csv"], "OUT must be a file name ending in .parquet or .npz"),
        ([], "OUT is required: the file to write, .parquet or .npz"),
        # --ray's address is optional: a file name after it is taken for one
        (["--ray", "out.npz"], "--ray took 'out.npz' as the cluster's address: write OUT"),
        (["out.npz", "--episodes", "0"], "--episodes must be at least 1"),
        (["out.npz", "--agents", "simple", "nobody"], "unknown player 'nobody'"),
        (["out.npz", "--rules", "nope"], "unknown rules preset 'nope'"),
        (["out.npz", "--encoding", "nope"], "unknown encoding 'nope'"),
        (["out.npz", "--jobs", "-1"], "--jobs must be 0"),
    ],
)
def test_selfplay_command_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["selfplay", *args]) == 2
    assert message in capsys.readouterr().err


def test_selfplay_without_numpy_names_the_extra_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With only the ``ray`` extra installed, ``selfplay --ray`` once said that it needed numpy
    and not which install brings it (the ``rl`` extra)."""
    import sys

    import ginrummy.rl

    monkeypatch.delitem(sys.modules, "ginrummy.rl.selfplay")
    monkeypatch.delattr(ginrummy.rl, "selfplay")
    monkeypatch.setitem(sys.modules, "numpy", None)
    assert main(["selfplay", "out.npz", "--episodes", "1"]) == 2
    assert "pip install 'ginrummy[rl]'" in capsys.readouterr().err
