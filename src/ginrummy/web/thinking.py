"""The computer players, hints and reviews think in worker processes, off the server's process.

An expert's move is a few hundred milliseconds of pure Python. In a thread of the server's own
process it holds the GIL, and every other table (and the event loop answering them) waits its
turn; in another process it does not. :class:`ThinkPool` is that set of processes.

What crosses to a worker is plain data, never a ``Hand`` or a table: a job's name and a dict
(the seat's :class:`~ginrummy.engine.views.PlayerView` as ``to_dict`` gives it, which carries
the rules and the scores; the level; the seed for the agent's random choices). What comes back
is plain data too: an action's text, hints and mistakes as dicts. The job functions
(:func:`move`, :func:`hints`, :func:`review`) are ordinary functions, so a test or a one-process
server can call them in a thread as well.

Choices, and why:

- **Own processes over** ``ProcessPoolExecutor``. A move must be given up after a limit and
  the worker still working on it stopped; and a worker that dies must cost only the job it was
  running. ``ProcessPoolExecutor`` can do neither: a running job cannot be cancelled, and one
  dead worker breaks the whole executor (every pending job fails, a new executor must be
  made). Here each worker has a pipe and a parent-side thread that feeds it one job at a time
  from a shared queue, waits for the answer with the job's deadline (``Connection.poll``,
  which lets go of the GIL), and on a timeout or a death kills that worker, fails that job
  alone, and starts a replacement. Nothing is retried: the caller decides what a failed job
  means (the move clock's fallback move for a computer turn, an error for a hint), so a move
  is never applied twice.
- **The** ``spawn`` **start method.** ``fork`` in a process that runs threads (the database
  threads, these feeders) can copy a lock held by another thread into the child, which then
  hangs. ``forkserver`` starts faster but leaves its server process running until the parent
  exits, an orphan-looking child after :meth:`ThinkPool.close`. ``spawn`` costs a fresh
  interpreter per worker (about a second to import the agents), paid when the pool first
  starts and when a worker is replaced, never per move.
- **Stateless workers: a fresh agent for every move**, given ``new_hand()`` as the table's
  agent is at each deal. The levels offered (``beginner``, ``intermediate``, ``expert``) keep
  no memory within a hand (they read the hand so far from the view's history); what the
  expert learns between hands (how the person knocks, :mod:`~ginrummy.agents.style`) the
  table keeps as plain data and sends with each move (``seen``), so a fresh agent decides
  exactly as the table's kept one does: the same view, evidence and seed give the same move
  (``tests/test_think_pool.py`` plays whole hands both ways). Any worker may then take any
  job, which is what lets a dead or late worker be replaced without losing anything: there
  is no memory in it to lose.

Workers ignore Ctrl+C (the server stops them) and exit when their pipe closes, so a server
killed outright leaves none behind either.
"""

from __future__ import annotations

import dataclasses
import logging
import multiprocessing
import os
import queue
import random
import signal
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from ..agents import get_agent
from ..agents.hints import Hint, hint
from ..agents.review import review_hand
from ..agents.style import Evidence
from ..engine import Action, Rules, parse_cards
from ..engine.scoring import Column
from ..engine.views import PlayerView

log = logging.getLogger("ginrummy.web")

#: Seconds a computer move, a hint or a review may take in a worker before it is given up.
THINK_TIMEOUT = 10.0
#: Seconds of the computer's delay kept for what is not its search: the way to a worker and
#: back, the view read and the player made there, and the event loop's turn (see
#: :func:`think_budget`; ``benchmarks/think_cap.py`` measures what is left over).
THINK_MARGIN = 0.1
#: Seconds between checks that an idle worker is still there (a dead one is replaced).
IDLE_CHECK = 0.5
#: Seconds a new worker may take to start (a fresh interpreter importing the agents).
START_TIMEOUT = 60.0


class ThinkError(Exception):
    """A job came back without an answer: it took too long, its worker died, or it raised."""


class ThinkTimeout(ThinkError):
    """The job was not done within its limit (its worker, if it had started, was stopped)."""


# -- the jobs (plain data in, plain data out) -------------------------------------------------


