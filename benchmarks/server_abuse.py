"""Abuse test of the web server: can one abusive client stall everybody else's tables?

    nice .venv/bin/python benchmarks/server_abuse.py [--tables 500] [--think 3] [--duration 60]
        [--seed 1] [--finished 10000] [--open 10000] [--skip-abuse] [--skip-startup]
        [--abuse-with both|history|half-open] [--warmup 5] [--rounds 1]

Two parts, each on its own temporary SQLite file, seeded before the server starts with games
played by the engine (random legal moves, knocking when it can, mostly discarding its highest
deadwood; a game to 30 points, so a few hands each), written in one transaction straight into
the storage tables: every hand with its deck, salt, commitment and actions, as the server
stores them, and every seat with the SHA-256 of a token this script knows.

Abuse. ``--finished`` finished online games (results, final score sheets) are seeded. Then,
twice, ``ginrummy serve`` is started on a fresh copy of that file (as benchmarks/server_load.py
does: a free port on 127.0.0.1, ``--computer-delay 0``, ``--tables-per-minute 0``) and
``--tables`` friend tables are played over real WebSockets for ``--duration`` seconds, both
seats of every table waiting 0.5 T to 1.5 T seconds (``--think T``) before each move. Each
player's socket comes from an address of its own (127.1.x.y: Linux routes all of 127.0.0.0/8
to the loopback device), as real players' do, so that the server's caps per address (on
connections, and on sockets in the app) treat them as different people; the tables are
created from 127.0.0.1.

(a) baseline: nothing else happens;
(b) abuse: meanwhile, in a process of their own, two abusive clients at addresses of their
    own: one, from 127.0.0.2, asks for the history of 100 of the seeded
    finished games (it knows their seat tokens) in a loop, each request as soon as the last is
    answered; the other, from 127.0.0.3, keeps 1,000 connections open on which it sent a
    request head without its final blank line (``GET / HTTP/1.1``, ``Host: x``), reopening
    any the server closes (after a second when it closed it at once, so that a refused
    connection is not retried in a tight loop). Two addresses, so that under a cap on
    connections per address the half-sent ones do not crowd out the poller.

The history request is ``POST /api/history`` with a JSON body naming the tables and their
tokens (the per-player, paginated form); a server that answers it 404 or 405 is asked
``GET /api/history`` instead (the older form: every finished game). The output says which,
and what the server's caps and timeouts are (its defaults: only ``--max-connections`` is
raised, where there are so many tables that the players would not fit under it).

With ``--rounds N`` the two runs are made N times, one after the other, and the verdict goes by
the median of the N differences (a busy machine moves one run's p99 by more than the target).
Both runs print the players' action round trip (an action sent until the state it caused comes
back) at the 50th, 90th and 99th percentiles and the worst, actions per second and errors; the
abuse run also the history requests answered and their latency, and how many half-sent
connections were open on average (sampled ten times a second). Then the difference in the
99th percentile, (b) less (a): the target is 20 ms at most.

Start-up. ``--open`` open online games are seeded, each with a hand in progress (dealt, a few
moves made). The time from starting ``ginrummy serve`` on it until ``/api/presets`` first
answers 200 (target under 3 s), and then the time to open one of those tables' WebSocket with
a seat token until its first state message, the first time anyone asks for that table (and the
same for 20 more tables).

``--skip-abuse`` and ``--skip-startup`` leave a part out; ``--abuse-with history`` or
``half-open`` runs only that abuser in (b), to tell their effects apart. The figures depend
on the machine; run it on an otherwise idle one (the server, the players and the abusers share
its cores).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import multiprocessing
import multiprocessing.connection
import os
import re
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from random import Random
from typing import Any

import httpx
import psutil  # type: ignore[import-untyped, unused-ignore]
from sqlalchemy import insert
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "src"))  # this checkout's package, as the server runs it

import server_load as load  # noqa: E402
from ginrummy.engine import Hand, Rules, best_arrangements  # noqa: E402
from ginrummy.engine.game import Game  # noqa: E402
from ginrummy.engine.serial import result_to_dict  # noqa: E402
from ginrummy.storage import Store  # noqa: E402
from ginrummy.storage.database import WRITE  # noqa: E402
from ginrummy.storage.models import ActionRow, GameRow, HandRow, SeatRow  # noqa: E402
from ginrummy.web.dealing import shuffle  # noqa: E402
from ginrummy.web.tables import token_hash  # noqa: E402

HOME = "127.0.0.1"  # the server listens here; tables are created from here (players: 127.1.x.y)
# The abusers' addresses (Linux routes all of 127.0.0.0/8 to the loopback device): two, so
# that the half-sent connections do not take the poller's place under a per-address cap.
POLLER = "127.0.0.2"
HOLDER = "127.0.0.3"
KNOWN = 100  # finished games whose history the poller asks for
HALF_OPEN = 1000  # half-sent requests the abuser keeps open
HALF_REQUEST = b"GET / HTTP/1.1\r\nHost: x\r\n"  # no blank line: the head never ends
RETRY = 1.0  # seconds before reopening a connection the server closed at once
GAME_TARGET = 30  # points: a few hands a game
FRIEND = {"mode": "friend", "level": "intermediate", "match": False, "clock": 0}
RANK_VALUE = {r: min(i + 1, 10) for i, r in enumerate("A23456789TJQK")}


# -- seeding ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayedHand:
    dealer: int
    deck: str
    salt: str
    commitment: str
    actions: tuple[tuple[int, int, str], ...]  # (seq, seat, action) as the server stores them
    result: dict[str, Any]


@dataclass(frozen=True)
class PlayedGame:
    rules: Rules
    seed: int
    names: tuple[str, str]
    hands: tuple[PlayedHand, ...]
    final: dict[str, Any]
    winner: int | None


@dataclass(frozen=True)
class Seeded:
    id: str
    tokens: tuple[str, str]


def choose(hand: Hand, rng: Random) -> str:
    """server_load's policy, on the engine's hand rather than a seat's view."""
    legal = [str(a) for a in hand.legal_actions()]
    ends = [a for a in legal if a.split()[0] in ("knock", "gin", "biggin")]
    if ends and rng.random() < 0.8:
        return rng.choice(ends)
    if "auto" in legal:
        return "auto"
    seat = hand.current_player
    if rng.random() < 0.8 and seat is not None:
        dead = str(best_arrangements(hand.cards(seat))[0].deadwood_cards).split()
        dead.sort(key=lambda c: -RANK_VALUE[c[0]])
        for card in dead:
            if f"discard {card}" in legal:
                return f"discard {card}"
    return rng.choice(legal)


