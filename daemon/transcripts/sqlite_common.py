"""Shared by the readers of runtimes' SQLite transcripts (OpenClaw 2026.8+, Hermes).

The database is opened read-only (`mode=ro`, a busy timeout; never `immutable`, which
would skip the locks a writer in WAL mode relies on) and never written. Rows are scanned
into turns per session; a session's last turn is complete once its newest row is
`turn_idle_seconds` old, and the cursor never passes the first turn still open.

A database cursor's `tail` is an anchor, `<row>:<hash>` of what identifies the last row
at or below its offset (`row_anchor`). A database replaced by another (ids restarting at 1,
a backup restored) is recognised by its rows, not its inode, which a new file may reuse:
the highest row is below the cursor, or the anchored row holds another row. It is then
read again from the start, with a warning.

Rows are another program's data: a TEXT value that is not UTF-8 arrives as `NotUtf8` (its
bytes) instead of failing the whole read, and a timestamp is trusted only as a finite
number of seconds (or milliseconds) in datetime's range (`epoch_seconds`).
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from daemon.kernel.changeset import Cursor, CursorAdvance
from daemon.kernel.json_contract import RawJson
from daemon.transcripts.reads import FileRead
from daemon.transcripts.usage import SessionUsage
from daemon.transcripts.window import Scan, Turn

BUSY_TIMEOUT_SECONDS = 5.0
SQLITE_HEAD = "sqlite"


# A timestamp this large is not seconds (it would be past the year 5000): milliseconds.
MILLISECONDS_FROM = 1e11


class DatabaseError(Exception):
    """The database cannot be read as the configured format; the message names it."""


class NotUtf8(bytes):
    """A TEXT value that is not valid UTF-8, kept as its bytes: one row cannot fail the read."""


def _text(raw: bytes) -> str | NotUtf8:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return NotUtf8(raw)


def epoch_seconds(stamp: object) -> float | None:
    """Seconds since the epoch of a row's timestamp: seconds, milliseconds, or ISO 8601 text.

    None unless it is finite and within datetime's range (an infinite or absurd stamp is
    no time at all, never an error).
    """
    if isinstance(stamp, str):
        return stamp_seconds(stamp)
    if isinstance(stamp, bool) or not isinstance(stamp, int | float):
        return None
    seconds = float(stamp)
    if not math.isfinite(seconds):
        return None
    if abs(seconds) >= MILLISECONDS_FROM:
        seconds /= 1000
    try:
        datetime.fromtimestamp(seconds, UTC)
    except (ValueError, OverflowError, OSError):
        return None
    return seconds


@contextmanager
def open_readonly(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to `path` (`mode=ro`, busy timeout), closed on exit."""
    uri = f"file:{urllib.parse.quote(str(path))}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    connection.text_factory = _text
    try:
        connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        connection.execute("PRAGMA query_only = ON")
        yield connection
    finally:
        connection.close()


def row_anchor(row: int, *values: object) -> str:
    """`<row>:<hash of values>`: what identifies the row `row`, stored as a database cursor's `tail`."""
    digest = hashlib.sha256(json.dumps(values, default=repr).encode("utf-8")).hexdigest()[:16]
    return f"{row}:{digest}"


def anchor_row(anchor: str | None) -> int | None:
    """The row an anchor names, or None (no anchor, or a cursor written before anchors)."""
    head, _, _ = (anchor or "").partition(":")
    return int(head) if head.isdigit() else None


@dataclass
class Anchors:
    """The anchors of the rows read this time (ascending), and the prior cursor's."""

    prior: str | None
    rows: list[tuple[int, str]] = field(default_factory=list)

    def add(self, row: int, anchor: str) -> None:
        self.rows.append((row, anchor))

    def at(self, offset: int) -> str | None:
        """The anchor of the last row at or below `offset`."""
        below = [anchor for row, anchor in self.rows if row <= offset]
        return below[-1] if below else self.prior


def replaced_note(rel: str, why: str) -> str:
    return f"{rel}: database was replaced ({why}); reading it again from the start"


def as_dict(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> RawJson:
    return {column[0]: value for column, value in zip(cursor.description, row, strict=True)}


def table_columns(connection: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}


def stamp_seconds(ts: str | None) -> float | None:
    if not ts:
        return None
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()
    except (ValueError, OverflowError, OSError):
        return None


@dataclass
class SessionRows:
    """One session's rows read this time, scanned into turns (offsets are seq or id)."""

    name: str
    scan: Scan
    last_row: int = 0
    last_seconds: float | None = None
    skipped: dict[str, int] = field(default_factory=dict)


def complete_turns(sessions: Mapping[str, SessionRows], now: datetime, idle: int, fallback: float) -> list[Turn]:
    """Every complete turn, ordered by its first row; a session's last turn once it is idle."""
    turns: list[Turn] = []
    for session in sessions.values():
        scan = session.scan
        turns.extend(scan.turns)
        if scan.open_turn:
            newest = session.last_seconds if session.last_seconds is not None else fallback
            if scan.session_ended or now.timestamp() - newest >= idle:
                turns.append(Turn(scan.file, scan.open_start, session.last_row + 1, tuple(scan.open_turn)))
    return sorted(turns, key=lambda t: t.start)


def stop_row(sessions: Mapping[str, SessionRows], turns: list[Turn], last: int) -> int:
    """The last row the cursor may pass: just before the first turn still open, else `last`."""
    closed = {(t.file, t.start) for t in turns}
    open_starts = [
        s.scan.open_start
        for s in sessions.values()
        if s.scan.open_turn and (s.name, s.scan.open_start) not in closed
    ]
    return min(open_starts) - 1 if open_starts else last


def file_read(
    rel: str,
    key: str,
    turns: list[Turn],
    stop: int,
    after: int,
    consumer: str,
    identity: tuple[int, int],
    warnings: list[str],
    skipped: dict[str, int],
    recent: list[str] | None,
    anchors: Anchors,
    moved: bool = False,
    unknown: Mapping[str, int] | None = None,
    usage: tuple[SessionUsage, ...] = (),
) -> FileRead:
    """The read of one cursor key; `moved` when its cursor must be rewritten even if nothing is read.

    `unknown` counts the rows of each kind the adapter does not know; `usage` is what the
    agent used in the rows the read consumed.
    """

    def cursor(offset: int, hashes: list[str] | None) -> CursorAdvance:
        return CursorAdvance(
            consumer=consumer,
            file=key,
            cursor=Cursor(
                offset=offset,
                dev=identity[0],
                ino=identity[1],
                head=SQLITE_HEAD,
                tail=anchors.at(offset),
                recent=hashes,
            ),
        )

    def cut(turn: Turn) -> CursorAdvance | None:
        offset = turn.start - 1
        return cursor(offset, recent) if offset > after or (moved and offset >= 0) else None

    advance = cursor(stop, recent) if stop > after or (moved and stop >= 0) else None
    return FileRead(
        rel,
        tuple(turns),
        advance,
        tuple(warnings),
        identity,
        after,
        None,
        key,
        skipped,
        cut,
        unknown=unknown or {},
        usage=usage,
    )
