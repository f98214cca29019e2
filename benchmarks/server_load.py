"""Load test of the web server: many friend tables played at once over real WebSockets, on one
``ginrummy serve`` or spread over several sharing one database and a broker.

    nice .venv/bin/python benchmarks/server_load.py [--tables 500[,1000,2000]] [--instances N]
        [--think 3 | --saturate] [--duration 30] [--hands H] [--gap 0.1] [--warmup 3]
        [--db postgresql://postgres@127.0.0.1:5432/test | sqlite | URL]
        [--broker redis://127.0.0.1:6379/0] [--no-compression] [--logs DIR] [--profile FILE]
        [--json]

For each count of ``--tables`` in turn, on fresh servers and a fresh database: starts
``--instances`` ``ginrummy serve`` processes (free ports on 127.0.0.1, ``--computer-delay 0``,
``--tables-per-minute 0``, ``--max-connections`` raised to fit every socket), creates the
friend tables (table i on instance i mod N) and opens both seats' sockets, all before the timed
part. Seat 0 of table i connects to instance i mod N, which holds the table, and seat 1 to
instance (i + 1) mod N: with more than one instance every table's second seat is relayed
through the broker, so every move reaches one of the two players across instances. Every
socket comes from a loopback address of its own (127.1.x.y), as players come from their own
machines, so the server's caps per address treat them as different people.

The database (``--db``, see benchmarks/load_site.py): by default a schema of its own in the
PostgreSQL at 127.0.0.1:5432, made for each run and dropped after it; ``sqlite`` a temporary
SQLite file. With more than one instance they share it through ``--broker`` (default
``redis://127.0.0.1:6379/0``; one instance uses a broker only when it is given). Each instance
talks on a channel named by its own random id, so runs never mix with each other or with
anything else on that Redis.

Then every seat, in this one asyncio process, plays random legal moves (knocking when it can,
mostly discarding its highest deadwood) when it is its turn, and both seats ask for the next hand
when one ends. With ``--think T`` (default 3) a seat first waits 0.5 T to 1.5 T seconds, as a
person would; ``--saturate`` (the same as ``--think 0``) has every table ask for its next move
at once, so the run measures the most the servers can do, and the round trip is mostly the
wait in their queues. Each seat waits at least ``--gap`` seconds between its messages, to stay
under the server's limit of 10 messages a second per socket.

It runs for ``--duration`` seconds (or until ``--hands`` hands have ended) and prints, per run:
sockets held (still open at the end, of those opened); the action round trip (an action sent
until the state it caused comes back on the same socket) at the 50th, 90th and 99th
percentiles and the worst, and with several instances the 99th on the relayed sockets alone;
actions per second, hands, errors of any kind; per instance the event-loop lag's 99th
percentile over the timed part (from the ``/metrics`` histogram, interpolated within its
buckets as Prometheus does), its open sockets, CPU and resident memory (idle, with the
sockets open, at the end); memory per socket (the instances' RSS at the end less their RSS
idle, over the sockets held: the tables' memory included); and this process's own CPU and
event-loop lag, which say whether the load generator kept up (on a small machine it competes
with the servers, PostgreSQL and Redis). Several counts end with a table of them all.

The runs for 1 and 2 instances on one machine:

    nice .venv/bin/python benchmarks/server_load.py --instances 1 --tables 500,1000,2000 --think 3
    nice .venv/bin/python benchmarks/server_load.py --instances 2 --tables 500,1000,2000 --think 3
    nice .venv/bin/python benchmarks/server_load.py --instances 1 --tables 500 --saturate
    nice .venv/bin/python benchmarks/server_load.py --instances 2 --tables 500 --saturate

Make them on an otherwise idle machine: the servers are this script's children (under
``nice``, they are niced too) and share the cores with it, PostgreSQL and Redis.

``--logs DIR`` keeps each server's output in ``DIR/T-iK.log`` (T tables, instance K), to tell
why a socket was closed. ``--profile FILE`` runs instance 0 under cProfile and writes its
statistics to FILE when the run ends (and prints the top functions); it needs a single
``--tables`` count, and the profile slows the server, so time without it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import pstats
import random
import re
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import psutil  # type: ignore[import-untyped, unused-ignore]
from websockets.asyncio.client import ClientConnection, connect
from websockets.protocol import State

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load_site
from ginrummy.web import collector

ROOT = Path(__file__).resolve().parent.parent
RANK_VALUE = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}
BROKER = "redis://127.0.0.1:6379/0"
MIB = 2**20


# -- the servers -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    db: Path | str,
    port: int,
    profile: Path | None,
    *,
    extra: Sequence[str] = (),
    log: IO[bytes] | None = None,
) -> subprocess.Popen[bytes]:
    """``ginrummy serve`` on ``db`` (a SQLite file, or a database URL); ``extra`` are more of
    its options, and ``log`` a file that takes its output (by default stdout is dropped and
    stderr is this process's)."""
    command = [sys.executable]
    if profile is not None:
        command += ["-m", "cProfile", "-o", str(profile)]
    command += ["-m", "ginrummy.cli.main", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--tables-per-minute", "0"]  # one address opens every table here
    url = f"sqlite:///{db}" if isinstance(db, Path) else db
    command += ["--db", url, "--computer-delay", "0", *extra]
    if log is not None:
        return subprocess.Popen(command, env=server_env(), stdout=log, stderr=subprocess.STDOUT)
    return subprocess.Popen(command, env=server_env(), stdout=subprocess.DEVNULL)


def server_env() -> dict[str, str]:
    """The environment the server runs in: this checkout's package first."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    return env


def wait_ready(url: str, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"the server exited with status {proc.returncode}")
        try:
            if httpx.get(f"{url}/api/presets", timeout=2).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    raise SystemExit("the server did not start")


def raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = 65536 if hard == resource.RLIM_INFINITY else hard
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


@dataclass(frozen=True)
class Instance:
    """One running ``ginrummy serve``: where it answers and its process id."""

    url: str
    pid: int


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)  # a clean stop, so that cProfile writes
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextlib.contextmanager
def serving(
    count: int,
    db: str,
    broker: str | None,
    sockets: int,
    profile: Path | None,
    logs: Sequence[Path] = (),
) -> Iterator[list[Instance]]:
    """``count`` instances on ``db`` (sharing it through ``broker`` when given), ready, and
    stopped afterwards; ``profile`` profiles instance 0, and each instance writes its output
    to its file in ``logs`` where given (else it is dropped)."""
    extra = ["--max-connections", str(sockets + 200)]  # every player, and the scrapes
    if broker is not None:
        extra += ["--broker", broker]
    procs: list[subprocess.Popen[bytes]] = []
    instances = []
    with contextlib.ExitStack() as files:
        try:
            for i in range(count):
                port = free_port()
                log = files.enter_context(logs[i].open("ab")) if logs else None
                procs.append(
                    start_server(db, port, profile if i == 0 else None, extra=extra, log=log)
                )
                instances.append(Instance(f"http://127.0.0.1:{port}", procs[-1].pid))
            for instance, proc in zip(instances, procs, strict=True):
                wait_ready(instance.url, proc)
            yield instances
        finally:
            for proc in procs:
                stop_server(proc)


# -- the players -----------------------------------------------------------------------------


@dataclass
class Stats:
    timing: bool = False
    latencies: list[float] = field(default_factory=list)
    relayed: list[float] = field(default_factory=list)  # those of sockets relayed to the holder
    actions: int = 0
    hands: int = 0
    errors: list[str] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    hand_limit: int | None = None

    def error(self, text: str) -> None:
        if len(self.errors) < 1000:
            self.errors.append(text)


def choose(view: dict[str, Any], rng: random.Random) -> str:
    legal: list[str] = view["legal_actions"]
    ends = [a for a in legal if a.split()[0] in ("knock", "gin", "biggin")]
    if ends and rng.random() < 0.8:
        return rng.choice(ends)
    if "auto" in legal:
        return "auto"
    if rng.random() < 0.8:
        dead = list(view["arrangement"]["deadwood"])
        dead.sort(key=lambda c: -RANK_VALUE[c[0]])
        for card in dead:
            if f"discard {card}" in legal:
                return f"discard {card}"
    return rng.choice(legal)


class Seat:
    def __init__(
        self,
        ws: ClientConnection,
        seat: int,
        stats: Stats,
        gap: float,
        think: float,
        seed: int,
        relayed: bool = False,
    ) -> None:
        self.ws = ws
        self.think = think
        self.seat = seat
        self.stats = stats
        self.gap = gap
        self.relayed = relayed  # connected to an instance other than the table's holder
        self.rng = random.Random(seed)
        self.sent_at: float | None = None  # an action on its way
        self.last_send = 0.0
        self.asked_next: int | None = None  # the hand whose next this seat asked for

    async def send(self, msg: dict[str, Any]) -> None:
        wait = self.last_send + self.gap - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        self.last_send = time.monotonic()
        await self.ws.send(json.dumps(msg))

    async def play(self) -> None:
        stats = self.stats
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                msg = json.loads(raw)
                kind = msg.get("type")
                if kind == "error":  # counted; then ask for the state again and go on
                    stats.error(f"seat {self.seat}: {msg.get('message')}")
                    self.sent_at = None
                    await asyncio.sleep(0.5)
                    await self.send({"type": "state"})
                    continue
                if kind != "state":
                    continue
                if self.sent_at is not None:  # the state our action caused
                    if stats.timing:
                        stats.latencies.append(now - self.sent_at)
                        if self.relayed:
                            stats.relayed.append(now - self.sent_at)
                        stats.actions += 1
                    self.sent_at = None
                if stats.stop.is_set():
                    return
                view = msg["view"]
                if view is None:
                    continue
                if view["phase"] == "over":
                    # Both seats ask for the next hand, as people do: between people it is
                    # dealt once both have asked (or after a wait), not when one has.
                    number = msg["table"]["hand_number"]
                    if not msg["table"]["over"] and self.asked_next != number:
                        self.asked_next = number
                        if self.seat == 0 and stats.timing:
                            stats.hands += 1
                            if stats.hand_limit is not None and stats.hands >= stats.hand_limit:
                                stats.stop.set()
                        await self.send({"type": "next"})
                    continue
                if view["current_player"] == self.seat:
                    if self.think:  # a person's pause before a move (not in the round trip)
                        await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)
                    action = choose(view, self.rng)
                    await self.send({"type": "action", "action": action})
                    self.sent_at = time.perf_counter()
            if not stats.stop.is_set():
                stats.error(f"seat {self.seat}: closed by the server ({self.ws.close_code})")
        except Exception as exc:
            if not stats.stop.is_set():
                stats.error(f"seat {self.seat}: {type(exc).__name__}: {exc}")


async def create_tables(urls: Sequence[str], count: int) -> list[dict[str, Any]]:
    """``count`` friend tables, table i created on ``urls[i % len(urls)]`` (which holds it)."""
    limit = asyncio.Semaphore(16)
    body = {"mode": "friend", "options": {"game_target": 500}}  # hands, not games, end

    async with httpx.AsyncClient(timeout=60) as client:

        async def one(n: int) -> dict[str, Any]:
            async with limit:
                response = await client.post(f"{urls[n % len(urls)]}/api/tables", json=body)
                response.raise_for_status()
                data: dict[str, Any] = response.json()
                return data

        return await asyncio.gather(*(one(n) for n in range(count)))


def seat_address(n: int, seat: int) -> str:
    """A loopback address of its own for seat ``seat`` of table ``n``, as if each player came
    from their own machine (Linux routes all of 127.0.0.0/8 to the loopback device)."""
    k = 2 * n + seat
    return f"127.1.{k // 250}.{k % 250 + 1}"


def seat_instance(n: int, seat: int, instances: int) -> int:
    """The instance seat ``seat`` of table ``n`` connects to: the table's holder (n mod N) for
    seat 0, the next one for seat 1, so that with several instances the seats never share one.

    >>> [seat_instance(n, s, 2) for n in range(2) for s in (0, 1)]
    [0, 1, 1, 0]
    >>> [seat_instance(n, s, 1) for n in range(2) for s in (0, 1)]
    [0, 0, 0, 0]
    """
    return (n + seat) % instances


async def open_seats(
    ws_urls: str | Sequence[str],
    tables: list[dict[str, Any]],
    stats: Stats,
    args: argparse.Namespace,
) -> list[Seat]:
    urls = [ws_urls] if isinstance(ws_urls, str) else list(ws_urls)
    limit = asyncio.Semaphore(32)
    compression = None if args.no_compression else "deflate"
    # As the pages do, each socket asks for its history in parts (only the moves it lacks).
    parts = "" if getattr(args, "whole_history", False) else "&history=delta"
    # Seat s of table n plays with random.Random(2 n + s), shifted by args.seed where given.
    offset = 2 * len(tables) * getattr(args, "seed", 0)
    # Each socket from its own address (seat_address), as players come from their own
    # machines: the server limits messages and sockets per address.
    own_addresses = getattr(args, "own_addresses", True)

    async def one(table_id: str, token: str, n: int, seat: int) -> Seat:
        where = seat_instance(n, seat, len(urls))
        async with limit:
            ws = await connect(
                f"{urls[where]}/ws/{table_id}?token={token}{parts}",
                proxy=None,
                open_timeout=60,
                ping_interval=None,
                max_size=1 << 22,
                compression=compression,
                local_addr=(seat_address(n, seat), 0) if own_addresses else None,
                # Each seat from a browser of its own (its player cookie): between people the
                # server gives no seat to a socket without one.
                additional_headers={"Cookie": f"ginrummy_player=load-{n}-{seat}"},
            )
            relayed = where != seat_instance(n, 0, len(urls))
            seed = offset + 2 * n + seat
            return Seat(ws, seat, stats, args.gap, args.think, seed, relayed)

    jobs = []
    for n, t in enumerate(tables):
        invite = re.split(r"[?#]s=", t["invite"], maxsplit=1)[1]  # "/t/ID#s=TOKEN" or "?s="
        jobs.append(one(t["id"], t["token"], n, 0))
        jobs.append(one(t["id"], invite, n, 1))
    return await asyncio.gather(*jobs)


# -- measuring -------------------------------------------------------------------------------


@dataclass
class Sample:
    """One second of the run: each instance's memory and CPU, this process's CPU (the
    clients') and the whole machine's."""

    rss: list[float]
    cpu: list[float]
    client_cpu: float
    machine_cpu: float


async def watch(procs: Sequence[Any], samples: list[Sample], stop: asyncio.Event) -> None:
    me = psutil.Process()
    for proc in (*procs, me):
        proc.cpu_percent(None)
    psutil.cpu_percent(None)
    while not stop.is_set():
        await asyncio.sleep(1.0)
        with contextlib.suppress(psutil.Error):
            samples.append(
                Sample(
                    [p.memory_info().rss for p in procs],
                    [p.cpu_percent(None) for p in procs],
                    me.cpu_percent(None),
                    psutil.cpu_percent(None),
                )
            )


async def probe(lags: list[float], stats: Stats, interval: float = 0.1) -> None:
    """This process's own event-loop lag while timing: how late a 0.1 s sleep wakes up. A
    late client adds its lateness to every round trip it measures."""
    loop = asyncio.get_running_loop()
    while not stats.stop.is_set():
        start = loop.time()
        await asyncio.sleep(interval)
        if stats.timing:
            lags.append(max(0.0, loop.time() - start - interval))


async def scrape_all(
    client: httpx.AsyncClient, instances: Sequence[Instance], stats: Stats
) -> list[load_site.Scrape | None]:
    async def one(k: int, instance: Instance) -> load_site.Scrape | None:
        try:
            return await load_site.scrape(client, instance.url)
        except (httpx.HTTPError, ValueError) as exc:
            stats.error(f"instance {k}: /metrics: {type(exc).__name__}: {exc}")
            return None

    return await asyncio.gather(*(one(k, i) for k, i in enumerate(instances)))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of sorted ``values`` in milliseconds (NaN for none)."""
    return 1000 * values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else float("nan")


def lag_figures(
    before: load_site.Scrape | None, after: load_site.Scrape | None
) -> dict[str, float]:
    """An instance's event-loop lag between two scrapes (99th percentile and mean, in ms), and
    its open sockets and tables at the second."""
    nan = float("nan")
    found = {"lag_p99_ms": nan, "lag_mean_ms": nan, "open_sockets": nan, "tables_in_memory": nan}
    found |= {"gc_full": nan, "gc_slow": nan}
    if after is not None:
        found["open_sockets"], found["tables_in_memory"] = after.open_sockets, after.tables
    if before is not None and after is not None:
        found["gc_full"] = after.gc_full - before.gc_full
        found["gc_slow"] = after.gc_slow - before.gc_slow
    if before is not None and after is not None and after.lag_count > before.lag_count:
        found["lag_p99_ms"] = 1000 * load_site.lag_quantile(before, after, 0.99)
        spent = after.lag_sum - before.lag_sum
        found["lag_mean_ms"] = 1000 * spent / (after.lag_count - before.lag_count)
    return found


def rss_of(procs: Sequence[Any]) -> list[float]:
    found = []
    for proc in procs:
        try:
            found.append(float(proc.memory_info().rss))
        except psutil.Error:
            found.append(float("nan"))
    return found


async def run(
    args: argparse.Namespace,
    instances: Sequence[Instance],
    on_phase: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """One load run against ``instances``; ``on_phase`` is told "warmup" once every socket is
    open (the players are about to start), "timed" when the timed part starts and "stopped"
    when it ends."""
    stats = Stats(hand_limit=args.hands)
    phase = on_phase or (lambda _name: None)
    procs = [psutil.Process(i.pid) for i in instances]
    rss_idle = rss_of(procs)
    t0 = time.monotonic()
    tables = await create_tables([i.url for i in instances], args.tables)
    t1 = time.monotonic()
    ws_urls = [i.url.replace("http://", "ws://") for i in instances]
    seats = await open_seats(ws_urls, tables, stats, args)
    t2 = time.monotonic()
    rss_open = rss_of(procs)
    print(
        f"created {len(tables)} tables in {t1 - t0:.1f} s; opened {len(seats)} sockets in "
        f"{t2 - t1:.1f} s; servers' RSS {sum(rss_open) / MIB:.0f} MiB",
        flush=True,
    )
    samples: list[Sample] = []
    client_lags: list[float] = []
    watcher = asyncio.ensure_future(watch(procs, samples, stats.stop))
    prober = asyncio.ensure_future(probe(client_lags, stats))
    await asyncio.to_thread(load_site.checkpoint, args.db)
    phase("warmup")
    players = [asyncio.ensure_future(s.play()) for s in seats]
    await asyncio.sleep(args.warmup)  # the first moves of every table, not timed
    async with httpx.AsyncClient(timeout=30) as http:
        before = await scrape_all(http, instances, stats)
        stats.timing = True
        phase("timed")
        started = time.monotonic()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stats.stop.wait(), args.duration)
        elapsed = time.monotonic() - started
        stats.timing = False
        held = sum(s.ws.state is State.OPEN for s in seats)
        rss_end = rss_of(procs)
        after = await scrape_all(http, instances, stats)
    stats.stop.set()
    phase("stopped")
    for s in seats:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(s.ws.close(), 5)
    for p in players:
        p.cancel()
    await asyncio.gather(*players, watcher, prober, return_exceptions=True)
    lat, relayed = sorted(stats.latencies), sorted(stats.relayed)
    per_instance = [
        {
            **lag_figures(before[k], after[k]),
            "rss_idle_mib": rss_idle[k] / MIB,
            "rss_open_mib": rss_open[k] / MIB,
            "rss_end_mib": rss_end[k] / MIB,
            "cpu_mean_pct": mean([s.cpu[k] for s in samples]),
        }
        for k in range(len(instances))
    ]
    growth = sum(rss_end) - sum(rss_idle)
    return {
        "instances": len(instances),
        "think": args.think,
        "tables": len(tables),
        "sockets": len(seats),
        "held": held,
        "seconds": elapsed,
        "actions": stats.actions,
        "actions_per_s": stats.actions / elapsed if elapsed else 0.0,
        "hands": stats.hands,
        "p50_ms": percentile(lat, 0.50),
        "p90_ms": percentile(lat, 0.90),
        "p99_ms": percentile(lat, 0.99),
        "max_ms": 1000 * lat[-1] if lat else float("nan"),
        "mean_ms": 1000 * statistics.fmean(lat) if lat else float("nan"),
        "relayed_p99_ms": percentile(relayed, 0.99),
        "errors": len(stats.errors),
        "error_examples": sorted(set(stats.errors))[:5],
        "per_instance": per_instance,
        "memory_per_socket_kib": growth / held / 1024 if held else float("nan"),
        "rss_before_mib": sum(rss_open) / MIB,
        "rss_peak_mib": max((sum(s.rss) for s in samples), default=sum(rss_open)) / MIB,
        "rss_end_mib": sum(rss_end) / MIB,
        "cpu_mean_pct": mean([sum(s.cpu) for s in samples]),
        "client_cpu_pct": mean([s.client_cpu for s in samples]),
        "client_lag_p99_ms": percentile(sorted(client_lags), 0.99),
        "machine_cpu_pct": mean([s.machine_cpu for s in samples]),
        "load_average": os.getloadavg()[0],
    }


# -- the report ------------------------------------------------------------------------------


def report(r: dict[str, Any]) -> str:
    """One run's figures, as text."""
    mode = "saturation (no thinking)" if not r["think"] else f"thinking {r['think']:g} s a move"
    lines = [
        f"{r['tables']} tables on {r['instances']} instance(s), {mode}, {r['seconds']:.1f} s timed",
        f"sockets held: {r['held']} of {r['sockets']}",
        f"action round trip: p50 {r['p50_ms']:.1f} ms, p90 {r['p90_ms']:.1f} ms, "
        f"p99 {r['p99_ms']:.1f} ms, max {r['max_ms']:.1f} ms (mean {r['mean_ms']:.1f} ms)",
    ]
    if r["instances"] > 1:
        lines.append(f"  on the relayed sockets alone: p99 {r['relayed_p99_ms']:.1f} ms")
    lines += [
        f"{r['actions']} actions, {r['actions_per_s']:.0f} actions/s, {r['hands']} hands ended",
        f"errors: {r['errors']} {r['error_examples'] or ''}",
    ]
    for k, i in enumerate(r["per_instance"]):
        lines.append(
            f"instance {k}: event-loop lag p99 {i['lag_p99_ms']:.1f} ms "
            f"(mean {i['lag_mean_ms']:.1f} ms), {i['open_sockets']:.0f} sockets by its count, "
            f"CPU {i['cpu_mean_pct']:.0f}% of a core, RSS {i['rss_idle_mib']:.0f} MiB idle, "
            f"{i['rss_open_mib']:.0f} MiB with the sockets open, {i['rss_end_mib']:.0f} MiB "
            f"at the end; garbage collector: {i['gc_full']:.0f} full collections, "
            f"{i['gc_slow']:.0f} pauses over 50 ms"
        )
    if r["instances"] > 1:
        lines.append("  (an instance counts the relayed sockets it holds tables for, as well)")
    lines += [
        f"memory per socket: {r['memory_per_socket_kib']:.0f} KiB (the servers' RSS at the end "
        "less idle, over the sockets held)",
        f"the clients (this process): {r['client_cpu_pct']:.0f}% of a core, event-loop lag p99 "
        f"{r['client_lag_p99_ms']:.1f} ms; the machine: {os.cpu_count()} CPUs "
        f"{r['machine_cpu_pct']:.0f}% busy, load average {r['load_average']:.1f} at the end",
    ]
    return "\n".join(lines)


def summary(results: Sequence[dict[str, Any]]) -> str:
    """One line per run: the figures to compare across table counts."""
    rows = [
        "tables  held/asked  p50 ms  p99 ms  actions/s  errors  lag p99 ms  KiB/socket  client CPU"
    ]
    for r in results:
        lags = "/".join(f"{i['lag_p99_ms']:.0f}" for i in r["per_instance"])
        rows.append(
            f"{r['tables']:>6}  {r['held']:>5}/{r['sockets']:<5} {r['p50_ms']:>6.1f}  "
            f"{r['p99_ms']:>6.1f}  {r['actions_per_s']:>9.0f}  {r['errors']:>6}  {lags:>10}  "
            f"{r['memory_per_socket_kib']:>10.0f}  {r['client_cpu_pct']:>9.0f}%"
        )
    return "\n".join(rows)


# -- the command -----------------------------------------------------------------------------


def table_counts(text: str) -> list[int]:
    """``500`` or ``500,1000,2000``: each a whole number of tables, at least 1."""
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a count or a list of counts: {text!r}") from None
    if any(c < 1 for c in counts):
        raise argparse.ArgumentTypeError(f"each count must be at least 1: {text!r}")
    return counts


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables",
        type=table_counts,
        default=[500],
        help="friend tables (2 sockets each), or counts run one after another: 500,1000,2000",
    )
    parser.add_argument("--instances", type=int, default=1, help="ginrummy serve processes")
    parser.add_argument("--duration", type=float, default=30.0, help="timed seconds")
    parser.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    parser.add_argument("--warmup", type=float, default=3.0, help="untimed seconds first")
    parser.add_argument("--gap", type=float, default=0.1, help="least seconds between sends")
    parser.add_argument(
        "--think", type=float, default=None, help="mean seconds a seat waits before each move (3)"
    )
    parser.add_argument(
        "--saturate", action="store_true", help="no thinking: as many moves as the servers take"
    )
    parser.add_argument(
        "--db",
        default=load_site.POSTGRES,
        help="a PostgreSQL URL (a fresh schema in it per run), 'sqlite' or another database URL",
    )
    parser.add_argument(
        "--broker", default=None, help=f"Redis URL (default {BROKER} for several instances)"
    )
    parser.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    parser.add_argument(
        "--whole-history",
        action="store_true",
        help="sockets ask for the whole history in every state (not in parts, as pages do)",
    )
    parser.add_argument("--profile", type=Path, default=None, help="cProfile instance 0 to FILE")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument(
        "--logs", type=Path, default=None, help="write each server's output to DIR/T-iK.log"
    )
    args = parser.parse_args(argv)
    if args.instances < 1:
        parser.error("--instances must be at least 1")
    if args.duration <= 0 or args.warmup < 0 or args.gap < 0:
        parser.error("--duration must be above 0, --warmup and --gap at least 0")
    if args.hands is not None and args.hands < 1:
        parser.error("--hands must be at least 1")
    if args.saturate and args.think:
        parser.error("--saturate is --think 0: give one or the other")
    args.think = 0.0 if args.saturate else 3.0 if args.think is None else args.think
    if args.think < 0:
        parser.error("--think must be at least 0")
    if args.profile is not None and len(args.tables) > 1:
        parser.error("--profile needs a single --tables count")
    if args.logs is not None and not args.logs.is_dir():
        parser.error(f"--logs: no such folder: {args.logs}")
    if args.broker is None and args.instances > 1:
        args.broker = BROKER
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.broker is not None:
        load_site.check_broker(args.broker)
    raise_file_limit()
    # The clients hold as many sockets as the servers: their collector is set the servers'
    # way, so that its full collections (100 ms and more) do not count in the round trips.
    collector.quiet()
    profile = args.profile.resolve() if args.profile else None
    results = []
    for count in args.tables:
        settings = argparse.Namespace(**{**vars(args), "tables": count})
        logs = [args.logs / f"{count}-i{k}.log" for k in range(args.instances)] if args.logs else []
        with (
            tempfile.TemporaryDirectory(prefix="ginrummy-load-") as tmp,
            load_site.fresh_database(args.db, Path(tmp)) as db,
            serving(args.instances, db, args.broker, 2 * count, profile, logs) as instances,
        ):
            results.append(asyncio.run(run(settings, instances)))
        print(report(results[-1]), flush=True)
        if args.json:
            print(json.dumps(results[-1]), flush=True)
        print(flush=True)
    if len(results) > 1:
        print(summary(results))
    if profile is not None and profile.exists():
        print(f"\nserver profile ({profile}), by own time:")
        pstats.Stats(str(profile)).sort_stats("tottime").print_stats(25)
        pstats.Stats(str(profile)).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
