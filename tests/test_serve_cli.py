"""``ginrummy serve``'s command line: errors in one line before anything is served, ``--db``
as a file path, and an access log that never shows a query string."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from frontutil import Server, free_port, request, run_serve
from ginrummy.storage.database import resolve_url, sqlite_file, sqlite_url

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and signals")


def one_line_error(result: subprocess.CompletedProcess[str], *words: str) -> str:
    """The error ``ginrummy serve`` printed: one line on stderr, status 2, nothing served."""
    stderr = result.stderr
    assert result.returncode == 2, (result.returncode, stderr)
    assert "Traceback" not in stderr
    assert "serving on" not in result.stdout
    lines = stderr.splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("ginrummy: error: "), stderr
    for word in words:
        assert word in lines[0], stderr
    return lines[0]


# -- errors ------------------------------------------------------------------------------------


def test_a_busy_port_is_one_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        result = run_serve(tmp_path, "--port", str(port), "--db", str(tmp_path / "g.db"))
    line = one_line_error(result)
    assert line == f"ginrummy: error: port {port} on 127.0.0.1 is in use"


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--port", "0"], ["outside 1..65535"]),
        (["--port", "65536"], ["outside 1..65535"]),
        (["--port", "-80"], ["outside 1..65535"]),
        (["--computer-delay", "-1"], ["--computer-delay"]),
        (["--computer-delay", "nan"], ["--computer-delay"]),
        (["--tables-per-minute", "-1"], ["--tables-per-minute"]),
        (["--max-connections", "-1"], ["--max-connections"]),
        (["--max-connections-per-address", "-5"], ["--max-connections-per-address"]),
        (["--header-timeout", "0"], ["--header-timeout"]),
        (["--refused-hold", "inf"], ["--refused-hold"]),
        (["--abandon-after", "-1"], ["--abandon-after"]),
        (["--think-workers", "-1"], ["--think-workers"]),
        (["--think-timeout", "0"], ["--think-timeout"]),
        (["--forwarded-allow-ips", "127.0.0.1,proxy"], ["--forwarded-allow-ips", "proxy"]),
        (["--metrics-from", "everyone"], ["--metrics-from", "everyone"]),
        (["--host", "192.0.2.1"], ["cannot listen", "192.0.2.1"]),  # an address not ours
        (["--workers", "0"], ["--workers"]),
        (["--workers", "2"], ["--workers", "--broker"]),
        (["--broker", "http://127.0.0.1:6379"], ["--broker", "redis://"]),
        (["--lease-seconds", "0"], ["--lease-seconds"]),
        (["--broker", "redis://127.0.0.1:1"], ["cannot reach the broker"]),
        (["--workers", "2", "--broker", "redis://127.0.0.1:1", "--db", "sqlite://"], ["memory"]),
    ],
)
def test_bad_options_are_one_line(tmp_path: Path, args: list[str], words: list[str]) -> None:
    db = tmp_path / "g.db"
    result = run_serve(tmp_path, "--port", str(free_port()), "--db", str(db), *args)
    one_line_error(result, *words)
    assert not db.exists(), "nothing is opened before the options are checked"


def test_the_commands_defaults_are_the_servers() -> None:
    """The command repeats the server's defaults (to import lightly): they must agree."""
    from ginrummy.cli import serve as command
    from ginrummy.web import server

    for name in (
        "MAX_CONNECTIONS",
        "MAX_CONNECTIONS_PER_ADDRESS",
        "HEADER_TIMEOUT",
        "REFUSED_HOLD",
    ):
        assert getattr(command, name) == getattr(server, name), name
    from ginrummy.web import context

    assert command.METRICS_FROM == context.METRICS_FROM
    from ginrummy.web import cluster

    assert command.LEASE_SECONDS == cluster.LEASE_SECONDS


def test_an_unreachable_postgres_database_is_one_line(tmp_path: Path) -> None:
    port = free_port()  # nothing listens there
    result = run_serve(
        tmp_path, "--port", str(free_port()), "--db", f"postgres://nobody@127.0.0.1:{port}/g"
    )
    one_line_error(result, "cannot open the database")


