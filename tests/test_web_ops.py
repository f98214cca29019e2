"""What the server tells those who run it: /healthz, /readyz (does the database answer?) and
/metrics (Prometheus's text format, nothing per table or player, loopback only by default),
on each database and through ``ginrummy serve``."""

from __future__ import annotations

import gc
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import event
from sqlalchemy.exc import OperationalError

from ginrummy.storage import Store
from ginrummy.web.context import Context
from ginrummy.web.health import refusal
from webutil import (
    LiveServer,
    TestClient,
    app_client,
    friend_token,
    new_table,
    pick,
    post_table,
    recv,
    unlimited_rate,
)


def context(client: Any) -> Context:
    found: Context = client.app.state.context
    return found


def figures(text: str) -> dict[str, float]:
    """Every sample of a /metrics page, by name and labels."""
    out: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            out[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return out


@pytest.mark.usefixtures("on_each_database")
def test_healthz_and_readyz_answer_while_the_database_does() -> None:
    with app_client() as client:
        health = client.get("/healthz")
        assert (health.status_code, health.text) == (200, "ok\n")
        ready = client.get("/readyz")
        assert (ready.status_code, ready.text) == (200, "ready\n")
        assert ready.headers["cache-control"] == "no-store"


def test_readyz_says_503_and_why_when_the_database_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with app_client() as client:
        store = client.app.state.store

        def refuse() -> None:
            raise OperationalError("SELECT 1", {}, Exception("server at db.internal refused"))

        monkeypatch.setattr(store, "ping", refuse)
        ready = client.get("/readyz")
        assert ready.status_code == 503
        assert ready.text == "not ready: the database failed the check (OperationalError)\n"
        assert "db.internal" not in ready.text  # the driver's words stay in the log
        assert client.get("/healthz").status_code == 200  # the process is still up


def test_readyz_says_503_when_the_database_hangs_and_never_piles_up_checks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with app_client() as client:
        store = client.app.state.store
        readiness = context(client).readiness
        readiness.timeout = 0.2
        release = threading.Event()
        calls: list[int] = []

        def hang() -> None:
            calls.append(1)
            release.wait(30)
            time.sleep(0.3)  # a database that answers late: the next check waits for it

        monkeypatch.setattr(store, "ping", hang)
        first = client.get("/readyz")
        assert first.status_code == 503
        assert first.text == "not ready: the database did not answer within 0.2 s\n"
        second = client.get("/readyz")
        assert second.status_code == 503
        assert "has not answered the previous check" in second.text
        assert len(calls) == 1  # no second thread waits on the hung database
        release.set()
        monkeypatch.undo()
        readiness.timeout = 5.0
        assert client.get("/readyz").status_code == 200


def test_readyz_says_503_while_the_database_refuses_writes_as_full(tmp_path: Path) -> None:
    """A SQLite file that can grow no more (``PRAGMA max_page_count``: SQLite then answers
    "database or disk is full", as on a full disk) still answers a trivial query: the server
    is not ready from the write it refuses until a write is committed again; alive all along."""
    store = Store(str(tmp_path / "games.db"))
    limit: dict[str, bool] = {"on": False}

    def connected(dbapi_connection: Any, _record: Any) -> None:
        if limit["on"]:
            cursor = dbapi_connection.cursor()
            (pages,) = cursor.execute("PRAGMA page_count").fetchone()
            cursor.execute(f"PRAGMA max_page_count = {pages}")
            cursor.close()

    event.listen(store.engine, "connect", connected)
    try:
        with app_client(store=store) as client:
            new_table(client, mode="friend")
            assert client.get("/readyz").status_code == 200
            limit["on"] = True
            store.engine.dispose()  # every connection from now on is held to its pages
            for _ in range(200):
                if client.post("/api/tables", json={"mode": "friend"}).status_code != 200:
                    break
            else:
                raise AssertionError("the database never filled up")
            ready = client.get("/readyz")
            assert ready.status_code == 503
            assert ready.text == "not ready: the database refuses writes: it is full\n"
            assert client.get("/healthz").status_code == 200  # the process is still up
            assert client.get("/readyz").status_code == 503  # until a write succeeds
            limit["on"] = False
            store.engine.dispose()  # room again (the disk freed)
            new_table(client, mode="friend")
            assert client.get("/readyz").status_code == 200
    finally:
        store.close()


@pytest.mark.postgresql
def test_readyz_says_503_while_postgresql_refuses_writes_as_read_only(
    postgres_schema_url: str,
) -> None:
    """A PostgreSQL that takes no writes (here each new session read-only, as a standby's is)
    answers a trivial query: the server is not ready from the write it refuses (SQLSTATE
    25006) until a write is committed again."""
    store = Store(postgres_schema_url)
    limit: dict[str, bool] = {"on": False}

    def connected(dbapi_connection: Any, _record: Any) -> None:
        if limit["on"]:
            with dbapi_connection.cursor() as cursor:
                cursor.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
            dbapi_connection.commit()

    event.listen(store.engine, "connect", connected)
    try:
        with app_client(store=store) as client:
            new_table(client, mode="friend")
            assert client.get("/readyz").status_code == 200
            limit["on"] = True
            store.engine.dispose()
            refused = client.post("/api/tables", json={"mode": "friend"})
            assert refused.status_code == 503  # said plainly, as for a database away
            assert refused.json()["message"] == (
                "the database takes no changes just now (it is read-only): try again later"
            )
            assert refused.headers["retry-after"] == "5"
            ready = client.get("/readyz")
            assert (ready.status_code, ready.text) == (
                503,
                "not ready: the database refuses writes: it is read-only\n",
            )
            limit["on"] = False
            store.engine.dispose()
            new_table(client, mode="friend")
            assert client.get("/readyz").status_code == 200
    finally:
        store.close()


def test_only_a_full_or_read_only_database_counts_as_refusing_writes() -> None:
    import sqlite3

    def sqlite_error(code: int) -> sqlite3.OperationalError:
        exc = sqlite3.OperationalError("x")
        exc.sqlite_errorcode = code  # type: ignore[attr-defined]
        return exc

    assert refusal(sqlite_error(13)) == "it is full"
    assert refusal(sqlite_error(8 | (3 << 8))) == "it is read-only"  # SQLITE_READONLY_DBMOVED
    assert refusal(sqlite_error(5)) is None  # SQLITE_BUSY: another writer, not the disk
    assert refusal(sqlite3.OperationalError("no sqlite_errorcode")) is None
    disk_full = type("DiskFull", (Exception,), {"sqlstate": "53100"})()
    assert refusal(disk_full) == "it is full"
    assert refusal(type("Lost", (Exception,), {"sqlstate": "08006"})()) is None


def test_metrics_are_for_loopback_only_by_default() -> None:
    with app_client() as client:  # the test client's address is "testclient"
        refused = client.get("/metrics")
        assert refused.status_code == 403
        assert "--metrics-from" in refused.text
    with app_client(metrics_from="10.0.0.0/8, ::1") as client:
        assert client.get("/metrics").status_code == 403
    with pytest.raises(ValueError, match="not an IP address"):
        app_client(metrics_from="everyone").__enter__()


def test_metrics_are_served_to_an_ipv6_address_named() -> None:
    # Named by its own address, though the limits count an IPv6 client by its /64 network.
    with app_client(metrics_from="2001:db8::5") as client:
        app = client.app
        assert TestClient(app, client=("2001:db8::5", 1)).get("/metrics").status_code == 200
        assert TestClient(app, client=("2001:db8::6", 1)).get("/metrics").status_code == 403
        assert TestClient(app, client=("::1", 1)).get("/metrics").status_code == 403
    with app_client() as client:  # loopback by default, IPv6's too
        assert TestClient(client.app, client=("::1", 1)).get("/metrics").status_code == 200


@pytest.mark.usefixtures("on_each_database")
def test_metrics_count_what_happens_and_name_no_table_or_player(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    unlimited_rate(monkeypatch)
    rng = random.Random(5)
    with app_client(metrics_from="*") as client:
        created = new_table(client, mode="friend", name="Ann", opponent="Bob")
        tokens = [created["token"], friend_token(client, created)]
        with (
            client.websocket_connect(f"/ws/{created['id']}?token={tokens[0]}") as ws0,
            client.websocket_connect(f"/ws/{created['id']}?token={tokens[1]}") as ws1,
        ):
            sockets = [ws0, ws1]
            states = [recv(ws0), recv(ws1)]
            for _ in range(4):
                seat = states[0]["view"]["current_player"]
                action = pick(states[seat]["view"], rng)
                sockets[seat].send_json({"type": "action", "action": action})
                states = [recv(ws0), recv(ws1)]
            # the loop watcher measures every 0.1 s: wait for its first figure
            for _ in range(100):
                page = client.get("/metrics")
                if figures(page.text).get("ginrummy_event_loop_lag_seconds_count", 0) >= 1:
                    break
                threading.Event().wait(0.05)
            assert page.status_code == 200
            assert page.headers["content-type"].startswith("text/plain; version=0.0.4")
            seen = figures(page.text)
            assert seen["ginrummy_open_sockets"] == 2
            assert seen["ginrummy_tables_in_memory"] == 1
            assert seen["ginrummy_actions_applied_total"] == 4
            assert seen["ginrummy_message_round_trip_seconds_count{type=action}"] == 4
            assert seen["ginrummy_event_loop_lag_seconds_count"] >= 1
            assert seen["ginrummy_event_loop_lag_last_seconds"] >= 0
            assert seen["ginrummy_database_queue_length"] >= 0
            before = seen["ginrummy_gc_pause_seconds_count{generation=2}"]
            gc.collect()
            after = figures(client.get("/metrics").text)
            assert after["ginrummy_gc_pause_seconds_count{generation=2}"] >= before + 1
            assert after["ginrummy_gc_pause_seconds_sum{generation=2}"] > 0
            for secret in (created["id"], *tokens, "Ann", "Bob"):
                assert secret not in page.text


def test_serve_answers_health_readiness_and_loopback_metrics(tmp_path: Any, db_url: str) -> None:
    """``ginrummy serve --db URL`` on each database: a SQLite file, PostgreSQL."""
    with LiveServer(tmp_path / "games.db", db_url=db_url) as server:
        post_table(server, mode="computer", level="beginner", name="Ann")
        assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200
        assert httpx.get(f"{server.url}/readyz", timeout=10).status_code == 200
        page = httpx.get(f"{server.url}/metrics", timeout=10)
        assert page.status_code == 200, page.text
        seen = figures(page.text)
        assert seen["ginrummy_tables_in_memory"] == 1
        assert seen["ginrummy_gc_pause_seconds_count{generation=2}"] >= 1  # quiet()'s own


def _in_a_process(script: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout.split()


def test_a_quiet_collector_walks_the_oldest_generation_only_on_its_clock() -> None:
    """What ``serve`` does to its process's collector, in processes of their own: what was
    made while starting frozen, no automatic full collection however much is allocated, and
    one from a thread at every tick of its clock."""
    threshold, frozen, full = _in_a_process(
        "import gc\n"
        "from ginrummy.web import collector\n"
        "collector.quiet(3600)\n"
        "junk = [[] for _ in range(300_000)]\n"  # enough to bring automatic ones otherwise
        "print(gc.get_threshold()[2], gc.get_freeze_count() > 0, collector.pauses()[2][0][-1][1])"
    )
    assert int(threshold) >= 10**9 and frozen == "True"
    assert full == "1"  # quiet()'s own
    (ticks,) = _in_a_process(
        "import time\n"
        "from ginrummy.web import collector\n"
        "collector.quiet(0.2)\n"
        "time.sleep(1.1)\n"
        "print(collector.pauses()[2][0][-1][1] - 1)"
    )
    assert 2 <= int(ticks) <= 6  # about one each 0.2 s
