"""Runtimes' SQLite transcripts that change under the reader: replaced databases, odd rows.

A database replaced by another is read again from the start with a warning; one bad row
is skipped with a warning naming it, or the database is held with the reason — never a
crash of `transcripts`, `status` or `once`.
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from daemon.kernel.changeset import Cursor
from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import TurnBatch, read_new_turns
from tests.support.deploy import base_config, run_cli, write_config

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
STAMP = 1793613600.0
HERMES = (
    "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, "
    "role TEXT NOT NULL, content TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, "
    "active INTEGER NOT NULL DEFAULT 1)"
)
OPENCLAW = (
    "CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, "
    "event_json TEXT, event_zstd BLOB, PRIMARY KEY (session_id, seq))"
)


def read(root: Path, fmt: str, glob: str, prior: dict[str, Cursor] | None = None) -> TurnBatch:
    settings = TranscriptSettings(format=fmt, glob=glob)  # type: ignore[arg-type]
    return read_new_turns(TranscriptSource(root, settings), prior or {}, "distillation", NOW)


def commit(batch: TurnBatch, prior: dict[str, Cursor] | None = None) -> dict[str, Cursor]:
    return {**(prior or {}), **{a.file: a.cursor for a in batch.advances}}


def users(batch: TurnBatch) -> list[str]:
    return [t.messages[0].content for t in batch.turns]


def hermes_db(path: Path, session: str, turns: int, start: float = STAMP) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute(HERMES.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"))
        for n in range(turns):
            connection.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'user', ?, ?)",
                (session, f"{session} question {n}", start + n),
            )
            connection.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, 'assistant', ?, ?)",
                (session, f"{session} answer {n}", start + n + 0.5),
            )
    connection.close()


def event(role: str, text: str, ident: str) -> str:
    return json.dumps(
        {
            "type": "message",
            "id": ident,
            "timestamp": "2026-09-10T08:00:01Z",
            "message": {"role": role, "content": [{"type": "text", "text": text}]},
        }
    )


def openclaw_db(path: Path, prefix: str, turns: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as connection:
        connection.execute(OPENCLAW.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"))
        for n in range(turns):
            for offset, role in enumerate(("user", "assistant")):
                connection.execute(
                    "INSERT INTO transcript_events (session_id, seq, event_json) VALUES ('s1', ?, ?)",
                    (2 * n + offset + 1, event(role, f"{prefix} {role} {n}", f"{prefix}{n}{role}")),
                )
    connection.close()


# --- a replaced database -------------------------------------------------------------------


def test_hermes_database_replaced_by_a_new_one_is_read_again_from_the_start(root: Path) -> None:
    db = root / "state.db"
    hermes_db(db, "old", 10)
    cursors = commit(read(root, "hermes", "state.db"))
    db.unlink()
    hermes_db(db, "new", 6)  # ids restart at 1 and stay below the cursor at 20
    batch = read(root, "hermes", "state.db", cursors)
    assert users(batch) == [f"new question {n}" for n in range(6)]
    assert batch.warnings == (
        "state.db: database was replaced (its highest id is 12, below the cursor at 20); "
        "reading it again from the start",
    )
    cursors = commit(batch, cursors)
    hermes_db(db, "later", 2)
    again = read(root, "hermes", "state.db", cursors)
    assert users(again) == ["later question 0", "later question 1"]
    assert again.warnings == ()


def test_hermes_database_replaced_by_a_longer_one_is_recognised_by_its_rows(root: Path) -> None:
    db = root / "state.db"
    hermes_db(db, "old", 2)
    cursors = commit(read(root, "hermes", "state.db"))
    db.unlink()
    hermes_db(db, "new", 5, start=STAMP + 9000)  # more rows than the cursor: ids alone cannot tell
    batch = read(root, "hermes", "state.db", cursors)
    assert users(batch) == [f"new question {n}" for n in range(5)]
    assert batch.warnings == (
        "state.db: database was replaced (row 4 is not the row analysed); reading it again from the start",
    )


def test_hermes_backup_restored_keeps_what_was_analysed_and_reads_the_rest(root: Path) -> None:
    db = root / "state.db"
    hermes_db(db, "h", 3)
    backup = db.read_bytes()
    hermes_db(db, "h", 3, start=STAMP + 100)
    cursors = commit(read(root, "hermes", "state.db"))
    db.write_bytes(backup)  # restored in place (same inode): ids 7.. are written again
    with sqlite3.connect(db) as connection:
        connection.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES "
            "('h', 'user', 'after the restore', ?), ('h', 'assistant', 'ok', ?)",
            (STAMP + 500, STAMP + 501),
        )
    connection.close()
    batch = read(root, "hermes", "state.db", cursors)
    assert users(batch) == ["after the restore"]
    assert batch.skipped == {"reinserted_row": 6}
    assert "database was replaced" in batch.warnings[0]


def test_openclaw_database_replaced_reads_the_session_again_from_the_start(root: Path) -> None:
    db = root / "agent" / "openclaw-agent.sqlite"
    openclaw_db(db, "old", 5)
    cursors = commit(read(root, "openclaw", "agent/*.sqlite"))
    db.unlink()
    openclaw_db(db, "new", 3)
    batch = read(root, "openclaw", "agent/*.sqlite", cursors)
    assert users(batch) == [f"new user {n}" for n in range(3)]
    assert batch.warnings[0] == (
        "agent/openclaw-agent.sqlite#s1: database was replaced (session s1's highest seq is 6, "
        "below the cursor at 10); reading it again from the start"
    )
    db.unlink()
    openclaw_db(db, "newer", 6)
    batch = read(root, "openclaw", "agent/*.sqlite", commit(batch, cursors))
    assert users(batch) == [f"newer user {n}" for n in range(6)]
    assert "event 6 is not the event analysed" in batch.warnings[0]


def test_a_database_cursor_survives_compaction_and_a_move_to_a_new_inode(root: Path) -> None:
    db = root / "state.db"
    hermes_db(db, "h", 3)
    cursors = commit(read(root, "hermes", "state.db"))
    copy = root / "copy.db"
    copy.write_bytes(db.read_bytes())
    os.replace(copy, db)
    with sqlite3.connect(db) as connection:
        connection.execute("UPDATE messages SET active = 0")
    connection.close()
    batch = read(root, "hermes", "state.db", cursors)
    assert batch.turns == () and batch.warnings == ()


# --- one bad row ---------------------------------------------------------------------------


def test_hermes_tool_calls_nested_too_deep_skip_that_row_naming_it(root: Path) -> None:
    db = root / "state.db"
    hermes_db(db, "h", 2)
    calls = [
        "[" * 1200 + "]" * 1200,
        json.dumps([{"function": {"name": "memory", "arguments": "[" * 1200 + "]" * 1200}}]),
    ]
    with sqlite3.connect(db) as connection:
        for n, text in enumerate(calls):
            connection.execute(
                "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) "
                "VALUES ('h', 'assistant', 'calling', ?, ?)",
                (text, STAMP + 10 + n),
            )
    connection.close()
    hermes_db(db, "h", 2, start=STAMP + 20)
    batch = read(root, "hermes", "state.db")
    assert users(batch) == ["h question 0", "h question 1", "h question 0", "h question 1"]
    assert batch.warnings == (
        "state.db: skipped a malformed row (id 5): tool_calls nested deeper than 32 arrays or objects",
        "state.db: skipped a malformed row (id 6): tool_calls arguments nested deeper than 32 arrays or objects",
    )


def test_hermes_timestamps_in_milliseconds_or_infinite_are_read_never_a_crash(root: Path) -> None:
    db = root / "state.db"
    hermes_db(db, "h", 1)
    with sqlite3.connect(db) as connection:
        for n, stamp in enumerate((STAMP * 1000, float("inf"), float("-inf"), -1e300, 1e300)):
            connection.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('h', 'user', ?, ?)",
                (f"odd {n}", stamp),
            )
    connection.close()
    batch = read(root, "hermes", "state.db")
    assert users(batch) == ["h question 0", *(f"odd {n}" for n in range(5))]
    assert [t.messages[0].ts for t in batch.turns][:3] == ["2026-11-02T10:00:00+00:00"] * 2 + [None]
    assert batch.warnings == ()


def test_hermes_row_not_utf8_is_skipped_naming_it_and_the_rest_is_read(root: Path) -> None:
    db = root / "state.db"
    hermes_db(db, "h", 1)
    with sqlite3.connect(db) as connection:
        connection.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) "
            "VALUES ('h', 'assistant', CAST(X'fffe41' AS TEXT), ?)",
            (STAMP + 5,),
        )
    connection.close()
    hermes_db(db, "h", 1, start=STAMP + 10)
    batch = read(root, "hermes", "state.db")
    assert users(batch) == ["h question 0", "h question 0"]
    assert batch.warnings == ("state.db: skipped row 3: its content is not valid UTF-8",)
    assert batch.advances[0].cursor.offset == 5


def test_hermes_schema_with_text_ids_is_held_naming_the_column(root: Path) -> None:
    with sqlite3.connect(root / "state.db") as connection:
        connection.execute("CREATE TABLE messages (id TEXT PRIMARY KEY, session_id TEXT, role TEXT, "
                           "content TEXT, timestamp REAL)")
        connection.execute("INSERT INTO messages VALUES ('m000a', 'h', 'user', 'hi', 1793613600.0)")
    connection.close()
    batch = read(root, "hermes", "state.db")
    assert batch.turns == () and batch.advances == ()
    assert batch.held[0].reason == (
        "column messages.id holds 'm000a', not an integer row id: a schema this reader does not know"
    )


def openclaw_with(root: Path, seq: object, **row: object) -> Path:
    db = root / "agent" / "openclaw-agent.sqlite"
    openclaw_db(db, "ok", 2)
    with sqlite3.connect(db) as connection:
        columns = ", ".join(row)
        connection.execute(
            f"INSERT INTO transcript_events (session_id, seq, {columns}) VALUES ('s1', ?, {', '.join('?' * len(row))})",
            (seq, *row.values()),
        )
    connection.close()
    openclaw_db(db, "later", 0)
    return db


def test_openclaw_corrupt_zstd_event_is_skipped_naming_it(root: Path) -> None:
    openclaw_with(root, 100, event_zstd=b"\x28\xb5\x2f\xfd garbage")
    batch = read(root, "openclaw", "agent/*.sqlite")
    assert users(batch) == ["ok user 0", "ok user 1"]
    assert batch.warnings[0].startswith(
        "agent/openclaw-agent.sqlite#s1: skipped a malformed event at seq 100: event_zstd is not a valid zstd frame"
    )


def test_openclaw_zstd_event_claiming_a_huge_size_is_read_only_up_to_the_line_limit(root: Path) -> None:
    import zstandard

    packed = zstandard.ZstdCompressor().compress(b" " * (200 * 1024 * 1024))  # header: 200 MiB
    openclaw_with(root, 100, event_zstd=packed)
    batch = read(root, "openclaw", "agent/*.sqlite")
    assert users(batch) == ["ok user 0", "ok user 1"]
    assert batch.warnings[0] == (
        "agent/openclaw-agent.sqlite#s1: skipped the event at seq 100: over max_line_bytes (1048576 bytes)"
    )


def test_openclaw_event_json_stored_as_a_number_is_malformed_not_allocated(root: Path) -> None:
    db = root / "agent" / "openclaw-agent.sqlite"
    db.parent.mkdir()
    with sqlite3.connect(db) as connection:
        connection.execute(OPENCLAW.replace("event_json TEXT", "event_json JSON"))
        connection.execute(
            "INSERT INTO transcript_events (session_id, seq, event_json) VALUES ('s1', 100, '9000000000000000000')"
        )
        assert connection.execute("SELECT typeof(event_json) FROM transcript_events").fetchone() == ("integer",)
    connection.close()
    openclaw_db(db, "ok", 2)
    batch = read(root, "openclaw", "agent/*.sqlite")
    assert users(batch) == ["ok user 0", "ok user 1"]
    assert batch.warnings == (
        "agent/openclaw-agent.sqlite#s1: skipped a malformed event at seq 100: not a JSON object",
    )


def test_openclaw_schema_with_text_seq_is_held_naming_the_column(root: Path) -> None:
    openclaw_with(root, "1.5a", event_json=event("user", "x", "x"))
    batch = read(root, "openclaw", "agent/*.sqlite")
    assert batch.turns == () and batch.advances == ()
    assert batch.held[0].reason == (
        "column transcript_events.seq holds '1.5a' in session s1, not an integer: a schema this reader does not know"
    )


def test_hostile_hermes_rows_never_crash_transcripts_status_or_once(root: Path) -> None:
    hermes_home = root / "hermes"
    hermes_home.mkdir()
    hermes_db(hermes_home / "state.db", "h", 4)
    with sqlite3.connect(hermes_home / "state.db") as connection:
        connection.execute(
            "INSERT INTO messages (session_id, role, content, tool_calls, timestamp) VALUES "
            "('h', 'assistant', 'x', ?, 1e300), ('h', 'user', CAST(X'ff' AS TEXT), NULL, 1793613600000)",
            ("[" * 1200 + "]" * 1200,),
        )
    connection.close()
    config = base_config(root, None)
    config["agents"]["ada"]["transcripts"] = {"format": "hermes", "root": str(hermes_home), "glob": "state.db"}
    write_config(root, config)
    shown = run_cli(root / "config.yaml", "transcripts", "--agent", "ada", "--json")
    assert shown.code == 0, shown.err
    assert len(shown.json()["turns"]) == 4 and len(shown.json()["warnings"]) == 2
    status = run_cli(root / "config.yaml", "status", "--json")
    assert status.code == 0, status.err
    once = run_cli(root / "config.yaml", "once", "--agent", "ada", "--json")
    assert once.code == 0, once.err


def test_hermes_turn_of_many_rows_sent_past_an_open_turn_is_never_sent_again(root: Path) -> None:
    now = NOW.timestamp()
    with sqlite3.connect(root / "state.db") as connection:
        connection.execute(HERMES)

        def insert(session: str, role: str, text: str, stamp: float) -> None:
            connection.execute(
                "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)",
                (session, role, text, stamp),
            )

        insert("B", "user", "refactor the whole repo please", now - 2000)
        insert("A", "user", "my city is Porto", now)  # still open: the cursor stops before it
        for n in range(600):  # B's turn goes on past A's open turn, more rows than the hashes kept
            insert("B", "assistant", f"step {n}: editing file_{n}.py", now - 1999 + n)
        insert("B", "assistant", "done refactoring", now - 1000)
    connection.close()
    first = read(root, "hermes", "state.db")
    assert users(first) == ["refactor the whole repo please"]
    assert first.advances[0].cursor.offset == 1
    settings = TranscriptSettings(format="hermes", glob="state.db")
    later = NOW.replace(hour=13)
    second = read_new_turns(TranscriptSource(root, settings), commit(first), "distillation", later)
    assert [[m.content for m in t.messages] for t in second.turns] == [["my city is Porto"]]


@pytest.mark.slow
def test_a_database_locked_past_the_busy_timeout_is_held_as_busy_not_as_another_format(root: Path) -> None:
    hermes_db(root / "state.db", "h", 4)
    writer = sqlite3.connect(root / "state.db", isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")
    try:
        batch = read(root, "hermes", "state.db")
    finally:
        writer.close()
    assert batch.turns == () and batch.advances == ()
    assert batch.held[0].reason == "busy (database is locked: a writer held its lock past 5 s); read next time"
    assert len(read(root, "hermes", "state.db").turns) == 4
