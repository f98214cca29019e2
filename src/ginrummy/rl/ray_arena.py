"""The arena on Ray: each mirrored pair is one Ray task, on a local Ray or a cluster.

A pair is played by :func:`ginrummy.agents.arena.play_pair`, the function the arena's own
worker processes run, from the same seed, so every pair's games are the same whether they run
in one process, in ``--jobs N`` processes or on Ray; only the decision times differ. Ray is an
optional dependency (``pip install 'ginrummy[ray]'``), imported only here. On a cluster every
node needs ginrummy installed (the same version), as it needs Ray.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from types import ModuleType
from typing import Any

from ..agents.arena import ArenaSummary, PairResult, play_pair, resume, summarize
from ..agents.registry import get_agent
from ..engine import Rules

INSTALL_HINT = "Ray is not installed: pip install 'ginrummy[ray]'"


def import_ray() -> ModuleType:
    """The ``ray`` module; ``ImportError`` with :data:`INSTALL_HINT` when it is missing."""
    try:
        import ray
    except ImportError:
        raise ImportError(INSTALL_HINT) from None
    return ray


@contextmanager
def connected(address: str | None = None, num_cpus: int | None = None) -> Iterator[ModuleType]:
    """Ray, connected: the running one if this process already started or joined one;
    otherwise a new local Ray (``address`` None or empty, with ``num_cpus`` CPUs, all by
    default) or the cluster at ``address`` (``auto``, ``ray://host:10001``, ...), shut down
    again on leaving. ``ConnectionError`` when a ``ray://`` address needs Ray Client and the
    installed Ray has none."""
    ray = import_ray()
    if ray.is_initialized():
        yield ray
        return
    options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.WARNING}
    if address:
        if num_cpus is not None:
            raise ValueError("num_cpus applies to a local Ray only, not to a cluster")
        options["address"] = address
    else:
        options["num_cpus"] = num_cpus
    try:
        ray.init(**options)
    except ValueError:
        if not (address or "").startswith("ray://"):
            raise
        # Ray installed without its client (``pip install ray``) refuses a ``ray://`` address.
        raise ConnectionError(
            "a ray:// address needs Ray Client, which this Ray lacks: "
            "pip install 'ginrummy[ray]' (it installs ray[client])"
        ) from None
    try:
        yield ray
    finally:
        ray.shutdown()


def run_arena_on_ray(
    a: str,
    b: str,
    *,
    pairs: int,
    rules: Rules,
    seed: int,
    address: str | None = None,
    num_cpus: int | None = None,
    on_pair: Callable[[PairResult], None] | None = None,
    done: Mapping[int, PairResult] | None = None,
    match: bool = False,
) -> ArenaSummary:
    """:func:`ginrummy.agents.arena.run_arena` with the pairs as Ray tasks (see
    :func:`connected` for ``address`` and ``num_cpus``); ``on_pair`` is called here as each
    pair finishes, in any order; the pairs in ``done`` are not played again."""
    if pairs < 1:
        raise ValueError(f"the arena needs at least one pair of games, not {pairs}")
    if match and not rules.match_target:
        raise ValueError("these rules play no match (match_target is 0)")
    get_agent(a), get_agent(b)  # unknown names fail here, before Ray starts
    results, todo = resume(done, pairs, seed)
    if not todo:
        return summarize(a, b, rules, seed, results, match=match)
    with connected(address, num_cpus) as ray:
        task = ray.remote(num_cpus=1)(play_pair)
        pending = [task.remote(a, b, rules, seed, i, match=match) for i in todo]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for result in ray.get(done):
                results.append(result)
                if on_pair is not None:
                    on_pair(result)
    results.sort(key=lambda r: r.index)
    return summarize(a, b, rules, seed, results, match=match)
