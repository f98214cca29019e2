"""Load test of the web server: many friend tables played at once over real WebSockets.

    .venv/bin/python benchmarks/server_load.py [--tables 500] [--duration 30] [--hands H]
        [--gap 0.1] [--think 0] [--no-compression] [--profile FILE]

Starts ``ginrummy serve`` in a subprocess (a temporary SQLite file, a free port on 127.0.0.1,
``--computer-delay 0``), creates ``--tables`` friend tables and opens both seats' sockets, all
before the timed part. Then every seat, in this one asyncio process, plays random legal moves
(knocking when it can, mostly discarding its highest deadwood) as soon as it is its turn, and
seat 0 deals the next hand when one ends. Each seat waits at least ``--gap`` seconds between
its messages, to stay under the server's limit of 10 messages a second per socket, and with
``--think T`` it first waits 0.5 T to 1.5 T seconds before each move, as a person would. With no
thinking every table asks for its next move at once: the run measures the most the server can
do, and the round trip is mostly the wait in its queue (the number of tables over actions/s).

It runs for ``--duration`` seconds (or until ``--hands`` hands have ended) and prints the
action round trip (an action sent until the state it caused comes back on the same socket) at
the 50th, 90th, 99th percentiles and the worst, actions per second, hands, errors of any kind,
and the server's memory (resident set size, at its peak and at the end) and CPU.

``--profile FILE`` runs the server under cProfile and writes its statistics to FILE when the
run ends (and prints the top functions); the profile slows the server, so time without it.
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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
import psutil  # type: ignore[import-untyped, unused-ignore]
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
RANK_VALUE = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


# -- the server ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    db: Path,
    port: int,
    profile: Path | None,
    *,
    extra: Sequence[str] = (),
    log: IO[bytes] | None = None,
) -> subprocess.Popen[bytes]:
    """``ginrummy serve`` on ``db``; ``extra`` are more of its options, and ``log`` a file that
    takes its output (by default stdout is dropped and stderr is this process's)."""
    command = [sys.executable]
    if profile is not None:
        command += ["-m", "cProfile", "-o", str(profile)]
    command += ["-m", "ginrummy.cli.main", "serve", "--host", "127.0.0.1", "--port", str(port)]
    command += ["--tables-per-minute", "0"]  # one address opens every table here
    command += ["--db", f"sqlite:///{db}", "--computer-delay", "0", *extra]
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


# -- the players -----------------------------------------------------------------------------


@dataclass
class Stats:
    timing: bool = False
    latencies: list[float] = field(default_factory=list)
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
        self, ws: ClientConnection, seat: int, stats: Stats, gap: float, think: float, seed: int
    ) -> None:
        self.ws = ws
        self.think = think
        self.seat = seat
        self.stats = stats
        self.gap = gap
        self.rng = random.Random(seed)
        self.sent_at: float | None = None  # an action on its way
        self.last_send = 0.0

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
                        stats.actions += 1
                    self.sent_at = None
                if stats.stop.is_set():
                    return
                view = msg["view"]
                if view is None:
                    continue
                if view["phase"] == "over":
                    if self.seat == 0 and not msg["table"]["over"]:
                        if stats.timing:
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
        except Exception as exc:
            if not stats.stop.is_set():
                stats.error(f"seat {self.seat}: {type(exc).__name__}: {exc}")


async def create_tables(url: str, count: int) -> list[dict[str, Any]]:
    limit = asyncio.Semaphore(16)
    body = {"mode": "friend", "options": {"game_target": 500}}  # hands, not games, end

    async with httpx.AsyncClient(base_url=url, timeout=60) as client:

        async def one() -> dict[str, Any]:
            async with limit:
                response = await client.post("/api/tables", json=body)
                response.raise_for_status()
                data: dict[str, Any] = response.json()
                return data

        return await asyncio.gather(*(one() for _ in range(count)))


def seat_address(n: int, seat: int) -> str:
    """A loopback address of its own for seat ``seat`` of table ``n``, as if each player came
    from their own machine (Linux routes all of 127.0.0.0/8 to the loopback device)."""
    k = 2 * n + seat
    return f"127.1.{k // 250}.{k % 250 + 1}"


async def open_seats(
    ws_url: str, tables: list[dict[str, Any]], stats: Stats, args: argparse.Namespace
) -> list[Seat]:
    limit = asyncio.Semaphore(32)
    compression = None if args.no_compression else "deflate"
    # Seat s of table n plays with random.Random(2 n + s), shifted by args.seed where given.
    offset = 2 * len(tables) * getattr(args, "seed", 0)
    # Each socket from its own address (seat_address), as players come from their own
    # machines: the server limits messages and sockets per address.
    own_addresses = getattr(args, "own_addresses", True)

    async def one(table_id: str, token: str, n: int, seat: int) -> Seat:
        async with limit:
            ws = await connect(
                f"{ws_url}/ws/{table_id}?token={token}",
                proxy=None,
                open_timeout=60,
                ping_interval=None,
                max_size=1 << 22,
                compression=compression,
                local_addr=(seat_address(n, seat), 0) if own_addresses else None,
            )
            return Seat(ws, seat, stats, args.gap, args.think, offset + 2 * n + seat)

    jobs = []
    for n, t in enumerate(tables):
        invite = re.split(r"[?#]s=", t["invite"], maxsplit=1)[1]  # "/t/ID#s=TOKEN" or "?s="
        jobs.append(one(t["id"], t["token"], n, 0))
        jobs.append(one(t["id"], invite, n, 1))
    return await asyncio.gather(*jobs)


