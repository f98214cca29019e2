"""The worker processes the server's computer players, hints and reviews think in
(``ginrummy.web.thinking``): the same moves as in a thread, a fallback move when a worker is
late or killed (the worker replaced, nothing applied twice), errors for late hints, and no
process left once the app has stopped.

Each pool here runs an ``initializer`` in its workers (a function of this module, which the
spawned workers import): the expert's safety cap on thinking time lifted, as
``tests/test_decisions.py`` lifts it, so that a busy machine cannot make it stop early, or a
job made slow on purpose so that the test can be late or kill the worker mid-move.
"""

from __future__ import annotations

import asyncio
import functools
import math
import os
import random
import signal
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from ginrummy.agents import get_agent
from ginrummy.agents.style import Evidence
from ginrummy.engine import Hand, Rules
from ginrummy.storage import Store
from ginrummy.web import thinking
from ginrummy.web.dealing import shuffle
from ginrummy.web.manager import UNLIMITED, Client, Manager, timeout_move
from ginrummy.web.protocol import ProtocolError
from ginrummy.web.tables import COMPUTER_SEAT, LEVELS, Options, Table
from ginrummy.web.thinking import ThinkPool, ThinkTimeout
from webutil import app_client, new_table, recv

_real_get_agent = get_agent


def uncapped_agent(name: str) -> Any:
    """The agent without the expert's time cap (see the module docstring)."""
    agent: Any = _real_get_agent(name)
    settings = getattr(agent, "settings", None)
    if settings is not None:
        agent.settings = replace(settings, budget_ms=math.inf)
    return agent


def lift_the_cap() -> None:
    """Worker initializer: every agent made in this worker is uncapped."""
    thinking.get_agent = uncapped_agent


#: Worlds of :func:`slow_expert`: seconds of thinking over any decision it searches.
SLOW_WORLDS = 20_000


def slow_expert(name: str, **kw: Any) -> Any:
    """The agent ``name``, but an expert searching SLOW_WORLDS worlds with its own time cap
    lifted (the default expert on a machine that many times slower)."""
    agent: Any = _real_get_agent(name, **kw)
    if name == "expert":
        agent.settings = replace(agent.settings, worlds=SLOW_WORLDS, budget_ms=math.inf)
    return agent


def slow_experts() -> None:
    """Worker initializer: every expert made in this worker is :func:`slow_expert`."""
    thinking.get_agent = slow_expert


def slow_jobs(started: str, *kinds: str) -> None:
    """Worker initializer: the named jobs write ``started`` (this worker's pid), then sleep."""

    def slow(payload: dict[str, Any]) -> Any:
        Path(started).write_text(str(os.getpid()))
        time.sleep(120)

    for kind in kinds:
        thinking.JOBS[kind] = slow


@pytest.fixture
def uncapped(monkeypatch: pytest.MonkeyPatch) -> Iterator[ThinkPool]:
    """A one-worker pool of uncapped agents, with the same agents in this process."""
    monkeypatch.setattr(thinking, "get_agent", uncapped_agent)
    pool = ThinkPool(1, timeout=120, initializer=lift_the_cap)
    try:
        assert pool.wait_ready()
        yield pool
    finally:
        pool.close()


# -- the same moves ---------------------------------------------------------------------------


#: What earlier hands showed of the person's knocking, as a table keeps it: he passed up two
#: knocks late in a hand and knocked early in one, as a player who knocks only early does.
SEEN = (Evidence(6, 5, False), Evidence(8, 3, False), Evidence(2, 9, True))


def test_the_evidence_of_earlier_hands_reaches_a_fresh_expert() -> None:
    assert thinking.make_agent("expert").style.likeliest().name == "first chance"
    assert thinking.make_agent("expert", SEEN).style.likeliest().name == "early"
    assert thinking.make_agent("simple", SEEN) is not None  # a player that reads none
    view = Hand.deal(Rules(), 0, 5).view(1)
    bad = {"level": "expert", "view": view.to_dict(), "seed": 1, "seen": [[1, 2]]}
    with pytest.raises(ValueError, match="turn, deadwood, knocked"):
        thinking.move(bad)


def _hand_both_ways(pool: ThinkPool, level: str, seed: int) -> tuple[list[str], list[str]]:
    """One hand, the computer (seat 1, ``level``) against the simple player, played with the
    table's agent in this process as the server's threads play it, and again with every
    computer move worked out by a worker; the actions of each."""
    played = []
    for in_worker in (False, True):
        hand = Hand.deal(Rules(), seed % 2, seed)
        seeds = random.Random(seed)  # the manager draws each move's seed so
        agent = thinking.make_agent(level, SEEN)  # the table's agent, kept for the hand
        simple = get_agent("simple")
        while hand.current_player is not None:
            seat = hand.current_player
            view = hand.view(seat, (0, 0))
            if seat != COMPUTER_SEAT:
                hand.apply(simple.act(view, random.Random(0)))
                continue
            move_seed = seeds.getrandbits(64)
            if in_worker:
                payload = {
                    "level": level,
                    "view": view.to_dict(),
                    "seed": move_seed,
                    "seen": [e.to_list() for e in SEEN],
                }
                text = pool.submit("move", payload).result()
            else:
                text = str(thinking.think(agent, view, random.Random(move_seed)))
            hand.apply(text, seat=seat)
        played.append(list(hand.action_texts))
    return played[0], played[1]


