"""CI's set-up of PostgreSQL (.ci/postgres): nothing to do where one answers, and otherwise
the steps that install, trust, start and fill one (checked as a dry run: never installed
here)."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest
from sqlalchemy.engine import make_url

from pgutil import postgres_url
from webutil import ROOT, free_port

SCRIPT = ROOT / ".ci" / "postgres"


def run(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT)],
        env={**os.environ, "PG_DRY_RUN": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.postgresql
@pytest.mark.usefixtures("postgres_schema_url")  # skipped (or failed) where none answers
def test_a_postgres_that_answers_is_left_alone() -> None:
    if shutil.which("pg_isready") is None:
        pytest.skip("pg_isready is not installed: the script would install PostgreSQL")
    url = make_url(postgres_url().replace("postgres://", "postgresql://", 1))
    result = run(PG_HOST=url.host or "127.0.0.1", PG_PORT=str(url.port or 5432))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines() == [f"PostgreSQL at {url.host}:{url.port} is up"]


def test_a_missing_postgres_is_installed_trusted_started_and_filled() -> None:
    port = str(free_port())  # nothing listens there
    result = run(PG_HOST="127.0.0.1", PG_PORT=port)
    assert result.returncode == 0, result.stderr
    steps = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert steps[:2] == ["apt-get update -qq", "apt-get install -y -qq postgresql"]
    assert steps[2].startswith("trust_local /etc/postgresql/") and "pg_hba.conf" in steps[2]
    assert f"port = {port}/" in steps[3]
    assert steps[4].startswith("pg_ctlcluster ") and steps[4].endswith(" main start")
    assert steps[5:] == ["create_role_and_database"]
    assert "nothing was done" in result.stdout
