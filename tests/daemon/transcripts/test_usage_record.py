"""The usage record counts each use once, however often its turn is read, and numbers the
sessions so that "sessions since the last use" can be told (docs/explanation/skills.md#usage-signals)."""

from __future__ import annotations

import json
import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from daemon.kernel.changeset import Cursor
from daemon.kernel.errors import CorruptState, StateVersionError
from daemon.run.state_erasure import erase_file
from daemon.text.erasure import Erasure
from daemon.transcripts import usage_record
from tests.daemon.transcripts.test_usage import (
    CONTEXT,
    NOW,
    OLD,
    answer,
    attachment,
    claude_read,
    prompt,
    tool_use,
    write_session,
)


def commit(batch: Any, prior: dict[str, Cursor] | None = None) -> dict[str, Cursor]:
    return {**(prior or {}), **{a.file: a.cursor for a in batch.advances}}


def skill_turn(n: int, skill: str) -> list[dict[str, Any]]:
    return [prompt(n, f"Use {skill}."), tool_use(n + 1, "Skill", {"skill": skill}), answer(n + 2, "Done.")]


def append(path: Path, lines: list[dict[str, Any]]) -> None:
    with path.open("a") as fh:
        fh.write("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(path, (OLD, OLD))


def test_reading_the_same_turns_again_counts_nothing_twice(root: Path) -> None:
    sessions = root / "projects"
    write_session(sessions, [*skill_turn(0, "release"), *skill_turn(3, "release")])
    record = root / "state" / "usage.json"
    batch = claude_read(sessions)
    assert usage_record.record(record, batch.usage, NOW) == 2
    assert usage_record.record(record, claude_read(sessions).usage, NOW) == 0  # a run whose commit never happened
    state = usage_record.load(record)
    assert state.skill("release").count == 2 and state.skill("release").sessions == 1
    assert json.loads(record.read_text())["version"] == usage_record.VERSION


def test_passes_reading_from_different_cursors_count_each_use_once(root: Path) -> None:
    sessions = root / "projects"
    path = write_session(sessions, skill_turn(0, "release"))
    record = root / "usage.json"
    ahead = commit(claude_read(sessions))  # one pass's cursor, past the first turn
    usage_record.record(record, claude_read(sessions, ahead).usage, NOW)  # nothing new for it
    append(path, [*skill_turn(3, "triage"), *skill_turn(6, "release")])
    behind = claude_read(sessions)  # another pass, still at the start
    front = claude_read(sessions, ahead)
    assert usage_record.record(record, [*front.usage, *behind.usage], NOW) == 3
    state = usage_record.load(record)
    assert (state.skill("release").count, state.skill("triage").count) == (2, 1)


def test_last_use_and_the_sessions_read_since(root: Path) -> None:
    sessions = root / "projects"
    record = root / "usage.json"
    write_session(sessions, skill_turn(0, "release"), "a.jsonl")
    usage_record.record(record, claude_read(sessions).usage, NOW)
    for name in ("b.jsonl", "c.jsonl"):
        write_session(sessions, skill_turn(10, "triage"), name)
    usage_record.record(record, claude_read(sessions).usage, NOW)  # a.jsonl again, and two new sessions
    state = usage_record.load(record)
    release, triage = state.skill("release"), state.skill("triage")
    assert state.sessions_seen == 3
    assert (release.count, release.last_session, state.sessions_since(release)) == (1, "a", 2)
    assert (triage.count, triage.sessions, state.sessions_since(triage)) == (2, 2, 0)
    assert release.last == "2026-11-05T09:01:00+00:00" and release.last_turn == "a.jsonl@0"
    assert state.sessions_by_day == {"2026-11-05": 3}
    assert state.sessions_since(state.skill("never-opened")) is None


def test_a_session_resumed_later_counts_no_session_since_its_new_use(root: Path) -> None:
    sessions = root / "projects"
    record = root / "usage.json"
    first = write_session(sessions, skill_turn(0, "triage"), "a.jsonl")
    usage_record.record(record, claude_read(sessions).usage, NOW)
    cursors = commit(claude_read(sessions))
    for name in ("b.jsonl", "c.jsonl"):
        write_session(sessions, [prompt(20, "Hello."), answer(21, "Hi.")], name)
    usage_record.record(record, claude_read(sessions, cursors).usage, NOW)
    state = usage_record.load(record)
    assert state.sessions_since(state.skill("triage")) == 2
    append(first, skill_turn(40, "triage"))  # a.jsonl resumed after b and c
    usage_record.record(record, claude_read(sessions, cursors).usage, NOW)
    state = usage_record.load(record)
    assert (state.skill("triage").count, state.sessions_since(state.skill("triage"))) == (2, 0)
    assert state.sessions_seen == 3


def test_a_transcript_replaced_by_another_file_is_counted_from_its_start(root: Path) -> None:
    sessions = root / "projects"
    record = root / "usage.json"
    path = write_session(sessions, [*skill_turn(0, "release"), *skill_turn(3, "release")])
    usage_record.record(record, claude_read(sessions).usage, NOW)
    path.unlink()  # another session put in its place (its inode may well be reused)
    write_session(sessions, [prompt(0, "Start over."), tool_use(1, "Skill", {"skill": "release"}), answer(2, "Ok.")])
    usage_record.record(record, claude_read(sessions).usage, NOW)
    state = usage_record.load(record)
    assert state.skill("release").count == 3 and state.sessions_seen == 1


def test_a_transcript_copied_back_in_place_is_not_counted_again(root: Path) -> None:
    sessions = root / "projects"
    record = root / "usage.json"
    path = write_session(sessions, [*skill_turn(0, "release"), *skill_turn(3, "release")])
    usage_record.record(record, claude_read(sessions).usage, NOW)
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)  # restored from a backup: another inode, the same lines
    usage_record.record(record, claude_read(sessions).usage, NOW)
    assert usage_record.load(record).skill("release").count == 2


