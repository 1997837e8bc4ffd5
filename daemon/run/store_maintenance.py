"""Git maintenance of an agent's store, off the run path, under the agent's run lock.

Git's own auto-gc is switched off in every store (`gc.auto 0`, `maintenance.auto false`,
see `daemon.run.store_git`): left on, it would start after some thousand runs in the
foreground of an unlucky run. Instead the daemon packs the store itself — on a schedule
in the service (`store_maintenance` job) or by hand (`metaeng-daemon maintenance`) —
holding the run lock, so no run's git is ever interrupted by it and no run waits on it
longer than the lock's timeout. The outcome is kept in `maintenance.json` (read by
`status` and by the scheduler for the next due time) and logged.
"""

from __future__ import annotations

import os
import time
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from daemon.config.resolve import Deployment
from daemon.kernel import atomic, lazy_log
from daemon.kernel.errors import DaemonError
from daemon.kernel.statefile import read_versioned
from daemon.run.session import agent_session, settled_state

VERSION = 1
log = lazy_log.get_logger("metaeng.maintenance")


class NoStore(DaemonError):
    def __init__(self, agent: str) -> None:
        self.agent = agent
        super().__init__(f"agent {agent!r} has no store yet (no run so far): nothing to pack")


class MaintenanceRecord(BaseModel):
    """The last maintenance of one agent's store (`maintenance.json`)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    agent: str
    started_at: str
    duration_s: float
    outcome: Literal["done", "failed"]
    detail: str = ""
    size_before_bytes: int
    size_after_bytes: int


def folder_size(folder: Path) -> int:
    """Bytes of every regular file under `folder` (0 if it does not exist)."""
    total = 0
    for base, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(base, name)).st_size
            except FileNotFoundError:
                continue  # a temp file git removed meanwhile
    return total


def last_maintenance(path: Path) -> MaintenanceRecord | None:
    """The recorded last maintenance, None if never; CorruptState/StateVersionError if unreadable."""
    return read_versioned(path, MaintenanceRecord, VERSION)


def maintain_store(deployment: Deployment, agent: str, now: datetime, lock_timeout: float) -> MaintenanceRecord:
    """Pack the agent's store (`git gc`) holding its run lock; record and return the outcome.

    Raises NoStore before the agent's first run; AgentBusy if a run holds the lock longer than `lock_timeout` (nothing done, nothing
    recorded). A git failure is recorded as `failed` and returned, not raised: the store is
    as git left it, which gc never leaves inconsistent.
    """
    state = settled_state(deployment, agent)
    if not (state.git_dir / "HEAD").exists():
        raise NoStore(agent)
    began = time.monotonic()
    with agent_session(deployment, agent, now, lock_timeout, commit_external=False) as session:
        before = folder_size(state.git_dir)
        try:
            session.store.gc()
            outcome: Literal["done", "failed"] = "done"
            detail = ""
        except DaemonError as exc:
            outcome, detail = "failed", str(exc)
        after = folder_size(state.git_dir)
        record = MaintenanceRecord(
            agent=agent,
            started_at=now.isoformat(),
            duration_s=round(time.monotonic() - began, 3),
            outcome=outcome,
            detail=detail,
            size_before_bytes=before,
            size_after_bytes=after,
        )
        atomic.write_text(state.maintenance, record.model_dump_json(indent=1) + "\n", mode=0o600)
    event = log.info if outcome == "done" else log.error
    event(
        "maintenance." + outcome,
        agent=agent,
        duration_s=record.duration_s,
        size_before_bytes=before,
        size_after_bytes=after,
        error=detail or None,
    )
    return record
