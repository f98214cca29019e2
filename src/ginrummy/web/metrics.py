"""What ``/metrics`` shows Prometheus about one server process, in its text format.

* ``ginrummy_open_sockets``: WebSockets connected to tables (seats and spectators);
* ``ginrummy_tables_in_memory``: tables loaded (played or watched lately);
* ``ginrummy_actions_applied_total``: moves stored and made, by people, the computer and the
  move clock;
* ``ginrummy_message_round_trip_seconds``: from a socket's message arriving to the answer
  (for a move: the new state) being sent back, by message type;
* ``ginrummy_event_loop_lag_seconds`` and ``..._last_seconds``: how late a task that sleeps
  0.1 s wakes up, a histogram and the latest value: what every player waits on when something
  blocks the event loop;
* ``ginrummy_database_queue_length``: store calls waiting for one of the database threads;
* ``ginrummy_gc_pause_seconds``: the garbage collector's pauses, by generation (the whole
  process stops for them; see :mod:`.collector`).

Nothing here is per table or per player (no ids, no names, no tokens): only counts, and the
message types the protocol defines as a label.

Built on ``prometheus-client`` rather than written by hand: the format is small, but its
escaping and histogram rules are easy to get subtly wrong, and the same library can later
merge the figures of several worker processes (its multiprocess mode). Each app has a registry
of its own, so several apps in one process (as in the tests) never share figures.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Gauge, Histogram, generate_latest
from prometheus_client.metrics_core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from . import collector
from .manager import Manager

#: The text format every Prometheus reads (what it calls 0.0.4); the names here all fit it.
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: How long the event-loop watcher sleeps between measurements.
LAG_INTERVAL = 0.1
LAG_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
ROUND_TRIP_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)


class Metrics:
    """One app's figures: those it counts as they happen, and those read from its manager when
    Prometheus asks."""

    def __init__(self, manager: Manager) -> None:
        collector.watch()
        self.registry = CollectorRegistry(auto_describe=True)
        self.round_trip = Histogram(
            "ginrummy_message_round_trip_seconds",
            "Seconds from a socket's message arriving to the answer being sent back.",
            ["type"],
            buckets=ROUND_TRIP_BUCKETS,
            registry=self.registry,
        )
        self.loop_lag = Histogram(
            "ginrummy_event_loop_lag_seconds",
            f"How late a task sleeping {LAG_INTERVAL:g} s wakes up, in seconds.",
            buckets=LAG_BUCKETS,
            registry=self.registry,
        )
        self.loop_lag_last = Gauge(
            "ginrummy_event_loop_lag_last_seconds",
            "The latest event-loop lag measured, in seconds.",
            registry=self.registry,
        )
        self.registry.register(_ManagerFigures(manager))

    def observe_round_trip(self, kind: str, seconds: float) -> None:
        self.round_trip.labels(kind).observe(seconds)

    def render(self) -> bytes:
        """Every figure, in Prometheus's text format."""
        return generate_latest(self.registry)

    async def watch_loop(self, interval: float = LAG_INTERVAL) -> None:
        """Measure the event loop's lag until cancelled: sleep ``interval``, see how late the
        wake-up comes."""
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(interval)
            lag = max(0.0, loop.time() - start - interval)
            self.loop_lag.observe(lag)
            self.loop_lag_last.set(lag)


class _ManagerFigures(Collector):
    """The figures the manager keeps anyway, read at each scrape (nothing to keep in step)."""

    def __init__(self, manager: Manager) -> None:
        self.manager = manager

    def collect(self) -> Iterator[Metric]:
        manager = self.manager
        yield GaugeMetricFamily(
            "ginrummy_open_sockets",
            "WebSockets connected to tables, seats and spectators.",
            value=sum(len(clients) for clients in manager.clients.values()),
        )
        yield GaugeMetricFamily(
            "ginrummy_tables_in_memory",
            "Tables loaded in this process.",
            value=len(manager.tables),
        )
        yield CounterMetricFamily(
            "ginrummy_actions_applied",
            "Moves stored and made at the tables.",
            value=manager.actions_applied,
        )
        yield GaugeMetricFamily(
            "ginrummy_database_queue_length",
            "Store calls waiting for a database thread.",
            value=manager.db_queue_length(),
        )
        pauses = HistogramMetricFamily(
            "ginrummy_gc_pause_seconds",
            "Seconds the garbage collector stopped the process, by generation.",
            labels=["generation"],
        )
        for generation, (buckets, spent) in enumerate(collector.pauses()):
            pauses.add_metric(
                [str(generation)],
                [("+Inf" if b == float("inf") else repr(b), c) for b, c in buckets],
                spent,
            )
        yield pauses
