"""An operator's bad day: sockets that stop reading, servers stopped or killed between a move and
the computer's answer, the database away or refusing writes. Real server processes and real
sockets; no move acknowledged to a player is lost, none is made twice, and one player's trouble
holds up nobody else."""

from __future__ import annotations

import asyncio
import random
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from ginrummy.engine import Rules
from ginrummy.storage import Store
from ginrummy.web.manager import UNLIMITED, Client, Manager
from ginrummy.web.tables import Options
from pgutil import Outage
from webutil import LiveServer, SeatSocket, going_on, live_friend_token, post_table


def test_a_socket_whose_writes_wait_is_let_go_and_the_table_goes_on(tmp_path: Path) -> None:
    """A socket whose sends never finish (its reader stopped and every buffer on the way is
    full): a broadcast tells everyone else at once, gives up on it after the manager's
    ``send_timeout``, lets it go and closes it; the computer keeps playing."""

    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path / 'games.db'}")
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        manager.send_timeout = 0.5
        try:
            created = await manager.create(
                Rules(), Options("computer", "beginner"), ("Ann", "Computer")
            )
            table = created.table
            got: list[dict[str, Any]] = []
            stuck = asyncio.Event()
            closed: list[bool] = []

            async def send(msg: dict[str, Any]) -> None:
                got.append(msg)

            async def never(msg: dict[str, Any]) -> None:
                await stuck.wait()  # never set

            async def close() -> None:
                closed.append(True)
                await stuck.wait()  # a close frame waits behind the rest, as long

            deaf = Client(table.id, None, never, "10.0.0.9", close=close)
            manager.join(deaf)  # first: a broadcast would reach it first
            you = Client(table.id, 0, send, "10.0.0.1")
            manager.join(you)
            for _ in range(6):
                for _ in range(200):  # the person's turn (the computer moves first, maybe)
                    hand = table.hand
                    assert hand is not None
                    if hand.current_player == 0 or hand.is_over:
                        break
                    await asyncio.sleep(0.05)
                else:
                    raise AssertionError("the computer stopped playing")
                if hand.is_over:
                    break
                view = table.player_view(hand, 0)
                action = random.Random(len(hand.events)).choice(
                    [a for a in view.legal_actions if str(a).split()[0] not in ("knock", "gin")]
                    or list(view.legal_actions)
                )
                seen = len(got)
                started = time.monotonic()
                task = asyncio.ensure_future(
                    manager.handle(you, {"type": "action", "action": str(action)})
                )
                for _ in range(100):
                    if len(got) > seen:
                        break
                    await asyncio.sleep(0.01)
                assert len(got) > seen, "the move was not shown while the deaf socket waited"
                assert time.monotonic() - started < 0.4
                await asyncio.wait_for(task, 5)
            assert deaf not in manager.clients.get(table.id, set())
            assert closed == [True]
        finally:
            manager.close()
            store.close()

    asyncio.run(run())


def test_a_relayed_socket_that_takes_nothing_is_let_go(tmp_path: Path) -> None:
    """At the instance relaying a socket to its table's holder: a socket whose sends never
    finish is let go of after ``send_timeout`` (its relay ends, the holder is told it left)
    instead of having every state the holder sends it kept, for good, in its outbox."""
    pytest.importorskip("redis")
    from ginrummy.web.cluster import Cluster

    async def run() -> None:
        store = Store(f"sqlite:///{tmp_path / 'games.db'}")
        manager = Manager(store, limits=UNLIMITED)
        manager.send_timeout = 0.3
        cluster = Cluster(manager, "redis://127.0.0.1:1/0", instance="here")  # never reached
        stuck = asyncio.Event()

        async def receive() -> dict[str, Any] | None:
            await stuck.wait()  # the socket sends nothing
            return None

        async def send(msg: dict[str, Any]) -> None:
            await stuck.wait()  # and takes nothing

        try:
            client = Client("t1234567", None, send, "10.0.0.9")
            relay = asyncio.ensure_future(cluster.relay(client, "there", receive, send))
            await asyncio.sleep(0.05)
            (held,) = cluster.relays.values()
            for n in range(3):
                held.outbox.put_nowait({"type": "state", "version": n})
            await asyncio.wait_for(relay, 5)
            assert not cluster.relays
            assert any('"op":"leave"' in data for _, data in cluster._out._queue)  # type: ignore[attr-defined]
        finally:
            manager.close()
            store.close()

    asyncio.run(run())