def make_agent(level: str, seen: Sequence[Evidence] = (), budget_ms: float | None = None) -> Any:
    """A fresh computer player for ``level``, told a hand begins (the simple player for a
    name no agent has), and given ``seen``: what the finished hands of the table showed of
    the person's knocking, for a player that reads it (the expert). With ``budget_ms``, a
    player that searches (the expert) stops within that many milliseconds of each decision's
    start (its own cap, if lower, stands): see :func:`think_budget`."""
    try:
        agent = get_agent(level)
    except ValueError:
        agent = get_agent("simple")
    settings: Any = getattr(agent, "settings", None)
    if budget_ms is not None and isinstance(getattr(settings, "budget_ms", None), float):
        capped = dataclasses.replace(settings, budget_ms=min(settings.budget_ms, budget_ms))
        setattr(agent, "settings", capped)  # noqa: B010
    if hasattr(agent, "new_hand"):
        agent.new_hand()
    learn = getattr(agent, "learn", None)
    if callable(learn):
        for ev in seen:
            learn(ev)
    return agent


def think(agent: Any, view: PlayerView, rng: random.Random) -> Action:
    """The agent's move for a frozen view: safe to run in another thread."""
    action: Action = agent.act(view, rng)
    return action


def hint_dicts(found: list[Hint]) -> list[dict[str, Any]]:
    """Hints as the ``hints`` message carries them."""
    return [
        {"action": str(h.action), "score": round(float(h.score), 2), "reason": h.reason}
        for h in found
    ]


def think_budget(delay: float) -> float | None:
    """The milliseconds a computer player may think so that its move is ready when its
    ``delay`` (seconds) is up: the delay less :data:`THINK_MARGIN` (None, no cap, for no
    delay: a move sent as soon as it is made hides no thinking time anyway)."""
    if delay <= 0:
        return None
    return max(0.0, delay - THINK_MARGIN) * 1000.0


def move(payload: dict[str, Any]) -> str:
    """The computer's action (as text) for ``{"level", "view", "seed", "seen", "budget_ms"}``
    (``seen``: the evidence of the person's knocking as :meth:`Evidence.to_list` gives it;
    ``budget_ms``: the cap on its thinking time, :func:`think_budget`; both may be left
    out)."""
    view = PlayerView.from_dict(payload["view"])
    seen = [Evidence.from_list(e) for e in payload.get("seen", ())]
    budget = payload.get("budget_ms")
    agent = make_agent(str(payload["level"]), seen, None if budget is None else float(budget))
    return str(think(agent, view, random.Random(int(payload["seed"]))))


def hints(payload: dict[str, Any]) -> list[dict[str, Any]]:
    """The expert's hints for ``{"view"}`` (seeded as the server always seeds them)."""
    view = PlayerView.from_dict(payload["view"])
    return hint_dicts(hint(view, rng=random.Random(0)))


def review(payload: dict[str, Any]) -> list[dict[str, object]]:
    """The expert's review of a seat's play of a finished hand, as dicts: ``{"rules",
    "dealer", "deck", "actions", "seat", "scores", "columns", "match_points", "seed"}`` (the
    deck as text; ``columns``, the game's score columns as :meth:`Column.to_dict` gives them,
    and ``match_points``, the match points before the game in a match, may be left out)."""
    points = payload.get("match_points")
    found = review_hand(
        Rules.from_dict(payload["rules"]),
        int(payload["dealer"]),
        parse_cards(str(payload["deck"])),
        [str(a) for a in payload["actions"]],
        seat=int(payload["seat"]),
        scores=(int(payload["scores"][0]), int(payload["scores"][1])),
        columns=tuple(Column.from_dict(c) for c in payload.get("columns", ())),
        match_points=None if points is None else (int(points[0]), int(points[1])),
        seed=int(payload["seed"]),
    )
    return [m.to_dict() for m in found]


#: How much lower than the server's a worker's scheduling priority is (see ``nice(1)``).
WORKER_NICENESS = 10

JOBS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "move": move,
    "hints": hints,
    "review": review,
}


