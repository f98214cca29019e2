"""``ginrummy serve``: the web app (play against the computer or a friend in the browser)."""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import CommandError, database_error, database_url, without_password

if TYPE_CHECKING:
    from .main import Subparsers

# The defaults of ginrummy.web.server, repeated here to keep this module's imports light.
MAX_CONNECTIONS = 2000
MAX_CONNECTIONS_PER_ADDRESS = 64
HEADER_TIMEOUT = 10.0
REFUSED_HOLD = 30.0
ABANDON_AFTER_DAYS = 30.0
METRICS_FROM = "127.0.0.1,::1"
THINK_TIMEOUT = 10.0
LEASE_SECONDS = 3.0
#: The broker's URL when ``--broker`` is not given: a password in it stays out of ``ps``.
BROKER_ENV_VAR = "GINRUMMY_BROKER_URL"


def default_think_workers() -> int:
    """One thinking process per CPU this process may use, at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # no affinity on this system
        return max(1, os.cpu_count() or 1)


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the web app (default http://127.0.0.1:8000)",
        description="Serve the web app: play against the computer or a friend in the browser. "
        "Games are kept in SQLite in your data directory unless --db or "
        "GINRUMMY_DATABASE_URL names another database. docs/deploying.md says how to run it "
        "behind a reverse proxy.",
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default %(default)s)"
    )
    parser.add_argument(
        "--port", type=int, default=8000, help="port to listen on (default %(default)s)"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="database: a SQLAlchemy URL or the path of a SQLite file (default: a SQLite file "
        "in your data directory)",
    )
    parser.add_argument(
        "--computer-delay",
        type=float,
        default=0.5,
        help="seconds from the start of the computer's turn to its move (it thinks meanwhile, so "
        "how long it thought does not show; default %(default)g)",
    )
    parser.add_argument(
        "--think-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes the computer players, hints and reviews think in, so that a thinking "
        "expert never holds up other tables (default: one per CPU; 0: threads of the server's "
        "own process, for small machines)",
    )
    parser.add_argument(
        "--think-timeout",
        type=float,
        default=THINK_TIMEOUT,
        metavar="SECONDS",
        help="a computer move not worked out in this long is made as for a seat out of time, "
        "and a hint or review answers an error (with --think-workers; default %(default)g)",
    )
    parser.add_argument(
        "--tables-per-minute",
        type=float,
        default=6.0,
        help="new games one address may open a minute, after a burst of 20 (default "
        "%(default)g; 0: no limit)",
    )
    parser.add_argument(
        "--abandon-after",
        type=float,
        default=ABANDON_AFTER_DAYS,
        metavar="DAYS",
        help="close an open game nobody has moved in for this many days (default %(default)g)",
    )
    parser.add_argument(
        "--allowed-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a public origin (https://cards.example.org) pages may come from when it differs "
        "from the Host the server sees, as behind some proxies; repeatable",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default="",
        metavar="IPS",
        help="comma-separated proxy addresses or networks whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed (default: none; '*' for every client)",
    )
    parser.add_argument(
        "--max-connections",
        type=int,
        default=MAX_CONNECTIONS,
        metavar="N",
        help="open connections in all; more are held unread for about --refused-hold seconds, "
        "then reset (default %(default)s; 0: no cap)",
    )
    parser.add_argument(
        "--max-connections-per-address",
        type=int,
        default=MAX_CONNECTIONS_PER_ADDRESS,
        metavar="N",
        help="open connections from one client address, WebSockets included; proxies named "
        "by --forwarded-allow-ips are exempt (default %(default)s; 0: no cap)",
    )
    parser.add_argument(
        "--no-ws-compression",
        dest="ws_compression",
        action="store_false",
        help="send WebSocket messages uncompressed (no permessage-deflate): less CPU and "
        "memory a socket for the server, a state message of about 2.5 KB for the player "
        "instead of a few hundred bytes",
    )
    parser.add_argument(
        "--header-timeout",
        type=float,
        default=HEADER_TIMEOUT,
        metavar="SECONDS",
        help="close a connection that has not sent a whole request this long after connecting "
        "(default %(default)g)",
    )
    parser.add_argument(
        "--refused-hold",
        type=float,
        default=REFUSED_HOLD,
        metavar="SECONDS",
        help="hold a connection over the caps unread about this long before resetting it, so "
        "that a client that reconnects at once is slowed (default %(default)g)",
    )
    parser.add_argument(
        "--metrics-from",
        default=METRICS_FROM,
        metavar="IPS",
        help="comma-separated addresses or networks that may read /metrics ('*': everyone; "
        "default %(default)s, this machine only); /healthz and /readyz are open to all",
    )
    parser.add_argument(
        "--broker",
        metavar="URL",
        help="redis://host:port/db: run as one of many instances sharing the database's "
        "tables, each table's moves applied by the instance holding its lease and the others "
        "relaying their sockets to it (needs the 'broker' extra; default: $"
        f"{BROKER_ENV_VAR}, which keeps a password in the URL out of the process list, else "
        "the only instance)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        metavar="N",
        help="start N instances on this machine sharing the port (needs --broker and a "
        "database file or server every process can open; a dead instance is started again)",
    )
    parser.add_argument(
        "--lease-seconds",
        type=float,
        default=LEASE_SECONDS,
        metavar="SECONDS",
        help="with --broker: how long a table stays with an instance that stops renewing its "
        "lease (a dead one) before another takes it over (default %(default)g)",
    )
    parser.add_argument(
        "--access-log",
        action="store_true",
        help="log each request's method, path (never the query string) and status on stdout",
    )


def _check(args: argparse.Namespace) -> None:
    """Every option's value, before anything is opened (CommandError says what is wrong);
    ``args.broker`` is set from ``$GINRUMMY_BROKER_URL`` when ``--broker`` is not given."""

    def at_least(name: str, value: float, low: float, meaning: str) -> None:
        if not (math.isfinite(value) and value >= low):
            raise CommandError(f"--{name} must be {meaning}, not {value:g}")

    if not 1 <= args.port <= 65535:
        raise CommandError(f"--port {args.port} is outside 1..65535")
    at_least("computer-delay", args.computer_delay, 0, "0 or more seconds")
    if args.think_workers is not None:
        at_least("think-workers", args.think_workers, 0, "0 (threads) or more")
    at_least("tables-per-minute", args.tables_per_minute, 0, "0 (no limit) or more")
    at_least("max-connections", args.max_connections, 0, "0 (no cap) or more")
    at_least(
        "max-connections-per-address", args.max_connections_per_address, 0, "0 (no cap) or more"
    )
    above_zero = {
        "abandon-after": args.abandon_after,
        "header-timeout": args.header_timeout,
        "refused-hold": args.refused_hold,
        "think-timeout": args.think_timeout,
        "lease-seconds": args.lease_seconds,
    }
    for name, value in above_zero.items():
        if not (math.isfinite(value) and value > 0):
            raise CommandError(f"--{name} must be more than 0, not {value:g}")
    if args.workers < 1:
        raise CommandError(f"--workers must be 1 or more, not {args.workers}")
    broker_from = "--broker"
    if args.broker is None:
        args.broker = os.environ.get(BROKER_ENV_VAR, "").strip() or None
        broker_from = f"${BROKER_ENV_VAR}"
    if args.broker is not None and not args.broker.startswith(("redis://", "rediss://", "unix://")):
        shown = without_password(args.broker)
        raise CommandError(f"{broker_from} {shown!r} is not a redis:// URL")
    for origin in args.allowed_origin:
        if not is_origin(origin):
            raise CommandError(
                f"--allowed-origin {origin!r} is not an origin: give the scheme and the host "
                "(and port) of the address browsers show, such as https://cards.example.org"
            )
    if args.workers > 1 and args.broker is None:
        raise CommandError(
            f"--workers needs --broker redis://... (or ${BROKER_ENV_VAR}): the instances share "
            "tables"
        )


def is_origin(value: str) -> bool:
    """Whether ``value`` is an origin as browsers send it: ``http(s)://host[:port]``, with no
    path, query or user.

    >>> is_origin("https://cards.example.org"), is_origin("http://[::1]:8000/")
    (True, True)
    >>> is_origin("cards.example.org"), is_origin("https://cards.example.org/play")
    (False, False)
    """
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value.rstrip("/"))
        parts.port  # noqa: B018 - a port that is no number raises
    except ValueError:
        return False
    return (
        parts.scheme.lower() in ("http", "https")
        and bool(parts.hostname)
        and "@" not in parts.netloc
        and not (parts.path or parts.query or parts.fragment)
    )


def run(args: argparse.Namespace) -> int:
    try:
        from ..web import server
        from ..web.app import create_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise CommandError(
            f"the web app needs the 'web' extra: pip install 'ginrummy[web]' ({exc})"
        ) from None
    _check(args)
    try:
        server.Trusted.parse(args.forwarded_allow_ips)
    except ValueError as exc:
        raise CommandError(f"--forwarded-allow-ips: {exc}") from None
    try:
        server.Trusted.parse(args.metrics_from)
    except ValueError as exc:
        raise CommandError(f"--metrics-from: {exc}") from None
    db_url = database_url(args.db)
    if args.workers > 1 and db_url is not None and _in_memory(db_url):
        raise CommandError("--workers needs a database every process can open, not one in memory")
    if args.broker is not None:
        _check_broker(args.broker)
    files = server.raise_open_file_limit()
    if 0 < files < args.max_connections + 100:
        print(
            f"ginrummy: warning: this process may open only {files} files, too few for "
            f"--max-connections {args.max_connections} (raise the hard limit: ulimit -Hn, "
            "or LimitNOFILE= under systemd)",
            file=sys.stderr,
        )
    try:
        sock = server.listen(args.host, args.port)
    except server.ListenError as exc:
        raise CommandError(str(exc)) from None
    if args.workers > 1:
        try:
            _open_once(db_url)
        except BaseException:
            sock.close()
            raise
        _announce(sock, f"{args.workers} instances")
        return _supervise(args.workers, lambda: _serve_one(args, server, create_app, sock, db_url))
    return _serve_one(args, server, create_app, sock, db_url)


def _announce(sock: Any, what: str = "") -> None:
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    also = f", {what}" if what else ""
    print(f"ginrummy: serving on http://{shown}:{port}  (Ctrl+C stops{also})", flush=True)


def _check_broker(url: str) -> None:
    """The broker answers (CommandError saying why not, in one line)."""
    try:
        import redis
    except ImportError:  # pragma: no cover - depends on the install
        raise CommandError(
            "--broker needs the 'broker' extra: pip install 'ginrummy[broker]'"
        ) from None
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
        client.ping()
        client.close()
    except (ValueError, OSError, redis.RedisError) as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise CommandError(f"cannot reach the broker {without_password(url)}: {reason}") from None


def _open_once(db_url: str | None) -> None:
    """Open the database (bringing its schema up to date) and close it again, before the
    instances are forked: a database that cannot be opened is then one error line, as with one
    instance, rather than each instance's as it dies; and nothing open is shared by the forks."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..storage import StorageError, Store

    try:
        Store(db_url).close()
    except (SQLAlchemyError, StorageError, OSError, ImportError) as exc:
        raise database_error(exc) from None


