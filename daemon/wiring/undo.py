"""Undo, wired: the run machinery's revert with the engines' record-level merges.

`daemon/run/undo.py` reverts a run file by file; a file made of records (the fact store)
is merged record by record instead of line by line, with the memory engine's own merge.
The run machinery never imports an engine, so this composition root hands it in.
"""

from __future__ import annotations

from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.run.undo import RecordMerge, UndoResult, undo_run
from memory_engine import factstore


def record_merges(deployment: Deployment, agent: str) -> dict[str, RecordMerge]:
    """The agent's files made of records, each with its record-level three-way merge."""
    return {deployment.agent(agent).memory.store: factstore.merge3}


def undo(deployment: Deployment, agent: str, run_id: str, now: datetime, lock_timeout: float) -> UndoResult:
    """Revert `run_id` of `agent` as a new run (see `daemon.run.undo.undo_run`)."""
    return undo_run(deployment, agent, run_id, now, lock_timeout, record_merges(deployment, agent))
