"""OpenClaw's SQLite transcripts (2026.8+): `transcript_events(session_id, seq, event_json | event_zstd)`.

One cursor per session, keyed `<db>#<session_id>`, whose offset is the highest `seq`
analysed. Events are the JSON objects of the legacy session files (`transcript_openclaw`);
`event_zstd` rows need the `zstandard` package, else the database is held with an error
naming it.
"""

from __future__ import annotations

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
    DatabaseError,
    SessionRows,
    as_dict,
    complete_turns,
    file_read,
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
        if not read:
            continue
        turns = complete_turns({key: session}, now, source.settings.turn_idle_seconds, mtime)
        stop = stop_row({key: session}, turns, session.last_row)
        skipped = dict(session.scan.skipped)
        turns = guards.without_heartbeats(turns, skipped)
        reads.append(file_read(rel, key, turns, stop, after, consumer, identity, warnings, skipped, None))
    return reads