def play_game(rng: Random) -> PlayedGame:
    """A whole friend game played by the engine, kept as the server would store it."""
    rules = Rules.preset("standard", game_target=GAME_TARGET)
    seed = rng.randrange(1 << 63)
    names = ("You", "Friend")
    game = Game(rules, seed)
    hands = []
    while not game.is_over:
        deal = shuffle(rng)
        hand = Hand.from_deck(rules, game.dealer, deal.deck)
        actions = []
        while not hand.is_over:
            seat = hand.current_player
            assert seat is not None
            event = hand.apply(choose(hand, rng), seat=seat)
            actions.append((event.number, seat, str(event.action)))
        assert hand.result is not None
        hands.append(
            PlayedHand(
                hand.dealer,
                deal.deck_text,
                deal.salt,
                deal.commitment,
                tuple(actions),
                result_to_dict(hand.result),
            )
        )
        game.finish_hand(hand)
    final = {
        "sheet": game.sheet(names).to_dict(),
        "final": game.final().to_dict(),
        "names": list(names),
    }
    return PlayedGame(rules, seed, names, tuple(hands), final, game.final().winner)


def _urlsafe(rng: Random, size: int) -> str:
    return base64.urlsafe_b64encode(rng.randbytes(size)).decode().rstrip("=")


