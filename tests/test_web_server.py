"""Nothing one client does stalls other tables: the database is read and written off the event
loop, tables load on first access (start-up reads nothing), abandoned games are closed, and
each table owns its computer player."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import timedelta
from typing import Any

import pytest

from ginrummy.engine import Rules
from ginrummy.storage import Store
from ginrummy.storage.models import utcnow
from ginrummy.web.dealing import shuffle
from ginrummy.web.manager import UNLIMITED, Client, Manager
from ginrummy.web.tables import Options, token_hash
from webutil import app_client, new_store, new_table, recv, unlimited_rate

pytestmark = pytest.mark.usefixtures("on_each_database")


def test_a_slow_database_read_does_not_stall_other_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """While one client's history request waits on the database, another table's socket is
    answered at once (the read runs in the database threads, not in the event loop)."""
    unlimited_rate(monkeypatch)
    with app_client() as client:
        store = client.app.state.store  # type: ignore[attr-defined]
        release, started = threading.Event(), threading.Event()
        real = store.seated_games

        def slow_read(*args: Any, **kwargs: Any) -> Any:
            started.set()
            release.wait(10)
            return real(*args, **kwargs)

        created = new_table(client, mode="friend")
        monkeypatch.setattr(store, "seated_games", slow_read)
        with client.websocket_connect(f"/ws/{created['id']}?token={created['token']}") as ws:
            recv(ws)
            answer: list[Any] = []
            poller = threading.Thread(
                target=lambda: answer.append(client.post("/api/history", json={"tables": []}))
            )
            poller.start()
            assert started.wait(10)
            began = time.monotonic()
            ws.send_json({"type": "ping"})
            pong = recv(ws)
            assert pong["type"] == "pong"
            assert abs(pong["now"] - time.time()) < 5  # the server's time: pages count by it
            assert time.monotonic() - began < 5  # answered while the read still waits
            assert poller.is_alive()
            release.set()
            poller.join(10)
            assert answer and answer[0].status_code == 200


def test_start_up_reads_no_table_and_a_table_loads_on_first_access(db_url: str) -> None:
    url = db_url
    store = Store(url)
    with app_client(store=store) as client:
        created = new_table(client, mode="friend")
        with client.websocket_connect(f"/ws/{created['id']}?token={created['token']}") as ws:
            before = recv(ws)
    store.close()

    store = Store(url)
    loads: list[str] = []
    real = store.load_game

    def counting(game_id: str) -> Any:
        loads.append(game_id)
        return real(game_id)

    store.load_game = counting  # type: ignore[method-assign]
    with app_client(store=store) as client:
        manager = client.app.state.manager  # type: ignore[attr-defined]
        assert loads == [] and manager.tables == {}  # started without reading any game
        with client.websocket_connect(f"/ws/{created['id']}?token={created['token']}") as ws:
            after = recv(ws)
        assert loads == [created["id"]]
        assert (after["view"], after["table"]) == (before["view"], before["table"])
    store.close()


def test_open_games_nobody_moved_in_are_closed_as_abandoned() -> None:
    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=0, seed=1, limits=UNLIMITED)
        old = (await manager.create(Rules(), Options("friend"), ("Ann", "Bob"))).table
        fresh = (await manager.create(Rules(), Options("friend"), ("Cy", "Di"))).table
        with store.transaction() as tx:  # the first one was last moved in 31 days ago
            from sqlalchemy import update

            from ginrummy.storage.models import GameRow

            tx._session.execute(
                update(GameRow)
                .where(GameRow.id == old.id)
                .values(updated_at=utcnow() - timedelta(days=31))
            )
        assert await manager.abandon_stale() == 1
        assert [g.status for g in (store.get_game(old.id), store.get_game(fresh.id))] == [
            "abandoned",
            "open",
        ]
        assert old.abandoned and old.state_for(0)["table"]["abandoned"] is True
        hand = old.hand
        assert hand is not None and hand.current_player is not None
        from ginrummy.engine import IllegalActionError

        with pytest.raises(IllegalActionError, match="abandoned"):
            old.plan(hand.current_player, "pass")
        # after a restart it loads as it was left, and stays closed
        manager.tables.clear()
        again = await manager.get(old.id)
        assert again.abandoned and again.deadline is None
        manager.close()
        store.close()

    asyncio.run(run())


def test_each_table_owns_its_computer_player() -> None:
    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=3600, seed=1, limits=UNLIMITED)
        first = (await manager.create(Rules(), Options("computer", "beginner"), ("A", "C"))).table
        second = (await manager.create(Rules(), Options("computer", "beginner"), ("B", "C"))).table
        from ginrummy.web.tables import computer_agent

        agents = computer_agent(first), computer_agent(second)
        assert agents[0] is not agents[1] and computer_agent(first) is agents[0]
        # the next deal drops the last hand's player
        assert first.hand is not None
        first.start(shuffle())
        assert first.agent is None
        manager.close()
        store.close()

    asyncio.run(run())


def test_hashes_of_tokens_only_are_stored() -> None:
    with app_client() as client:
        created = new_table(client, mode="friend")
        store = client.app.state.store  # type: ignore[attr-defined]
        saved = store.load_game(created["id"])
        hashes = {s.token_hash for s in saved.seats}
        assert token_hash(created["token"]) in hashes and created["token"] not in hashes


def test_a_table_whose_sockets_all_closed_keeps_no_entry() -> None:
    """The sockets of a table another instance holds (relayed) join and leave here, but the
    table is never in memory here to be let go of: nothing of it stays once they close, or
    every table ever relayed would stay in memory for good."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=3600, seed=1, limits=UNLIMITED)
        for number in range(3):
            client = Client(f"elsewhere{number}", number % 2 or None, _nowhere, "10.0.0.1")
            manager.join(client)
            manager.leave(client)
        assert manager.clients == {}
        manager.close()
        store.close()

    asyncio.run(run())


async def _nowhere(_msg: dict[str, Any]) -> None:
    return None


def test_a_table_loaded_after_its_sockets_joined_counts_them() -> None:
    """A socket joins while its table is out of memory (let go of as idle in the moment the
    socket was being opened, or reloaded after a write in doubt): the table read again knows
    the seat is there (or the other seat's "next" would deal at once, as if it were away) and
    starts the computer if it is to move (joining would have)."""

    async def run() -> None:
        store = new_store()
        manager = Manager(store, computer_delay=3600, seed=1, limits=UNLIMITED)
        friend = (await manager.create(Rules(), Options("friend"), ("A", "B"))).table
        rules = Rules(first_dealer="fixed", first_dealer_seat=0)  # the computer moves first
        computer = (await manager.create(rules, Options("computer"), ("A", "C"))).table
        assert computer.computer_to_move()
        assert manager.evict_idle(now=time.monotonic() + 10_000) == 2
        for table in (friend, computer):
            manager.join(Client(table.id, 0, _nowhere, "10.0.0.1"))
        loaded = await manager.find(friend.id)
        assert loaded is not None and loaded is not friend
        assert loaded.connected() == [True, False]
        loaded = await manager.find(computer.id)
        assert loaded is not None and loaded.connected() == [True, True]
        assert computer.id in manager._thinking  # its turn is being played
        manager.close()
        store.close()

    asyncio.run(run())
