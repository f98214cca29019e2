"""benchmarks/server_load.py: its options, its reading of the servers' /metrics, and short
runs on one instance (SQLite) and on two sharing a PostgreSQL schema and a Redis broker, the
two seats of every table on different instances."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from benchutil import load
from pgutil import admin, postgres_url

server_load = load("server_load")
load_site = load("load_site")


def runs(out: str) -> list[dict[str, Any]]:
    """The figures of each run, from the JSON lines ``--json`` prints."""
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


@pytest.fixture
def postgres_base(postgres_schema_url: str) -> str:
    """The test PostgreSQL's own URL, for the script to make its schemas in; asking for
    ``postgres_schema_url`` skips (or, in CI, fails) the test as every PostgreSQL test is where
    the server cannot be reached."""
    return postgres_url()


def load_schemas() -> set[str]:
    with admin() as connection:
        rows = connection.execute(
            "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'load\\_%'"
        ).fetchall()
    return {row[0] for row in rows}


# -- the options -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--tables", "500,x"], "not a count or a list of counts: '500,x'"),
        (["--tables", "500,0"], "each count must be at least 1: '500,0'"),
        (["--instances", "0"], "--instances must be at least 1"),
        (["--saturate", "--think", "3"], "--saturate is --think 0: give one or the other"),
        (["--think", "-1"], "--think must be at least 0"),
        (["--profile", "p.out", "--tables", "1,2"], "--profile needs a single --tables count"),
    ],
)
def test_bad_options_say_why_in_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        server_load.parse(argv)
    assert exit_.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(message)


def test_the_defaults_think_three_seconds_and_use_a_broker_only_for_several_instances() -> None:
    one = server_load.parse([])
    assert (one.tables, one.think, one.broker, one.db) == ([500], 3.0, None, load_site.POSTGRES)
    two = server_load.parse(["--instances", "2", "--saturate", "--tables", "500,1000,2000"])
    assert (two.tables, two.think, two.broker) == ([500, 1000, 2000], 0.0, server_load.BROKER)


def test_a_broker_that_does_not_answer_ends_the_script_before_any_server_starts() -> None:
    with pytest.raises(SystemExit) as exit_:
        server_load.main(["--instances", "2", "--broker", "redis://127.0.0.1:1/0"])
    assert str(exit_.value).startswith("the broker redis://127.0.0.1:1/0 does not answer: ")
    assert "\n" not in str(exit_.value)


def test_a_database_that_does_not_answer_ends_the_script_in_one_line() -> None:
    with pytest.raises(SystemExit) as exit_:
        server_load.main(["--db", "postgresql://postgres@127.0.0.1:1/test"])
    assert str(exit_.value).startswith("cannot make a schema in postgresql://postgres@127.0.0.1:1")
    assert "\n" not in str(exit_.value)


def test_with_several_instances_the_two_seats_of_a_table_never_share_one() -> None:
    for count in (2, 3, 4):
        for n in range(12):
            holder = server_load.seat_instance(n, 0, count)
            assert holder == n % count  # the instance the table was created on
            assert server_load.seat_instance(n, 1, count) != holder
    assert {server_load.seat_instance(n, s, 1) for n in range(5) for s in (0, 1)} == {0}


# -- reading /metrics ------------------------------------------------------------------------


def scrape(buckets: dict[float, float], total: float) -> Any:
    return load_site.Scrape(lag_buckets=sorted(buckets.items()), lag_sum=total)


def test_the_lag_quantile_is_read_from_the_buckets_filled_between_two_scrapes() -> None:
    inf = float("inf")
    before = scrape({0.001: 90, 0.01: 100, 0.1: 100, inf: 100}, 0)
    # Between the scrapes: 100 more under 1 ms, 98 between 1 and 10 ms, 2 between 10 and 100.
    after = scrape({0.001: 190, 0.01: 298, 0.1: 300, inf: 300}, 0)
    assert load_site.lag_quantile(before, after, 0.5) == pytest.approx(0.001)
    assert load_site.lag_quantile(before, after, 0.99) == pytest.approx(0.01)
    assert load_site.lag_quantile(before, after, 0.995) == pytest.approx(0.01 + 0.09 * 0.5)
    assert load_site.lag_quantile(before, after, 0.25) == pytest.approx(0.0005)
    # Past the last finite bound: that bound, as Prometheus answers.
    late = scrape({0.001: 190, 0.01: 298, 0.1: 299, inf: 300}, 0)
    assert load_site.lag_quantile(before, late, 0.999) == pytest.approx(0.1)
    assert math.isnan(load_site.lag_quantile(before, before, 0.99))


# -- short runs ------------------------------------------------------------------------------


def test_one_instance_on_sqlite_saturated_each_count_on_fresh_servers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["--db", "sqlite", "--tables", "1,2", "--saturate", "--duration", "2"]
    assert server_load.main([*argv, "--warmup", "0.5", "--json"]) == 0
    out = capsys.readouterr().out
    first, second = runs(out)
    for result, tables in ((first, 1), (second, 2)):
        assert (result["tables"], result["sockets"], result["held"]) == (
            tables,
            2 * tables,
            2 * tables,
        )
        assert result["errors"] == 0, result["error_examples"]
        assert result["think"] == 0 and result["actions_per_s"] > 5
        (instance,) = result["per_instance"]
        # Fresh servers: the second run's instance holds its own two tables, not three.
        assert instance["tables_in_memory"] == tables
        assert instance["open_sockets"] == 2 * tables
        assert math.isfinite(instance["lag_p99_ms"]) and instance["rss_end_mib"] > 0
        assert math.isfinite(result["client_lag_p99_ms"])
    assert "sockets held: 4 of 4" in out
    assert out.splitlines()[-3].startswith("tables  held/asked  p50 ms  p99 ms  actions/s")


@pytest.mark.postgresql
def test_two_instances_relay_every_tables_second_seat_and_drop_their_schema(
    postgres_base: str, broker_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    schemas = load_schemas()
    argv = ["--instances", "2", "--tables", "4", "--think", "0.2", "--duration", "3"]
    argv += ["--warmup", "1", "--db", postgres_base, "--broker", broker_url, "--json"]
    assert server_load.main(argv) == 0
    out = capsys.readouterr().out
    (result,) = runs(out)
    assert (result["instances"], result["sockets"], result["held"]) == (2, 8, 8)
    assert result["errors"] == 0, result["error_examples"]
    assert result["actions"] > 0 and math.isfinite(result["relayed_p99_ms"])
    # Each instance holds two tables: their first seats' sockets, the second seats relayed
    # to it from the other instance, and the other's two second seats it relays.
    assert [i["tables_in_memory"] for i in result["per_instance"]] == [2, 2]
    assert [i["open_sockets"] for i in result["per_instance"]] == [6, 6]
    assert all(math.isfinite(i["lag_p99_ms"]) for i in result["per_instance"])
    assert "on the relayed sockets alone: p99" in out
    assert load_schemas() == schemas  # the run's schema is gone
