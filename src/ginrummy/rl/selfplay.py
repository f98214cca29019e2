"""Self-play data: hands between computer players written as trajectories, one row a decision,
in columns (Parquet through pyarrow, or numpy's ``.npz``), in parallel on Ray or locally.

The columns, one row per decision, in episode order and within an episode in the order played:

=============  ======================  ===================================================
``episode``    int64                   the hand's number, 0 .. N-1
``step``       int32                   the decision's number within the hand
``seat``       int8                    the seat deciding
``observation``float32 x encoding size the deciding seat's view, encoded (default OpenSpiel's
                                       644-wide tensor, :func:`.openspiel.observation_tensor`)
``action_mask``bool x 213              the legal action ids (:mod:`.openspiel_actions`)
``action``     int16                   the action id chosen
``reward``     float32                 the points the seat won (negative: lost) in the hand,
                                       on its last decision; 0 elsewhere
``done``       bool                    the seat's last decision in the hand
=============  ======================  ===================================================

Episode ``i`` is one hand dealt by seat ``i % 2`` from a seed derived from the run's seed and
``i`` (its agents' random choices too), so a run is reproduced exactly by its seed whatever the
number of processes or Ray tasks, which only split the episodes into chunks. A knock naming
its own melds (the computer players choose theirs) is recorded as the knock with that card: the
action ids name the default melds only. The file carries the run's settings as metadata.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..agents.base import Agent, BaseAgent
from ..agents.play import play_hand
from ..agents.registry import get_agent
from ..engine import Action, PlayerView, Rules
from ..engine.game import derived_seed
from . import openspiel_actions as ids
from .openspiel import TENSOR_SIZE, observation_tensor

Encoder = Callable[[PlayerView], npt.NDArray[np.float32]]
Columns = dict[str, npt.NDArray[Any]]

#: Observation encodings by name: the function and its width.
ENCODINGS: Final[dict[str, tuple[Encoder, int]]] = {
    "openspiel": (observation_tensor, TENSOR_SIZE),
}
#: Episodes a task plays (a process's or a Ray task's share, and a Parquet row group).
CHUNK: Final = 64
FORMAT: Final = "ginrummy-selfplay"
VERSION: Final = 1


@dataclass(frozen=True)
class SelfPlay:
    """What to generate: ``episodes`` hands of ``agents`` (seat 0's first) under ``rules``."""

    episodes: int
    agents: tuple[str, str] = ("simple", "simple")
    rules: Rules = field(default_factory=Rules)
    seed: int = 0
    encoding: str = "openspiel"

    def __post_init__(self) -> None:
        if self.episodes < 1:
            raise ValueError(f"episodes must be at least 1, not {self.episodes}")
        if self.encoding not in ENCODINGS:
            names = ", ".join(ENCODINGS)
            raise ValueError(f"unknown encoding {self.encoding!r}; encodings are: {names}")
        for name in self.agents:
            get_agent(name)  # unknown names fail here, before any worker starts

    def chunks(self) -> list[tuple[int, int]]:
        """The episodes as ``(first, stop)`` ranges of :data:`CHUNK`."""
        return [(i, min(i + CHUNK, self.episodes)) for i in range(0, self.episodes, CHUNK)]

    def metadata(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "episodes": self.episodes,
            "agents": list(self.agents),
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "encoding": self.encoding,
            "actions": "python_ginrummy",
            "num_actions": ids.NUM_ACTIONS,
        }


class _Recorder(BaseAgent):
    """Passes an agent's decisions through, noting each (view, action) in ``steps``."""

    def __init__(self, inner: Agent, steps: list[tuple[PlayerView, Action]]) -> None:
        self.inner = inner
        self.steps = steps
        self.name = str(getattr(inner, "name", type(inner).__name__))

    def new_hand(self) -> None:
        new_hand = getattr(self.inner, "new_hand", None)
        if callable(new_hand):
            new_hand()

    def observe(self, view: PlayerView) -> None:
        observe = getattr(type(self.inner), "observe", None)
        if callable(observe) and observe is not BaseAgent.observe:
            observe(self.inner, view)

    def act(self, view: PlayerView, rng: random.Random) -> Action:
        action = self.inner.act(view, rng)
        self.steps.append((view, action))
        return action


def episode_seed(seed: int, episode: int) -> int:
    """The seed of episode ``episode`` of a run with ``seed``."""
    return derived_seed(seed, f"selfplay:{episode}")


def play_chunk(config: SelfPlay, first: int, stop: int) -> Columns:
    """Episodes ``first`` .. ``stop - 1`` as columns."""
    encode, width = ENCODINGS[config.encoding]
    rows: list[tuple[int, int, int, int, float, bool]] = []
    observations: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.bool_]] = []
    for episode in range(first, stop):
        steps: list[tuple[PlayerView, Action]] = []
        agents = [_Recorder(get_agent(name), steps) for name in config.agents]
        hand = play_hand(config.rules, episode % 2, episode_seed(config.seed, episode), agents)
        result = hand.result
        assert result is not None
        last = {view.seat: n for n, (view, _) in enumerate(steps)}
        for n, (view, action) in enumerate(steps):
            done = last[view.seat] == n
            reward = 0.0
            if done and result.winner is not None:
                reward = float(result.points if result.winner == view.seat else -result.points)
            plain = Action(action.kind, action.card) if action.melds is not None else action
            rows.append((episode, n, view.seat, ids.action_id(plain), reward, done))
            observations.append(encode(view))
            masks.append(ids.action_mask(view.legal_actions))
    episode_col, step, seat, action_col, reward_col, done_col = zip(*rows, strict=True)
    return {
        "episode": np.array(episode_col, np.int64),
        "step": np.array(step, np.int32),
        "seat": np.array(seat, np.int8),
        "observation": np.stack(observations).astype(np.float32).reshape(-1, width),
        "action_mask": np.stack(masks),
        "action": np.array(action_col, np.int16),
        "reward": np.array(reward_col, np.float32),
        "done": np.array(done_col, np.bool_),
    }


