"""The current shapes of each runtime's sessions: only the person's own words become user turns.

The synthetic sessions of examples/runtimes are written in the shapes published sessions
show (Claude Code 2.1.x, Codex CLI 0.154): background task notifications, IDE context
blocks, local command output, prompts queued while the agent worked, subagent files, and
line kinds no adapter reads — which are counted by kind, so format drift shows.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import Any

from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import read_new_turns
from tests.daemon.transcripts.test_adapters import NOW, OLD, example, pending
from tests.support.deploy import run_cli

NEW_SESSION = "9d41c7e0-2222-4b4b-9c9c-000000000002.jsonl"


def new_session_turns(data: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for t in data["turns"] if t["ref"].startswith(NEW_SESSION)]


def test_claude_code_background_task_results_never_become_user_turns(root: Path) -> None:
    """As a user line with origin.kind task-notification (2.1.90+), as a plain user line
    (before), and as a queued command in task-notification mode."""
    data = pending(example(root, "claude-code"), "coder")
    said = [m["text"] for t in data["turns"] for m in t["messages"] if m["role"] == "user"]
    assert not [text for text in said if "task-notification" in text or "make test" in text]
    assert data["skipped"]["task_notification"] == 3


def test_claude_code_ide_context_blocks_are_cut_from_the_users_words(root: Path) -> None:
    data = pending(example(root, "claude-code"), "coder")
    first = new_session_turns(data)[0]["messages"][0]
    assert first["text"] == "Releases go out from eu-west-1 only, never us-east-1."
    assert data["skipped"]["ide_context"] == 2


def test_claude_code_an_ide_block_left_open_ends_with_its_content_block(root: Path) -> None:
    line = {
        "type": "user",
        "uuid": "u",
        "message": {
            "role": "user",
            "content": [
                {"type": "text", "text": "<ide_opened_file>The user opened the file /srv/a.py in the IDE.\n"},
                {"type": "text", "text": "Rename the widget factory."},
            ],
        },
    }
    session = root / "s.jsonl"
    session.write_text(json.dumps(line) + "\n")
    os.utime(session, (OLD, OLD))
    settings = TranscriptSettings(format="claude-code", glob="*.jsonl")
    batch = read_new_turns(TranscriptSource(root, settings), {}, "distillation", NOW)
    assert [t.messages[0].content for t in batch.turns] == ["Rename the widget factory."]
    assert batch.skipped == {"ide_context": 1}


def test_claude_code_local_command_output_is_not_a_user_turn(root: Path) -> None:
    data = pending(example(root, "claude-code"), "coder")
    assert "Unknown skill: deploy" not in json.dumps(data["turns"])
    assert data["skipped"]["command_output"] == 1


def test_claude_code_prompt_typed_while_the_agent_worked_is_read_as_a_user_message(root: Path) -> None:
    data = pending(example(root, "claude-code"), "coder")
    queued = new_session_turns(data)[1]["messages"][0]
    assert (queued["role"], queued["text"], queued["source"]) == (
        "user",
        "Also tag the release commit with the date.",
        "v5",
    )


def queued(prompt: object, **attachment: object) -> dict[str, Any]:
    return {
        "type": "attachment",
        "uuid": "q",
        "timestamp": "2026-11-05T09:00:09Z",
        "isSidechain": False,
        "attachment": {"type": "queued_command", "prompt": prompt, **attachment},
    }


def test_claude_code_queued_commands_that_are_not_the_persons_prompt_are_skipped(root: Path) -> None:
    lines = [
        queued("Words from another session", commandMode="prompt", origin={"kind": "peer"}),
        queued("git status", commandMode="bash"),
        queued("Caveat: generated", commandMode="prompt", isMeta=True),
        queued([{"type": "text", "text": "Use pnpm here, not npm."}]),  # before commandMode and origin existed
        {
            "type": "user",
            "uuid": "c",
            "origin": {"kind": "coordinator"},
            "message": {"role": "user", "content": "Go on with step 2."},
        },
    ]
    session = root / "s.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(session, (OLD, OLD))
    settings = TranscriptSettings(format="claude-code", glob="*.jsonl")
    batch = read_new_turns(TranscriptSource(root, settings), {}, "distillation", NOW)
    assert [t.messages[0].content for t in batch.turns] == ["Use pnpm here, not npm."]
    assert batch.skipped == {"not_typed": 2, "command_wrapper": 1, "meta": 1}


def test_line_kinds_no_adapter_reads_are_counted_by_kind_in_transcripts_and_status(root: Path) -> None:
    config = example(root, "claude-code")
    data = pending(config, "coder")
    expected = {
        "permission-mode": 1,
        "system:turn_duration": 1,
        "last-prompt": 1,
        "ai-title": 1,
    }
    assert data["unknown_lines"] == expected
    text = run_cli(config, "transcripts", "--agent", "coder").out
    assert (
        "lines of kinds the claude-code adapter does not know, not analysed: 1 ai-title, "
        "1 last-prompt, 1 permission-mode, 1 system:turn_duration"
    ) in text
    status = run_cli(config, "status", "--agent", "coder", "--json")
    assert status.code == 0, status.err
    assert status.json()["agents"][0]["unknown_lines"] == expected
    assert "lines of kinds the transcript adapter does not know: 1 ai-title," in run_cli(
        config, "status", "--agent", "coder"
    ).out


def test_an_unknown_kind_is_named_short_and_clean_however_the_line_spells_it(root: Path) -> None:
    session = root / "s.jsonl"
    session.write_text(json.dumps({"type": "x\x1b[31m" + "y" * 5000, "uuid": "z"}) + "\n")
    os.utime(session, (OLD, OLD))
    settings = TranscriptSettings(format="claude-code", glob="*.jsonl")
    batch = read_new_turns(TranscriptSource(root, settings), {}, "distillation", NOW)
    (kind,) = batch.unknown
    assert kind.startswith("xyyy") and len(kind) == 60 and kind.endswith("…")


def test_codex_ide_context_is_cut_and_unknown_event_kinds_counted(root: Path) -> None:
    data = pending(example(root, "codex"), "coder")
    vscode = [t for t in data["turns"] if "bbab2a035b10" in t["ref"]]  # the session Codex ran in VS Code
    assert vscode[0]["messages"][0]["text"] == (
        "Retries on the invoices client must back off exponentially, capped at 30 s."
    )
    assert data["skipped"]["ide_context"] == 1  # the event's; the response_item copy is not counted again
    assert data["unknown_lines"] == {"event_msg:exec_command_end": 1}


def test_openclaw_and_hermes_count_the_kinds_they_do_not_read(root: Path) -> None:
    lines = [
        {"type": "session", "id": "s1", "timestamp": "2026-09-02T08:00:00Z"},
        {"type": "branch_summary", "id": "b1", "summary": "Earlier branch"},
        {"type": "message", "id": "m0", "message": {"role": "bashExecution", "command": "ls"}},
        {"type": "message", "id": "m1", "message": {"role": "user", "content": "I moved to Porto."}},
    ]
    folder = root / "openclaw"
    session = folder / "sessions" / "s1.jsonl"
    session.parent.mkdir(parents=True)
    session.write_text("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(session, (OLD, OLD))
    settings = TranscriptSettings(format="openclaw", glob="sessions/*.jsonl")
    batch = read_new_turns(TranscriptSource(folder, settings), {}, "distillation", NOW)
    assert batch.unknown == {"branch_summary": 1, "message:bashExecution": 1}
    assert [t.messages[0].content for t in batch.turns] == ["I moved to Porto."]
    hermes = root / "hermes" / "state.db"
    hermes.parent.mkdir()
    with sqlite3.connect(hermes) as connection:
        connection.execute(
            "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT, role TEXT, "
            "content TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL, active INTEGER)"
        )
        connection.executemany(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('h1', ?, ?, ?)",
            [("developer", "Be brief.", 1_790_000_000.0), ("user", "I moved to Porto.", 1_790_000_001.0)],
        )
    connection.close()
    settings = TranscriptSettings(format="hermes", glob="state.db")
    batch = read_new_turns(TranscriptSource(hermes.parent, settings), {}, "distillation", NOW)
    assert batch.unknown == {"role:developer": 1}
    assert [t.messages[0].content for t in batch.turns] == ["I moved to Porto."]


def test_a_codex_rollout_marked_subagent_only_by_thread_source_is_skipped(root: Path) -> None:
    meta = {"id": "0199a213-81c0-7800-8aa1-000000000042", "cwd": "/srv/project", "thread_source": "subagent"}
    lines = [
        {"timestamp": "2026-11-03T10:00:00Z", "type": "session_meta", "payload": meta},
        {"timestamp": "2026-11-03T10:00:01Z", "type": "event_msg", "payload": {"type": "user_message", "message": "Review it"}},
    ]
    rollout = root / "sessions" / "rollout-2026-11-03T10-00-00-0199a213-81c0-7800-8aa1-000000000042.jsonl"
    rollout.parent.mkdir(parents=True)
    rollout.write_text("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(rollout, (OLD, OLD))
    settings = TranscriptSettings(format="codex", glob="**/rollout-*.jsonl", projects=["/srv/project"])
    batch = read_new_turns(TranscriptSource(root, settings), {}, "distillation", NOW)
    assert batch.turns == () and batch.skipped == {"subagent": 1}
