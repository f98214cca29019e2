"""The site benchmarks/server_load.py runs against: a fresh database for each run, the broker
checked before any server starts, and what each instance's ``/metrics`` shows.

``--db`` is ``sqlite`` (a SQLite file in a temporary folder), a PostgreSQL URL (a schema of its
own is made in that database for each run, as the tests make theirs, and dropped with
everything in it afterwards; the servers' search path and application name are the schema) or
any other database URL, used as it is.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

import httpx
from prometheus_client.parser import text_string_to_metric_families

POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
LAG = "ginrummy_event_loop_lag_seconds"
GC = "ginrummy_gc_pause_seconds"


def is_postgres(spec: str) -> bool:
    return spec.lower().startswith(("postgresql://", "postgres://", "postgresql+psycopg://"))


def _libpq(url: str) -> str:
    """A URL as libpq reads it (no SQLAlchemy driver name)."""
    return "postgresql://" + url.split("://", 1)[1]


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


@contextlib.contextmanager
def fresh_database(spec: str, tmp: Path) -> Iterator[str]:
    """The database URL of one run (see the module docstring), cleared away after it."""
    if spec == "sqlite":
        yield f"sqlite:///{tmp / 'load.db'}"
        return
    if not is_postgres(spec):
        yield spec
        return
    import psycopg

    schema = f"load_{secrets.token_hex(6)}"
    try:
        with psycopg.connect(_libpq(spec), autocommit=True, connect_timeout=5) as connection:
            connection.execute(f'CREATE SCHEMA "{schema}"')
    except psycopg.Error as exc:
        raise SystemExit(f"cannot make a schema in {spec}: {_first_line(exc)}") from None
    joiner = "&" if "?" in spec else "?"
    options = quote(f"-csearch_path={schema}")
    try:
        yield f"{spec}{joiner}options={options}&application_name={schema}"
    finally:
        with psycopg.connect(_libpq(spec), autocommit=True, connect_timeout=5) as connection:
            # A server killed rather than stopped may leave a connection that holds the drop up.
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name = %s AND pid <> pg_backend_pid()",
                (schema,),
            )
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


def checkpoint(spec: str) -> None:
    """On PostgreSQL, a checkpoint now: its timed one (every ``checkpoint_timeout``, 5 minutes
    by default) then falls outside the next minutes, instead of inside a run by chance. A
    checkpoint writes the pages changed since the last one over a minute or so, and commits
    meanwhile wait longer (on the 2-core machine the p99 round trip of runs that overlapped
    one was several times that of runs that did not). Without the right to (CHECKPOINT needs
    a superuser, or pg_checkpoint), says so and goes on."""
    if not is_postgres(spec):
        return
    import psycopg

    try:
        with psycopg.connect(_libpq(spec), autocommit=True, connect_timeout=5) as connection:
            connection.execute("CHECKPOINT")
    except psycopg.Error as exc:
        print(f"no checkpoint before the run: {_first_line(exc)}", flush=True)


def check_broker(url: str) -> None:
    """End the script with one line when the broker does not answer."""
    import redis

    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=5)
        client.ping()
        client.close()
    except (redis.RedisError, ValueError) as exc:
        raise SystemExit(f"the broker {url} does not answer: {_first_line(exc)}") from None


@dataclass
class Scrape:
    """One instance's ``/metrics`` at one moment."""

    lag_buckets: list[tuple[float, float]] = field(default_factory=list)  # (le, cumulative)
    lag_sum: float = 0.0
    lag_count: float = 0.0
    open_sockets: float = float("nan")
    tables: float = float("nan")
    #: The garbage collector's pauses so far: full collections, and pauses over 50 ms (any
    #: generation).
    gc_full: float = 0.0
    gc_slow: float = 0.0


async def scrape(client: httpx.AsyncClient, url: str) -> Scrape:
    """``url``'s ``/metrics``, read from 127.0.0.1 (the only address it answers by default)."""
    response = await client.get(f"{url}/metrics")
    response.raise_for_status()
    found = Scrape()
    for family in text_string_to_metric_families(response.text):
        for sample in family.samples:
            if sample.name == f"{LAG}_bucket":
                found.lag_buckets.append((float(sample.labels["le"]), sample.value))
            elif sample.name == f"{LAG}_sum":
                found.lag_sum = sample.value
            elif sample.name == f"{LAG}_count":
                found.lag_count = sample.value
            elif sample.name == "ginrummy_open_sockets":
                found.open_sockets = sample.value
            elif sample.name == "ginrummy_tables_in_memory":
                found.tables = sample.value
            elif sample.name == f"{GC}_count":
                if sample.labels["generation"] == "2":
                    found.gc_full = sample.value
                found.gc_slow += sample.value
            elif sample.name == f"{GC}_bucket" and sample.labels["le"] == "0.05":
                found.gc_slow -= sample.value
    found.lag_buckets.sort()
    return found


def lag_quantile(before: Scrape, after: Scrape, q: float) -> float:
    """The ``q`` quantile of the event-loop lag measured between two scrapes, in seconds, as
    Prometheus's ``histogram_quantile`` works it out: linear within the bucket it falls in (in
    the last, unbounded bucket: that bucket's lower bound). NaN when nothing was measured."""
    earlier = dict(before.lag_buckets)
    counts = [(le, cum - earlier.get(le, 0.0)) for le, cum in after.lag_buckets]
    total = counts[-1][1] if counts else 0.0
    if total <= 0:
        return float("nan")
    rank = q * total
    low, below = 0.0, 0.0
    for le, cum in counts:
        if cum >= rank:
            if le == float("inf"):
                return low
            inside = cum - below
            return low + (le - low) * ((rank - below) / inside if inside else 1.0)
        low, below = le, cum
    return low
