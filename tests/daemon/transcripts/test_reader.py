"""Transcript reading by byte offset: every rule of docs/explanation/transcripts.md."""

from __future__ import annotations

import hashlib
import json
import os
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from daemon.kernel.changeset import Cursor
from daemon.kernel.settings import TranscriptSettings
from daemon.passes.turn_batches import split_turns, wire_bytes
from daemon.transcripts import cursors
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import TurnBatch, read_new_turns
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
    # Idle, but the half-written line may still be part of the trailing turn: it waits too.
    assert batch.turns == () and batch.advances == ()
    with path.open("a", encoding="utf-8") as fh:
        fh.write(line[10:] + message("assistant", "done") + json.dumps({"type": "session_end"}) + "\n")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    again = read(tmp_path, commit(batch))
    assert [t.messages[0].content for t in again.turns] == ["first", "second question"]
    assert [m.content for m in again.turns[1].messages] == ["second question", "done"]


def test_a_half_written_answer_never_splits_its_turn_in_an_idle_file(tmp_path: Path) -> None:
    answer = message("assistant", "I will remember: your city is Porto")
    path = transcript(tmp_path, message("user", "I moved to Porto") + answer[:40])
    assert read(tmp_path).turns == ()
    with path.open("a", encoding="utf-8") as fh:
        fh.write(answer[40:])
    os.utime(path, (1_700_000_000, 1_700_000_000))
    (turn,) = read(tmp_path).turns
    assert [m.content for m in turn.messages] == ["I moved to Porto", "I will remember: your city is Porto"]


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
        "transcripts/s.jsonl: skipped a malformed line at offset 0: not JSON",
        f"transcripts/s.jsonl: skipped a malformed line at offset {len(bad_json)}: "
        "not valid UTF-8 (byte 29 of the line)",
        f"transcripts/s.jsonl: skipped a malformed line at offset {len(bad_json) + len(bad_utf8)}: "
        "no role of user, assistant, tool, system",
    )
    assert batch.advances[0].cursor.offset == path.stat().st_size


def test_a_line_longer_than_the_read_window_is_skipped_one_window_per_pass(tmp_path: Path) -> None:
    settings = TranscriptSettings(glob="transcripts/*.jsonl", max_line_bytes=1024, max_read_bytes=4096)
    huge = message("user", "x" * 20_000)
    transcript(tmp_path, huge + conversation([("after", "ok")]))
    state: dict[str, Cursor] = {}
    offsets: list[int] = []
    warnings: list[str] = []
    seen: list[str] = []
    for _ in range(10):
        batch = read(tmp_path, state, settings=settings)
        warnings += batch.warnings
        seen += [t.messages[0].content for t in batch.turns]
        state = commit(batch, state)
        offsets.append(state["transcripts/s.jsonl"].offset)
        if seen:
            break
    # Each pass looks one read window further for the line's end, never the whole file.
    assert offsets == [4096, 8192, 12288, 16384, offsets[-1]] and offsets[-1] > len(huge)
    assert warnings[0] == (
        "transcripts/s.jsonl: skipping the line at offset 0: longer than the read window (max_read_bytes), "
        "no end in its first 4096 bytes; looking on from offset 4096 next pass"
    )
    assert warnings[-1] == (
        f"transcripts/s.jsonl: skipped a line at offset 0: {len(huge)} bytes, longer than the read window "
        "(max_read_bytes)"
    )
    assert seen == ["after"] and state["transcripts/s.jsonl"].skipping_from is None


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


def _rewrite(path: Path, old: bytes, new: bytes, append: str = "") -> None:
    """Replace `old` by `new` in place (same inode), then append `append`."""
    data = path.read_bytes().replace(old, new)
    with path.open("r+b") as fh:
        fh.write(data)
        fh.truncate()
        fh.write(append.encode())
    os.utime(path, (1_700_000_000, 1_700_000_000))


def _long_transcript(home: Path, marker: str = "SECRET-0123456789") -> Path:
    pairs = [(f"padding question number {i} to fill the first KiB of the file", "ok") for i in range(10)]
    pairs.append((f"the token is {marker}", "noted"))
    path = transcript(home, conversation(pairs, end=False))
    assert path.read_bytes().index(marker.encode()) > 1024
    return path


def _firsts(batch: TurnBatch) -> list[str]:
    return [t.messages[0].content for t in batch.turns]


def test_cursor_records_a_hash_of_the_bytes_before_its_offset(tmp_path: Path) -> None:
    path = transcript(tmp_path, conversation([("a", "1")]))
    cursor = read(tmp_path).advances[0].cursor
    assert cursor.tail == hashlib.sha256(path.read_bytes()[-64:]).hexdigest()


