"""CI's set-up of Redis (.ci/redis): nothing to do where one answers, and otherwise the steps
that install and start one (checked as a dry run: never installed here)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from webutil import ROOT, free_port

SCRIPT = ROOT / ".ci" / "redis"


def run(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT)],
        env={**os.environ, "REDIS_DRY_RUN": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.usefixtures("broker_url")  # skipped (or failed) where none answers
def test_a_redis_that_answers_is_left_alone() -> None:
    from urllib.parse import urlsplit

    from brokerutil import redis_url

    parts = urlsplit(redis_url())
    host, port = parts.hostname or "127.0.0.1", str(parts.port or 6379)
    if shutil.which("redis-cli") is None:
        pytest.skip("redis-cli is not installed: the script would install Redis")
    result = run(REDIS_HOST=host, REDIS_PORT=port)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines() == [f"Redis at {host}:{port} is up"]


def test_a_missing_redis_is_installed_and_started() -> None:
    port = str(free_port())  # nothing listens there
    result = run(REDIS_HOST="127.0.0.1", REDIS_PORT=port)
    assert result.returncode == 0, result.stderr
    steps = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert steps == [
        "apt-get update -qq",
        "apt-get install -y -qq redis-server",
        f"redis-server --bind 127.0.0.1 --port {port} --daemonize yes --save  --appendonly no",
    ]
