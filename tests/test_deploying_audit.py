"""What an operator following docs/deploying.md meets: each error ``ginrummy serve`` can give
at start is one line that says what to do (no traceback), and ``ginrummy serve --help`` says
what the page's table of limits says."""

from __future__ import annotations

import importlib.util
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from frontutil import free_port, run_serve, serve_command, serve_env
from ginrummy.cli.main import build_parser
from ginrummy.storage import StorageError, Store
from test_serve_cli import one_line_error

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX paths and signals")

DOC = Path(__file__).resolve().parents[1] / "docs" / "deploying.md"


def test_a_data_directory_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    """Without --db the database is made in the data directory; where that cannot be made (a
    read-only home, a file in its way) the operator is told so, not shown a traceback."""
    (tmp_path / "file").write_text("not a folder")
    env = serve_env(tmp_path)
    env["XDG_DATA_HOME"] = str(tmp_path / "file" / "data")
    result = subprocess.run(
        serve_command("--port", str(free_port())),
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )
    one_line_error(result, "cannot open the database", str(tmp_path / "file"))


@pytest.mark.skipif(
    importlib.util.find_spec("MySQLdb") is not None, reason="the MySQL driver is installed"
)
def test_a_database_whose_driver_is_missing_is_one_line(tmp_path: Path) -> None:
    """A URL for a database whose driver is not installed (as PostgreSQL's is not without the
    'postgres' extra) names the missing module instead of a traceback."""
    result = run_serve(tmp_path, "--port", str(free_port()), "--db", "mysql://u@127.0.0.1/g")
    one_line_error(result, "cannot open the database", "MySQLdb")


def test_a_missing_postgres_driver_names_the_extra() -> None:
    from ginrummy.cli import database_error

    exc = ModuleNotFoundError("No module named 'psycopg'", name="psycopg")
    assert "pip install 'ginrummy[postgres]'" in str(database_error(exc))


def newer_database(path: Path) -> Path:
    """A SQLite database whose schema a later version of the package wrote."""
    Store(str(path)).close()
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = 'f00dfeed9999'")
    return path


def test_a_database_from_a_newer_version_is_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match=r"f00dfeed9999.*newer version of ginrummy"):
        Store(str(newer_database(tmp_path / "g.db")))


def test_serve_on_a_database_from_a_newer_version_is_one_line(tmp_path: Path) -> None:
    """An older package started on a database a newer one upgraded (a rollback, or a machine
    not yet upgraded restarting mid-upgrade) says so in one line."""
    db = newer_database(tmp_path / "g.db")
    result = run_serve(tmp_path, "--port", str(free_port()), "--db", str(db))
    one_line_error(result, "newer version of ginrummy", "upgrade")


@pytest.mark.parametrize(
    "origin",
    ["cards.example.org", "https://cards.example.org/play", "ftp://cards.example.org", "https://"],
)
def test_an_allowed_origin_that_is_no_origin_is_refused(tmp_path: Path, origin: str) -> None:
    """A browser's Origin is scheme://host[:port]: a value of another form would never match,
    and every post and socket from that site would be refused."""
    result = run_serve(tmp_path, "--port", str(free_port()), "--allowed-origin", origin)
    one_line_error(result, "--allowed-origin", origin)


def help_of(flag: str) -> str:
    """What ``ginrummy serve --help`` says of ``flag``, defaults filled in, on one line."""
    parser = build_parser()
    for action in parser._subparsers._group_actions:  # type: ignore[union-attr]
        choices = getattr(action, "choices", None) or {}
        if "serve" in choices:
            serve = choices["serve"]
            for option in serve._actions:
                if flag in option.option_strings:
                    return " ".join(serve._get_formatter()._expand_help(option).split())
    raise AssertionError(f"no {flag}")


def doc_defaults() -> dict[str, str]:
    """The page's table of limits: flag -> default."""
    table = {}
    for line in DOC.read_text().splitlines():
        found = re.match(r"\| `(--[a-z-]+)[^`]*` \| ([^|]+) \|", line)
        if found:
            table[found.group(1)] = found.group(2).strip()
    return table


def test_help_gives_each_numeric_default_the_page_gives() -> None:
    defaults = {flag: d for flag, d in doc_defaults().items() if re.fullmatch(r"[\d.]+", d)}
    assert "--computer-delay" in defaults and "--tables-per-minute" in defaults
    for flag, default in defaults.items():
        said = help_of(flag)
        assert f"default {default}" in said, (flag, said)


def test_help_says_connections_over_the_cap_are_held_not_closed() -> None:
    said = help_of("--max-connections")
    assert "closed at once" not in said
    assert "held" in said


def test_help_and_page_give_the_same_sizes_without_compression() -> None:
    said = help_of("--no-ws-compression")
    assert "2.5 KB" in said, said


def test_workers_on_a_database_that_cannot_be_opened_is_one_line(
    tmp_path: Path, broker_url: str
) -> None:
    """With --workers the database is opened once before the instances start, so that a bad
    URL is the same one line, status 2, as without, and nothing is said to be served."""
    port = free_port()  # nothing listens there
    result = run_serve(
        tmp_path,
        *("--port", str(free_port()), "--workers", "2", "--broker", broker_url),
        *("--db", f"postgresql://nobody@127.0.0.1:{port}/g?connect_timeout=5"),
    )
    one_line_error(result, "cannot open the database")