def test_a_joined_terminal_says_it_lost_the_server_and_waits_for_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal joined to a served table: the server goes out of reach. The screen is told
    at once (so that nobody types moves into nothing), and the session tries again for as
    long as it takes, not a fixed number of times: once the server answers, the seat is back,
    its state with it, and play goes on."""
    from ginrummy.tui import remote
    from ginrummy.tui.remote import RemoteSession

    monkeypatch.setattr(remote, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(remote, "RETRY_MAX", 0.1)
    with LiveServer(tmp_path / "games.db", args=["--think-workers", "0"]) as server:
        vs = post_table(server, mode="computer", level="beginner", name="Ann")
        relay = Outage(("127.0.0.1", server.port))

        async def run() -> None:
            link = f"http://127.0.0.1:{relay.port}/t/{vs['id']}#s={vs['token']}"
            session = await RemoteSession.join(link, open_timeout=10)
            try:
                first = await asyncio.wait_for(session.receive(), 10)
                assert first["type"] == "state"
                relay.cut()
                told = await asyncio.wait_for(session.receive(), 5)
                while told["type"] != "connection":  # anything sent before the cut
                    told = await asyncio.wait_for(session.receive(), 5)
                assert told == {"type": "connection", "connected": False}
                back = asyncio.ensure_future(session.receive())
                await asyncio.sleep(3)  # many tries, each turned away
                assert not back.done(), back.result()
                relay.restore()
                assert await asyncio.wait_for(back, 10) == {"type": "connection", "connected": True}
                state = await asyncio.wait_for(session.receive(), 10)
                assert state["type"] == "state" and state["table"]["seat"] == 0
                await session.send({"type": "state"})  # and the socket serves again
                again = await asyncio.wait_for(session.receive(), 10)
                while again["type"] != "state":
                    again = await asyncio.wait_for(session.receive(), 10)
                assert again["table"]["seat"] == 0
            finally:
                await session.close()

        try:
            asyncio.run(run())
        finally:
            relay.close()


def test_a_database_locked_by_another_process_fails_the_move_and_says_why_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Another program holds the SQLite file's write lock (a backup tool, a person in the
    sqlite3 shell) longer than the server waits for it: the move is refused with a line saying
    it was not made, the table is exactly as it was, the server's log says what the database
    answered (an operator must not have to guess between a lock, a full disk and a lost
    server), and once the lock is let go the same move is made, once."""
    import sqlite3

    from sqlalchemy import event

    from ginrummy.web.manager import NOT_SAVED
    from ginrummy.web.protocol import ProtocolError

    path = tmp_path / "games.db"

    async def run() -> None:
        store = Store(f"sqlite:///{path}")
        # The server waits 10 s for a lock; a fifth of a second here, for a quick test.
        event.listen(store.engine, "connect", lambda c, _r: c.execute("PRAGMA busy_timeout = 200"))
        store.engine.dispose()
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        other = sqlite3.connect(path, isolation_level=None)
        try:
            table = (await manager.create(Rules(), Options("friend"), ("Ann", "Bob"))).table
            hand = table.hand
            assert hand is not None and hand.current_player is not None
            seat = hand.current_player
            client = Client(table.id, seat, _ignore, "10.0.0.1")
            manager.join(client)
            before = table.state_for(seat)
            action = str(hand.legal_actions()[0])
            other.execute("BEGIN IMMEDIATE")  # the write lock, held
            with pytest.raises(ProtocolError) as refused:
                await manager.handle(client, {"type": "action", "action": action})
            assert str(refused.value) == NOT_SAVED
            assert manager.tables[table.id] is table
            assert table.state_for(seat) == before
            assert "database is locked" in caplog.text
            other.execute("COMMIT")
            await manager.handle(client, {"type": "action", "action": action})
            assert table.state_for(seat)["version"] == before["version"] + 1
            stored = await manager.db(store.load_game, table.id)
            assert stored is not None
            assert [a.text for a in stored.hands[-1].actions] == [action]
        finally:
            other.close()
            manager.close()
            store.close()

    with caplog.at_level("WARNING", logger="ginrummy.web"):
        asyncio.run(run())