async def watch_server(
    pid: int, samples: list[tuple[float, float, float]], stop: asyncio.Event
) -> None:
    """Each second: the server's memory and CPU, and this process's CPU (the clients')."""
    proc = psutil.Process(pid)
    me = psutil.Process()
    proc.cpu_percent(None)
    me.cpu_percent(None)
    while not stop.is_set():
        await asyncio.sleep(1.0)
        with contextlib.suppress(psutil.Error):
            samples.append((proc.memory_info().rss, proc.cpu_percent(None), me.cpu_percent(None)))


async def run(
    args: argparse.Namespace,
    url: str,
    pid: int,
    on_phase: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """One load run; ``on_phase`` is told "warmup" once every socket is open (the players are
    about to start), "timed" when the timed part starts and "stopped" when it ends."""
    stats = Stats(hand_limit=args.hands)
    phase = on_phase or (lambda _name: None)
    t0 = time.monotonic()
    tables = await create_tables(url, args.tables)
    t1 = time.monotonic()
    seats = await open_seats(url.replace("http://", "ws://"), tables, stats, args)
    t2 = time.monotonic()
    rss_before = psutil.Process(pid).memory_info().rss
    print(
        f"created {len(tables)} tables in {t1 - t0:.1f} s; opened {len(seats)} sockets in "
        f"{t2 - t1:.1f} s; server RSS {rss_before / 2**20:.0f} MiB",
        flush=True,
    )
    samples: list[tuple[float, float, float]] = []
    watcher = asyncio.ensure_future(watch_server(pid, samples, stats.stop))
    phase("warmup")
    players = [asyncio.ensure_future(s.play()) for s in seats]
    await asyncio.sleep(args.warmup)  # the first moves of every table, not timed
    stats.timing = True
    phase("timed")
    started = time.monotonic()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stats.stop.wait(), args.duration)
    elapsed = time.monotonic() - started
    stats.timing = False
    stats.stop.set()
    phase("stopped")
    for s in seats:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(s.ws.close(), 5)
    for p in players:
        p.cancel()
    await asyncio.gather(*players, watcher, return_exceptions=True)
    lat = sorted(stats.latencies)

    def pct(q: float) -> float:
        return 1000 * lat[min(len(lat) - 1, int(q * len(lat)))] if lat else float("nan")

    return {
        "tables": len(tables),
        "sockets": len(seats),
        "seconds": elapsed,
        "actions": stats.actions,
        "actions_per_s": stats.actions / elapsed if elapsed else 0.0,
        "hands": stats.hands,
        "p50_ms": pct(0.50),
        "p90_ms": pct(0.90),
        "p99_ms": pct(0.99),
        "max_ms": 1000 * lat[-1] if lat else float("nan"),
        "mean_ms": 1000 * statistics.fmean(lat) if lat else float("nan"),
        "errors": len(stats.errors),
        "error_examples": sorted(set(stats.errors))[:5],
        "rss_before_mib": rss_before / 2**20,
        "rss_peak_mib": max((s[0] for s in samples), default=rss_before) / 2**20,
        "rss_end_mib": (samples[-1][0] if samples else rss_before) / 2**20,
        "cpu_mean_pct": statistics.fmean(s[1] for s in samples) if samples else float("nan"),
        "client_cpu_pct": statistics.fmean(s[2] for s in samples) if samples else float("nan"),
        "load_average": os.getloadavg()[0],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="friend tables (2 sockets each)")
    parser.add_argument("--duration", type=float, default=30.0, help="timed seconds")
    parser.add_argument("--hands", type=int, default=None, help="stop after this many hands")
    parser.add_argument("--warmup", type=float, default=3.0, help="untimed seconds first")
    parser.add_argument("--gap", type=float, default=0.1, help="least seconds between sends")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a seat waits before each move"
    )
    parser.add_argument("--no-compression", action="store_true", help="no permessage-deflate")
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the server to FILE")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    args = parser.parse_args(argv)

    raise_file_limit()
    with tempfile.TemporaryDirectory(prefix="ginrummy-load-") as tmp:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        profile = args.profile.resolve() if args.profile else None
        proc = start_server(Path(tmp) / "load.db", port, profile)
        try:
            wait_ready(url, proc)
            result = asyncio.run(run(args, url, proc.pid))
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)  # a clean stop, so that cProfile writes
                try:
                    proc.wait(timeout=60)
                except subprocess.TimeoutExpired:
                    proc.kill()
    print(
        f"{result['tables']} tables, {result['sockets']} sockets, {result['seconds']:.1f} s timed\n"
        f"action round trip: p50 {result['p50_ms']:.1f} ms, p90 {result['p90_ms']:.1f} ms, "
        f"p99 {result['p99_ms']:.1f} ms, max {result['max_ms']:.1f} ms "
        f"(mean {result['mean_ms']:.1f} ms)\n"
        f"{result['actions']} actions, {result['actions_per_s']:.0f} actions/s, "
        f"{result['hands']} hands ended\n"
        f"errors: {result['errors']} {result['error_examples'] or ''}\n"
        f"server RSS: {result['rss_before_mib']:.0f} MiB before, "
        f"{result['rss_peak_mib']:.0f} MiB peak, {result['rss_end_mib']:.0f} MiB at the end; "
        f"server CPU {result['cpu_mean_pct']:.0f}% of one core on average\n"
        f"the clients (this process) used {result['client_cpu_pct']:.0f}% of one core; "
        f"{os.cpu_count()} CPUs, load average {result['load_average']:.1f} at the end"
    )
    if args.json:
        print(json.dumps(result))
    if profile is not None and profile.exists():
        print(f"\nserver profile ({profile}), by own time:")
        pstats.Stats(str(profile)).sort_stats("tottime").print_stats(25)
        pstats.Stats(str(profile)).sort_stats("cumulative").print_stats(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