def test_uses_the_hook_and_the_view_are_tallied_per_kind(root: Path) -> None:
    sessions = root / "projects"
    record = root / "usage.json"
    hook = {"type": "hook_additional_context", "hookName": "UserPromptSubmit", "content": [CONTEXT]}
    write_session(
        sessions,
        [
            prompt(0, "Where do I live?"),
            attachment(1, hook),
            tool_use(2, "Read", {"file_path": "/srv/project/.claude/metaeng-facts.md"}),
            answer(3, "Porto."),
            prompt(4, "And my dentist?"),
            attachment(5, hook),
            answer(6, "Thursday."),
        ],
    )
    usage_record.record(record, claude_read(sessions).usage, NOW)
    state = usage_record.load(record)
    assert (state.hook_context.count, state.hook_context.sessions) == (2, 1)
    assert (state.facts_view.count, state.facts_view.last) == (1, "2026-11-05T09:02:00+00:00")
    assert state.skills == {}


def test_sessions_not_read_for_months_are_forgotten_but_still_counted(root: Path) -> None:
    sessions = root / "projects"
    record = root / "usage.json"
    write_session(sessions, skill_turn(0, "release"), "a.jsonl")
    usage_record.record(record, claude_read(sessions).usage, NOW)
    (sessions / "a.jsonl").unlink()
    write_session(sessions, skill_turn(0, "triage"), "b.jsonl")
    later = NOW + timedelta(days=usage_record.SOURCE_DAYS + 1)
    usage_record.record(record, claude_read(sessions).usage, later)
    state = usage_record.load(record)
    assert list(state.sources) == ["b.jsonl"] and state.sessions_seen == 2
    assert state.skill("release").count == 1


def test_a_use_without_a_time_of_its_own_is_dated_by_the_run(root: Path) -> None:
    sessions = root / "projects"
    record = root / "usage.json"
    line = tool_use(1, "Skill", {"skill": "release"})
    del line["timestamp"]
    write_session(sessions, [prompt(0, "Release."), line, answer(2, "Done.")])
    usage_record.record(record, claude_read(sessions).usage, NOW)
    assert usage_record.load(record).skill("release").last == "2026-11-30T12:00:00+00:00"


def test_a_newer_or_damaged_record_is_refused_and_not_overwritten(root: Path) -> None:
    sessions = root / "projects"
    write_session(sessions, skill_turn(0, "release"))
    record = root / "usage.json"
    record.write_text('{"version": 2}')
    with pytest.raises(StateVersionError):
        usage_record.record(record, claude_read(sessions).usage, NOW)
    record.write_text("{not json")
    with pytest.raises(CorruptState):
        usage_record.load(record)
    assert record.read_text() == "{not json"


def test_a_purge_rewrites_a_value_in_the_record_and_the_record_still_reads(root: Path) -> None:
    """The record is a state file: a purge erases a value from its strings (the last session,
    named after a client, say) and leaves the counts. Its keys are transcript paths, kept as
    the cursor file keeps them: transcripts are the runtime's, never rewritten by the daemon."""
    sessions = root / "projects"
    record = root / "usage.json"
    write_session(sessions, skill_turn(0, "release"), "acme-rollout.jsonl")
    usage_record.record(record, claude_read(sessions).usage, NOW)
    assert erase_file(record, Erasure.of("user", "client", ["acme"]))
    state = usage_record.load(record)
    release = state.skill("release")
    assert release.count == 1
    assert (release.last_session, release.last_turn) == ("[purged]-rollout", "[purged]-rollout.jsonl@0")
    assert list(state.sources) == ["acme-rollout.jsonl"]
