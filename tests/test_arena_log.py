"""``ginrummy arena --log``: a long run written down pair by pair, resumed where it stopped."""

from __future__ import annotations

import dataclasses
import gzip
import json
import os
import subprocess
import sys
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from ginrummy.agents.arena import PairResult, play_pair, run_arena
from ginrummy.cli.arena_log import decode, encode, gunzip, open_log
from ginrummy.cli.main import main
from ginrummy.engine import Rules

EAAI = Rules.preset("eaai")
RUN = ["arena", "simple", "greedy", "--rules", "eaai"]


def summary(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    """The arena's JSON summary, less the decision times (a replayed pair keeps the times it
    was played in; a pair played again has new ones)."""
    assert main([*RUN, *argv, "--json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    for agent in data["agents"]:
        del agent["decision_ms"]
    return data


def lines(path: Path) -> list[Any]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_a_pair_reads_back_as_it_was_written() -> None:
    result = play_pair("simple", "greedy", EAAI, seed=3, index=1)
    again = PairResult.from_dict(json.loads(json.dumps(result.to_dict())))
    assert again == result
    with pytest.raises(ValueError, match="not an arena pair"):
        PairResult.from_dict({"index": 1, "seed": 2})
    with pytest.raises(ValueError, match="not an arena game"):
        PairResult.from_dict({**result.to_dict(), "games": [{"seed": 1}, {"seed": 2}]})


def test_done_pairs_are_counted_and_not_played_again() -> None:
    first = run_arena("simple", "greedy", pairs=2, rules=EAAI, seed=8)
    done = {
        0: play_pair("simple", "greedy", EAAI, 8, 0),
        1: play_pair("simple", "greedy", EAAI, 8, 1),
    }
    played: list[int] = []
    resumed = run_arena(
        "simple",
        "greedy",
        pairs=3,
        rules=EAAI,
        seed=8,
        done=done,
        on_pair=lambda r: played.append(r.index),
    )
    assert played == [2]
    whole = run_arena("simple", "greedy", pairs=3, rules=EAAI, seed=8)
    assert resumed.win_rate == whole.win_rate and resumed.hands == whole.hands
    assert first.pairs == 2 and resumed.pairs == 3
    with pytest.raises(ValueError, match="another seed"):
        run_arena("simple", "greedy", pairs=3, rules=EAAI, seed=9, done=done)


def test_a_logged_run_resumes_to_what_one_run_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl"
    summary(capsys, "--games", "2", "--seed", "6", "--log", str(log))
    written = lines(log)
    assert written[0]["a"] == "simple" and written[0]["seed"] == 6
    assert sorted(pair["index"] for pair in written[1:]) == [0, 1]
    # The seed comes from the log; only pairs 2 and 3 are played and appended.
    resumed = summary(capsys, "--games", "4", "--log", str(log))
    assert lines(log)[:3] == written
    assert sorted(pair["index"] for pair in lines(log)[1:]) == [0, 1, 2, 3]
    assert resumed == summary(capsys, "--games", "4", "--seed", "6")
    # Nothing left to play: the log alone gives the summary, and is left as it was.
    before = log.read_text()
    assert summary(capsys, "--games", "4", "--log", str(log)) == resumed
    assert log.read_text() == before


def test_a_line_cut_off_mid_write_is_dropped_and_played_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl"
    summary(capsys, "--games", "2", "--seed", "6", "--log", str(log))
    whole = log.read_text().splitlines(keepends=True)
    # The run was killed while it wrote pair 1's line.
    log.write_text("".join(whole[:2]) + whole[2][:40])
    resumed = summary(capsys, "--games", "2", "--log", str(log))
    assert resumed == summary(capsys, "--games", "2", "--seed", "6")
    assert len(lines(log)) == 3  # the header and both pairs, every line whole


@pytest.mark.parametrize("name", ["run.jsonl", "run.jsonl.gz"])
def test_a_killed_run_keeps_its_finished_pairs(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / name

    def logged() -> int:
        """The log's whole lines, as a reader sees them while the run goes on."""
        if not log.exists():
            return 0
        raw = log.read_bytes()
        return (gunzip(raw) if name.endswith(".gz") else raw).count(b"\n")

    cmd = [sys.executable, "-m", "ginrummy.cli.main", *RUN, "--games", "100000", "--seed", "2"]
    proc = subprocess.Popen([*cmd, "--log", str(log)], stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and logged() < 4:
            time.sleep(0.05)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    kept = logged() - 1
    assert kept >= 3, "the run logged no pairs before it was killed"
    resumed = summary(capsys, "--games", str(kept + 1), "--log", str(log))
    assert resumed == summary(capsys, "--games", str(kept + 1), "--seed", "2")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--seed", "7"], "this one has another seed"),
        (["--seed", "6", "--rules", "standard"], "this one has another rules"),
        (["--seed", "6", "--panel"], "cannot go with --panel"),
    ],
)
def test_a_log_of_another_run_is_refused_and_kept(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl"
    summary(capsys, "--games", "1", "--seed", "6", "--log", str(log))
    before = log.read_text()
    player_b = [] if "--panel" in argv else ["greedy"]
    assert main(["arena", "simple", *player_b, "--rules", "eaai", *argv, "--log", str(log)]) == 2
    assert message in capsys.readouterr().err
    assert log.read_text() == before


def test_another_player_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    summary(capsys, "--games", "1", "--seed", "6", "--log", str(log))
    assert main(["arena", "simple", "random", "--rules", "eaai", "--log", str(log)]) == 2
    err = capsys.readouterr().err
    assert "holds another run (simple vs greedy, seed 6): this one has another player B" in err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("hello\n", "line 1: not JSON"),
        ('{"seed": 1}\n', "not an arena log of this version"),
        ("no newline at all", "its first line is not whole"),
    ],
)
def test_a_file_that_is_not_a_log_is_refused_and_kept(
    text: str, message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "notes.txt"
    log.write_text(text)
    assert main([*RUN, "--games", "1", "--log", str(log)]) == 2
    assert message in capsys.readouterr().err
    assert log.read_text() == text


def test_a_broken_pair_line_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "run.jsonl"
    summary(capsys, "--games", "2", "--seed", "6", "--log", str(log))
    first, _, third = log.read_text().splitlines()
    log.write_text("\n".join([first, '{"index": 0}', third]) + "\n")
    before = log.read_text()
    assert main([*RUN, "--games", "2", "--log", str(log)]) == 2
    assert "line 2: not an arena pair" in capsys.readouterr().err
    assert log.read_text() == before


def lines_of(text: str | bytes) -> list[Any]:
    return [json.loads(line) for line in text.splitlines()]


def gz_lines(path: Path) -> list[Any]:
    return lines_of(gzip.decompress(path.read_bytes()))


def test_times_are_written_in_whole_microseconds_and_read_back() -> None:
    result = play_pair("simple", "greedy", EAAI, seed=3, index=1)
    line = json.loads(encode(result))
    assert all(type(t) is int for game in line["games"] for side in game["times"] for t in side)
    again = decode(line)
    for old, new in zip(result.games, again.games, strict=True):
        assert dataclasses.replace(old, times=new.times) == new
        for side_old, side_new in zip(old.times, new.times, strict=True):
            assert side_new == pytest.approx(side_old, abs=1e-6)
    line["games"][0]["times"][0][0] = 0.5
    with pytest.raises(ValueError, match="not whole microseconds"):
        decode(line)


def test_a_compressed_log_resumes_to_what_one_run_gives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl.gz"
    summary(capsys, "--games", "2", "--seed", "6", "--log", str(log))
    written = gz_lines(log)
    assert written[0]["arena_log"] == 2 and written[0]["seed"] == 6
    assert sorted(pair["index"] for pair in written[1:]) == [0, 1]
    resumed = summary(capsys, "--games", "4", "--log", str(log))
    assert gz_lines(log)[:3] == written
    assert sorted(pair["index"] for pair in gz_lines(log)[1:]) == [0, 1, 2, 3]
    assert resumed == summary(capsys, "--games", "4", "--seed", "6")
    assert not list(tmp_path.glob("*.new"))
    before = log.read_bytes()
    assert summary(capsys, "--games", "4", "--log", str(log)) == resumed
    assert log.read_bytes() == before


def test_a_compressed_log_cut_off_keeps_its_whole_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl.gz"
    summary(capsys, "--games", "3", "--seed", "6", "--log", str(log))
    raw = log.read_bytes()
    # Killed while pair 2's line went out: the stream has no end and its last line is cut.
    text = gzip.decompress(raw)
    cut = zlib.compressobj(wbits=31)
    log.write_bytes(
        cut.compress(text[: text.rindex(b"\n", 0, len(text) - 1) + 40])
        + cut.flush(zlib.Z_SYNC_FLUSH)
    )
    resumed = summary(capsys, "--games", "3", "--log", str(log))
    assert resumed == summary(capsys, "--games", "3", "--seed", "6")
    assert len(gz_lines(log)) == 4
    # Cut off after its last pair: with nothing to play the file is made whole again.
    whole = gzip.decompress(log.read_bytes())
    cut = zlib.compressobj(wbits=31)
    log.write_bytes(cut.compress(whole + b'{"ind') + cut.flush(zlib.Z_SYNC_FLUSH))
    assert summary(capsys, "--games", "3", "--log", str(log)) == resumed
    assert gzip.decompress(log.read_bytes()) == whole


def test_a_first_format_log_is_read_and_kept_in_its_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = [
        {"arena_log": 1, "a": "simple", "b": "greedy", "rules": EAAI.to_dict(), "seed": 6},
        *(play_pair("simple", "greedy", EAAI, 6, i).to_dict() for i in range(2)),
    ]
    text = "".join(json.dumps(line) + "\n" for line in old)
    old = lines_of(text)
    plain = tmp_path / "run.jsonl"
    plain.write_text(text)
    whole = summary(capsys, "--games", "3", "--seed", "6")
    assert summary(capsys, "--games", "3", "--log", str(plain)) == whole
    appended = lines(plain)
    assert appended[:3] == old and appended[3]["index"] == 2
    assert all(type(t) is float for side in appended[3]["games"][0]["times"] for t in side)
    # Compressed by hand, it is written afresh in this format when it is resumed.
    packed = tmp_path / "old.jsonl.gz"
    packed.write_bytes(gzip.compress(text.encode()))
    assert summary(capsys, "--games", "3", "--log", str(packed)) == whole
    rewritten = gz_lines(packed)
    assert rewritten[0] == {**old[0], "arena_log": 2} and len(rewritten) == 4
    # With nothing left to play, it is written afresh in this format all the same.
    packed.write_bytes(gzip.compress(text.encode()))
    two = summary(capsys, "--games", "2", "--log", str(packed))
    assert two == summary(capsys, "--games", "2", "--seed", "6")
    assert [line["arena_log"] for line in gz_lines(packed)[:1]] == [2]
    assert all(type(t) is int for side in rewritten[1]["games"][0]["times"] for t in side)


def test_a_log_of_games_is_not_resumed_as_matches_nor_the_other_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    games, matches = tmp_path / "games.jsonl", tmp_path / "matches.jsonl.gz"
    summary(capsys, "--games", "1", "--seed", "5", "--log", str(games))
    assert main([*RUN, "--games", "1", "--log", str(games), "--match"]) == 2
    assert "this one has another kind of run (games or --match)" in capsys.readouterr().err
    played = summary(capsys, "--games", "1", "--seed", "5", "--log", str(matches), "--match")
    assert played["match"] is True and played["matches"] == 2
    head = json.loads(gunzip(matches.read_bytes()).decode().splitlines()[0])
    assert head["match"] is True
    # The same command again reads the matches back from the log.
    again = summary(capsys, "--games", "1", "--log", str(matches), "--match")
    assert again == played
    assert main([*RUN, "--games", "1", "--log", str(matches)]) == 2
    assert "this one has another kind of run (games or --match)" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["run.jsonl", "run.jsonl.gz"])
@pytest.mark.parametrize("how", ["replaced by an older copy", "deleted"])
def test_a_log_replaced_under_a_run_is_written_afresh_with_every_pair(
    name: str, how: str, tmp_path: Path
) -> None:
    path = tmp_path / name
    log = open_log(str(path), "simple", "greedy", EAAI, 6)
    pairs = [play_pair("simple", "greedy", EAAI, 6, i) for i in range(3)]
    log.write(pairs[0])
    older = path.read_bytes()
    log.write(pairs[1])
    # As a checkout does: a new file takes the name, and the run's open file is no one's.
    if how == "deleted":
        path.unlink()
    else:
        copy = tmp_path / "copy"
        copy.write_bytes(older)
        os.replace(copy, path)
    log.write(pairs[2])
    log.close()
    read = gz_lines(path) if name.endswith(".gz") else lines(path)
    assert read[0]["a"] == "simple" and read[0]["arena_log"] == 2
    assert read[1:] == [json.loads(encode(pair)) for pair in pairs]
    assert not list(tmp_path.glob("*.new"))
