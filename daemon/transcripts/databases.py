"""Reading a runtime's SQLite transcript database: the format picks the reader.

Each read is one transaction on a read-only connection, so rows another process commits
meanwhile are seen whole or not at all. A database that is not of the configured format
is held (never consumed) with the reason; so is one busy past the timeout, and one whose
rows hold a value no reader rule foresaw (never a crash).
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from daemon.kernel.changeset import Cursor
from daemon.kernel.regular_files import open_regular
from daemon.transcripts.files import TranscriptSource, resolve_inside
from daemon.transcripts.hermes import read_hermes
from daemon.transcripts.openclaw_db import read_openclaw
from daemon.transcripts.reads import FileRead, Held
from daemon.transcripts.sqlite_common import BUSY_TIMEOUT_SECONDS, DatabaseError, open_readonly


def _db_mtime(path: Path) -> float:
    wal = Path(f"{path}-wal")
    return max(os.stat(path).st_mtime, os.stat(wal).st_mtime if wal.exists() else 0.0)


def _held_read(rel: str, reason: str) -> FileRead:
    return FileRead(rel, (), None, (f"{rel}: held, not read: {reason}",), (0, 0), 0, Held(rel, reason), rel)


def read_database(
    source: TranscriptSource, rel: str, cursors: Mapping[str, Cursor], consumer: str, now: datetime
) -> list[FileRead]:
    """The new complete turns of the database `rel` as FileReads (one per cursor key)."""
    path = resolve_inside(source.root, rel)
    # A named pipe swapped in since the listing would block SQLite's own open: refused here
    # (NotRegular, an OSError naming what it is) without blocking.
    with open_regular(path) as fh:
        st = os.fstat(fh.fileno())
    identity = (st.st_dev, st.st_ino)
    try:
        with open_readonly(path) as connection:
            connection.execute("BEGIN")
            if source.settings.format == "hermes":
                return read_hermes(
                    connection, source, rel, cursors, consumer, now, identity, _db_mtime(path)
                )
            return read_openclaw(connection, source, rel, cursors, consumer, now, identity, _db_mtime(path))
    except DatabaseError as exc:
        return [_held_read(rel, str(exc))]
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            return [_held_read(rel, f"busy ({exc}: a writer held its lock past {BUSY_TIMEOUT_SECONDS:g} s); read next time")]
        return [_held_read(rel, f"cannot be read as a {source.settings.format} database: {exc}")]
    except sqlite3.DatabaseError as exc:
        return [_held_read(rel, f"cannot be read as a {source.settings.format} database: {exc}")]
    except Exception as exc:
        # The rows are another program's data: a value no reader rule foresaw holds this
        # database (named, shown in `status`), never crashes a read, `status` or the service.
        return [_held_read(rel, f"cannot be read: {type(exc).__name__}: {exc}")]
