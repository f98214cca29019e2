"""Self-play data: hands between computer players written as trajectories, one row a decision,
in columns (Parquet through pyarrow, or numpy's ``.npz``), in parallel on Ray or locally.

The rows speak the environments' language (docs/rl.md): the observation is any encoding of
:mod:`.encodings` by name, computed as the environments compute it, and the actions are the
environments' ids (:mod:`.actions`), so a policy trained on the file plays in ``ginrummy_v0``,
the Gymnasium environment or ``VectorEnv`` with the same encoding. The columns, one row per
decision, in episode order and within an episode in the order played:

=============  ======================  ===================================================
``episode``    int64                   the hand's number, 0 .. N-1
``step``       int32                   the decision's number within the hand
``seat``       int8                    the seat deciding
``observation``float32 x encoding size the deciding seat's observation in the run's encoding
                                       (``default`` unless chosen), flattened;
                                       :func:`observations_of` gives it its shape again
``action_mask``bool x 214              the legal action ids (:data:`.actions.NUM_ACTIONS`)
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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ..agents.play import play_hand
from ..agents.registry import get_agent
from ..engine import Action, Hand, Rules
from ..engine.game import derived_seed
from .actions import NUM_ACTIONS, action_id, ids_of
from .encoding_registry import get_encoding
from .knowledge import NoScores
from .names import NAME
from .observations import Observations
from .options import EnvOptions, make_options

Columns = dict[str, npt.NDArray[Any]]

#: Episodes a task plays (a process's or a Ray task's share, and a Parquet row group).
CHUNK: Final = 64
FORMAT: Final = "ginrummy-selfplay"
#: 2: the environments' action ids and encodings (1 had OpenSpiel's ids and tensor).
VERSION: Final = 2


@dataclass(frozen=True)
class SelfPlay:
    """What to generate: ``episodes`` hands of ``agents`` (seat 0's first) under ``rules``,
    observed in the environments' encoding ``encoding``."""

    episodes: int
    agents: tuple[str, str] = ("simple", "simple")
    rules: Rules = field(default_factory=Rules)
    seed: int = 0
    encoding: str = "default"

    def __post_init__(self) -> None:
        if self.episodes < 1:
            raise ValueError(f"episodes must be at least 1, not {self.episodes}")
        get_encoding(self.encoding)  # an unknown name fails here, naming the encodings
        for name in self.agents:
            get_agent(name)  # unknown names fail here, before any worker starts

    def options(self) -> EnvOptions:
        """The environment options whose observations the rows hold (one hand an episode)."""
        return make_options(rules=self.rules, encoding=self.encoding)

    def observation_shape(self) -> tuple[int, ...]:
        return Observations(self.options()).encoders[0].shape

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
            "observation_shape": list(self.observation_shape()),
            "actions": NAME,
            "num_actions": NUM_ACTIONS,
        }


def episode_seed(seed: int, episode: int) -> int:
    """The seed of episode ``episode`` of a run with ``seed``."""
    return derived_seed(seed, f"selfplay:{episode}")


def play_chunk(config: SelfPlay, first: int, stop: int) -> Columns:
    """Episodes ``first`` .. ``stop - 1`` as columns.

    Each hand is played by the agents, then replayed action by action on a fresh deal of the
    same deck while both seats observe it as an environment's seats do."""
    observations = Observations(config.options())
    rows: list[tuple[int, int, int, int, float, bool]] = []
    encoded: list[npt.NDArray[np.float32]] = []
    legal: list[list[int]] = []
    for episode in range(first, stop):
        dealer = episode % 2
        agents = [get_agent(name) for name in config.agents]
        played = play_hand(config.rules, dealer, episode_seed(config.seed, episode), agents)
        result = played.result
        assert result is not None
        last = {event.seat: n for n, event in enumerate(played.events)}
        hand = Hand.from_deck(config.rules, dealer, played.deck)
        observations.deal(hand, NoScores())
        for n, event in enumerate(played.events):
            seat = event.seat
            done = last[seat] == n
            reward = 0.0
            if done and result.winner is not None:
                reward = float(result.points if result.winner == seat else -result.points)
            action = event.action
            plain = Action(action.kind, action.card) if action.melds is not None else action
            rows.append((episode, n, seat, action_id(plain), reward, done))
            encoded.append(observations.encoded(seat))
            legal.append(ids_of(hand.legal_actions()))
            observations.saw(hand.apply(action))
    episode_col, step, seat_col, action_col, reward_col, done_col = zip(*rows, strict=True)
    masks = np.zeros((len(rows), NUM_ACTIONS), np.bool_)
    for row, ids in enumerate(legal):
        masks[row, ids] = True
    return {
        "episode": np.array(episode_col, np.int64),
        "step": np.array(step, np.int32),
        "seat": np.array(seat_col, np.int8),
        "observation": np.stack(encoded).reshape(len(rows), -1),
        "action_mask": masks,
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
    else:
        with np.load(path) as data:
            columns = {name: data[name] for name in data.files if name != "metadata"}
            meta = json.loads(str(data["metadata"]))
    return columns, meta


def observations_of(columns: Columns, metadata: dict[str, Any]) -> npt.NDArray[np.float32]:
    """The observation column in the encoding's own shape: ``(rows, *observation_shape)``."""
    shape = tuple(metadata["observation_shape"])
    return columns["observation"].reshape(len(columns["observation"]), *shape)