@pytest.mark.parametrize(
    "replacement", [b"[R]", b"[REDACTED BY A TOOL THAT WRITES A VERY LONG NOTE HERE]" * 3]
)
def test_in_place_rewrite_before_the_cursor_resumes_exactly_after_what_was_analysed(
    tmp_path: Path, replacement: bytes
) -> None:
    path = _long_transcript(tmp_path)
    cursors = commit(read(tmp_path))
    # The first new user line is shorter than what the redaction removes.
    _rewrite(path, b"SECRET-0123456789", replacement, conversation([("x", "y"), ("second", "z")]))
    batch = read(tmp_path, cursors)
    assert _firsts(batch) == ["x", "second"]
    assert not any("malformed" in w for w in batch.warnings)
    assert any("rewritten before the cursor" in w for w in batch.warnings)
    again = read(tmp_path, commit(batch, cursors))
    assert again.turns == () and again.warnings == ()


def test_rewrite_with_an_appended_session_ending_like_the_last_reads_every_new_turn(tmp_path: Path) -> None:
    def session(questions: list[str]) -> str:
        turns = "".join(message("user", q) + message("assistant", "ok") for q in questions)
        return turns + json.dumps({"type": "session_end"}) + "\n"

    padding = [f"padding question number {i} to fill the first KiB of the file" for i in range(10)]
    path = transcript(tmp_path, session([*padding, "the token is " + "S" * 1200]))
    cursors = commit(read(tmp_path))
    # A redaction shrinks the file by more than the appended session's length, and that
    # session ends with the same 64 bytes as the last one analysed: two places match.
    appended = session([f"new question {i}" for i in range(4)])
    _rewrite(path, b"S" * 1200, b"[R]", appended)
    batch = read(tmp_path, cursors)
    assert _firsts(batch) == [f"new question {i}" for i in range(4)]
    assert any("matches 2 places" in w and "from the earliest" in w for w in batch.warnings)
    assert read(tmp_path, commit(batch, cursors)).turns == ()


def test_in_place_rewrite_with_nothing_appended_moves_the_cursor_once(tmp_path: Path) -> None:
    path = _long_transcript(tmp_path)
    cursors = commit(read(tmp_path))
    _rewrite(path, b"SECRET-0123456789", b"[R]")
    batch = read(tmp_path, cursors)
    assert batch.turns == () and batch.advances[0].cursor.offset == path.stat().st_size
    assert read(tmp_path, commit(batch, cursors)).warnings == ()


def test_rewrite_of_the_last_analysed_line_reads_the_file_again_from_the_start(tmp_path: Path) -> None:
    path = _long_transcript(tmp_path)
    cursors = commit(read(tmp_path))
    _rewrite(path, b'"noted"', b'"[R]"', conversation([("new", "n")]))
    batch = read(tmp_path, cursors)
    assert _firsts(batch)[0].startswith("padding question number 0") and _firsts(batch)[-1] == "new"
    assert any("is not found; reading it again from the start" in w for w in batch.warnings)


def test_a_cursor_written_before_tails_keeps_working(tmp_path: Path) -> None:
    path = transcript(tmp_path, conversation([("a", "1")]))
    old = commit(read(tmp_path))
    untailed = {rel: c.model_copy(update={"tail": None}) for rel, c in old.items()}
    transcript(tmp_path, conversation([("b", "2")]))
    batch = read(tmp_path, untailed)
    assert _firsts(batch) == ["b"] and batch.warnings == ()
    assert batch.advances[0].cursor.tail is not None
    state = tmp_path / "cursors.json"
    legacy = {rel: c.model_dump(exclude={"tail"}) for rel, c in old.items()}
    state.write_text(json.dumps({"version": 1, "consumers": {"distillation": legacy}}))
    assert (
        cursors.load(state).consumers["distillation"]["transcripts/s.jsonl"].offset
        == old["transcripts/s.jsonl"].offset
    )
    assert path.exists()


OTHER_FORMAT = "".join(
    json.dumps({"type": "user", "message": {"role": "user", "content": f"q{i}"}, "uuid": str(i)}) + "\n"
    for i in range(6)
)


