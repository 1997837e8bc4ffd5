"""Transcripts kept in a runtime's SQLite database: OpenClaw (2026.8+) and Hermes.

The database is opened read-only (`mode=ro`, a busy timeout; never `immutable`, which
would skip the locks a writer in WAL mode relies on) and never written. Each read is one
transaction, so rows another process commits meanwhile are seen whole or not at all.

- OpenClaw: `transcript_events(session_id, seq, event_json | event_zstd)`; one cursor per
  session, keyed `<db>#<session_id>`, whose offset is the highest `seq` analysed. Events
  are the JSON objects of the legacy session files (`transcript_openclaw`); `event_zstd`
  rows need the `zstandard` package, else the database is held with an error naming it.
- Hermes: `messages(id, session_id, role, content, tool_calls, tool_name, timestamp,
  active)`; history is rewritten in place (compaction sets `active=0` and re-inserts the
  rows it keeps with new ids; `/retry` deletes and re-inserts). One cursor for the
  database, keyed by its path: the highest `id` analysed, plus short hashes of the last
  rows analysed. A new row whose (role, content, timestamp) matches an analysed row — an
  older row still in the table, or a hash the cursor kept — is a re-insert and is skipped.

A session's last turn is complete once its newest row is `turn_idle_seconds` old.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from daemon.kernel import transcript_guards as guards
from daemon.kernel.changeset import Cursor, CursorAdvance
from daemon.kernel.transcript_files import TranscriptSource, resolve_inside
from daemon.kernel.transcript_lines import Malformed, Message, Skipped, clean_text, load_object
from daemon.kernel.transcript_openclaw import parse_event
from daemon.kernel.transcript_reads import FileRead, Held
from daemon.kernel.transcript_window import Scan, Turn

BUSY_TIMEOUT_SECONDS = 5.0
PAGE_ROWS = 2000
RECENT_HASHES = 512
SQLITE_HEAD = "sqlite"
_COMPACTION_PREFIXES = ("[CONTEXT COMPACTION", "[CONTEXT SUMMARY", "[Context summary")


class DatabaseError(Exception):
    """The database cannot be read as the configured format; the message names it."""


@contextmanager
def open_readonly(path: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to `path` (`mode=ro`, busy timeout), closed on exit."""
    uri = f"file:{urllib.parse.quote(str(path))}?mode=ro"
    connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    try:
        connection.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_SECONDS * 1000)}")
        connection.execute("PRAGMA query_only = ON")
        yield connection
    finally:
        connection.close()


