"""Transcript reading by byte offset: every rule of SPEC §3.2."""

from __future__ import annotations

import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path

from daemon.changeset import Cursor
from daemon.config.models import TranscriptSettings
from daemon.transcript_files import TranscriptSource
from daemon.transcripts import TurnBatch, read_new_turns
from tests.support.deploy import conversation, message

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
SETTINGS = TranscriptSettings(glob="transcripts/*.jsonl", turn_idle_seconds=300)


def read(
    home: Path,
    cursors: dict[str, Cursor] | None = None,
    now: datetime = NOW,
    settings: TranscriptSettings = SETTINGS,
) -> TurnBatch:
    return read_new_turns(TranscriptSource(home, settings), cursors or {}, "distillation", now)


def commit(batch: TurnBatch, cursors: dict[str, Cursor] | None = None) -> dict[str, Cursor]:
    merged = dict(cursors or {})
    for advance in batch.advances:
        merged[advance.file] = advance.cursor
    return merged


def transcript(home: Path, text: str, name: str = "s.jsonl", mtime: float | None = 1_700_000_000) -> Path:
    path = home / "transcripts" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def test_turn_is_a_user_message_and_everything_up_to_the_next_user_message(tmp_path: Path) -> None:
    transcript(
        tmp_path,
        message("user", "one")
        + message("assistant", "a")
        + message("tool", "t")
        + message("user", "two")
        + message("assistant", "b"),
    )
    batch = read(tmp_path)
    assert [[m.role for m in t.messages] for t in batch.turns] == [
        ["user", "assistant", "tool"],
        ["user", "assistant"],
    ]
    assert batch.turns[0].ref == "transcripts/s.jsonl@0"


def test_nothing_is_reanalysed_after_the_cursor(tmp_path: Path) -> None:
    transcript(tmp_path, conversation([("a", "1"), ("b", "2")]))
    first = read(tmp_path)
    cursors = commit(first)
    assert read(tmp_path, cursors).turns == ()
    transcript(tmp_path, conversation([("c", "3")]))
    second = read(tmp_path, cursors)
    assert [t.messages[0].content for t in second.turns] == ["c"]


def test_half_written_last_line_waits_for_the_next_pass(tmp_path: Path) -> None:
    line = message("user", "second question")
    path = transcript(tmp_path, conversation([("first", "answer")], end=False) + line[:10])
    batch = read(tmp_path)
    assert [t.messages[0].content for t in batch.turns] == ["first"]  # idle file: trailing turn complete
    cursors = commit(batch)
    with path.open("a", encoding="utf-8") as fh:
        fh.write(line[10:] + message("assistant", "done") + json.dumps({"type": "session_end"}) + "\n")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    again = read(tmp_path, cursors)
    assert [t.messages[0].content for t in again.turns] == ["second question"]
    assert [m.content for m in again.turns[0].messages] == ["second question", "done"]


def test_trailing_turn_of_an_active_file_waits_and_the_cursor_never_splits_it(tmp_path: Path) -> None:
    transcript(tmp_path, conversation([("one", "a"), ("two", "b")], end=False), mtime=time.time())
    batch = read(tmp_path, now=datetime.now(UTC))
    assert [t.messages[0].content for t in batch.turns] == ["one"]
    second_turn_start = batch.turns[0].end
    assert batch.advances[0].cursor.offset == second_turn_start


def test_trailing_turn_counts_once_the_file_is_idle(tmp_path: Path) -> None:
    path = transcript(
        tmp_path, conversation([("one", "a"), ("two", "b")], end=False), mtime=time.time() - 301
    )
    assert len(read(tmp_path, now=datetime.now(UTC)).turns) == 2
    os.utime(path, (time.time() - 10, time.time() - 10))
    assert len(read(tmp_path, now=datetime.now(UTC)).turns) == 1


