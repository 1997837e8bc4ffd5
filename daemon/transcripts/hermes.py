"""Hermes' SQLite transcripts: `messages(id, session_id, role, content, tool_calls, tool_name,
timestamp, active)`.

History is rewritten in place (compaction sets `active=0` and re-inserts the rows it keeps
with new ids; `/retry` deletes and re-inserts). One cursor for the database, keyed by its
path: the highest `id` analysed, plus short hashes of the last rows analysed. A new row
whose (role, content, timestamp) matches an analysed row — an older row still in the
table, or a hash the cursor kept — is a re-insert and is skipped.

A database replaced by another is read again from the start (`transcript_sqlite`): its ids
went back below the cursor (`AUTOINCREMENT` never reuses one, so `/retry` does not), or
the anchored row now has another session, role or timestamp (compaction and `/retry`
never change a row; they add new ones).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Mapping
from datetime import UTC, datetime

from daemon.kernel.changeset import Cursor
from daemon.kernel.json_contract import RawJson
from daemon.transcripts import guards
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.lines import Malformed, Message, Skipped, clean_text, kind_label, load_nested
from daemon.transcripts.reads import FileRead
from daemon.transcripts.sqlite_common import (
    Anchors,
    DatabaseError,
    NotUtf8,
    SessionRows,
    anchor_row,
    as_dict,
    complete_turns,
    epoch_seconds,
    file_read,
    replaced_note,
    row_anchor,
    stop_row,
    table_columns,
)
from daemon.transcripts.usage import SessionUsage, database_fingerprint, session_usage
from daemon.transcripts.window import Scan, Turn

RECENT_HASHES = 512
# The columns a row is read by: one that is not UTF-8 skips the row, naming it.
_TEXT_COLUMNS = ("session_id", "role", "content", "tool_calls")
_COMPACTION_PREFIXES = ("[CONTEXT COMPACTION", "[CONTEXT SUMMARY", "[Context summary")


def _row_hash(role: str, content: str, timestamp: object) -> str:
    # `default=repr`: a BLOB timestamp hashes instead of failing (other values hash as before).
    return hashlib.sha256(json.dumps([role, content, timestamp], default=repr).encode("utf-8")).hexdigest()[:16]


def _hermes_message(row: RawJson) -> Message | Skipped | Malformed:
    role = row["role"]
    content = row["content"] if isinstance(row["content"], str) else ""
    if role == "tool":
        return Skipped(guards.TOOL_RESULT)
    if role == "system":
        return Skipped(guards.SYSTEM_PROMPT)
    if role not in ("user", "assistant"):
        return Skipped(None, kind_label("role", role))
    if content.lstrip().startswith(_COMPACTION_PREFIXES) or (row.get("compacted")):
        return Skipped(guards.COMPACTION)
    tools: tuple[str, ...] = ()
    calls = row.get("tool_calls")
    parsed = load_nested(calls, "tool_calls") if isinstance(calls, str) else None
    if isinstance(parsed, Malformed):
        return parsed
    for call in parsed if isinstance(parsed, list) else []:
        function = call.get("function", call) if isinstance(call, dict) else {}
        arguments = function.get("arguments") if isinstance(function, dict) else None
        if isinstance(arguments, str):
            arguments = load_nested(arguments, "tool_calls arguments")
            if isinstance(arguments, Malformed):
                return arguments
        name = function.get("name") if isinstance(function, dict) else None
        tools += (guards.tool_summary(str(name or "tool"), arguments),)
    text = "\n".join([content, *(guards.tool_line(t) for t in tools)]) if tools else content
    text, cut = guards.strip_injected(text)
    cleaned = clean_text(text)
    if not text.strip() or cleaned is None:
        return Skipped(cut[0] if cut else None)
    seconds = epoch_seconds(row["timestamp"])
    ts = datetime.fromtimestamp(seconds, UTC).isoformat() if seconds is not None else None
    return Message(
        role=role,
        content=cleaned,
        ts=ts,
        offset=row["id"],
        tools=tools,
        source=str(row["id"]),
        guarded=cut,
    )


def read_hermes(
    connection: sqlite3.Connection,
    source: TranscriptSource,
    rel: str,
    cursors: Mapping[str, Cursor],
    consumer: str,
    now: datetime,
    identity: tuple[int, int],
    mtime: float,
) -> list[FileRead]:
    columns = table_columns(connection, "messages")
    needed = {"id", "session_id", "role", "content", "timestamp"}
    if not needed <= columns:
        raise DatabaseError(f"no table messages({', '.join(sorted(needed))}, ...)")
    connection.row_factory = as_dict
    prior = cursors.get(rel)
    after = prior.offset if prior is not None else 0
    recent = list(prior.recent or []) if prior is not None else []
    anchors = Anchors(prior.tail if prior is not None else None)
    warnings: list[str] = []
    why = _replaced(connection, prior)
    if why is not None:
        # The hashes stay: a restored backup's rows that were analysed are still recognised.
        after, anchors = 0, Anchors(None)
        warnings.append(replaced_note(rel, why))
    known = set(recent) | _analysed_twins(connection, after)
    sessions: dict[str, SessionRows] = {}
    skipped: dict[str, int] = {}
    budget = source.settings.max_read_bytes
    last = after
    consumed: list[tuple[int, str, str]] = []  # (row id, hash, session)
    for row in connection.execute("SELECT * FROM messages WHERE id > ? ORDER BY id", (after,)):
        row_id = row["id"]
        if not isinstance(row_id, int):
            raise DatabaseError(
                f"column messages.id holds {row_id!r}, not an integer row id: a schema this reader does not know"
            )
        last = row_id
        bad = next((c for c in _TEXT_COLUMNS if isinstance(row.get(c), NotUtf8)), None)
        if bad is not None:
            warnings.append(f"{rel}: skipped row {row_id}: its {bad} is not valid UTF-8")
            continue
        role, content, stamp = row["role"], row["content"], row["timestamp"]
        digest = _row_hash(str(role), str(content), stamp)
        name = f"{rel}#{row['session_id']}"
        consumed.append((row_id, digest, name))
        session = sessions.setdefault(name, SessionRows(name, Scan(name)))
        session.last_row = row_id
        anchors.add(row_id, _anchor(row_id, row))
        seconds = epoch_seconds(stamp)
        if seconds is not None:
            session.last_seconds = seconds
        if digest in known:
            skipped[guards.REINSERTED] = skipped.get(guards.REINSERTED, 0) + 1
            continue
        known.add(digest)
        parsed = _hermes_message(row)
        if isinstance(parsed, Malformed):
            warnings.append(f"{rel}: skipped a malformed row (id {row_id}): {parsed.reason}")
            continue
        if isinstance(parsed, Skipped):
            session.scan.skip(parsed)
            _notice(source, session, row_id, row)
            continue
        session.scan.add(parsed)
        _notice(source, session, row_id, row)
        budget -= len(parsed.content.encode("utf-8"))
        if budget <= 0:
            break
    turns = complete_turns(sessions, now, source.settings.turn_idle_seconds, mtime)
    unknown = guards.merged(session.scan.unknown for session in sessions.values())
    for session in sessions.values():
        for rule, n in session.scan.skipped.items():
            skipped[rule] = skipped.get(rule, 0) + n
    # The cursor stops before the first turn still open, in whichever session it is.
    stop = stop_row(sessions, turns, last)
    turns = guards.without_heartbeats(turns, skipped)
    sent = [t for t in turns if t.start <= stop]
    # A turn sent whole may end past the stop (another session's turn was still open): its
    # rows after the cursor are remembered by hash, so the next read does not send them again.
    ranges: dict[str, list[tuple[int, int]]] = {}
    for turn in sent:
        ranges.setdefault(turn.file, []).append((turn.start, turn.end))
    # Those rows, and the ones an earlier read sent that way (skipped now as known), are
    # kept whole however many, until the cursor passes them: trimmed to the last
    # RECENT_HASHES, a turn of more rows would be sent again. The rest keeps the last ones.
    earlier = set(recent)
    pinned = list(
        dict.fromkeys(
            d
            for i, d, name in consumed
            if i > stop and (d in earlier or any(start <= i < end for start, end in ranges.get(name, ())))
        )
    )
    below = [d for i, d, _ in consumed if i <= stop]
    held = set(pinned)
    hashes = [d for d in (*recent, *below) if d not in held][-RECENT_HASHES:] + pinned
    usage = tuple(u for name, rows in sessions.items() for u in _usage(source, name, rows, sent, stop, identity))
    return [
        file_read(
            rel,
            rel,
            sent,
            stop,
            after,
            consumer,
            identity,
            warnings,
            skipped,
            hashes,
            anchors,
            moved=why is not None,
            unknown=unknown,
            usage=usage,
        )
    ]


def _notice(source: TranscriptSource, session: SessionRows, row_id: int, row: RawJson) -> None:
    if source.probe is not None:
        session.scan.notice(row_id, source.probe.row(row))


def _usage(
    source: TranscriptSource,
    name: str,
    session: SessionRows,
    sent: list[Turn],
    stop: int,
    identity: tuple[int, int],
) -> tuple[SessionUsage, ...]:
    """What this read consumed of one session: its rows up to the cursor's stop, and the rest
    of its turns sent whole past it (their rows are skipped as known next time)."""
    if source.probe is None:
        return ()
    turns = [t for t in sent if t.file == name]
    end = max([stop + 1, *(t.end for t in turns)])
    return session_usage(name, database_fingerprint(identity), end, session.scan.found, turns)


def _anchor(row_id: int, row: RawJson) -> str:
    return row_anchor(row_id, row["session_id"], row["role"], row["timestamp"])


def _replaced(connection: sqlite3.Connection, prior: Cursor | None) -> str | None:
    """Why the database is not the one the cursor was written for, or None."""
    if prior is None or prior.offset <= 0:
        return None
    sequence = connection.execute(
        "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sqlite_sequence'"
    ).fetchone()
    top = None
    if sequence is not None:
        found = connection.execute("SELECT seq FROM sqlite_sequence WHERE name = 'messages'").fetchone()
        top = found["seq"] if found is not None else None
    if top is None:
        top = connection.execute("SELECT max(id) AS top FROM messages").fetchone()["top"]
    if top is None or (isinstance(top, int) and top < prior.offset):
        return f"its highest id is {top or 0}, below the cursor at {prior.offset}"
    row_id = anchor_row(prior.tail)
    if row_id is None:
        return None
    row = connection.execute(
        "SELECT id, session_id, role, timestamp FROM messages WHERE id = ?", (row_id,)
    ).fetchone()
    if row is not None and _anchor(row_id, row) != prior.tail:
        return f"row {row_id} is not the row analysed"
    return None


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
