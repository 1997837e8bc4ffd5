"""Undo, wired: the run machinery's revert with the engines' record-level merges.

`daemon/run/revert.py` reverts a run file by file; a file made of records (every shard of
the fact store, and a single-file store not yet migrated) is merged record by record
instead of line by line, with the memory engine's own merge. The run machinery never
imports an engine, so this composition root hands it in.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.run.revert import RecordMerge, UndoResult, preview_undo, undo_run
from memory_engine import factstore
from memory_engine.fact_shards import is_shard


class FactStoreMerges(Mapping[str, RecordMerge]):
    """Every fact-store file of one store → the record merge; answers for any shard path
    without listing the (up to 4,096) shards."""

    def __init__(self, store: str) -> None:
        self._store = store

    def __getitem__(self, path: str) -> RecordMerge:
        if path == self._store or is_shard(self._store, path):
            return factstore.merge3
        raise KeyError(path)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and (path == self._store or is_shard(self._store, path))

    def __iter__(self) -> Iterator[str]:
        return iter((self._store,))

    def __len__(self) -> int:
        return 1


def record_merges(deployment: Deployment, agent: str) -> Mapping[str, RecordMerge]:
    """The agent's files made of records, each with its record-level three-way merge."""
    return FactStoreMerges(deployment.agent(agent).memory.store)


def undo(deployment: Deployment, agent: str, run_id: str, now: datetime, lock_timeout: float) -> UndoResult:
    """Revert `run_id` of `agent` as a new run (see `daemon.run.revert.undo_run`)."""
    return undo_run(deployment, agent, run_id, now, lock_timeout, record_merges(deployment, agent))


def preview(deployment: Deployment, agent: str, run_id: str) -> UndoResult:
    """What `undo` would change, nothing applied (see `daemon.run.revert.preview_undo`)."""
    return preview_undo(deployment, agent, run_id, record_merges(deployment, agent))