@pytest.mark.parametrize("level", LEVELS)
def test_a_hand_is_played_the_same_in_a_thread_and_in_a_worker(
    uncapped: ThinkPool, level: str
) -> None:
    seeds = (3,) if level == "expert" else (3, 8)  # the expert is slow in pure Python
    for seed in seeds:
        in_thread, in_worker = _hand_both_ways(uncapped, level, seed)
        assert len(in_thread) > 4
        assert in_worker == in_thread, (level, seed)


def test_hints_and_a_review_come_back_as_plain_data(uncapped: ThinkPool) -> None:
    hand = Hand.deal(Rules(), 0, 11)
    view = hand.view(hand.current_player or 0, (0, 0))
    found = uncapped.submit("hints", {"view": view.to_dict()}).result()
    assert found and {"action", "score", "reason"} <= set(found[0])
    assert {h["action"] for h in found} <= {str(a) for a in view.legal_actions}
    # a review counts its sampled deals, not time: the same mistakes either way
    deal = shuffle(random.Random(2))
    played = Hand.from_deck(Rules(), 0, deal.deck)
    simple = get_agent("simple")
    while played.current_player is not None:
        played.apply(simple.act(played.view(played.current_player), random.Random(0)))
    payload = {
        "rules": Rules().to_dict(),
        "dealer": 0,
        "deck": deal.deck_text,
        "actions": played.action_texts,
        "seat": 0,
        "scores": [0, 0],
        "seed": 1,
    }
    mistakes = uncapped.submit("review", payload).result()
    assert mistakes and mistakes == thinking.review(payload)


# -- late and dead workers ----------------------------------------------------------------------


async def _computer_table(manager: Manager) -> Table:
    """A table against the expert with the computer to move."""
    created = await manager.create(Rules(), Options("computer", level="expert"), ("Ann", "Bot"))
    table = created.table
    assert table.hand is not None
    if table.hand.current_player != COMPUTER_SEAT:
        person = Client(table.id, 0, _ignore)
        action = str(timeout_move(table.hand.view(0, table.game.totals)))
        await manager.handle(person, {"type": "action", "action": action})
    assert table.computer_to_move()
    return table


async def _ignore(msg: dict[str, Any]) -> None:
    return None


async def _until(check: Any, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < end, "gave up waiting"
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("how", ["killed", "late"])
def test_a_killed_or_late_worker_gives_the_clocks_move_once(tmp_path: Path, how: str) -> None:
    started = tmp_path / "started"

    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=5, limits=UNLIMITED)
        limit = 120.0 if how == "killed" else 1.0
        manager.thinking = ThinkPool(
            1, timeout=limit, initializer=functools.partial(slow_jobs, str(started), "move")
        )
        try:
            assert manager.thinking.wait_ready()
            (first,) = manager.thinking.pids()
            table = await _computer_table(manager)
            hand = table.hand
            assert hand is not None
            before = len(hand.events)
            expected = str(timeout_move(hand.view(COMPUTER_SEAT, table.game.totals)))
            manager.kick(table)
            await _until(started.exists)
            assert int(started.read_text()) == first
            if how == "killed":
                os.kill(first, signal.SIGKILL)
            await _until(lambda: table.hand is not None and len(table.hand.events) > before)
            now = table.hand
            assert now is not None
            event = now.events[before]
            assert (event.seat, str(event.action)) == (COMPUTER_SEAT, expected)
            stored = store.load_game(table.id)
            assert stored is not None
            actions = [a.text for a in stored.hands[-1].actions]
            assert actions == [str(e.action) for e in now.events]  # stored once, in order
            await _until(lambda: manager.thinking is not None and manager.thinking.pids() != [])
            assert manager.thinking.wait_ready()
            (second,) = manager.thinking.pids()
            assert second != first  # the dead or late worker was replaced
            with pytest.raises(ProcessLookupError):
                os.kill(first, 0)
        finally:
            for task in list(manager._tasks):
                task.cancel()
            manager.close()
            store.close()

    asyncio.run(run())