def _play_chunk_task(task: tuple[SelfPlay, int, int]) -> Columns:
    return play_chunk(*task)


def generate(
    config: SelfPlay,
    *,
    jobs: int = 1,
    ray: str | None = None,
    ray_cpus: int | None = None,
) -> Iterator[Columns]:
    """The run's chunks of columns, in episode order: in this process (``jobs`` 1), in
    ``jobs`` worker processes (0: one per core), or as Ray tasks when ``ray`` is given (``""``
    for a local Ray with ``ray_cpus`` CPUs, all by default, or a cluster's address; see
    :func:`.ray_arena.connected`)."""
    tasks = [(config, first, stop) for first, stop in config.chunks()]
    if ray is not None:
        from .ray_arena import connected

        with connected(ray or None, ray_cpus) as ray_module:
            task = ray_module.remote(num_cpus=1)(play_chunk)
            refs = [task.remote(*t) for t in tasks]
            for ref in refs:  # in order, each as soon as it and those before it are done
                yield ray_module.get(ref)
        return
    if jobs < 0:
        raise ValueError(f"jobs must be 0 (all cores) or more, not {jobs}")
    workers = min(jobs or os.cpu_count() or 1, len(tasks))
    if workers <= 1:
        for t in tasks:
            yield _play_chunk_task(t)
        return
    with get_context("spawn").Pool(workers) as pool:
        yield from pool.imap(_play_chunk_task, tasks)


def concatenate(chunks: Sequence[Columns]) -> Columns:
    """Chunks joined into one set of columns."""
    return {name: np.concatenate([c[name] for c in chunks]) for name in chunks[0]}


def write(
    path: str | Path,
    config: SelfPlay,
    chunks: Iterator[Columns],
    on_chunk: Callable[[Columns], None] | None = None,
) -> int:
    """Write the chunks to ``path``: Parquet for ``.parquet`` (streamed, a row group a chunk),
    numpy's ``.npz`` otherwise (compressed; the metadata as JSON in ``metadata``). Returns the
    number of rows."""
    path = Path(path)
    meta = json.dumps(config.metadata())
    rows = 0
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        writer = None
        try:
            for chunk in chunks:
                table = _to_arrow(pa, chunk)
                if writer is None:
                    schema = table.schema.with_metadata({"ginrummy": meta})
                    writer = pq.ParquetWriter(path, schema, compression="zstd")
                writer.write_table(table.replace_schema_metadata({"ginrummy": meta}))
                rows += len(chunk["episode"])
                if on_chunk is not None:
                    on_chunk(chunk)
        finally:
            if writer is not None:
                writer.close()
        return rows
    if path.suffix != ".npz":
        raise ValueError(f"write .parquet or .npz, not {path.name!r}")
    kept: list[Columns] = []
    for chunk in chunks:
        kept.append(chunk)
        if on_chunk is not None:
            on_chunk(chunk)
    columns = concatenate(kept)
    arrays: dict[str, Any] = {**columns, "metadata": np.array(meta)}
    np.savez_compressed(path, **arrays)
    return len(columns["episode"])


def _to_arrow(pa: Any, chunk: Columns) -> Any:
    arrays = {}
    for name, values in chunk.items():
        if values.ndim == 2:
            flat = pa.array(values.reshape(-1))
            arrays[name] = pa.FixedSizeListArray.from_arrays(flat, values.shape[1])
        else:
            arrays[name] = pa.array(values)
    return pa.table(arrays)


def load(path: str | Path) -> tuple[Columns, dict[str, Any]]:
    """A file :func:`write` wrote: its columns (observation and action_mask as 2-D arrays)
    and its metadata."""
    path = Path(path)
    if path.suffix == ".parquet":
        import pyarrow as pa
        import pyarrow.parquet as pq

        table = pq.read_table(path)
        meta = json.loads(table.schema.metadata[b"ginrummy"])
        columns: Columns = {}
        for name in table.column_names:
            column = table.column(name).combine_chunks()
            if pa.types.is_fixed_size_list(column.type):
                width = column.type.list_size
                columns[name] = column.flatten().to_numpy(zero_copy_only=False).reshape(-1, width)
            else:
                columns[name] = column.to_numpy(zero_copy_only=False)
        return columns, meta
    with np.load(path) as data:
        columns = {name: data[name] for name in data.files if name != "metadata"}
        return columns, json.loads(str(data["metadata"]))