def seed_database(path: Path, count: int, *, finished: bool, rng: Random) -> list[Seeded]:
    """``count`` online friend games in a new SQLite file at ``path``, in one transaction:
    finished ones (every hand played out, the final sheet stored), or open ones with their
    first hand dealt and a few moves made. Each is a copy of one of a few hundred games
    played by the engine, under its own id and seat tokens."""
    played = [play_game(rng) for _ in range(min(count, 300))]
    store = Store(f"sqlite:///{path}")
    now = datetime.now(UTC)
    seeded: list[Seeded] = []
    ids: set[str] = set()
    with store.engine.execution_options(**{WRITE: True}).begin() as connection:
        for start in range(0, count, 500):
            games: list[dict[str, Any]] = []
            seats: list[dict[str, Any]] = []
            hands: list[dict[str, Any]] = []
            actions: list[dict[str, Any]] = []
            for n in range(start, min(count, start + 500)):
                game = played[n % len(played)]
                game_id = _urlsafe(rng, 6)
                while game_id in ids or game_id.startswith("-"):
                    game_id = _urlsafe(rng, 6)
                ids.add(game_id)
                tokens = (_urlsafe(rng, 24), _urlsafe(rng, 24))
                seeded.append(Seeded(game_id, tokens))
                # Finished ones over the last two months; open ones moved in the last two days
                # (a game untouched for 30 days is closed as abandoned).
                age = timedelta(days=rng.uniform(0.1, 60) if finished else rng.uniform(0.01, 2))
                clock = now - age
                created = clock
                hands_played = game.hands if finished else game.hands[:1]
                for number, hand in enumerate(hands_played, 1):
                    moves = hand.actions
                    if not finished:  # a hand in progress: a few moves made
                        moves = moves[: rng.randint(2, min(12, len(moves) - 1))]
                    started = clock
                    for seq, seat, text in moves:
                        clock += timedelta(seconds=rng.uniform(1, 8))
                        actions.append(
                            {
                                "game_id": game_id,
                                "hand_number": number,
                                "seq": seq,
                                "seat": seat,
                                "action": text,
                                "created_at": clock,
                            }
                        )
                    hands.append(
                        {
                            "game_id": game_id,
                            "number": number,
                            "game_number": 1,
                            "dealer": hand.dealer,
                            "deck": hand.deck,
                            "salt": hand.salt,
                            "commitment": hand.commitment,
                            "result": hand.result if finished else None,
                            "started_at": started,
                            "ended_at": clock if finished else None,
                        }
                    )
                    clock += timedelta(seconds=rng.uniform(5, 30))
                games.append(
                    {
                        "id": game_id,
                        "kind": "online",
                        "status": "finished" if finished else "open",
                        "rules": game.rules.to_dict(),
                        "seed": game.seed,
                        "name0": game.names[0],
                        "name1": game.names[1],
                        "player0_id": None,
                        "player1_id": None,
                        "options": dict(FRIEND),
                        "winner": game.winner if finished else None,
                        "final": game.final if finished else None,
                        "created_at": created,
                        "updated_at": clock,
                    }
                )
                for seat, token in enumerate(tokens):
                    seats.append(
                        {
                            "game_id": game_id,
                            "seat": seat,
                            "token_hash": token_hash(token),
                            "player_id": None,
                            "created_at": created,
                        }
                    )
            for model, rows in ((GameRow, games), (SeatRow, seats), (HandRow, hands)):
                connection.execute(insert(model), rows)
            if actions:
                connection.execute(insert(ActionRow), actions)
    # What the server will read back: the first game as stored, and one seat token.
    check = store.load_game(seeded[0].id)
    expected = played[0].hands if finished else played[0].hands[:1]
    assert check is not None and len(check.hands) == len(expected), "seeding went wrong"
    assert check.hands[0].actions[0].text == expected[0].actions[0][2], "seeding went wrong"
    assert store.seat_for_token(seeded[0].id, token_hash(seeded[0].tokens[1])) == 1
    store.close()
    return seeded


