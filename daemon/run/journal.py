"""The in-flight journal: what a run is about to write, persisted before it writes.

It holds, per path, the hash before and after, and the cursor advances; recovery uses
it to finish a committed run (advance the cursors) or roll back an uncommitted one
(restore only the files still holding what this run wrote).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from daemon.kernel import atomic
from daemon.kernel.changeset import CursorAdvance
from daemon.kernel.statefile import read_versioned

VERSION = 1


class JournalEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str
    before: str | None  # sha256 of the content before the run, None = absent
    after: str | None  # sha256 of what the run writes, None = deleted


class Journal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    run_id: str
    agent: str
    head: str | None
    started_at: str
    passes: list[str]
    files: list[JournalEntry]
    cursor_advances: list[CursorAdvance]


def digest(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def save(path: Path, journal: Journal) -> None:
    atomic.write_text(path, journal.model_dump_json(indent=1) + "\n", mode=0o600)


def load(path: Path) -> Journal | None:
    return read_versioned(path, Journal, VERSION)


def clear(path: Path) -> None:
    atomic.delete(path)