def test_a_sqlite_file_in_a_missing_folder_is_refused(tmp_path: Path) -> None:
    result = run_serve(tmp_path, "--port", str(free_port()), "--db", "sqlite:///typo-dir/x.db")
    one_line_error(result, "no folder typo-dir: create it first")
    assert not (tmp_path / "typo-dir").exists()
    result = run_serve(tmp_path, "--port", str(free_port()), "--db", str(tmp_path / "no/g.db"))
    one_line_error(result, f"no folder {tmp_path / 'no'}")
    assert not (tmp_path / "no").exists()


# -- --db as a path ----------------------------------------------------------------------------


def test_resolve_url_reads_a_path_as_a_sqlite_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    assert resolve_url("~/games.db") == f"sqlite:///{tmp_path}/games.db"
    assert resolve_url("sub/games.db") == f"sqlite:///{tmp_path}/sub/games.db"
    # a URL stays one (PostgreSQL's read with psycopg 3)
    assert resolve_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert resolve_url("mysql://u@h/db") == "mysql://u@h/db"
    odd = tmp_path / "a b?c#d%e.db"  # URL syntax in a file name stays part of the name
    assert sqlite_file(sqlite_url(odd)) == odd
    assert sqlite_file(resolve_url(str(odd))) == odd


def test_db_takes_a_plain_file_path(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    with Server(tmp_path, db="games/saved.db") as server:  # relative to where it runs
        status, body = request(server.port, "/api/tables", method="POST", body={"mode": "friend"})
        assert status == 200 and json.loads(body)["id"]
    assert (tmp_path / "games" / "saved.db").stat().st_size > 0
    assert "serving on" in server.log()


# -- the access log ----------------------------------------------------------------------------


def test_access_log_never_shows_a_query_string(tmp_path: Path) -> None:
    from websockets.sync.client import connect

    with Server(tmp_path, "--access-log") as server:
        status, body = request(server.port, "/api/tables", method="POST", body={"mode": "friend"})
        assert status == 200
        created = json.loads(body)
        token = created["token"]
        assert request(server.port, f"/api/presets?token={token}")[0] == 200
        assert request(server.port, f"/t/{created['id']}?s={token}")[0] == 200
        assert request(server.port, "/nowhere?token=SECRET-404")[0] == 404
        url = f"ws://127.0.0.1:{server.port}/ws/{created['id']}?token={token}"
        with connect(url, proxy=None, open_timeout=20) as ws:
            ws.send('{"type": "ping"}')
            while '"pong"' not in str(ws.recv(timeout=20)):
                pass
    log = server.log()
    assert "POST /api/tables 200" in log
    assert "GET /api/presets 200" in log
    assert f"GET /t/{created['id']} 200" in log
    assert "GET /nowhere 404" in log
    assert f"GET /ws/{created['id']} 101" in log
    assert token not in log and "SECRET" not in log and "?" not in log


def test_no_access_log_by_default(tmp_path: Path) -> None:
    with Server(tmp_path) as server:
        assert request(server.port, "/api/presets?token=SECRET")[0] == 200
    log = server.log()
    assert f"serving on http://127.0.0.1:{server.port}" in log
    assert "/api/presets" not in log and "SECRET" not in log


def test_think_workers_are_an_option_one_per_cpu_by_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--think-workers`` is in the help; its default is one worker per CPU (at least one),
    and the command's default limit is the thinking pool's."""
    from ginrummy.cli import serve as command
    from ginrummy.cli.main import main
    from ginrummy.web import thinking

    assert command.THINK_TIMEOUT == thinking.THINK_TIMEOUT
    assert 1 <= command.default_think_workers() <= (os.cpu_count() or 1)
    assert main(["serve", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "--think-workers N" in out and "0: threads" in out
    assert "--think-timeout SECONDS" in out