def database_counts(path: Path) -> str:
    store = Store(f"sqlite:///{path}", migrate_schema=False)
    try:
        with store.engine.connect() as connection:
            counts = [
                connection.exec_driver_sql(f"SELECT count(*) FROM {table}").scalar_one()
                for table in ("games", "hands", "actions")
            ]
    finally:
        store.close()
    size = path.stat().st_size / 2**20
    return f"{counts[0]} games, {counts[1]} hands, {counts[2]} actions, {size:.0f} MiB"


# -- the server ------------------------------------------------------------------------------


def serve_options(tables: int) -> tuple[list[str], list[str]]:
    """The options this checkout's ``ginrummy serve`` needs for the test, and notes on its
    defaults."""
    shown = subprocess.run(
        [sys.executable, "-m", "ginrummy.cli.main", "serve", "--help"],
        env=load.server_env(),
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    options: list[str] = []
    notes = [
        "connections per address capped at the server's default"
        if "--max-connections-per-address" in shown
        else "no cap on connections per address",
        "header timeout at the server's default"
        if "--header-timeout" in shown
        else "no header timeout",
    ]
    if re.search(r"--max-connections\b(?!-)", shown) and 2 * tables + 200 > 2000:
        options += ["--max-connections", str(2 * tables + 200)]  # room for every player
    return options, notes


def server_log(path: Path, limit: int = 6000) -> str:
    text = path.read_text(errors="replace") if path.exists() else ""
    return text[-limit:] if text.strip() else "(the server wrote nothing)"


def start(
    db: Path, options: list[str], log_path: Path
) -> tuple[subprocess.Popen[bytes], str, float]:
    """Start ``ginrummy serve`` on ``db`` and wait for its first 200 from /api/presets; returns
    the process, its URL and the seconds from starting the process until that answer. A server
    that exits or does not answer within 10 minutes ends the script with its log."""
    port = load.free_port()
    url = f"http://{HOME}:{port}"
    with log_path.open("wb") as log:
        started = time.monotonic()
        proc = load.start_server(db, port, None, extra=options, log=log)
    problem = None
    try:
        with httpx.Client(timeout=120, transport=httpx.HTTPTransport(local_address=HOME)) as c:
            while problem is None:
                if proc.poll() is not None:
                    problem = f"the server exited with status {proc.returncode}"
                elif time.monotonic() - started > 600:
                    problem = "the server did not answer within 10 minutes"
                else:
                    try:
                        if c.get(f"{url}/api/presets").status_code == 200:
                            return proc, url, time.monotonic() - started
                    except httpx.HTTPError:
                        pass
                    time.sleep(0.02)
    except BaseException:
        stop(proc)
        raise
    stop(proc)
    print(f"{problem}; its log ({log_path}):\n{server_log(log_path)}", file=sys.stderr)
    raise SystemExit(1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


# -- the abuser (a process of its own, so that its work does not delay the players' loop) -------


@dataclass
class AbuseState:
    url: str
    known: list[tuple[str, str]]
    running: bool = True
    timing: bool = False
    form: str = "(no request answered)"
    probe: str = ""
    latencies: list[float] = field(default_factory=list)
    statuses: Counter[str] = field(default_factory=Counter)
    held: int = 0
    samples: list[int] = field(default_factory=list)
    connects: int = 0
    refused: int = 0  # closed within RETRY seconds of opening (over a cap)
    closed_later: int = 0  # closed after longer (a header timeout)
    connect_errors: int = 0


async def poll_history(st: AbuseState) -> None:
    """Ask for the known games' history in a loop, each request once the last is answered."""
    body = {"tables": [{"id": i, "token": t} for i, t in st.known], "page": 1, "per_page": 100}
    page = {"page": 1, "per_page": 100}  # in the query string too, where a server reads them
    headers = {"Content-Type": "application/json"}
    transport = httpx.AsyncHTTPTransport(local_address=POLLER)
    async with httpx.AsyncClient(base_url=st.url, transport=transport, timeout=300) as client:
        new_form = True

        async def ask() -> httpx.Response:
            if new_form:
                return await client.post("/api/history", json=body, headers=headers, params=page)
            return await client.get("/api/history")

        answer = None  # the first answer says which form the server knows
        while answer is None and st.running:
            try:
                answer = await ask()
            except httpx.HTTPError:
                await asyncio.sleep(0.1)
                continue
            if new_form and answer.status_code in (404, 405):
                new_form, answer = False, None
        if answer is None:
            return
        if new_form:
            st.form = "POST /api/history (per player, paginated)"
        else:
            st.form = "GET /api/history (the older form: every finished game)"
        data = answer.json() if answer.status_code == 200 else None
        if isinstance(data, dict):
            st.probe = (
                f"{len(data.get('games', []))} games, page {data.get('page')} of "
                f"{data.get('pages')}, total {data.get('total')}"
            )
        elif isinstance(data, list):
            st.probe = f"{len(data)} games"
        else:
            st.probe = f"{answer.status_code} {answer.text[:200]!r}"
        while st.running:
            began = time.perf_counter()
            try:
                answer = await ask()
                status = str(answer.status_code)
            except httpx.HTTPError as exc:
                status = type(exc).__name__
                await asyncio.sleep(0.1)
            if st.timing:
                st.statuses[status] += 1
                if status == "200":
                    st.latencies.append(time.perf_counter() - began)


async def hold_half_open(st: AbuseState, host: str, port: int) -> None:
    """One slot: a connection with a request head that never ends, reopened when closed."""
    while st.running:
        try:
            reader, writer = await asyncio.open_connection(host, port, local_addr=(HOLDER, 0))
        except OSError:
            if st.timing:
                st.connect_errors += 1
            await asyncio.sleep(RETRY)
            continue
        opened = time.monotonic()
        if st.timing:
            st.connects += 1
        st.held += 1
        try:
            writer.write(HALF_REQUEST)
            while await reader.read(4096):  # whatever the server answers, until it closes
                pass
        except OSError:
            pass
        finally:
            st.held -= 1
            writer.close()
        if time.monotonic() - opened < RETRY:
            if st.timing:
                st.refused += 1
            await asyncio.sleep(RETRY)
        elif st.timing:
            st.closed_later += 1


async def abuse(
    url: str, known: list[tuple[str, str]], half_open: int, timing: Any, stop: Any
) -> dict[str, Any]:
    """The poller (unless ``known`` is empty) and ``half_open`` half-sent connections."""
    st = AbuseState(url, known)
    host, port = url.removeprefix("http://").split(":")
    tasks = [asyncio.ensure_future(poll_history(st))] if known else []
    if not known:
        st.form = "(not run)"
    tasks += [asyncio.ensure_future(hold_half_open(st, host, int(port))) for _ in range(half_open)]
    began = cpu_began = 0.0
    while not stop.is_set():
        if not st.timing and timing.is_set():
            st.timing = True
            began, cpu_began = time.monotonic(), time.process_time()
        if st.timing:
            st.samples.append(st.held)
        for task in tasks:
            failed = task.exception() if task.done() and not task.cancelled() else None
            if failed is not None:
                raise failed
        await asyncio.sleep(0.1)
    elapsed = time.monotonic() - began if st.timing else 0.0
    cpu = time.process_time() - cpu_began if st.timing else 0.0
    st.running = st.timing = False
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(st.latencies)
    return {
        "form": st.form,
        "probe": st.probe,
        "seconds": elapsed,
        "answered": len(lat),
        "statuses": dict(st.statuses),
        "history_p50_ms": _pct(lat, 0.50),
        "history_p99_ms": _pct(lat, 0.99),
        "history_max_ms": 1000 * lat[-1] if lat else float("nan"),
        "held_mean": statistics.fmean(st.samples) if st.samples else 0.0,
        "held_min": min(st.samples, default=0),
        "held_max": max(st.samples, default=0),
        "connects": st.connects,
        "refused": st.refused,
        "closed_later": st.closed_later,
        "connect_errors": st.connect_errors,
        "cpu_pct": 100 * cpu / elapsed if elapsed else float("nan"),
    }


def abuser_main(
    url: str,
    known: list[tuple[str, str]],
    half_open: int,
    go: Any,
    timing: Any,
    stop: Any,
    out: multiprocessing.connection.Connection,
) -> None:
    load.raise_file_limit()
    go.wait()
    try:
        out.send(asyncio.run(abuse(url, known, half_open, timing, stop)))
    except BaseException as exc:
        out.send({"failed": f"{type(exc).__name__}: {exc}"})
        raise


def _pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    return 1000 * values[min(len(values) - 1, int(q * len(values)))]


# -- the runs --------------------------------------------------------------------------------


def play(
    args: argparse.Namespace,
    db: Path,
    options: list[str],
    log_path: Path,
    abusers: tuple[list[tuple[str, str]], int] | None,
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """One run: the server on ``db``, ``args.tables`` tables played; with ``abusers`` (the
    games the poller knows, the half-sent connections wanted), the abusers alongside. Returns
    the players' figures and the abusers'."""
    proc, url, _ready = start(db, options, log_path)
    settings = argparse.Namespace(
        tables=args.tables,
        duration=args.duration,
        hands=None,
        warmup=args.warmup,
        gap=0.1,
        think=args.think,
        no_compression=False,
        seed=args.seed,
        own_addresses=True,
    )
    spawn = multiprocessing.get_context("spawn")
    go, timing, halt = spawn.Event(), spawn.Event(), spawn.Event()
    receive, send = spawn.Pipe(duplex=False)
    abuser = None
    phases = {"warmup": go, "timed": timing, "stopped": halt}
    try:
        if abusers is not None:
            abuser = spawn.Process(
                target=abuser_main, args=(url, *abusers, go, timing, halt, send), daemon=True
            )
            abuser.start()
        print(f"load average {os.getloadavg()[0]:.1f} before", flush=True)
        try:
            instances = [load.Instance(url, proc.pid)]
            result = asyncio.run(load.run(settings, instances, lambda p: phases[p].set()))
        except Exception:
            print(f"the run failed; the server's log:\n{server_log(log_path)}", file=sys.stderr)
            raise
        found = None
        if abuser is not None:
            halt.set()
            found = receive.recv() if receive.poll(120) else {"failed": "no answer"}
            if "failed" in found:
                raise SystemExit(f"the abuser failed: {found['failed']}")
        if proc.poll() is not None:
            print(f"the server exited during the run:\n{server_log(log_path)}", file=sys.stderr)
            raise SystemExit(1)
        return result, found
    finally:
        for event in (go, timing, halt):
            event.set()
        if abuser is not None:
            abuser.join(30)
            if abuser.is_alive():
                abuser.kill()
        stop(proc)


def abuse_part(args: argparse.Namespace, tmp: Path) -> None:
    rng = Random(args.seed)
    seed_db = tmp / "finished.db"
    began = time.monotonic()
    seeded = seed_database(seed_db, args.finished, finished=True, rng=rng)
    print(
        f"seeded {args.finished} finished games in {time.monotonic() - began:.1f} s "
        f"({database_counts(seed_db)})",
        flush=True,
    )
    known = [(s.id, s.tokens[0]) for s in rng.sample(seeded, min(KNOWN, len(seeded)))]
    options, notes = serve_options(args.tables)
    print(f"server options: {shlex.join(options) or '(none)'}; " + "; ".join(notes), flush=True)
    # Rounds of (a) then (b): on a machine whose own noise moves a single run's p99 by more
    # than the target, the median of several rounds' differences is the figure to go by.
    rounds: list[tuple[float, float]] = []
    for number in range(1, args.rounds + 1):
        runs: dict[str, tuple[dict[str, Any], dict[str, Any] | None]] = {}
        for name, abusing in (("baseline", False), ("abuse", True)):
            db = tmp / f"{name}.db"
            shutil.copyfile(seed_db, db)
            where = f" (round {number} of {args.rounds})" if args.rounds > 1 else ""
            print(f"\n({'b' if abusing else 'a'}) {name}{where}:", flush=True)
            abusers = (
                known if args.abuse_with != "half-open" else [],
                HALF_OPEN if args.abuse_with != "history" else 0,
            )
            runs[name] = play(args, db, options, tmp / f"{name}.log", abusers if abusing else None)
            db.unlink()
        rounds.append((runs["baseline"][0]["p99_ms"], runs["abuse"][0]["p99_ms"]))
    (base, _), (hit, found) = runs["baseline"], runs["abuse"]
    assert found is not None
    rows = [
        ("action round trip p50", "p50_ms", "{:.1f} ms"),
        ("p90", "p90_ms", "{:.1f} ms"),
        ("p99", "p99_ms", "{:.1f} ms"),
        ("max", "max_ms", "{:.1f} ms"),
        ("actions/s", "actions_per_s", "{:.1f}"),
        ("actions", "actions", "{}"),
        ("hands ended", "hands", "{}"),
        ("errors", "errors", "{}"),
        ("server CPU (% of a core)", "cpu_mean_pct", "{:.0f}"),
        ("players' CPU (% of a core)", "client_cpu_pct", "{:.0f}"),
        ("load average at the end", "load_average", "{:.1f}"),
    ]
    print(f"\n{args.tables} tables, think {args.think:g} s, {args.duration:g} s timed each")
    print(f"{'':28} {'(a) baseline':>14} {'(b) abuse':>14}")
    for label, key, form in rows:
        print(f"{label:28} {form.format(base[key]):>14} {form.format(hit[key]):>14}")
    for label, result in (("(a)", base), ("(b)", hit)):
        if result["error_examples"]:
            print(f"errors {label}: {result['error_examples']}")
    seconds = found["seconds"] or float("nan")
    others = {k: v for k, v in found["statuses"].items() if k != "200"}
    if args.abuse_with == "half-open":
        print(f"\nhistory poller: not run (--abuse-with {args.abuse_with})")
    else:
        print(
            f"\nhistory poller (from {POLLER}): {found['form']}; first answer: {found['probe']}\n"
            f"  {found['answered']} requests answered 200 in {seconds:.1f} s "
            f"({found['answered'] / seconds:.1f}/s), latency p50 "
            f"{found['history_p50_ms']:.1f} ms, p99 {found['history_p99_ms']:.1f} ms, "
            f"max {found['history_max_ms']:.1f} ms"
            + (f"; other answers: {others}" if others else "")
        )
    if args.abuse_with == "history":
        print(f"half-sent connections: not run (--abuse-with {args.abuse_with})")
    else:
        print(
            f"half-sent connections (from {HOLDER}, {HALF_OPEN} wanted): "
            f"{found['held_mean']:.0f} open on average (min {found['held_min']}, max "
            f"{found['held_max']}); {found['connects']} opened in the timed part, "
            f"{found['refused']} closed at once, {found['closed_later']} closed later, "
            f"{found['connect_errors']} failed to connect"
        )
    print(f"the abusers' process used {found['cpu_pct']:.0f}% of a core")
    if len(rounds) > 1:
        print("\n(the table above is the last round's) p99 by round:")
        for number, (a, b) in enumerate(rounds, start=1):
            print(f"  round {number}: (a) {a:.1f} ms, (b) {b:.1f} ms, difference {b - a:+.1f} ms")
    diff = statistics.median(b - a for a, b in rounds)
    verdict = "met" if diff <= 20 else "NOT met"
    what = f"median of {len(rounds)} rounds" if len(rounds) > 1 else "one round"
    print(
        f"\np99 (b) - (a), {what}: {diff:+.1f} ms (target: at most +20 ms): {verdict}",
        flush=True,
    )


async def first_states(url: str, tables: list[Seeded]) -> list[tuple[float, Any]]:
    """For each table, in turn: seconds from opening its seat 0 socket until its first state
    message, and the seat that state is for."""
    out = []
    for table in tables:
        began = time.perf_counter()
        async with connect(
            f"{url.replace('http://', 'ws://')}/ws/{table.id}?token={table.tokens[0]}",
            proxy=None,
            open_timeout=120,
            ping_interval=None,
            max_size=1 << 22,
            # As the table's player's browser: between people a seat needs a player cookie.
            additional_headers={"Cookie": f"ginrummy_player=abuse-{table.id}"},
        ) as ws:
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 120))
                if msg.get("type") == "state":
                    out.append((time.perf_counter() - began, msg["table"]["seat"]))
                    break
                if msg.get("type") == "error" and "no such table" in msg.get("message", ""):
                    raise SystemExit(f"the server does not know table {table.id}: {msg}")
    return out


def startup_part(args: argparse.Namespace, tmp: Path) -> None:
    rng = Random(args.seed + 1)
    db = tmp / "open.db"
    began = time.monotonic()
    seeded = seed_database(db, args.open, finished=False, rng=rng)
    print(
        f"\nseeded {args.open} open games, each with a hand in progress, in "
        f"{time.monotonic() - began:.1f} s ({database_counts(db)})",
        flush=True,
    )
    options, _ = serve_options(0)
    proc, url, ready = start(db, options, tmp / "startup.log")
    try:
        rss = psutil.Process(proc.pid).memory_info().rss / 2**20
        picked = rng.sample(seeded, min(21, len(seeded)))
        found = asyncio.run(first_states(url, picked))
    finally:
        stop(proc)
    verdict = "met" if ready < 3 else "NOT met"
    first, first_seat = found[0]
    rest = sorted(t for t, _ in found[1:])
    seats = {s for _, s in found}
    print(
        f"start-up: the first 200 from /api/presets came {ready:.2f} s after starting the "
        f"process (target under 3 s): {verdict}; server RSS then {rss:.0f} MiB\n"
        f"first access of one table (socket opened with its seat token until its first state): "
        f"{1000 * first:.1f} ms"
        + (
            f"; {len(rest)} more tables, one after another: median "
            f"{1000 * statistics.median(rest):.1f} ms, max {1000 * rest[-1]:.1f} ms"
            if rest
            else ""
        )
        + ("" if seats == {0} else f" (WARNING: seats in the states: {seats}, expected 0)")
        + f"; first state was for seat {first_seat}",
        flush=True,
    )


def checkout() -> str:
    try:
        found = subprocess.run(
            ["git", "-C", str(ROOT), "log", "-1", "--format=%h %s"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(ROOT), "status", "--porcelain", "--", "src"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "(not a git checkout)"
    return found[:100] + (" (with uncommitted changes in src/)" if dirty else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500, help="friend tables (2 sockets each)")
    parser.add_argument(
        "--think", type=float, default=3.0, help="mean seconds a seat waits before each move"
    )
    parser.add_argument("--duration", type=float, default=60.0, help="timed seconds a run")
    parser.add_argument(
        "--rounds", type=int, default=1, help="pairs of runs, (a) then (b); the median counts"
    )
    parser.add_argument("--warmup", type=float, default=5.0, help="untimed seconds first")
    parser.add_argument("--seed", type=int, default=1, help="seeds the games and the moves")
    parser.add_argument("--finished", type=int, default=10_000, help="finished games seeded")
    parser.add_argument("--open", type=int, default=10_000, help="open games for the start-up")
    parser.add_argument("--skip-abuse", action="store_true", help="leave out the abuse runs")
    parser.add_argument(
        "--abuse-with",
        choices=("both", "history", "half-open"),
        default="both",
        help="which abusers run in (b): both, or only one to tell their effects apart",
    )
    parser.add_argument("--skip-startup", action="store_true", help="leave out the start-up")
    args = parser.parse_args(argv)
    if args.finished < KNOWN or args.open < 21:
        parser.error(f"seed at least {KNOWN} finished and 21 open games")

    print(f"$ {shlex.join(sys.orig_argv)}")
    print(f"checkout: {checkout()}; {os.cpu_count()} CPUs", flush=True)
    load.raise_file_limit()
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2 * args.tables + HALF_OPEN + 100:
        print(f"warning: only {soft} open files allowed", file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="ginrummy-abuse-") as name:
        tmp = Path(name)
        if not args.skip_abuse:
            abuse_part(args, tmp)
        if not args.skip_startup:
            startup_part(args, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