async def _ignore(_msg: dict[str, Any]) -> None:
    return None


def test_sigterm_stops_the_server_though_a_client_reads_nothing(tmp_path: Path) -> None:
    """A client asks for a file many times over on one connection and reads none of the
    answers (the server's buffers for it fill, and its last answer waits). SIGTERM must still
    stop the server, and soon: it closes the other sockets, lets go of what it holds and exits,
    rather than waiting for that connection for good (and for systemd's SIGKILL)."""
    with LiveServer(tmp_path / "games.db", args=["--think-workers", "0"]) as server:
        vs = post_table(server, mode="computer", level="beginner", name="Ann")
        seat = SeatSocket(server, vs["id"], vs["token"])
        assert seat.recv()["type"] == "state"
        greedy = socket.socket()
        greedy.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        greedy.connect(("127.0.0.1", server.port))
        try:
            greedy.sendall(b"GET /static/style.css HTTP/1.1\r\nHost: x\r\n\r\n" * 600)
            time.sleep(2)  # its answers pile up, unread
            proc = server.proc
            assert proc is not None
            proc.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed) as closed:  # told, as uvicorn tells them
                while True:
                    seat.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
            try:
                # stopped as SIGTERM stops it (uvicorn raises the signal again once done)
                assert proc.wait(timeout=20) in (0, -signal.SIGTERM)
            except subprocess.TimeoutExpired:
                raise AssertionError("SIGTERM did not stop the server") from None
        finally:
            greedy.close()
            seat.close()


def test_stopped_while_the_computer_thinks_the_move_is_kept_and_the_computer_plays_on(
    tmp_path: Path,
) -> None:
    """SIGTERM between the person's move being acknowledged and the computer's answer (the
    computer thinking in its worker processes): started again, the person's move is there,
    the computer makes its move by itself, and play goes on."""
    server = LiveServer(tmp_path / "games.db", computer_delay=1.5, args=["--think-workers", "1"])
    with server:
        vs = post_table(server, mode="computer", level="expert", name="Ann")
        seat = SeatSocket(server, vs["id"], vs["token"])
        mine = seat.until_my_turn()
        rng = random.Random(2)
        while mine["view"]["phase"] == "over":
            seat.send({"type": "next"})
            seat.last = None
            mine = seat.until_my_turn()
        acked = mine
        while acked["view"]["current_player"] == 0:  # a draw, then a discard
            action = going_on(acked["view"], rng)
            seat.act(action)
            acked = seat.recv()
            assert acked["type"] == "state", acked
            assert acked["view"]["history"][-1]["action"] == action
        assert acked["view"]["current_player"] == 1  # the computer's turn, its delay running
        proc = server.proc
        assert proc is not None
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
        seat.close()
        server.start()
        seat = SeatSocket(server, vs["id"], vs["token"])
        try:
            back = seat.recv()
            assert (
                back["view"]["history"][: len(acked["view"]["history"])] == acked["view"]["history"]
            )
            now = seat.until_my_turn()  # the computer moved by itself
            assert len(now["view"]["history"]) > len(acked["view"]["history"])
            if now["view"]["phase"] != "over":
                seat.act(going_on(now["view"], rng))
                assert seat.recv()["type"] == "state"
        finally:
            seat.close()