def test_trailing_turn_counts_once_the_session_ended(tmp_path: Path) -> None:
    transcript(tmp_path, conversation([("one", "a"), ("two", "b")], end=True), mtime=time.time())
    assert len(read(tmp_path, now=datetime.now(UTC)).turns) == 2


def test_shrunk_file_is_read_again_from_the_start(tmp_path: Path) -> None:
    path = transcript(tmp_path, conversation([("one", "a"), ("two", "b"), ("three", "c")]))
    cursors = commit(read(tmp_path))
    path.write_text(conversation([("fresh", "x")]), encoding="utf-8")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    batch = read(tmp_path, cursors)
    assert [t.messages[0].content for t in batch.turns] == ["fresh"]
    assert any("shrank below the cursor" in w for w in batch.warnings)


def test_replaced_file_is_read_again_from_the_start(tmp_path: Path) -> None:
    path = transcript(tmp_path, conversation([("one", "a")]))
    cursors = commit(read(tmp_path))
    replacement = tmp_path / "transcripts" / "new.tmp"
    replacement.write_text(conversation([("other", "b"), ("more", "c"), ("again", "d")]), encoding="utf-8")
    os.replace(replacement, path)
    os.utime(path, (1_700_000_000, 1_700_000_000))
    batch = read(tmp_path, cursors)
    assert [t.messages[0].content for t in batch.turns] == ["other", "more", "again"]
    assert any("replaced" in w for w in batch.warnings)


def test_malformed_lines_are_skipped_with_file_and_offset_and_never_lose_good_lines(tmp_path: Path) -> None:
    good = message("user", "keep me") + message("assistant", "ok")
    bad_json = "{not json\n"
    bad_utf8 = b'{"role": "user", "content": "\xff\xfe"}\n'
    path = tmp_path / "transcripts" / "s.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(
        bad_json.encode()
        + bad_utf8
        + b'{"role": "robot", "content": "x"}\n'
        + good.encode()
        + b'{"type": "session_end"}\n'
    )
    os.utime(path, (1_700_000_000, 1_700_000_000))
    batch = read(tmp_path)
    assert [t.messages[0].content for t in batch.turns] == ["keep me"]
    assert batch.warnings == (
        "transcripts/s.jsonl: skipped a malformed line at offset 0",
        f"transcripts/s.jsonl: skipped a malformed line at offset {len(bad_json)}",
        f"transcripts/s.jsonl: skipped a malformed line at offset {len(bad_json) + len(bad_utf8)}",
    )
    assert batch.advances[0].cursor.offset == path.stat().st_size


def test_line_longer_than_the_limit_is_skipped_without_blocking(tmp_path: Path) -> None:
    settings = TranscriptSettings(glob="transcripts/*.jsonl", max_line_bytes=1024, max_read_bytes=4096)
    huge = message("user", "x" * 20_000)
    transcript(tmp_path, huge + conversation([("after", "ok")]))
    first = read(tmp_path, settings=settings)
    assert first.turns == ()
    assert "longer than the read window" in first.warnings[0]
    second = read(tmp_path, commit(first), settings=settings)
    assert [t.messages[0].content for t in second.turns] == ["after"]


def test_symlinked_transcript_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.jsonl"
    outside.write_text(conversation([("secret", "x")]), encoding="utf-8")
    (tmp_path / "transcripts").mkdir()
    (tmp_path / "transcripts" / "link.jsonl").symlink_to(outside)
    batch = read(tmp_path)
    assert batch.turns == ()
    assert "symlink" in batch.warnings[0]


def test_a_batch_cut_after_two_turns_stops_the_cursor_before_the_third(tmp_path: Path) -> None:
    transcript(tmp_path, conversation([("a" * 500, "x"), ("b" * 500, "y"), ("c" * 500, "z")]))
    batch = read(tmp_path).take(2, tmp_path)
    assert len(batch.turns) == 2
    full = read(tmp_path)
    assert batch.advances[0].cursor.offset == full.turns[2].start
