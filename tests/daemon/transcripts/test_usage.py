"""Usage signals in each runtime's own line and row shapes: skills opened, the facts view read,
the daemon's hook context delivered (docs/explanation/skills.md#usage-signals).

Shapes as published sessions show them: Claude Code 2.1.x (`Skill` tool calls, the skill's
"Base directory" meta line, `instructions` and `hook_additional_context` attachments),
Codex CLI 0.154 (`shell`/`exec_command` calls, `<skill>` injections, `developer` hook
context), OpenClaw 2026.8 (`toolCall` blocks), Hermes `state.db` rows (`tool_calls`,
`api_content`).
"""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from daemon.doors import hook
from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import TurnBatch, read_new_turns
from daemon.transcripts.usage import probe_for
from daemon.transcripts.usage_signals import MARK, Signal

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
OLD = 1_700_000_000
SESSION = "5f0c1a2e-1111-4a4a-8b8b-000000000001"
CONTEXT = f"{MARK} What metaeng-daemon learned in earlier sessions that may bear on this prompt (notes, not instructions):\n- user.city = Porto"


def claude(kind: str, n: int, **fields: Any) -> dict[str, Any]:
    """A Claude Code session line with the fields every line carries."""
    return {
        "type": kind,
        "parentUuid": f"u{n - 1}" if n else None,
        "isSidechain": False,
        "userType": "external",
        "cwd": "/srv/project",
        "sessionId": SESSION,
        "version": "2.1.132",
        "gitBranch": "main",
        "uuid": f"u{n}",
        "timestamp": f"2026-11-05T09:{n:02d}:00.000Z",
        **fields,
    }


def prompt(n: int, text: str) -> dict[str, Any]:
    return claude("user", n, origin={"kind": "human"}, message={"role": "user", "content": text})


def tool_use(n: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    block = {"type": "tool_use", "id": f"toolu_{n}", "name": name, "input": arguments}
    message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "model": "claude-x", "content": [block]}
    return claude("assistant", n, message=message)


def answer(n: int, text: str) -> dict[str, Any]:
    message = {"id": f"msg_{n}", "type": "message", "role": "assistant", "content": [{"type": "text", "text": text}]}
    return claude("assistant", n, message=message)


def attachment(n: int, body: dict[str, Any]) -> dict[str, Any]:
    return claude("attachment", n, attachment=body)


def found(fmt: str, obj: dict[str, Any], view: str | None = "metaeng-facts.md") -> list[tuple[str, str | None]]:
    return [(s.kind, s.skill) for s in probe_for(fmt, view).line(json.dumps(obj).encode())]


def test_the_mark_is_the_one_the_hook_writes() -> None:
    assert MARK == hook.MARK


# --- Claude Code ---------------------------------------------------------------------------


def test_claude_code_skill_tool_call_opens_the_named_skill_with_the_lines_time() -> None:
    line = json.dumps(tool_use(3, "Skill", {"skill": "release-checklist"})).encode()
    assert probe_for("claude-code", ".claude/metaeng-facts.md").line(line) == (
        Signal("skill_opened", "release-checklist", "2026-11-05T09:03:00+00:00"),
    )
    assert found("claude-code", tool_use(4, "Skill", {"skill": "acme:review", "args": "--quick"})) == [
        ("skill_opened", "acme:review")
    ]


def test_claude_code_skill_reads_count_a_read_of_its_skill_md_and_no_write() -> None:
    read = tool_use(5, "Read", {"file_path": "/srv/project/.claude/skills/triage/SKILL.md"})
    shell = tool_use(6, "Bash", {"command": "sed -n '1,80p' ~/.claude/skills/deploy/SKILL.md | head", "description": "x"})
    other_file = tool_use(7, "Read", {"file_path": "/srv/project/.claude/skills/triage/templates/t.md"})
    write = tool_use(8, "Bash", {"command": "cat > .claude/skills/triage/SKILL.md <<'EOF'\n# t\nEOF"})
    edit_in_place = tool_use(9, "Bash", {"command": "sed -i 's/a/b/' .claude/skills/triage/SKILL.md"})
    written = tool_use(10, "Write", {"file_path": "/srv/project/.claude/skills/triage/SKILL.md", "content": "x"})
    assert found("claude-code", read) == [("skill_opened", "triage")]
    assert found("claude-code", shell) == [("skill_opened", "deploy")]
    for line in (other_file, write, edit_in_place, written):
        assert found("claude-code", line) == []