@pytest.mark.postgresql
def test_postgresql_ending_the_servers_sessions_between_moves_costs_no_move(
    tmp_path: Path, postgres_schema_url: str
) -> None:
    """The database ends every session of the server (a failover, an administrator's
    pg_terminate_backend, a restart) between two moves: the next moves are made as if nothing
    happened (each connection is checked before use and replaced), none is refused, none lost.
    """
    from pgutil import admin

    schema = postgres_schema_url.rsplit("application_name=", 1)[1]
    rng = random.Random(4)
    server = LiveServer(
        tmp_path / "x.db", db_url=postgres_schema_url, args=["--think-workers", "0"]
    )
    with server:
        friend = post_table(server, mode="friend", name="Ann", opponent="Bob")
        table_id = friend["id"]
        seats = [
            SeatSocket(server, table_id, friend["token"]),
            SeatSocket(server, table_id, live_friend_token(server, friend)),
        ]
        last = [s.recv() for s in seats]
        acked: list[str] = []
        try:
            for round_ in range(3):
                for _ in range(3):
                    mover = last[0]["view"]["current_player"]
                    action = going_on(last[mover]["view"], rng)
                    seats[mover].act(action)
                    last = [s.recv() for s in seats]
                    assert [m["type"] for m in last] == ["state", "state"], last
                    acked.append(action)
                with admin() as connection:
                    ended = connection.execute(
                        "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
                        "WHERE application_name = %s AND pid <> pg_backend_pid()",
                        (schema,),
                    ).fetchone()
                    assert ended is not None and (round_ > 0 or ended[0] > 0)
            assert [e["action"] for e in last[0]["view"]["history"]] == acked
        finally:
            for s in seats:
                s.close()
        with Store(postgres_schema_url) as store:
            stored = store.load_game(table_id)
            assert stored is not None
            assert [a.text for a in stored.hands[-1].actions] == acked


def test_moves_that_came_together_while_the_database_is_away_are_refused_together(
    tmp_path: Path,
) -> None:
    """Moves at many tables come together and are stored as one batch, while the database
    cannot be reached (here a SQLite file locked by another program, each try waiting for the
    lock): every player is told soon that the move was not made, after a try or two, not after
    one full wait for each move of the batch in turn while their tables stay locked."""
    import sqlite3

    from sqlalchemy import event

    from ginrummy.web.manager import NOT_SAVED
    from ginrummy.web.protocol import ProtocolError

    path = tmp_path / "games.db"
    wait = 0.3  # how long each try waits for the lock (the server's is 10 s)

    async def run() -> None:
        store = Store(f"sqlite:///{path}")
        event.listen(
            store.engine,
            "connect",
            lambda c, _r: c.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}"),
        )
        store.engine.dispose()
        manager = Manager(store, computer_delay=0, seed=3, limits=UNLIMITED)
        other = sqlite3.connect(path, isolation_level=None)
        try:
            moves = []
            for _ in range(12):
                table = (await manager.create(Rules(), Options("friend"), ("Ann", "Bob"))).table
                hand = table.hand
                assert hand is not None and hand.current_player is not None
                client = Client(table.id, hand.current_player, _ignore, "10.0.0.1")
                manager.join(client)
                action = str(hand.legal_actions()[0])
                moves.append(manager.handle(client, {"type": "action", "action": action}))
            other.execute("BEGIN IMMEDIATE")
            started = time.monotonic()
            answers = await asyncio.gather(*moves, return_exceptions=True)
            took = time.monotonic() - started
            assert all(isinstance(a, ProtocolError) and str(a) == NOT_SAVED for a in answers)
            assert took < 6 * wait, f"the last player was told after {took:.1f} s"
        finally:
            other.close()
            manager.close()
            store.close()

    asyncio.run(run())