def test_a_late_hint_answers_an_error(tmp_path: Path) -> None:
    async def run() -> None:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=0, seed=4, limits=UNLIMITED)
        manager.thinking = ThinkPool(
            1, timeout=1.0, initializer=functools.partial(slow_jobs, str(tmp_path / "s"), "hints")
        )
        try:
            assert manager.thinking.wait_ready()
            created = await manager.create(Rules(), Options("friend", hints=True), ("Ann", "Bob"))
            hand = created.table.hand
            assert hand is not None and hand.current_player is not None
            mover = Client(created.table.id, hand.current_player, _ignore)
            with pytest.raises(ProtocolError, match="took too long"):
                await manager.handle(mover, {"type": "hint"})
            with pytest.raises(ThinkTimeout):
                await manager.think("hints", {"view": hand.view(0).to_dict()})
        finally:
            manager.close()
            store.close()

    asyncio.run(run())


# -- starting and stopping ---------------------------------------------------------------------


def test_the_app_starts_workers_on_first_use_and_leaves_none_after_shutdown() -> None:
    with app_client(think_workers=2) as client:
        app: Any = client.app
        pool = app.state.manager.thinking
        assert pool is not None and not pool.started  # nothing started before a move
        created = new_table(client, mode="computer", level="beginner")
        with client.websocket_connect(f"/ws/{created['id']}?token={created['token']}") as ws:
            msg = recv(ws)
            if msg["view"]["current_player"] == 0:
                ws.send_json({"type": "action", "action": "pass"})
                msg = recv(ws)
            while msg["view"]["current_player"] == COMPUTER_SEAT:  # the worker's move comes
                msg = recv(ws)
        assert pool.wait_ready()
        pids = pool.pids()
        assert len(pids) == 2 and os.getpid() not in pids
    for pid in pids:  # the app's shutdown stopped and reaped them
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
    assert not any(t.thread.is_alive() for t in pool._slots)


def test_a_closed_pool_takes_no_jobs() -> None:
    pool = ThinkPool(1)
    pool.close()
    assert not pool.started
    with pytest.raises(RuntimeError, match="closed"):
        pool.submit("move", {})
    with pytest.raises(ValueError, match="at least one"):
        ThinkPool(0)


def test_workers_think_at_a_lower_priority_than_the_server(uncapped: ThinkPool) -> None:
    # When a core is wanted by both, the event loop's process goes first.
    (pid,) = uncapped.pids()
    mine = os.getpriority(os.PRIO_PROCESS, 0)
    assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, mine + thinking.WORKER_NICENESS)


def test_the_budget_caps_an_experts_search_and_nothing_else() -> None:
    """A move's ``budget_ms`` lowers the expert's cap (never raises it) and leaves its worlds
    as they are; no budget (the arena, the command line, a server without a delay) leaves
    the expert as it is."""
    assert thinking.think_budget(0) is None
    assert thinking.think_budget(0.4) == pytest.approx(1000 * (0.4 - thinking.THINK_MARGIN))
    assert thinking.think_budget(0.05) == 0.0  # min_worlds still played out
    default = get_agent("expert").settings
    assert thinking.make_agent("expert").settings == default
    capped = thinking.make_agent("expert", budget_ms=300.0).settings
    assert capped == replace(default, budget_ms=300.0)
    assert thinking.make_agent("expert", budget_ms=5000.0).settings == default
    assert thinking.make_agent("simple", budget_ms=300.0) is not None  # nothing to cap


def test_a_slow_search_in_a_worker_is_cut_short_for_the_delay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The expert in a worker process, made slow (seconds over the upcard of seed 0's deal,
    which it searches), still answers the deal within the server's delay: the payload's
    budget reaches the worker (without it the move came seconds late, telling the person that
    the upcard melded with the computer's cards)."""
    delay = 0.4
    monkeypatch.setattr("ginrummy.web.tables.shuffle", lambda rng=None: shuffle(random.Random(0)))

    async def run() -> float:
        store = Store("sqlite://")
        manager = Manager(store, computer_delay=delay, seed=1, limits=UNLIMITED)
        manager.thinking = ThinkPool(1, timeout=120, initializer=slow_experts)
        try:
            assert manager.thinking.wait_ready()
            rules = Rules(first_dealer="fixed", first_dealer_seat=0)  # the computer first
            table = (await manager.create(rules, Options("computer", "expert"), ("A", "C"))).table
            sent: list[float] = []

            async def record(msg: dict[str, Any]) -> None:
                if msg["type"] == "state":
                    sent.append(time.monotonic())

            joined = time.monotonic()
            manager.join(Client(table.id, 0, record))  # starts the computer's turn
            await _until(lambda: table.hand is not None and len(table.hand.events) >= 1)
            await _until(lambda: bool(sent))
            return sent[-1] - joined
        finally:
            manager.close()
            store.close()

    seconds = asyncio.run(run())
    # (uncapped, the reply came seconds late; the margin is for a loaded machine)
    assert delay <= seconds < delay + 0.6, seconds