def test_claude_code_a_skill_started_by_its_slash_command_counts_once_not_again_by_its_tool_call() -> None:
    typed = claude(
        "user",
        4,
        isMeta=True,
        message={"role": "user", "content": [{"type": "text", "text": "Base directory for this skill: /srv/project/.claude/skills/release\n\n# Release"}]},
    )
    by_tool = {**typed, "sourceToolUseID": "toolu_3"}
    assert found("claude-code", typed) == [("skill_opened", "release")]
    assert found("claude-code", by_tool) == []  # the Skill tool call itself was counted


def test_claude_code_facts_view_read_by_tool_or_loaded_as_an_instruction_file() -> None:
    view = ".claude/metaeng-facts.md"
    read = tool_use(3, "Read", {"file_path": "/srv/project/.claude/metaeng-facts.md"})
    loaded = attachment(
        1,
        {
            "type": "instructions",
            "reason": "session_start",
            "files": [
                {"path": "/srv/project/CLAUDE.md", "type": "Project", "content": "@.claude/metaeng-facts.md"},
                {"path": "/srv/project/.claude/metaeng-facts.md", "type": "Project", "content": "# Facts"},
            ],
        },
    )
    nested = attachment(2, {"type": "nested_memory", "path": "/srv/project/.claude/metaeng-facts.md", "content": {}})
    unrelated = tool_use(4, "Read", {"file_path": "/srv/project/README.md"})
    for line in (read, loaded, nested):
        assert found("claude-code", line, view) == [("facts_view_read", None)]
    assert found("claude-code", unrelated, view) == []
    assert found("claude-code", read, None) == []  # no view configured: nothing to count


def test_claude_code_hook_context_counts_the_daemons_context_only() -> None:
    ours = attachment(
        2,
        {
            "type": "hook_additional_context",
            "hookName": "UserPromptSubmit",
            "hookEvent": "UserPromptSubmit",
            "toolUseID": "hook-a9c01229",
            "content": ["another hook's note", CONTEXT],
        },
    )
    theirs = attachment(3, {**ours["attachment"], "content": ["razor ledger: +8 / -1 LOC"]})
    run = attachment(
        4,
        {
            "type": "hook_success",
            "hookName": "UserPromptSubmit",
            "hookEvent": "UserPromptSubmit",
            "command": "metaeng-daemon hook claude-code --index /s/agents/coder/delivery.sqlite3",
            "stdout": json.dumps({"hookSpecificOutput": {"hookEventName": "UserPromptSubmit", "additionalContext": CONTEXT}}),
            "exitCode": 0,
        },
    )
    legacy = claude(
        "user",
        5,
        isMeta=True,
        message={"role": "user", "content": f"<system-reminder>\nUserPromptSubmit hook additional context: {CONTEXT}\n</system-reminder>"},
    )
    assert found("claude-code", ours) == [("hook_context", None)]
    assert found("claude-code", legacy) == [("hook_context", None)]
    assert found("claude-code", theirs) == []
    assert found("claude-code", run) == []  # the run of the same delivery: counted once, by its context


def test_claude_code_a_mention_is_no_use() -> None:
    said = prompt(1, "Read .claude/skills/triage/SKILL.md and the Skill docs, then [metaeng-daemon] it")
    told = answer(2, 'I used the "Skill" tool on triage/SKILL.md before.')
    assert found("claude-code", said) == [] and found("claude-code", told) == []
    assert probe_for("claude-code", None).line(b'{"type": "assistant", "Skill": [') == ()  # not JSON


# --- Codex ---------------------------------------------------------------------------------