class Unanswering(Outage):
    """A relay to PostgreSQL that, once cut, holds new connections open and answers nothing:
    a database machine gone from the network, where each connection waits out its
    ``connect_timeout`` rather than being refused at once."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.held: list[socket.socket] = []
        super().__init__(target)

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.down:
                self.held.append(client)  # never answered
                continue
            self._forward(client)

    def _forward(self, client: socket.socket) -> None:
        import threading

        try:
            upstream = socket.create_connection(self.target, timeout=5)
        except OSError:
            client.close()
            return
        upstream.settimeout(None)
        with self._lock:
            self._open.update((client, upstream))
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def close(self) -> None:
        super().close()
        for held in self.held:
            held.close()


@pytest.mark.postgresql
def test_sigterm_with_the_database_unanswering_stops_without_a_wait_per_table(
    tmp_path: Path, postgres_schema_url: str, broker_url: str
) -> None:
    """One of many instances holds a dozen tables when its database stops answering (the
    connections hang, each until its connect_timeout of 2 s), and it is stopped: letting go
    of its leases cannot be done, and is not tried table after table (the leases run out by
    themselves); the server stops within a few seconds."""
    relay = Unanswering(("127.0.0.1", 5432))
    url = relay.url(postgres_schema_url) + "&connect_timeout=2"
    server = LiveServer(
        tmp_path / "x.db",
        db_url=url,
        args=["--broker", broker_url, "--lease-seconds", "3", "--think-workers", "0"],
    )
    try:
        with server:
            for _ in range(12):
                post_table(server, mode="friend", name="Ann", opponent="Bob")
            relay.cut()
            proc = server.proc
            assert proc is not None
            started = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                raise AssertionError("SIGTERM did not stop the server") from None
            took = time.monotonic() - started
            assert took < 12, f"stopping took {took:.0f} s"
    finally:
        relay.close()


def test_the_computer_thinks_once_while_the_database_is_away(tmp_path: Path) -> None:
    """The computer's move cannot be stored (the database is away): it is tried again every
    second, the same move, not thought out again each time (an expert thinks for seconds, in
    workers shared by every table: hundreds of tables thinking every second through an
    outage would leave none for the tables still playing, or for hints). Once the database
    is back the move is made."""
    import sqlite3

    from sqlalchemy import event

    from ginrummy.web.tables import COMPUTER_SEAT

    path = tmp_path / "games.db"

    async def run() -> None:
        store = Store(f"sqlite:///{path}")
        event.listen(store.engine, "connect", lambda c, _r: c.execute("PRAGMA busy_timeout = 100"))
        store.engine.dispose()
        manager = Manager(store, computer_delay=0, seed=5, limits=UNLIMITED)
        thought: list[int] = []
        think = manager._computer_move

        async def counted(table: Any, view: Any, seed: int) -> str:
            thought.append(len(view.history))
            return await think(table, view, seed)

        manager._computer_move = counted  # type: ignore[method-assign]
        other = sqlite3.connect(path, isolation_level=None)
        try:
            for _ in range(20):  # a deal where the computer moves first
                created = await manager.create(
                    Rules(), Options("computer", "beginner"), ("Ann", "Computer")
                )
                table = created.table
                hand = table.hand
                assert hand is not None
                if hand.current_player == COMPUTER_SEAT:
                    break
            else:
                raise AssertionError("the person moved first in every deal")
            other.execute("BEGIN IMMEDIATE")
            manager.join(Client(table.id, 0, _ignore, "10.0.0.1"))  # the computer's turns start
            await asyncio.sleep(3.5)  # three tries or so, each refused
            assert table.version == created.table.version and hand.current_player == 1
            assert thought == [0], thought
            other.execute("COMMIT")
            for _ in range(60):
                if table.hand is not None and table.hand.events:
                    break
                await asyncio.sleep(0.1)
            assert table.hand is not None and len(table.hand.events) >= 1
        finally:
            other.close()
            manager.close()
            store.close()

    asyncio.run(run())


def test_a_joined_terminal_whose_table_is_gone_says_so_and_stops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reconnecting, the terminal finds the server has no such table (its link no longer
    names one the server has): it says the server's reason and ends the session, as the page
    does, rather than trying again every few seconds for ever under "reconnecting"."""
    from ginrummy.tui import remote
    from ginrummy.tui.remote import RemoteSession

    monkeypatch.setattr(remote, "RETRY_FIRST", 0.05)
    monkeypatch.setattr(remote, "RETRY_MAX", 0.1)
    with LiveServer(tmp_path / "games.db", args=["--think-workers", "0"]) as server:
        vs = post_table(server, mode="computer", level="beginner", name="Ann")

        async def run() -> None:
            link = f"{server.url}/t/{vs['id']}#s={vs['token']}"
            session = await RemoteSession.join(link, open_timeout=10)
            try:
                first = await asyncio.wait_for(session.receive(), 10)
                assert first["type"] == "state"
                session.link = session.link.at("Zz" * 8)  # a table the server does not have
                assert session._ws is not None
                await session._ws.close()
                told = await asyncio.wait_for(session.receive(), 5)
                while told["type"] != "connection":
                    told = await asyncio.wait_for(session.receive(), 5)
                assert told == {"type": "connection", "connected": False}
                why = await asyncio.wait_for(session.receive(), 10)
                assert why["type"] == "error" and "no such table" in why["message"], why
                assert await asyncio.wait_for(session.receive(), 5) == {"type": "closed"}
            finally:
                await session.close()

        asyncio.run(run())
