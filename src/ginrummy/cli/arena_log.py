"""``ginrummy arena --log FILE``: every finished pair written down as it ends, so that a long run
can be stopped (or cut off) and resumed, and read before it ends.

The file is JSON lines: first a header naming the run (the two players, the rules, the seed),
then one line per finished pair (:meth:`~ginrummy.agents.arena.PairResult.to_dict`, its decision
times in whole microseconds), in the order they finished. Run the same command again and the
pairs already in the file are counted, not played again; the arena plays the rest and appends
them. Every pair's games depend only on the seed and its index, so a resumed run reports
exactly what one run would have.

A FILE named ``*.gz`` is kept gzip-compressed (a tenth of the size, so that the log of a
long run can be kept beside its result): each line is flushed into the stream as it is
written, so a run cut off keeps every pair it finished; a resumed run writes the file afresh
(so does a run that finds nothing left to play in a compressed log of the first format, or in
one cut off). Logs of the first format (times in seconds) are read too; a plain one is
appended to in its format. A log moved, deleted or replaced while its run goes on (a checkout
of an older copy) is written afresh at its next pair, with every pair it holds.
"""

from __future__ import annotations

import gzip
import json
import os
import random
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ..agents.arena import PairResult
from ..engine.rules import Rules
from . import CommandError

#: The header's format: a log of another format is refused rather than misread. Format 1 wrote
#: the decision times in seconds, format 2 in whole microseconds (a third of the size).
FORMAT = 2
_FORMATS = (1, 2)
#: The header's keys as a refusal names them.
_NAMES = {
    "a": "player A",
    "b": "player B",
    "rules": "rules",
    "seed": "seed",
    "match": "kind of run (games or --match)",
}


@dataclass
class ArenaLog:
    """An arena run's log, opened for appending: ``done`` holds the pairs it already has."""

    path: Path
    seed: int
    done: dict[int, PairResult] = field(default_factory=dict)
    #: The format the lines are appended in: the header's.
    format: int = FORMAT
    #: A compressed log's header line, written (with the pairs of ``done``) when the file is
    #: written afresh, at the first pair this run adds.
    _head: str | None = None
    #: A compressed log to write afresh even if the run adds nothing: of the first format, or
    #: with a line cut off.
    _stale: bool = False
    _file: _Lines | None = None
    #: The pairs this run has written, and the file they went to (its device and inode).
    _added: dict[int, PairResult] = field(default_factory=dict)
    _identity: tuple[int, int] | None = None

    @property
    def compressed(self) -> bool:
        return self.path.suffix == ".gz"

    def write(self, result: PairResult) -> None:
        """Append a finished pair (and flush it, so that a run cut off keeps it).

        Should the file have been moved, deleted or replaced while the run went on (by a
        checkout of an older copy, say), the log is first written afresh where it belongs,
        with every pair it holds: the pairs would otherwise go to a file nobody can read.
        """
        if self._file is not None and self._identity != _identity(self.path):
            self._file.close()
            self._file = self._rewrite()
        self.start()
        assert self._file is not None
        self._file.write(encode(result, self.format) + "\n")
        self._file.flush()
        self._added[result.index] = result

    def start(self) -> None:
        """Write the file now, before its first pair (a compressed log that is new)."""
        if self._file is None:
            self._file = self._open()

    def _open(self) -> _Lines:
        if self.compressed:
            # A gzip stream cannot be cut back to its last whole line and appended to, so
            # the file is written afresh.
            return self._rewrite()
        file = self.path.open("a", encoding="utf-8")
        self._identity = _identity(self.path)
        return file

    def _rewrite(self) -> _Lines:
        """Write the header and every pair afresh, in this format: to a new file beside the
        log that then takes its name."""
        assert self._head is not None
        temporary = self.path.with_name(self.path.name + ".new")
        if self.compressed:
            file: _Lines = _GzipLines(temporary)
        else:
            file, self.format = temporary.open("w", encoding="utf-8"), FORMAT
        file.write(self._head + "\n")
        for result in {**self.done, **self._added}.values():
            file.write(encode(result, self.format) + "\n")
        file.flush()
        os.replace(temporary, self.path)
        self._identity = _identity(self.path)
        return file

    def close(self) -> None:
        if self._file is None and self._stale and self.compressed:
            self.start()
        if self._file is not None:
            self._file.close()
            self._file = None


class _Lines(Protocol):
    """Where a log's lines go: a text file or :class:`_GzipLines`."""

    def write(self, text: str, /) -> object: ...
    def flush(self) -> None: ...
    def close(self) -> None: ...


class _GzipLines:
    """A gzip file written as text whose every :meth:`flush` makes what was written so far
    readable (a sync flush): a run killed mid-line loses that line only."""

    def __init__(self, path: Path) -> None:
        self._raw = path.open("wb")
        # No name or time in the gzip header: the same log compresses to the same bytes.
        self._gzip = gzip.GzipFile(filename="", mode="wb", fileobj=self._raw, mtime=0)

    def write(self, text: str) -> None:
        self._gzip.write(text.encode("utf-8"))

    def flush(self) -> None:
        self._gzip.flush(zlib.Z_SYNC_FLUSH)

    def close(self) -> None:
        try:
            self._gzip.close()
        finally:
            self._raw.close()


def encode(result: PairResult, fmt: int = FORMAT) -> str:
    """A pair's line in a log of format ``fmt``."""
    data = result.to_dict()
    if fmt >= 2:
        for game in data["games"]:
            game["times"] = [[round(t * 1_000_000) for t in side] for side in game["times"]]
    return json.dumps(data, separators=(",", ":"))