def codex_line(payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2026-11-02T10:05:02.000Z", "type": "response_item", "payload": payload}


def call(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return codex_line({"type": "function_call", "name": name, "arguments": json.dumps(arguments), "call_id": "c1"})


def test_codex_shell_reads_of_a_skill_or_the_view_count_and_other_commands_do_not() -> None:
    shell = call("shell", {"command": ["bash", "-lc", "sed -n '1,200p' /home/me/.agents/skills/pdf/SKILL.md"], "workdir": "/srv"})
    exec_view = call("exec_command", {"cmd": "cat metaeng-facts.md", "workdir": "/srv/project"})
    local = codex_line({"type": "local_shell_call", "call_id": "c2", "status": "completed", "action": {"type": "exec", "command": ["cat", ".agents/skills/lint/SKILL.md"]}})
    search = call("exec_command", {"cmd": "rg -n SKILL.md .agents/skills"})
    patch = codex_line({"type": "custom_tool_call", "name": "apply_patch", "input": "*** Begin Patch\n*** Update File: .agents/skills/pdf/SKILL.md\n"})
    assert found("codex", shell) == [("skill_opened", "pdf")]
    assert found("codex", exec_view) == [("facts_view_read", None)]
    assert found("codex", local) == [("skill_opened", "lint")]
    assert found("codex", search) == [] and found("codex", patch) == []


def test_codex_skill_named_by_the_person_is_injected_once_and_counted() -> None:
    injected = codex_line(
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<skill>\n<name>pdf</name>\n<path>/home/me/.agents/skills/pdf/SKILL.md</path>\n# PDF\n</skill>"}]}
    )
    assert found("codex", injected) == [("skill_opened", "pdf")]
    older = codex_line({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "<skill>\n<name>pdf</name>\n# PDF\n</skill>"}]})
    assert found("codex", older) == [("skill_opened", "pdf")]


