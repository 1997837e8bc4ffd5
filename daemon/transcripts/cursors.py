"""Persisted transcript cursors: per consumer (pass) and file, the byte offset analysed.

Cursors move only after the run that consumed the turns is committed (the runner calls
`advance`), so a crash or a skipped cycle re-reads the same turns next time.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from daemon.kernel import atomic
from daemon.kernel.changeset import Cursor, CursorAdvance
from daemon.kernel.statefile import read_versioned

VERSION = 1


class CursorFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    consumers: dict[str, dict[str, Cursor]] = {}


def load(path: Path) -> CursorFile:
    """Read the cursor file; a missing file means nothing was read yet."""
    return read_versioned(path, CursorFile, VERSION) or CursorFile()


def for_consumer(state: CursorFile, consumer: str) -> Mapping[str, Cursor]:
    return state.consumers.get(consumer, {})


def _advanced(path: Path, advances: Iterable[CursorAdvance]) -> CursorFile | None:
    """The cursor file with `advances` applied, or None if they change nothing."""
    state = load(path)
    consumers = {name: dict(files) for name, files in state.consumers.items()}
    changed = False
    for item in advances:
        files = consumers.setdefault(item.consumer, {})
        if files.get(item.file) != item.cursor:
            files[item.file] = item.cursor
            changed = True
    return CursorFile(version=VERSION, consumers=consumers) if changed else None


def advance(path: Path, advances: Iterable[CursorAdvance]) -> None:
    """Apply advances and persist atomically; idempotent (recovery may replay them)."""
    new_state = _advanced(path, advances)
    if new_state is not None:
        atomic.write_text(path, new_state.model_dump_json(indent=1) + "\n")


def prepare(path: Path, advances: Iterable[CursorAdvance]) -> atomic.PreparedWrite | None:
    """The advanced cursor file written beside `path`, to install after a commit (None: no change).

    Raises OSError (a full or read-only state folder) before anything is committed.
    """
    new_state = _advanced(path, advances)
    if new_state is None:
        return None
    return atomic.PreparedWrite(path, (new_state.model_dump_json(indent=1) + "\n").encode("utf-8"))