def _as_dict(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> dict[str, Any]:
    return {column[0]: value for column, value in zip(cursor.description, row, strict=True)}


def _columns(connection: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}


def _stamp_seconds(ts: str | None) -> float | None:
    if not ts:
        return None
    try:
        return datetime.fromisoformat(ts.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


@dataclass
class _Session:
    """One session's rows read this time, scanned into turns (offsets are seq or id)."""

    name: str
    scan: Scan
    last_row: int = 0
    last_seconds: float | None = None
    skipped: dict[str, int] = field(default_factory=dict)


def _close(sessions: Mapping[str, _Session], now: datetime, idle: int, fallback: float) -> list[Turn]:
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


def _stop(sessions: Mapping[str, _Session], turns: list[Turn], last: int) -> int:
    """The last row the cursor may pass: just before the first turn still open, else `last`."""
    closed = {(t.file, t.start) for t in turns}
    open_starts = [
        s.scan.open_start
        for s in sessions.values()
        if s.scan.open_turn and (s.name, s.scan.open_start) not in closed
    ]
    return min(open_starts) - 1 if open_starts else last


def _without_heartbeats(turns: list[Turn], skipped: dict[str, int]) -> list[Turn]:
    kept = [
        t
        for t in turns
        if not any(m.role == "assistant" and guards.is_heartbeat_reply(m.content) for m in t.messages)
    ]
    if len(kept) < len(turns):
        skipped[guards.HEARTBEAT] = skipped.get(guards.HEARTBEAT, 0) + len(turns) - len(kept)
    return kept


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
    st = os.stat(path)
    identity = (st.st_dev, st.st_ino)
    try:
        with open_readonly(path) as connection:
            connection.execute("BEGIN")
            if source.settings.format == "hermes":
                return _read_hermes(
                    connection, source, rel, cursors, consumer, now, identity, _db_mtime(path)
                )
            return _read_openclaw(connection, source, rel, cursors, consumer, now, identity, _db_mtime(path))
    except DatabaseError as exc:
        return [_held_read(rel, str(exc))]
    except sqlite3.DatabaseError as exc:
        return [_held_read(rel, f"cannot be read as a {source.settings.format} database: {exc}")]


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


def _read_openclaw(
    connection: sqlite3.Connection,
    source: TranscriptSource,
    rel: str,
    cursors: Mapping[str, Cursor],
    consumer: str,
    now: datetime,
    identity: tuple[int, int],
    mtime: float,
) -> list[FileRead]:
    columns = _columns(connection, "transcript_events")
    if not {"session_id", "seq"} <= columns or not columns & {"event_json", "event_zstd"}:
        raise DatabaseError("no table transcript_events(session_id, seq, event_json | event_zstd)")
    connection.row_factory = _as_dict
    payload = ", ".join(c for c in ("event_json", "event_zstd") if c in columns)
    state: dict[str, Any] = {}
    reads: list[FileRead] = []
    for session_id in _sessions(connection):
        key = f"{rel}#{session_id}"
        prior = cursors.get(key)
        after = prior.offset if prior is not None else -1
        session = _Session(key, Scan(key))
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
                session.last_seconds = _stamp_seconds(parsed.ts)
            if budget <= 0:
                break
        if not read:
            continue
        turns = _close({key: session}, now, source.settings.turn_idle_seconds, mtime)
        stop = _stop({key: session}, turns, session.last_row)
        skipped = dict(session.scan.skipped)
        turns = _without_heartbeats(turns, skipped)
        reads.append(_file_read(rel, key, turns, stop, after, consumer, identity, warnings, skipped, None))
    return reads


def _file_read(
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
) -> FileRead:
    def cursor(offset: int, hashes: list[str] | None) -> CursorAdvance:
        return CursorAdvance(
            consumer=consumer,
            file=key,
            cursor=Cursor(offset=offset, dev=identity[0], ino=identity[1], head=SQLITE_HEAD, recent=hashes),
        )

    def cut(turn: Turn) -> CursorAdvance | None:
        offset = turn.start - 1
        return cursor(offset, recent) if offset > after else None

    advance = cursor(stop, recent) if stop > after else None
    return FileRead(rel, tuple(turns), advance, tuple(warnings), identity, after, None, key, skipped, cut)


def _row_hash(role: str, content: str, timestamp: object) -> str:
    return hashlib.sha256(json.dumps([role, content, timestamp]).encode("utf-8")).hexdigest()[:16]


def _hermes_message(row: dict[str, Any]) -> Message | Skipped:
    role = row["role"]
    content = row["content"] if isinstance(row["content"], str) else ""
    if role == "tool":
        return Skipped(guards.TOOL_RESULT)
    if role == "system":
        return Skipped(guards.SYSTEM_PROMPT)
    if role not in ("user", "assistant"):
        return Skipped(None)
    if content.lstrip().startswith(_COMPACTION_PREFIXES) or (row.get("compacted")):
        return Skipped(guards.COMPACTION)
    tools: tuple[str, ...] = ()
    calls = row.get("tool_calls")
    if isinstance(calls, str) and calls.strip():
        try:
            parsed = json.loads(calls)
        except ValueError:
            parsed = []
        for call in parsed if isinstance(parsed, list) else []:
            function = call.get("function", call) if isinstance(call, dict) else {}
            arguments = function.get("arguments") if isinstance(function, dict) else None
            try:
                arguments = json.loads(arguments) if isinstance(arguments, str) else arguments
            except ValueError:
                pass
            name = function.get("name") if isinstance(function, dict) else None
            tools += (guards.tool_summary(str(name or "tool"), arguments),)
    text = "\n".join([content, *(f"[tool: {t}]" for t in tools)]) if tools else content
    text, cut = guards.strip_injected(text)
    cleaned = clean_text(text)
    if not text.strip() or cleaned is None:
        return Skipped(cut[0] if cut else None)
    stamp = row["timestamp"]
    ts = datetime.fromtimestamp(float(stamp), UTC).isoformat() if isinstance(stamp, int | float) else None
    return Message(
        role=role,
        content=cleaned,
        ts=ts,
        offset=int(row["id"]),
        tools=tools,
        source=str(row["id"]),
        guarded=cut,
    )


def _read_hermes(
    connection: sqlite3.Connection,
    source: TranscriptSource,
    rel: str,
    cursors: Mapping[str, Cursor],
    consumer: str,
    now: datetime,
    identity: tuple[int, int],
    mtime: float,
) -> list[FileRead]:
    columns = _columns(connection, "messages")
    needed = {"id", "session_id", "role", "content", "timestamp"}
    if not needed <= columns:
        raise DatabaseError(f"no table messages({', '.join(sorted(needed))}, ...)")
    connection.row_factory = _as_dict
    prior = cursors.get(rel)
    after = prior.offset if prior is not None else 0
    recent = list(prior.recent or []) if prior is not None else []
    known = set(recent) | _analysed_twins(connection, after)
    sessions: dict[str, _Session] = {}
    skipped: dict[str, int] = {}
    budget = source.settings.max_read_bytes
    last = after
    consumed: list[tuple[int, str, str]] = []  # (row id, hash, session)
    for row in connection.execute("SELECT * FROM messages WHERE id > ? ORDER BY id", (after,)):
        row_id = int(row["id"])
        role, content, stamp = row["role"], row["content"], row["timestamp"]
        digest = _row_hash(str(role), str(content), stamp)
        last = row_id
        name = f"{rel}#{row['session_id']}"
        consumed.append((row_id, digest, name))
        session = sessions.setdefault(name, _Session(name, Scan(name)))
        session.last_row = row_id
        if isinstance(stamp, int | float):
            session.last_seconds = float(stamp)
        if digest in known:
            skipped[guards.REINSERTED] = skipped.get(guards.REINSERTED, 0) + 1
            continue
        known.add(digest)
        parsed = _hermes_message(row)
        if isinstance(parsed, Skipped):
            if parsed.rule:
                session.scan.count(parsed.rule)
            continue
        session.scan.add(parsed)
        budget -= len(parsed.content.encode("utf-8"))
        if budget <= 0:
            break
    turns = _close(sessions, now, source.settings.turn_idle_seconds, mtime)
    for session in sessions.values():
        for rule, n in session.scan.skipped.items():
            skipped[rule] = skipped.get(rule, 0) + n
    # The cursor stops before the first turn still open, in whichever session it is.
    stop = _stop(sessions, turns, last)
    turns = _without_heartbeats(turns, skipped)
    sent = [t for t in turns if t.start <= stop]
    # A turn sent whole may end past the stop (another session's turn was still open): its
    # rows after the cursor are remembered by hash, so the next read does not send them again.
    ranges: dict[str, list[tuple[int, int]]] = {}
    for turn in sent:
        ranges.setdefault(turn.file, []).append((turn.start, turn.end))
    kept = [
        d
        for i, d, name in consumed
        if i <= stop or any(start <= i < end for start, end in ranges.get(name, ()))
    ]
    hashes = ([*recent, *kept])[-RECENT_HASHES:]
    return [
        _file_read(
            rel,
            rel,
            sent,
            stop,
            after,
            consumer,
            identity,
            [],
            skipped,
            hashes,
        )
    ]


def _analysed_twins(connection: sqlite3.Connection, after: int) -> set[str]:
    """Hashes of rows at or below the cursor that share a timestamp with a row after it.

    A re-inserted row keeps its (role, content, timestamp); one query (one scan of the
    table at most) finds every analysed twin of the new rows, however many there are.
    """
    if after <= 0:
        return set()
    rows = connection.execute(
        "SELECT role, content, timestamp FROM messages WHERE id <= ? "
        "AND timestamp IN (SELECT timestamp FROM messages WHERE id > ?)",
        (after, after),
    )
    return {_row_hash(str(r["role"]), str(r["content"]), r["timestamp"]) for r in rows}