def test_codex_hook_context_is_a_developer_message_with_the_mark() -> None:
    wrapped = codex_line({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": f"<hook_context>\n{CONTEXT}\n</hook_context>"}]})
    bare = codex_line({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": CONTEXT}]})
    other = codex_line({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "<permissions instructions>"}]})
    assert found("codex", wrapped) == [("hook_context", None)] == found("codex", bare)
    assert found("codex", other) == []


# --- OpenClaw and the daemon's own format ---------------------------------------------------


def test_openclaw_read_and_exec_tool_calls_and_a_marked_user_prefix() -> None:
    def assistant(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        block = {"type": "toolCall", "id": "c1", "name": name, "arguments": arguments}
        return {"type": "message", "id": "e2", "parentId": "e1", "timestamp": "2026-08-20T08:00:03Z", "message": {"role": "assistant", "content": [block]}}

    prefixed = {
        "type": "message",
        "id": "e1",
        "timestamp": "2026-08-20T08:00:01Z",
        "message": {"role": "user", "content": [{"type": "text", "text": f"{CONTEXT}\n\nMove my dentist appointment."}]},
    }
    assert found("openclaw", assistant("read", {"path": "/home/me/.openclaw/workspace/skills/weather/SKILL.md"})) == [
        ("skill_opened", "weather")
    ]
    assert found("openclaw", assistant("exec", {"command": "head -n 50 metaeng-facts.md"})) == [("facts_view_read", None)]
    assert found("openclaw", prefixed) == [("hook_context", None)]


def test_jsonl_assistant_tool_calls_in_the_openai_shape() -> None:
    calls = [{"id": "c1", "type": "function", "function": {"name": "read_file", "arguments": json.dumps({"path": "skills/triage/SKILL.md"})}}]
    line = {"role": "assistant", "content": None, "tool_calls": calls, "ts": "2026-11-02T10:00:00Z"}
    assert found("jsonl", line) == [("skill_opened", "triage")]


def test_names_that_are_not_skill_names_are_no_signal() -> None:
    for name in ("", "a b", "x" * 200, "../../etc", "line\nbreak"):
        assert found("claude-code", tool_use(3, "Skill", {"skill": name})) == []


# --- Hermes rows ---------------------------------------------------------------------------


def hermes_row(role: str, **columns: Any) -> dict[str, Any]:
    return {"id": 7, "session_id": "h1", "role": role, "content": None, "tool_calls": None, "timestamp": 1793613701.0, **columns}


def hermes_calls(name: str, arguments: dict[str, Any]) -> str:
    return json.dumps([{"id": "c1", "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}])


def test_hermes_skill_view_read_file_terminal_and_api_content() -> None:
    probe = probe_for("hermes", "metaeng-facts.md")

    def kinds(row: dict[str, Any]) -> list[tuple[str, str | None]]:
        return [(s.kind, s.skill) for s in probe.row(row)]

    assert kinds(hermes_row("assistant", tool_calls=hermes_calls("skill_view", {"name": "airflow-report"}))) == [
        ("skill_opened", "airflow-report")
    ]
    linked = hermes_calls("skill_view", {"name": "airflow-report", "file_path": "references/api.md"})
    assert kinds(hermes_row("assistant", tool_calls=linked)) == []
    assert kinds(hermes_row("assistant", tool_calls=hermes_calls("read_file", {"path": "/home/me/metaeng-facts.md"}))) == [
        ("facts_view_read", None)
    ]
    assert kinds(hermes_row("assistant", tool_calls=hermes_calls("terminal", {"command": "cat ~/.hermes/skills/ops/SKILL.md"}))) == [
        ("skill_opened", "ops")
    ]
    delivered = hermes_row("user", content="Send that summary to Slack.", api_content=f"Send that summary to Slack.\n\n{CONTEXT}")
    typed = hermes_row("user", content=f"what is {MARK}?", api_content=f"what is {MARK}?")
    assert kinds(delivered) == [("hook_context", None)] and kinds(typed) == []
    assert probe.row(hermes_row("user", content="hello", api_content="hello")) == ()


# --- through the reader --------------------------------------------------------------------


def write_session(folder: Path, lines: list[dict[str, Any]], name: str = f"{SESSION}.jsonl") -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(path, (OLD, OLD))
    return path


def claude_read(root: Path, prior: dict[str, Any] | None = None) -> TurnBatch:
    settings = TranscriptSettings(format="claude-code", glob="*.jsonl")
    probe = probe_for("claude-code", ".claude/metaeng-facts.md")
    return read_new_turns(TranscriptSource(root, settings, probe=probe), prior or {}, "distillation", NOW)


def session_lines() -> list[dict[str, Any]]:
    return [
        attachment(0, {"type": "instructions", "files": [{"path": "/srv/project/.claude/metaeng-facts.md", "type": "Project"}]}),
        prompt(1, "Cut the release for 2.4.1."),
        attachment(2, {"type": "hook_additional_context", "hookName": "UserPromptSubmit", "hookEvent": "UserPromptSubmit", "content": [CONTEXT]}),
        tool_use(3, "Skill", {"skill": "release"}),
        answer(4, "Released 2.4.1."),
        prompt(5, "Triage the new issues."),
        tool_use(6, "Read", {"file_path": "/srv/project/.claude/skills/triage/SKILL.md"}),
        answer(7, "Three new issues, labelled."),
    ]


def test_a_read_holds_each_sessions_uses_with_turn_place_and_time(root: Path) -> None:
    path = write_session(root, session_lines())
    batch = claude_read(root)
    (usage,) = batch.usage
    assert (usage.source, usage.session, usage.end) == (f"{SESSION}.jsonl", SESSION, path.stat().st_size)
    assert [(e.kind, e.skill) for e in usage.events] == [
        ("facts_view_read", None),
        ("hook_context", None),
        ("skill_opened", "release"),
        ("skill_opened", "triage"),
    ]
    turns = [t.ref for t in batch.turns]
    assert [e.turn for e in usage.events[1:]] == [turns[0], turns[0], turns[1]]
    assert usage.events[0].turn == f"{SESSION}.jsonl@0"  # before the first prompt: where the read began
    assert usage.events[3].ts == "2026-11-05T09:06:00+00:00" and usage.first_ts == "2026-11-05T09:00:00+00:00"
    offsets = [e.position for e in usage.events]
    assert offsets == sorted(offsets) and len(set(offsets)) == 4


def test_uses_in_a_turn_not_complete_yet_wait_with_the_turn(root: Path) -> None:
    path = write_session(root, session_lines())
    os.utime(path, (NOW.timestamp(), NOW.timestamp()))  # still being written: the last turn is open
    batch = claude_read(root)
    (usage,) = batch.usage
    assert [e.skill for e in usage.events if e.kind == "skill_opened"] == ["release"]
    assert usage.end == batch.turns[-1].end  # where the open turn starts: its uses are read with it


def test_a_source_without_a_probe_reads_no_uses(root: Path) -> None:
    write_session(root, session_lines())
    settings = TranscriptSettings(format="claude-code", glob="*.jsonl")
    batch = read_new_turns(TranscriptSource(root, settings), {}, "distillation", NOW)
    assert batch.usage == () and len(batch.turns) == 2


def test_hermes_database_rows_give_uses_per_session(root: Path) -> None:
    db = root / "state.db"
    with sqlite3.connect(db) as connection:
        connection.execute(
            "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, "
            "content TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, active INTEGER NOT NULL DEFAULT 1, "
            "api_content TEXT)"
        )
        rows = [
            ("h1", "user", "Check last week's failed DAG runs.", None, 1793613601.0, f"Check last week's failed DAG runs.\n\n{CONTEXT}"),
            ("h1", "assistant", None, hermes_calls("skill_view", {"name": "airflow-report"}), 1793613602.0, None),
            ("h1", "assistant", "Two failed runs.", None, 1793613603.0, None),
            ("h2", "user", "What do you know about me?", None, 1793613700.0, None),
            ("h2", "assistant", None, hermes_calls("read_file", {"path": "metaeng-facts.md"}), 1793613701.0, None),
            ("h2", "assistant", "You live in Porto.", None, 1793613702.0, None),
        ]
        connection.executemany(
            "INSERT INTO messages (session_id, role, content, tool_calls, timestamp, api_content) VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
    connection.close()
    settings = TranscriptSettings(format="hermes", glob="state.db")
    source = TranscriptSource(root, settings, probe=probe_for("hermes", "metaeng-facts.md"))
    batch = read_new_turns(source, {}, "distillation", NOW)
    by_session = {u.session: [(e.kind, e.skill, e.position) for e in u.events] for u in batch.usage}
    assert by_session == {
        "h1": [("hook_context", None, 1), ("skill_opened", "airflow-report", 2)],
        "h2": [("facts_view_read", None, 5)],
    }
    assert {u.source for u in batch.usage} == {"state.db#h1", "state.db#h2"}
    assert all(u.end == 7 for u in batch.usage)


def test_openclaw_database_events_give_uses(root: Path) -> None:
    db = root / "openclaw-agent.sqlite"
    events = [
        {"type": "message", "id": "e1", "timestamp": "2026-09-02T08:00:01Z", "message": {"role": "user", "content": [{"type": "text", "text": "Weather tomorrow?"}]}},
        {"type": "message", "id": "e2", "timestamp": "2026-09-02T08:00:02Z", "message": {"role": "assistant", "content": [{"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "/w/skills/weather/SKILL.md"}}]}},
        {"type": "message", "id": "e3", "timestamp": "2026-09-02T08:00:05Z", "message": {"role": "assistant", "content": [{"type": "text", "text": "Sunny."}]}},
    ]
    with sqlite3.connect(db) as connection:
        connection.execute("CREATE TABLE transcript_events (session_id TEXT NOT NULL, seq INTEGER NOT NULL, event_json TEXT, PRIMARY KEY (session_id, seq))")
        connection.executemany(
            "INSERT INTO transcript_events VALUES ('s1', ?, ?)", [(n, json.dumps(e)) for n, e in enumerate(events)]
        )
    connection.close()
    settings = TranscriptSettings(format="openclaw", glob="*.sqlite")
    source = TranscriptSource(root, settings, probe=probe_for("openclaw", "metaeng-facts.md"))
    (usage,) = read_new_turns(source, {}, "distillation", NOW).usage
    assert (usage.source, usage.session, usage.end) == ("openclaw-agent.sqlite#s1", "s1", 3)
    assert [(e.kind, e.skill, e.position, e.turn) for e in usage.events] == [
        ("skill_opened", "weather", 1, "openclaw-agent.sqlite#s1@0")
    ]
