"""The Redis the many-instance tests run on: where it is, and whether it answers (the fixture
is ``broker_url`` in tests/conftest.py; a missing Redis is one skip line, or a failure where
``GINRUMMY_REQUIRE_SERVICES`` is set, exactly as a missing PostgreSQL)."""

from __future__ import annotations

import functools
import os
from urllib.parse import urlsplit

from pgutil import UNREACHABLE

REDIS_ENV = "GINRUMMY_TEST_REDIS"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def redis_url() -> str:
    return os.environ.get(REDIS_ENV, "").strip() or DEFAULT_REDIS


@functools.cache
def redis_missing() -> str | None:
    """Why the test Redis cannot be used (None: it can), asked once per process."""
    url = redis_url()
    parts = urlsplit(url)
    where = f"Redis at {parts.hostname or '127.0.0.1'}:{parts.port or 6379} {UNREACHABLE}"
    try:
        import redis
    except ImportError:
        return f"{where} (redis-py is not installed: pip install 'ginrummy[broker]')"
    try:
        client = redis.Redis.from_url(url, socket_connect_timeout=3, socket_timeout=3)
        client.ping()
        client.close()
    except (OSError, redis.RedisError) as exc:
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"{where} ({first})"
    return None
