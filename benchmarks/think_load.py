"""The server's event loop while many experts think: threads against worker processes.

    nice env PYTHONPATH=src .venv/bin/python benchmarks/think_load.py [--tables 16]
        [--duration 20] [--workers N] [--friends 4]

Runs the table manager (``ginrummy.web.manager``, the server without HTTP) twice in this
process, on an in-memory SQLite store: once with the computer thinking in threads
(``--think-workers 0``), once in ``--workers`` processes (default: one per CPU). Each run opens
``--tables`` tables against the expert with no computer delay, and a person's seat at each
that answers at once with the simple player's move, so that every expert is thinking nearly
all the time; and ``--friends`` tables between two people playing the simple player's moves
as fast as they are answered. For ``--duration`` seconds it measures:

- the **event-loop lag**: a task sleeps 0.1 s again and again and records how late it wakes;
- the **round trip** at the friend tables: one move, from the message handed to the manager
  until it is stored and the table's state sent back (the store's thread needs the GIL too);
- the expert tables' moves made.

Percentiles in milliseconds. The figures depend on the machine: say how many cores it had
and what else ran. Expert moves are pure Python unless the compiled speedups are built.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ginrummy.agents import get_agent
from ginrummy.engine import Rules
from ginrummy.storage import Store
from ginrummy.web.manager import UNLIMITED, Client, Manager
from ginrummy.web.tables import COMPUTER_SEAT, Options, Table

PROBE = 0.1


@dataclass
class Figures:
    lags: list[float] = field(default_factory=list)
    trips: list[float] = field(default_factory=list)
    computer_moves: int = 0


async def _nothing(msg: dict[str, Any]) -> None:
    return None


async def _probe(figures: Figures, running: Callable[[], bool]) -> None:
    """How late a task that sleeps ``PROBE`` seconds wakes up, again and again."""
    while running():
        start = time.perf_counter()
        await asyncio.sleep(PROBE)
        figures.lags.append(time.perf_counter() - start - PROBE)


def _person_move(table: Table, seat: int) -> str:
    hand = table.hand
    assert hand is not None
    view = hand.view(seat, table.game.totals)
    return str(get_agent("simple").act(view, random.Random(0)))


async def _new_table(manager: Manager, options: Options) -> Table:
    created = await manager.create(Rules(), options, ("A", "B"))
    return created.table


async def _play(
    manager: Manager,
    options: Options,
    seats: tuple[int, ...],
    figures: Figures,
    running: Callable[[], bool],
    timed: bool,
) -> None:
    """Play ``seats`` of a table (a new one when a game ends) as fast as the server answers."""
    table = await _new_table(manager, options)
    clients = {seat: Client(table.id, seat, _nothing) for seat in seats}
    seen: tuple[str, int, int] = ("", 0, 0)  # the hand whose computer moves were counted
    while running():
        hand = table.hand
        assert hand is not None
        if table.vs_computer:
            key = (table.id, table.hand_number)
            start = seen[2] if seen[:2] == key else 0
            new = hand.events[start:]
            figures.computer_moves += sum(e.seat == COMPUTER_SEAT for e in new)
            seen = (*key, len(hand.events))
        if table.finished:
            table = await _new_table(manager, options)
            clients = {seat: Client(table.id, seat, _nothing) for seat in seats}
            continue
        if hand.is_over:
            await manager.handle(clients[seats[0]], {"type": "next"})
            continue
        seat = hand.current_player
        if seat not in clients:
            await asyncio.sleep(0.005)  # the computer is thinking
            continue
        action = _person_move(table, seat)
        start = time.perf_counter()
        await manager.handle(clients[seat], {"type": "action", "action": action})
        if timed:
            figures.trips.append(time.perf_counter() - start)


async def _run(workers: int, args: argparse.Namespace) -> Figures:
    store = Store("sqlite://")
    manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED, think_workers=workers)
    if manager.thinking is not None:  # started before the timed part, as a warm server is
        await asyncio.to_thread(manager.thinking.wait_ready)
    figures = Figures()
    end = time.monotonic() + args.duration

    def running() -> bool:
        return time.monotonic() < end

    tasks = [
        asyncio.ensure_future(
            _play(manager, Options("computer", level="expert"), (0,), figures, running, False)
        )
        for _ in range(args.tables)
    ]
    tasks += [
        asyncio.ensure_future(_play(manager, Options("friend"), (0, 1), figures, running, True))
        for _ in range(args.friends)
    ]
    tasks.append(asyncio.ensure_future(_probe(figures, running)))
    await asyncio.gather(*tasks)
    for task in list(manager._tasks):
        task.cancel()
    await asyncio.sleep(0)
    await asyncio.to_thread(manager.close)
    store.close()
    return figures


def _ms(values: list[float], q: float) -> str:
    if not values:
        return "-"
    ordered = sorted(values)
    return f"{1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]:.1f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=16, help="expert tables (default 16)")
    parser.add_argument("--friends", type=int, default=4, help="tables between two people")
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per run")
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    parser.add_argument("--workers", type=int, default=max(1, cpus or 1), help="processes")
    args = parser.parse_args()
    print(
        f"{args.tables} expert tables, {args.friends} friend tables, {args.duration:g} s a run, "
        f"{cpus} CPUs"
    )
    print(
        f"{'thinking in':<14} {'lag p50':>8} {'p99':>8} {'max':>8}   "
        f"{'trip p50':>8} {'p99':>8} {'max':>8}   {'moves':>6} {'expert/s':>8}"
    )
    for workers in (0, args.workers):
        figures = asyncio.run(_run(workers, args))
        where = "threads" if workers == 0 else f"{workers} workers"
        lags, trips = figures.lags, figures.trips
        print(
            f"{where:<14} {_ms(lags, 0.5):>8} {_ms(lags, 0.99):>8} {_ms(lags, 1.0):>8}   "
            f"{_ms(trips, 0.5):>8} {_ms(trips, 0.99):>8} {_ms(trips, 1.0):>8}   "
            f"{len(trips):>6} {figures.computer_moves / args.duration:>8.1f}"
        )
        if lags:
            print(f"{'':<14} lag mean {1000 * statistics.fmean(lags):.1f} ms, {len(lags)} probes")


if __name__ == "__main__":
    main()