def test_a_file_in_another_format_is_held_and_resumes_from_its_cursor_once_fixed(tmp_path: Path) -> None:
    path = transcript(tmp_path, conversation([("a", "1")]))
    cursors = commit(read(tmp_path))
    kept = path.read_bytes()
    transcript(tmp_path, OTHER_FORMAT)
    batch = read(tmp_path, cursors)
    assert batch.turns == () and batch.advances == ()
    assert [h.file for h in batch.held] == ["transcripts/s.jsonl"]
    assert batch.warnings == (
        "transcripts/s.jsonl: held, not read: 6 of 6 lines read are not in the configured format "
        '(transcripts.format: jsonl, one {"role": ..., "content": ...} object per line); not consumed, '
        "its cursor kept until the file or the config is fixed",
    )
    path.write_bytes(kept + conversation([("fixed", "ok")]).encode())
    os.utime(path, (1_700_000_000, 1_700_000_000))
    fixed = read(tmp_path, cursors)
    assert _firsts(fixed) == ["fixed"] and fixed.held == ()


@pytest.mark.parametrize(
    ("bad", "good", "held"), [(4, 0, False), (5, 1, False), (17, 2, False), (5, 0, True), (18, 2, True)]
)
def test_a_file_is_held_only_when_at_least_5_lines_and_90_percent_are_malformed(
    tmp_path: Path, bad: int, good: int, held: bool
) -> None:
    transcript(tmp_path, "{not json\n" * bad + message("user", "q") * good)
    batch = read(tmp_path)
    assert bool(batch.held) is held
    assert (batch.advances == ()) is held


def test_a_turn_longer_than_the_read_window_is_cut_and_nothing_is_lost(tmp_path: Path) -> None:
    settings = TranscriptSettings(glob="transcripts/*.jsonl", max_line_bytes=1024, max_read_bytes=4096)
    tools = [message("tool", f"out {i} " + "x" * 600) for i in range(12)]
    transcript(tmp_path, message("user", "build it") + "".join(tools) + conversation([("next", "ok")]))
    seen: list[str] = []
    state: dict[str, Cursor] = {}
    for _ in range(10):
        batch = read(tmp_path, state, settings=settings)
        seen += [m.content for t in batch.turns for m in t.messages]
        state = commit(batch, state)
        if "next" in seen:
            break
    assert seen[0] == "build it" and [s.split(" x")[0] for s in seen[1:13]] == [f"out {i}" for i in range(12)]
    assert seen[13:] == ["next", "ok"]


def test_a_first_turn_heavier_than_a_request_is_sent_whole_but_cut_with_markers(tmp_path: Path) -> None:
    tools = "".join(message("tool", f"out {i} " + "x" * 500) for i in range(6))
    transcript(tmp_path, message("user", "build it") + tools + conversation([("next", "ok")]))
    full = read(tmp_path)
    (group,) = split_turns(full.turns, 1200, 5)
    assert group.wire_bytes <= 1200 and len(group.turns) == 2
    shown = [m[1] for m in group.bodies[0]["messages"]]
    assert shown[0] == "build it" and shown[-1].startswith("[…cut:") and "more message(s)" in shown[-1]
    assert len(shown) < len(full.turns[0].messages) + 1
    # The whole turn is covered, never split: the cursor stops at a turn's start or the end.
    assert full.take(1, tmp_path).advances[0].cursor.offset == full.turns[1].start
    assert group.bodies[1]["messages"][0][1] == "next"


def test_requests_are_sized_in_bytes_as_sent_not_characters(tmp_path: Path) -> None:
    transcript(tmp_path, conversation([("柏林" * 150, "好"), ("汉堡" * 150, "好"), ("慕尼黑" * 100, "好")]))
    groups = split_turns(read(tmp_path).turns, 1800, 5)
    for group in groups:
        assert sum(wire_bytes(body) + 2 for body in group.bodies) == group.wire_bytes <= 1800
    # Counted in characters (about 300 each), all three turns would have gone in one request.
    assert [len(g.turns) for g in groups] == [1, 1, 1]


def test_text_leaving_the_parser_is_encodable_and_without_control_characters(tmp_path: Path) -> None:
    transcript(
        tmp_path,
        '{"role": "user", "content": "ok\\u0000\\u001b[1mbold\\u001b[0m\\u0085", "ts": "2026\\u0007"}\n'
        '{"role": "user", "content": [{"text": "pair \\ud83d\\ude00 kept"}, {"x": "\\ud83d"}]}\n'
        '{"role": "assistant", "content": "fine", "ts": "\\udc00"}\n' + conversation([("after", "a")]),
    )
    batch = read(tmp_path)
    assert _firsts(batch) == ["okbold", "after"]
    assert batch.turns[0].ts == "2026"
    assert [w.split(": ", 2)[2] for w in batch.warnings] == [
        "a lone surrogate escape in its text (a cut emoji?): not encodable as UTF-8"
    ] * 2
    for turn in batch.turns:
        for m in turn.messages:
            m.content.encode("utf-8")