def test_workers_on_a_database_from_a_newer_version_is_one_line(
    tmp_path: Path, broker_url: str
) -> None:
    db = newer_database(tmp_path / "g.db")
    result = run_serve(
        tmp_path,
        *("--port", str(free_port()), "--workers", "2", "--broker", broker_url, "--db", str(db)),
    )
    one_line_error(result, "newer version of ginrummy")


def test_every_serve_option_is_on_the_page() -> None:
    from test_deploying_doc import serve_options

    text = DOC.read_text()
    assert sorted(o for o in serve_options() - {"-h", "--help"} if o not in text) == []


def test_the_address_it_listens_on_by_default_is_said() -> None:
    """The proxy examples pass to 127.0.0.1:8000 on the strength of the defaults: the page and
    --help give them."""
    assert "default 127.0.0.1" in help_of("--host")
    assert "default 8000" in help_of("--port")
    assert re.search(r"127\.0\.0\.1.{0,40}port 8000.{0,20}by default", DOC.read_text(), re.S)


def test_a_broker_that_does_not_answer_is_named_without_its_password(tmp_path: Path) -> None:
    """The error goes to the service's log: a Redis password in the URL is not written there."""
    broker = f"redis://:s3cret@127.0.0.1:{free_port()}/0"
    result = run_serve(tmp_path, "--port", str(free_port()), "--broker", broker)
    line = one_line_error(result, "cannot reach the broker", "127.0.0.1")
    assert "s3cret" not in line


def serve_with_broker_env(tmp_path: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``ginrummy serve ARGS`` with ``$GINRUMMY_BROKER_URL`` set to ``url`` (expected to stop)."""
    env = serve_env(tmp_path)
    env["GINRUMMY_BROKER_URL"] = url
    return subprocess.run(
        serve_command("--port", str(free_port()), *args),
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=60,
    )


def test_the_broker_url_may_come_from_the_environment(tmp_path: Path) -> None:
    """A password in ``--broker``'s URL shows in the process list: ``$GINRUMMY_BROKER_URL``
    gives the URL instead, and is used as ``--broker`` would be (this one does not answer)."""
    broker = f"redis://:s3cret@127.0.0.1:{free_port()}/0"
    line = one_line_error(
        serve_with_broker_env(tmp_path, broker), "cannot reach the broker", "127.0.0.1"
    )
    assert "s3cret" not in line
    # One that is no redis:// URL is named by where it came from, without its password.
    line = one_line_error(
        serve_with_broker_env(tmp_path, "http://:s3cret@127.0.0.1:6379/0"), "$GINRUMMY_BROKER_URL"
    )
    assert "not a redis:// URL" in line and "s3cret" not in line


def test_workers_share_the_broker_the_environment_names(tmp_path: Path, broker_url: str) -> None:
    """--workers needs a broker: the one in ``$GINRUMMY_BROKER_URL`` is reached (the test
    Redis), and the start goes on to the database (which fails here, to stop it)."""
    db = newer_database(tmp_path / "g.db")
    result = serve_with_broker_env(tmp_path, broker_url, "--workers", "2", "--db", str(db))
    one_line_error(result, "newer version of ginrummy")


def test_a_broker_given_by_option_wins_over_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ginrummy.cli import serve

    monkeypatch.setenv("GINRUMMY_BROKER_URL", "redis://from-env:6379/0")
    args = build_parser().parse_args(["serve", "--broker", "redis://given:6379/0"])
    serve._check(args)
    assert args.broker == "redis://given:6379/0"
    args = build_parser().parse_args(["serve"])
    serve._check(args)
    assert args.broker == "redis://from-env:6379/0"
    monkeypatch.setenv("GINRUMMY_BROKER_URL", " ")
    args = build_parser().parse_args(["serve"])
    serve._check(args)
    assert args.broker is None


def test_help_names_the_brokers_environment_variable() -> None:
    said = help_of("--broker")
    assert "$GINRUMMY_BROKER_URL" in said and "process list" in said, said
    assert "GINRUMMY_BROKER_URL" in DOC.read_text()


def test_an_instance_that_ended_is_described_in_words() -> None:
    """--workers reports each instance that ended: with its exit status or the signal that
    killed it, as an operator reads them, not the raw status of wait()."""
    import os
    import signal

    from ginrummy.cli.serve import _ended

    def status_of(end: int | None) -> int:
        pid = os.fork()
        if pid == 0:
            if end is None:
                os.kill(os.getpid(), signal.SIGKILL)
            os._exit(end or 0)
        return os.waitpid(pid, 0)[1]

    assert _ended(status_of(1)) == "exit status 1"
    assert _ended(status_of(None)) == "killed by SIGKILL"


@pytest.mark.parametrize("where", ["--db", "env"])
def test_a_malformed_database_url_is_named_without_its_password(tmp_path: Path, where: str) -> None:
    """The page puts the password in GINRUMMY_DATABASE_URL to keep it out of sight: a URL that
    cannot be read is not repeated whole into the service's log."""
    url = "postgresql://ginrummy:s3cret@db.internal:54x32/ginrummy"
    env = serve_env(tmp_path)
    args = ["--port", str(free_port())]
    if where == "env":
        env["GINRUMMY_DATABASE_URL"] = url
    else:
        args += ["--db", url]
    result = subprocess.run(
        serve_command(*args), capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60
    )
    line = one_line_error(result, "is not a database URL", "db.internal")
    assert "s3cret" not in line