def decode(data: Any, fmt: int = FORMAT) -> PairResult:
    """The pair a line of a log of format ``fmt`` holds; ``ValueError`` when it holds none."""
    if fmt >= 2:
        try:
            games = [
                {
                    **game,
                    "times": [[_seconds(t) for t in side] for side in game["times"]],
                }
                for game in data["games"]
            ]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"not an arena pair: {exc!r}") from None
        data = {**data, "games": games}
    if not isinstance(data, dict):
        raise ValueError("not an arena pair: not a JSON object")
    return PairResult.from_dict(data)


def _seconds(microseconds: Any) -> float:
    if type(microseconds) is not int:
        raise TypeError(f"a decision time of {microseconds!r}, not whole microseconds")
    return microseconds / 1_000_000


def header(a: str, b: str, rules: Rules, seed: int, match: bool = False) -> dict[str, Any]:
    """What names a run: a log is resumed only by the same players, rules and seed, and a
    run of matches (``"match": true``, left out of a run of games) only by one."""
    head = {"arena_log": FORMAT, "a": a, "b": b, "rules": rules.to_dict(), "seed": seed}
    return {**head, "match": True} if match else head


def open_log(
    path: str, a: str, b: str, rules: Rules, seed: int | None, *, match: bool = False
) -> ArenaLog:
    """Open (or start) the log at ``path`` for a run of A against B under ``rules`` (of
    matches with ``match``).

    ``seed`` None takes the seed from an existing log (a fresh log gets a random one). A log
    of another run, or a file that is not a log, is refused with a :class:`CommandError` and
    left as it is; a last line cut off mid-write (the run was killed) is dropped.
    """
    file = Path(path)
    try:
        raw = file.read_bytes() if file.exists() else b""
        text = (gunzip(raw) if file.suffix == ".gz" and raw else raw).decode("utf-8")
    except (OSError, UnicodeDecodeError, zlib.error) as exc:
        raise CommandError(f"--log {path}: cannot read it ({exc})") from None
    if not text.strip():
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 32)
        head = _line(header(a, b, rules, seed, match))
        log = ArenaLog(file, seed, _head=head)
        if log.compressed:
            try:
                log.start()
            except OSError as exc:
                raise CommandError(f"--log {file}: cannot write it ({exc})") from None
        else:
            _start(file, head)
        return log
    lines = text.split("\n")
    # The text after the last newline is a line still being written when the run stopped.
    complete, partial = lines[:-1], lines[-1]
    if not complete:
        raise CommandError(f"--log {path}: not an arena log (its first line is not whole)")
    first = _json(path, 1, complete[0])
    if not isinstance(first, dict) or first.get("arena_log") not in _FORMATS:
        raise CommandError(f"--log {path}: not an arena log of this version (line 1)")
    logged_seed = first.get("seed")
    if type(logged_seed) is not int:
        raise CommandError(f"--log {path}: line 1 names no seed")
    want = header(a, b, rules, logged_seed if seed is None else seed, match)
    if {**first, "arena_log": FORMAT} != want:
        differs = " and ".join(
            name for key, name in _NAMES.items() if first.get(key) != want.get(key)
        )
        raise CommandError(
            f"--log {path} holds another run ({first.get('a')} vs {first.get('b')}, seed "
            f"{logged_seed}): this one has another {differs}; name a new file to start a new "
            "run, or give that run's players, --rules and --seed to resume it"
        )
    # A compressed log is written afresh, in this format; a plain one is appended to in its own.
    log = ArenaLog(file, int(want["seed"]), _head=_line(want))
    if not log.compressed:
        log.format = int(first["arena_log"])
    for number, line in enumerate(complete[1:], start=2):
        if not line.strip():
            continue
        try:
            result = decode(_json(path, number, line), int(first["arena_log"]))
        except ValueError as exc:
            raise CommandError(f"--log {path}, line {number}: {exc}") from None
        log.done[result.index] = result
    log._stale = bool(partial) or first["arena_log"] != FORMAT
    if partial and not log.compressed:
        with file.open("r+", encoding="utf-8") as handle:
            handle.truncate(len(text.encode("utf-8")) - len(partial.encode("utf-8")))
    return log


def gunzip(raw: bytes) -> bytes:
    """The text of a gzip file, as much of it as there is: the stream of a run cut off has no
    end, and a file made with ``gzip`` from a plain log, or appended to, may hold several."""
    out = []
    while raw:
        stream = zlib.decompressobj(wbits=31)
        out.append(stream.decompress(raw))
        if not stream.eof:
            break
        raw = stream.unused_data
    return b"".join(out)


def _identity(path: Path) -> tuple[int, int] | None:
    """The file at ``path`` (its device and inode), None when there is none."""
    try:
        status = path.stat()
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _line(data: dict[str, Any]) -> str:
    return json.dumps(data, separators=(",", ":"))


def _start(file: Path, head: str) -> None:
    try:
        file.write_text(head + "\n", encoding="utf-8")
    except OSError as exc:
        raise CommandError(f"--log {file}: cannot write it ({exc})") from None


def _json(path: str, number: int, line: str) -> Any:
    try:
        return json.loads(line)
    except json.JSONDecodeError as exc:
        raise CommandError(f"--log {path}, line {number}: not JSON ({exc.msg})") from None
