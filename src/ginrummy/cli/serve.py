"""``ginrummy serve``: the web app (play against the computer or a friend in the browser)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from . import CommandError

if TYPE_CHECKING:
    from .main import Subparsers


def add_parser(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the web app (default http://127.0.0.1:8000)",
        description="Serve the web app: play against the computer or a friend in the browser. "
        "Games are kept in SQLite in your data directory unless --db or "
        "GINRUMMY_DATABASE_URL names another database.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument("--db", default=None, help="database URL (default: SQLite file)")
    parser.add_argument(
        "--computer-delay",
        type=float,
        default=0.5,
        help="seconds the computer waits before each move",
    )
    parser.add_argument(
        "--tables-per-minute",
        type=float,
        default=6.0,
        help="new games one address may open a minute, after a burst of 20 (0: no limit)",
    )


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from ..web.app import create_app
    except ImportError as exc:  # pragma: no cover - depends on the install
        raise CommandError(
            f"the web app needs the 'web' extra: pip install 'ginrummy[web]' ({exc})"
        ) from None
    if args.tables_per_minute < 0:
        raise CommandError("--tables-per-minute must be 0 (no limit) or more")
    app = create_app(
        db_url=args.db,
        computer_delay=args.computer_delay,
        tables_per_minute=args.tables_per_minute,
    )
    print(f"ginrummy: serving on http://{args.host}:{args.port}  (Ctrl+C stops)", flush=True)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", ws_max_size=65536)
    return 0
