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
import io
import sqlite3
from collections.abc import Iterator, Mapping
from datetime import datetime
from typing import Any

from daemon.kernel.changeset import Cursor
from daemon.kernel.json_contract import RawJson
from daemon.transcripts import guards
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.lines import Malformed, Message, Skipped, load_object
from daemon.transcripts.openclaw import parse_event
from daemon.transcripts.reads import FileRead
from daemon.transcripts.sqlite_common import (
    Anchors,
    DatabaseError,
    NotUtf8,
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
from daemon.transcripts.usage import database_fingerprint, session_usage
from daemon.transcripts.window import Scan


def _decoder(rel: str) -> Any:
    try:
        import zstandard
    except ImportError:
        raise DatabaseError(
            f"holds zstd-compressed events (event_zstd) and no zstd decoder is installed; "
            f"install the `zstandard` package (pip install zstandard) to read {rel}"
        ) from None
    return zstandard


def _unpacked(packed: bytes, limit: int, rel: str, state: dict[str, Any]) -> bytes | Malformed:
    """At most `limit` bytes of the zstd frame `packed`; Malformed if it is not a valid frame.

    Read as a stream, so a frame whose header claims gigabytes allocates no more than
    `limit` (a one-shot decompress allocates what the header says).
    """
    if "zstd" not in state:
        state["zstd"] = _decoder(rel)
    zstandard = state["zstd"]
    data = b""
    try:
        with zstandard.ZstdDecompressor().stream_reader(io.BytesIO(packed)) as reader:
            while len(data) < limit:
                chunk = reader.read(limit - len(data))
                if not chunk:
                    break
                data += chunk
    except zstandard.ZstdError as exc:
        return Malformed(f"event_zstd is not a valid zstd frame ({exc})")
    return data


def _event_bytes(row: RawJson, rel: str, state: dict[str, Any], limit: int) -> bytes | Malformed | None:
    """The event's JSON text (at most `limit` bytes of a compressed one), Malformed, or None (no event)."""
    raw = row.get("event_json")
    if isinstance(raw, str):
        return raw.encode("utf-8")
    if isinstance(raw, bytes):  # a BLOB, or TEXT that is not UTF-8 (NotUtf8)
        return bytes(raw)
    if raw is not None:
        # JSON text of a number stored as one (a JSON or NUMERIC column): its text, never bytes(n).
        return str(raw).encode("utf-8")
    packed = row.get("event_zstd")
    if packed is None:
        return None
    if not isinstance(packed, bytes):
        return Malformed(f"event_zstd holds a {type(packed).__name__}, not compressed bytes")
    return _unpacked(packed, limit, rel, state)


def _anchor(seq: int, data: bytes | None) -> str:
    """What identifies an event, kept when a later schema re-encodes it (json → zstd)."""
    obj = load_object(data) if data is not None else None
    if isinstance(obj, dict):
        return row_anchor(seq, obj.get("type"), obj.get("id"), obj.get("timestamp"))
    return row_anchor(seq, hashlib.sha256(data or b"").hexdigest())


def _replaced(
    connection: sqlite3.Connection,
    session_id: str,
    prior: Cursor,
    payload: str,
    rel: str,
    state: dict[str, Any],
    limit: int,
) -> str | None:
    """Why this session's events are not the ones its cursor was written for, or None.

    `limit` is the one the anchor was computed with (a compressed event is read that far).
    """
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
    data = _event_bytes(row, rel, state, limit) if row is not None else None
    if row is not None and _anchor(seq, data if isinstance(data, bytes) else None) != prior.tail:
        return f"session {session_id}'s event {seq} is not the event analysed"
    return None


def _sessions(connection: sqlite3.Connection) -> Iterator[str]:
    """Every session id in order, one index seek each (a skip scan), not a walk of every event."""
    query = "SELECT min(session_id) AS s FROM transcript_events WHERE session_id > ?"
    row = connection.execute("SELECT min(session_id) AS s FROM transcript_events").fetchone()
    while row is not None and row["s"] is not None:
        if isinstance(row["s"], NotUtf8):
            raise DatabaseError(f"column transcript_events.session_id holds {bytes(row['s'])!r}, not UTF-8 text")
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
        limit = source.settings.max_line_bytes + 1  # one byte more tells an event over the limit
        why = _replaced(connection, session_id, prior, payload, rel, state, limit) if prior is not None else None
        if why is not None:
            after, anchors = -1, Anchors(None)
            warnings.append(replaced_note(key, why))
        read = 0
        rows = connection.execute(
            f"SELECT seq, {payload} FROM transcript_events WHERE session_id = ? AND seq > ? ORDER BY seq",
            (session_id, after),
        )
        for row in rows:
            seq = row["seq"]
            if not isinstance(seq, int):
                raise DatabaseError(
                    f"column transcript_events.seq holds {seq!r} in session {session_id}, not an integer: "
                    "a schema this reader does not know"
                )
            read += 1
            data = _event_bytes(row, rel, state, limit)
            session.last_row = seq
            anchors.add(seq, _anchor(seq, data if isinstance(data, bytes) else None))
            if data is None:
                continue
            if isinstance(data, Malformed):
                warnings.append(f"{key}: skipped a malformed event at seq {seq}: {data.reason}")
                continue
            budget -= len(data)
            if len(data) > source.settings.max_line_bytes:
                warnings.append(
                    f"{key}: skipped the event at seq {seq}: over max_line_bytes "
                    f"({source.settings.max_line_bytes} bytes)"
                )
                continue
            obj = load_object(data)
            parsed = obj if isinstance(obj, Malformed) else parse_event(obj, seq)
            if isinstance(parsed, Malformed):
                warnings.append(f"{key}: skipped a malformed event at seq {seq}: {parsed.reason}")
            elif isinstance(parsed, Skipped):
                session.scan.skip(parsed)
            elif isinstance(parsed, Message):
                session.scan.add(parsed)
                session.last_seconds = stamp_seconds(parsed.ts)
            if source.probe is not None and not isinstance(parsed, Malformed):
                session.scan.notice(seq, source.probe.line(data))
            if budget <= 0:
                break
        if not read and why is None:
            continue
        turns = complete_turns({key: session}, now, source.settings.turn_idle_seconds, mtime)
        stop = stop_row({key: session}, turns, session.last_row)
        skipped = dict(session.scan.skipped)
        turns = guards.without_heartbeats(turns, skipped)
        fingerprint = database_fingerprint(identity)
        usage = session_usage(key, fingerprint, stop + 1, session.scan.found, turns) if source.probe else ()
        reads.append(
            file_read(
                rel,
                key,
                turns,
                stop,
                after,
                consumer,
                identity,
                warnings,
                skipped,
                None,
                anchors,
                why is not None,
                session.scan.unknown,
                usage,
            )
        )
    return reads
