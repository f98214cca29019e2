"""``ginrummy arena --log FILE``: every finished pair written down as it ends, so that a long run
can be stopped (or cut off) and resumed, and read before it ends.

The file is JSON lines: first a header naming the run (the two players, the rules, the seed),
then one line per finished pair (:meth:`~ginrummy.agents.arena.PairResult.to_dict`), in the
order they finished. Run the same command again and the pairs already in the file are counted,
not played again; the arena plays the rest and appends them. Every pair's games depend only on
the seed and its index, so a resumed run reports exactly what one run would have.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..agents.arena import PairResult
from ..engine.rules import Rules
from . import CommandError

#: The header's format: a log of another format is refused rather than misread.
FORMAT = 1
#: The header's keys as a refusal names them.
_NAMES = {"a": "player A", "b": "player B", "rules": "rules", "seed": "seed"}


@dataclass
class ArenaLog:
    """An arena run's log, opened for appending: ``done`` holds the pairs it already has."""

    path: Path
    seed: int
    done: dict[int, PairResult] = field(default_factory=dict)
    _file: IO[str] | None = None

    def write(self, result: PairResult) -> None:
        """Append a finished pair (and flush it, so that a run cut off keeps it)."""
        if self._file is None:
            self._file = self.path.open("a", encoding="utf-8")
        self._file.write(json.dumps(result.to_dict(), separators=(",", ":")) + "\n")
        self._file.flush()

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


def header(a: str, b: str, rules: Rules, seed: int) -> dict[str, Any]:
    """What names a run: a log is resumed only by the same players, rules and seed."""
    return {"arena_log": FORMAT, "a": a, "b": b, "rules": rules.to_dict(), "seed": seed}


def open_log(path: str, a: str, b: str, rules: Rules, seed: int | None) -> ArenaLog:
    """Open (or start) the log at ``path`` for a run of A against B under ``rules``.

    ``seed`` None takes the seed from an existing log (a fresh log gets a random one). A log
    of another run, or a file that is not a log, is refused with a :class:`CommandError` and
    left as it is; a last line cut off mid-write (the run was killed) is dropped.
    """
    file = Path(path)
    try:
        text = file.read_text(encoding="utf-8") if file.exists() else ""
    except (OSError, UnicodeDecodeError) as exc:
        raise CommandError(f"--log {path}: cannot read it ({exc})") from None
    if not text.strip():
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 32)
        _start(file, header(a, b, rules, seed))
        return ArenaLog(file, seed)
    lines = text.split("\n")
    # The text after the last newline is a line still being written when the run stopped.
    complete, partial = lines[:-1], lines[-1]
    if not complete:
        raise CommandError(f"--log {path}: not an arena log (its first line is not whole)")
    first = _json(path, 1, complete[0])
    if not isinstance(first, dict) or first.get("arena_log") != FORMAT:
        raise CommandError(f"--log {path}: not an arena log of this version (line 1)")
    logged_seed = first.get("seed")
    if type(logged_seed) is not int:
        raise CommandError(f"--log {path}: line 1 names no seed")
    want = header(a, b, rules, logged_seed if seed is None else seed)
    if first != want:
        differs = " and ".join(name for key, name in _NAMES.items() if first.get(key) != want[key])
        raise CommandError(
            f"--log {path} holds another run ({first.get('a')} vs {first.get('b')}, seed "
            f"{logged_seed}): this one has another {differs}; name a new file to start a new "
            "run, or give that run's players, --rules and --seed to resume it"
        )
    log = ArenaLog(file, int(want["seed"]))
    for number, line in enumerate(complete[1:], start=2):
        if not line.strip():
            continue
        try:
            result = PairResult.from_dict(_json(path, number, line))
        except ValueError as exc:
            raise CommandError(f"--log {path}, line {number}: {exc}") from None
        log.done[result.index] = result
    if partial:
        with file.open("r+", encoding="utf-8") as handle:
            handle.truncate(len(text.encode("utf-8")) - len(partial.encode("utf-8")))
    return log


def _start(file: Path, head: dict[str, Any]) -> None:
    try:
        file.write_text(json.dumps(head, separators=(",", ":")) + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--log {file}: cannot write it ({exc})") from None


def _json(path: str, number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise CommandError(f"--log {path}, line {number}: not JSON ({exc.msg})") from None
