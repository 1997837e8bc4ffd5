"""`<state>/daemon.json`: what a running daemon has scheduled, for `status` to read.

Written by `run` (atomically) at start, after a reload and shortly after jobs fire;
removed on a clean stop. Whether a daemon is alive is decided by its lock, never by
this file: a daemon killed with -9 leaves a stale file and a free lock.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from daemon.kernel import atomic, lock_probe
from daemon.kernel.errors import CorruptState, StateVersionError
from daemon.kernel.paths import StateLayout

VERSION = 1


class JobState(BaseModel):
    # Built when first read: `status` reads the file only while a daemon runs.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    id: str
    agent: str
    group: str
    passes: list[str]
    next_run: str | None


class DaemonState(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    version: int = VERSION
    pid: int
    started_at: str
    config: str
    scheduling: str  # "scheduled", or why nothing is
    jobs: list[JobState]
    daemon_version: str | None = None  # the running daemon's version (None: written before it was)


def state_path(layout: StateLayout) -> Path:
    return layout.root / "daemon.json"


def write(layout: StateLayout, state: DaemonState) -> None:
    atomic.write_text(state_path(layout), state.model_dump_json(indent=1) + "\n")


def remove(layout: StateLayout) -> None:
    atomic.delete(state_path(layout))


def read(layout: StateLayout) -> DaemonState | None:
    path = state_path(layout)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise CorruptState(path, str(exc)) from exc
    if isinstance(raw, dict) and isinstance(raw.get("version"), int) and raw["version"] > VERSION:
        raise StateVersionError(path, raw["version"], VERSION)
    try:
        return DaemonState.model_validate(raw)
    except ValidationError as exc:
        raise CorruptState(path, str(exc.errors()[0]["msg"])) from exc


def daemon_running(layout: StateLayout) -> bool:
    """True if a daemon holds the state directory's lock (probed without waiting or taking it)."""
    return lock_probe.held(layout.daemon_lock)