def _worker(conn: Connection, initializer: Callable[[], None] | None) -> None:
    """A worker process's whole life: say it is ready, then answer jobs until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C stops the server, which stops us
    # Thinking is background work: when a core is wanted both here and by the server's event
    # loop, the loop goes first, so no table waits on a computer's thought.
    os.nice(WORKER_NICENESS)
    if initializer is not None:
        initializer()
    conn.send(("ready", os.getpid()))
    while True:
        try:
            kind, payload = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", JOBS[kind](payload))
        except Exception as exc:  # the parent logs it and falls back
            reply = ("error", f"{type(exc).__name__}: {exc}")
        conn.send(reply)


# -- the pool ---------------------------------------------------------------------------------


@dataclass(eq=False)
class _Job:
    kind: str
    payload: dict[str, Any]
    deadline: float
    future: Future[Any] = field(default_factory=Future)


class _Slot:
    """One worker process and the parent-side thread that feeds it jobs one at a time."""

    def __init__(self, pool: ThinkPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.lock = threading.Lock()
        self.process: Any = None  # a multiprocessing process of the spawn context
        self.conn: Connection | None = None
        #: Set while a started worker has said it is ready and not been stopped since.
        self.ready = threading.Event()
        self.thread = threading.Thread(
            target=self._run, name=f"ginrummy-think-{index}", daemon=True
        )

    @property
    def pid(self) -> int | None:
        with self.lock:
            process = self.process
            return None if process is None or not process.is_alive() else int(process.pid)

    def _start(self) -> Connection | None:
        """Start a worker and wait until it has imported the agents (None: the pool closed,
        or it would not start)."""
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        process = ctx.Process(
            target=_worker,
            args=(theirs, self.pool.initializer),
            name=f"ginrummy-think-{self.index}",
            daemon=True,
        )
        with self.lock:
            if self.pool.closed:
                return None
            process.start()
            self.process, self.conn = process, ours
        theirs.close()
        try:
            ready = ours.poll(START_TIMEOUT) and ours.recv()[0] == "ready"
        except (EOFError, OSError):
            ready = False
        if not ready:
            log.error("a thinking worker did not start")
            self.stop()
            return None
        self.ready.set()
        return ours

    def stop(self) -> None:
        """Kill this slot's worker, if any, and forget it (it holds nothing to save)."""
        with self.lock:
            self.ready.clear()
            process, conn = self.process, self.conn
            self.process = self.conn = None
        if process is not None:
            process.kill()
            process.join()
            process.close()
        if conn is not None:
            conn.close()

    def _run(self) -> None:
        conn = None
        while not self.pool.closed:
            if conn is None:
                conn = self._start()
                if conn is None:
                    if self.pool.closed:
                        break
                    time.sleep(1.0)  # could not start one: try again rather than spin
                    continue
            try:
                job = self.pool.jobs.get(timeout=IDLE_CHECK)
            except queue.Empty:
                if not self._alive(conn):  # died while idle: replace it before it is needed
                    log.warning("an idle thinking worker died: starting another")
                    self.stop()
                    conn = None
                continue
            if job is None:  # the pool is closing
                break
            if not job.future.set_running_or_notify_cancel():
                continue  # its caller gave up while it waited
            outcome = self._answer(conn, job)
            if outcome == "unsent":
                # The worker had died while idle: nothing of this job ran, so a fresh
                # worker may run it (once; the deadline still holds).
                self.stop()
                conn = self._start()
                outcome = "lost" if conn is None else self._answer(conn, job)
                if outcome == "unsent":
                    outcome = "lost"
            if outcome == "lost" and not job.future.done():
                job.future.set_exception(ThinkError(f"no worker could take the {job.kind}"))
            if outcome != "done":
                self.stop()  # it died or is late: a fresh one takes the next job
                conn = None
        self.stop()

    def _alive(self, conn: Connection) -> bool:
        try:
            return not conn.poll(0)  # an idle worker says nothing unless its pipe closed
        except (EOFError, OSError):
            return False

    def _answer(self, conn: Connection, job: _Job) -> str:
        """Run ``job`` on this worker: "done" (its future is settled, the worker may go on),
        "replace" (settled, but the worker died or is late and must go), "unsent" (the worker
        was dead before the job reached it: the future is not settled)."""
        remaining = job.deadline - time.monotonic()
        if remaining <= 0:
            job.future.set_exception(ThinkTimeout(f"the {job.kind} waited too long for a worker"))
            return "done"
        try:
            if not self._alive(conn):
                return "unsent"
            conn.send((job.kind, job.payload))
        except (EOFError, OSError):
            return "unsent"
        try:
            if not conn.poll(remaining):
                job.future.set_exception(ThinkTimeout(f"the {job.kind} took too long"))
                return "replace"
            status, value = conn.recv()
        except (EOFError, OSError):
            job.future.set_exception(ThinkError(f"the worker thinking on a {job.kind} died"))
            if not self.pool.closed:  # closing stops them on purpose
                log.warning("a thinking worker died during a %s: starting another", job.kind)
            return "replace"
        if status == "ok":
            job.future.set_result(value)
        else:
            job.future.set_exception(ThinkError(f"the {job.kind} failed: {value}"))
        return "done"