def _in_memory(db_url: str) -> bool:
    from ..storage.database import is_memory

    return bool(is_memory(db_url))


def _serve_one(
    args: argparse.Namespace, server: Any, create_app: Any, sock: Any, db_url: str | None
) -> int:
    """One instance serving on the listening socket ``sock`` until stopped."""
    from sqlalchemy.exc import SQLAlchemyError

    from ..storage import StorageError

    trusted = server.Trusted.parse(args.forwarded_allow_ips)
    think_workers = args.think_workers
    if think_workers is None:  # the machine's CPUs shared among the instances
        think_workers = max(1, default_think_workers() // args.workers)
    try:
        app = create_app(
            db_url=db_url,
            computer_delay=args.computer_delay,
            tables_per_minute=args.tables_per_minute,
            allowed_origins=list(args.allowed_origin),
            abandon_after_days=args.abandon_after,
            metrics_from=args.metrics_from,
            think_workers=think_workers,
            think_timeout=args.think_timeout,
            broker=args.broker,
            lease_seconds=args.lease_seconds,
        )
    except ValueError as exc:  # an option create_app refuses (origins are checked before)
        sock.close()
        raise CommandError(str(exc)) from None
    except (SQLAlchemyError, StorageError, OSError, ImportError) as exc:
        sock.close()
        raise database_error(exc) from None
    except BaseException:
        sock.close()
        raise
    if args.workers == 1:
        _announce(sock)
    server.serve(
        app,
        [sock],
        max_connections=args.max_connections,
        max_connections_per_address=args.max_connections_per_address,
        header_timeout=args.header_timeout,
        refused_hold=args.refused_hold,
        forwarded_allow_ips=trusted,
        log_access=args.access_log,
        ws_compression=args.ws_compression,
    )
    return 0


def _supervise(count: int, serve_one: Callable[[], int]) -> int:
    """Run ``count`` instances, each a process of its own forked with the listening socket
    (the kernel shares its connections among them); start again any that dies; stop them
    all on SIGINT or SIGTERM. Forked before anything is opened, so that no process shares
    another's database connections or threads."""
    import signal
    import time

    children: dict[int, float] = {}  # pid -> when started
    stopping = False

    def start() -> None:
        pid = os.fork()
        if pid == 0:  # the instance
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            _end_with_parent()
            code = 1
            try:
                code = serve_one()
            except CommandError as exc:
                print(f"ginrummy serve: {exc}", file=sys.stderr, flush=True)
            finally:
                os._exit(code)
        children[pid] = time.monotonic()

    failed = False

    def stop(signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True
        for pid in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    for _ in range(count):
        start()
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        lived = time.monotonic() - children.pop(pid)
        if stopping:
            continue
        if lived < 5.0 and os.WIFEXITED(status) and os.WEXITSTATUS(status) != 0:
            # it could not start (the database, the broker): neither would another
            print(
                f"ginrummy: instance {pid} ended at once ({_ended(status)}); stopping",
                file=sys.stderr,
            )
            stop(signal.SIGTERM, None)
            failed = True
            continue
        print(f"ginrummy: instance {pid} ended ({_ended(status)}); starting another", flush=True)
        start()
    return 1 if failed else 0


def _ended(status: int) -> str:
    """How a process ended, from its wait() status: ``exit status 1``, ``killed by SIGKILL``."""
    import signal

    code = os.waitstatus_to_exitcode(status)
    if code >= 0:
        return f"exit status {code}"
    try:
        return f"killed by {signal.Signals(-code).name}"
    except ValueError:
        return f"killed by signal {-code}"


def _end_with_parent() -> None:
    """On Linux, have this process sent SIGTERM when its parent dies (even by SIGKILL), so that
    no instance outlives the command that started it, holding the port."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG
