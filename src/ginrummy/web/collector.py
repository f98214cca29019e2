"""The garbage collector, set for a process that holds thousands of sockets, and its pauses
measured.

CPython's cycle collector walks every container object of its oldest generation once ten
collections of the middle one have run and that generation has grown by a quarter. A server
holding 2,000 WebSockets tracks about half a million such objects (each socket keeps a chain of
suspended coroutines with their cells and closures, and its protocol's buffers; each table its
hand's states and events), and on two cores that walk took 150 to 350 ms, about nine times a
minute at 1,000 tables, collecting next to nothing most times. Every move that arrived meanwhile
waited for it.

So a serving process (:func:`quiet`, called by ``serve``):

* freezes what it made while starting (``gc.freeze``: modules, the app, the database engine),
  which no collection walks again;
* leaves the oldest generation out of the automatic collections, and walks it from a thread
  of its own every ``FULL_SECONDS`` instead: one pause a minute rather than nine, and the
  garbage that lived long enough to reach it (a closed socket's objects) waits at most that
  long. The young generations are collected as Python always does.

:func:`watch` times every collection by generation (``gc.callbacks``); ``/metrics`` shows them
as ``ginrummy_gc_pause_seconds``. Tests and libraries importing the package keep Python's own
settings: only ``serve`` (and the load benchmark's clients) call :func:`quiet`.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Any, Final

#: Seconds between full collections once :func:`quiet` has run.
FULL_SECONDS: Final = 60.0
#: The oldest generation's threshold that keeps Python from collecting it by itself.
_NEVER: Final = 1_000_000_000
#: Upper bounds of the pause histogram's buckets, in seconds.
PAUSE_BUCKETS: Final = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0)

_lock = threading.Lock()
_quiet = False
_watching = False
_started = [0.0]
#: Per generation: pauses per bucket (the last for longer than every bound), and their sum.
_counts = [[0] * (len(PAUSE_BUCKETS) + 1) for _ in range(3)]
_sums = [0.0, 0.0, 0.0]


def _timed(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        _started[0] = time.perf_counter()
        return
    spent = time.perf_counter() - _started[0]
    generation = int(info.get("generation", 2))
    counts = _counts[generation]
    for i, bound in enumerate(PAUSE_BUCKETS):
        if spent <= bound:
            counts[i] += 1
            break
    else:
        counts[-1] += 1
    _sums[generation] += spent


def watch() -> None:
    """Time every collection from now on (once per process; later calls do nothing)."""
    global _watching
    with _lock:
        if not _watching:
            gc.callbacks.append(_timed)
            _watching = True


def pauses() -> list[tuple[list[tuple[float, int]], float]]:
    """Per generation (0, 1, 2): the cumulative counts of pauses at most each bound (the last
    bound ``inf``), and the seconds they took in all."""
    found = []
    for counts, spent in zip(_counts, _sums, strict=True):
        cumulative, total = [], 0
        for bound, count in zip((*PAUSE_BUCKETS, float("inf")), counts, strict=True):
            total += count
            cumulative.append((bound, total))
        found.append((cumulative, spent))
    return found


def _collect_every(seconds: float) -> None:
    while True:
        time.sleep(seconds)
        gc.collect()


def quiet(full_seconds: float = FULL_SECONDS) -> None:
    """Set this process's collector as the module says (once; later calls do nothing). Call
    it once started, before serving."""
    global _quiet
    watch()
    with _lock:
        if _quiet:
            return
        _quiet = True
    gc.collect()
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, _NEVER)
    threading.Thread(
        target=_collect_every, args=(full_seconds,), name="full-gc", daemon=True
    ).start()
