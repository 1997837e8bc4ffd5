"""OpenClaw's SQLite transcripts (2026.8+): `transcript_events(session_id, seq, event_json | event_zstd)`.

One cursor per session, keyed `<db>#<session_id>`, whose offset is the highest `seq`
analysed. Events are the JSON objects of the legacy session files (`transcript_openclaw`);
`event_zstd` rows need the `zstandard` package, else the database is held with an error
naming it. Events are never rewritten: a session whose highest `seq` is now below its
cursor, or whose anchored event (`transcript_sqlite`) now has another type, id or
timestamp, belongs to a replaced database and is read again from the start.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from daemon.kernel import transcript_guards as guards
from daemon.kernel.changeset import Cursor
from daemon.kernel.transcript_files import TranscriptSource
from daemon.kernel.transcript_lines import Malformed, Message, Skipped, load_object
from daemon.kernel.transcript_openclaw import parse_event
from daemon.kernel.transcript_reads import FileRead
from daemon.kernel.transcript_sqlite import (
    Anchors,
    DatabaseError,
    SessionRows,
    anchor_row,
    as_dict,
    complete_turns,
    file_read,
    replaced_note,
    row_anchor,
    stamp_seconds,
    stop_row,
    table_columns,
)
from daemon.kernel.transcript_window import Scan


def _decoder(rel: str) -> Any:
    try:
        import zstandard
    except ImportError:
        raise DatabaseError(
            f"holds zstd-compressed events (event_zstd) and no zstd decoder is installed; "
            f"install the `zstandard` package (pip install zstandard) to read {rel}"
        ) from None
    return zstandard.ZstdDecompressor()


def _event_bytes(row: dict[str, Any], rel: str, state: dict[str, Any]) -> bytes | None:
    raw = row.get("event_json")
    if raw is not None:
        return raw.encode("utf-8") if isinstance(raw, str) else bytes(raw)
    packed = row.get("event_zstd")
    if packed is None:
        return None
    if "zstd" not in state:
        state["zstd"] = _decoder(rel)
    data: bytes = state["zstd"].decompress(bytes(packed), max_output_size=64 * 1024 * 1024)
    return data


def _anchor(seq: int, data: bytes | None) -> str:
    """What identifies an event, kept when a later schema re-encodes it (json → zstd)."""
    obj = load_object(data) if data is not None else None
    if isinstance(obj, dict):
        return row_anchor(seq, obj.get("type"), obj.get("id"), obj.get("timestamp"))
    return row_anchor(seq, hashlib.sha256(data or b"").hexdigest())


def _replaced(
    connection: sqlite3.Connection, session_id: str, prior: Cursor, payload: str, rel: str, state: dict[str, Any]
) -> str | None:
    """Why this session's events are not the ones its cursor was written for, or None."""
    top = connection.execute(
        "SELECT max(seq) AS top FROM transcript_events WHERE session_id = ?", (session_id,)
    ).fetchone()["top"]
    if isinstance(top, int) and top < prior.offset:
        return f"session {session_id}'s highest seq is {top}, below the cursor at {prior.offset}"
    seq = anchor_row(prior.tail)
    if seq is None:
        return None
    row = connection.execute(
        f"SELECT {payload} FROM transcript_events WHERE session_id = ? AND seq = ?", (session_id, seq)
    ).fetchone()
    if row is not None and _anchor(seq, _event_bytes(row, rel, state)) != prior.tail:
        return f"session {session_id}'s event {seq} is not the event analysed"
    return None


def _sessions(connection: sqlite3.Connection) -> Iterator[str]:
    """Every session id in order, one index seek each (a skip scan), not a walk of every event."""
    query = "SELECT min(session_id) AS s FROM transcript_events WHERE session_id > ?"
    row = connection.execute("SELECT min(session_id) AS s FROM transcript_events").fetchone()
    while row is not None and row["s"] is not None:
        yield row["s"]
        row = connection.execute(query, (row["s"],)).fetchone()


def read_openclaw(
    connection: sqlite3.Connection,
    source: TranscriptSource,
    rel: str,
    cursors: Mapping[str, Cursor],
    consumer: str,
    now: datetime,
    identity: tuple[int, int],
    mtime: float,
) -> list[FileRead]:
    columns = table_columns(connection, "transcript_events")
    if not {"session_id", "seq"} <= columns or not columns & {"event_json", "event_zstd"}:
        raise DatabaseError("no table transcript_events(session_id, seq, event_json | event_zstd)")
    connection.row_factory = as_dict
    payload = ", ".join(c for c in ("event_json", "event_zstd") if c in columns)
    state: dict[str, Any] = {}
    reads: list[FileRead] = []
    for session_id in _sessions(connection):
        key = f"{rel}#{session_id}"
        prior = cursors.get(key)
        after = prior.offset if prior is not None else -1
        session = SessionRows(key, Scan(key))
        budget = source.settings.max_read_bytes
        warnings: list[str] = []
        anchors = Anchors(prior.tail if prior is not None else None)
        why = _replaced(connection, session_id, prior, payload, rel, state) if prior is not None else None
        if why is not None:
            after, anchors = -1, Anchors(None)
            warnings.append(replaced_note(key, why))
        read = 0
        rows = connection.execute(
            f"SELECT seq, {payload} FROM transcript_events WHERE session_id = ? AND seq > ? ORDER BY seq",
            (session_id, after),
        )
        for row in rows:
            seq = int(row["seq"])
            read += 1
            data = _event_bytes(row, rel, state)
            session.last_row = seq
            anchors.add(seq, _anchor(seq, data))
            if data is None:
                continue
            budget -= len(data)
            if len(data) > source.settings.max_line_bytes:
                warnings.append(
                    f"{key}: skipped the event at seq {seq}: {len(data)} bytes, over max_line_bytes"
                )
                continue
            obj = load_object(data)
            parsed = obj if isinstance(obj, Malformed) else parse_event(obj, seq)
            if isinstance(parsed, Malformed):
                warnings.append(f"{key}: skipped a malformed event at seq {seq}: {parsed.reason}")
            elif isinstance(parsed, Skipped):
                if parsed.rule:
                    session.scan.count(parsed.rule)
            elif isinstance(parsed, Message):
                session.scan.add(parsed)
                session.last_seconds = stamp_seconds(parsed.ts)
            if budget <= 0:
                break
        if not read and why is None:
            continue
        turns = complete_turns({key: session}, now, source.settings.turn_idle_seconds, mtime)
        stop = stop_row({key: session}, turns, session.last_row)
        skipped = dict(session.scan.skipped)
        turns = guards.without_heartbeats(turns, skipped)
        reads.append(
            file_read(
                rel, key, turns, stop, after, consumer, identity, warnings, skipped, None, anchors, why is not None
            )
        )
    return reads