class ThinkPool:
    """``workers`` processes thinking for the server, started on the first job.

    :meth:`submit` queues a job and returns a future settled within ``timeout`` seconds
    (counted from submission): with the job's answer, or with :class:`ThinkTimeout` or
    :class:`ThinkError`. ``initializer`` (a picklable function) runs in each worker as it
    starts: tests use it to set up the agents as they do in their own process.
    """

    def __init__(
        self,
        workers: int,
        *,
        timeout: float = THINK_TIMEOUT,
        initializer: Callable[[], None] | None = None,
    ) -> None:
        if workers < 1:
            raise ValueError(f"a pool needs at least one worker, not {workers}")
        self.workers = workers
        self.timeout = timeout
        self.initializer = initializer
        self.jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self.closed = False
        self._slots: list[_Slot] = []
        self._lock = threading.Lock()

    @property
    def started(self) -> bool:
        return bool(self._slots)

    def start(self) -> None:
        """Start the workers now (the first :meth:`submit` does otherwise)."""
        with self._lock:
            if self.closed:
                raise RuntimeError("the thinking pool is closed")
            if self._slots:
                return
            self._slots = [_Slot(self, i) for i in range(self.workers)]
            for slot in self._slots:
                slot.thread.start()

    def submit(self, kind: str, payload: dict[str, Any]) -> Future[Any]:
        if kind not in JOBS:
            raise ValueError(f"unknown job {kind!r}")
        self.start()
        job = _Job(kind, payload, time.monotonic() + self.timeout)
        self.jobs.put(job)
        if self.closed:  # closed meanwhile: nobody will take it
            job.future.cancel()
        return job.future

    def pids(self) -> list[int]:
        """The worker processes running now (those started and not dead)."""
        return [pid for slot in self._slots if (pid := slot.pid) is not None]

    def wait_ready(self, timeout: float = START_TIMEOUT) -> bool:
        """Start the workers and wait until every one is running (for tests and benchmarks)."""
        self.start()
        end = time.monotonic() + timeout
        return all(slot.ready.wait(max(0.0, end - time.monotonic())) for slot in self._slots)

    def close(self) -> None:
        """Stop every worker now (jobs waiting are cancelled, running ones given up) and wait
        for the feeding threads: no process is left behind."""
        with self._lock:
            if self.closed:
                return
            self.closed = True
            slots = list(self._slots)
        while True:
            try:
                job = self.jobs.get_nowait()
            except queue.Empty:
                break
            if job is not None:
                job.future.cancel()
        for _ in slots:
            self.jobs.put(None)
        for slot in slots:
            slot.stop()  # a feeder waiting on its worker sees the pipe close at once
        for slot in slots:
            slot.thread.join(timeout=START_TIMEOUT)
            slot.stop()  # one started while we stopped the others


__all__ = [
    "JOBS",
    "THINK_MARGIN",
    "THINK_TIMEOUT",
    "ThinkError",
    "ThinkPool",
    "ThinkTimeout",
    "hint_dicts",
    "hints",
    "make_agent",
    "move",
    "review",
    "think",
    "think_budget",
]
