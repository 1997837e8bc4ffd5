"""Skills opened in Codex, OpenClaw and Hermes sessions, in each runtime's own shapes, reach
`skills list` and `status` through `once` (the Claude Code case: test_usage.py); and the
Claude Code and Codex runtime examples show a newcomer the skill their sessions open."""

from __future__ import annotations

import json
import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.daemon.transcripts.test_adapters import consume, example
from tests.skills_engine.builders import make_skill, skills_config
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
OLD = 1_700_000_000


def clock() -> datetime:
    return NOW


def jsonl(path: Path, lines: list[dict[str, Any]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(path, (OLD, OLD))


def codex_sessions(root: Path, home: Path) -> dict[str, str]:
    """A Codex CLI 0.154 rollout of two turns; in the first the agent reads a skill's SKILL.md."""
    def item(ts: str, payload: dict[str, Any], kind: str = "response_item") -> dict[str, Any]:
        return {"timestamp": f"2026-11-05T09:{ts}Z", "type": kind, "payload": payload}

    def user(ts: str, text: str) -> list[dict[str, Any]]:
        return [item(ts, {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}),
                item(ts, {"type": "user_message", "message": text, "images": []}, "event_msg")]

    def said(ts: str, text: str) -> list[dict[str, Any]]:
        return [item(ts, {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}),
                item(ts, {"type": "task_complete", "last_agent_message": text}, "event_msg")]

    sid = "0199b000-0000-7000-8000-000000000001"
    read = {"command": ["bash", "-lc", "sed -n '1,200p' .agents/skills/release/SKILL.md"], "workdir": str(home)}
    lines = [
        item("00:00.000", {"id": sid, "timestamp": "2026-11-05T09:00:00Z", "cwd": str(home), "originator": "codex_cli_rs",
                           "cli_version": "0.154.0", "source": "cli"}, "session_meta"),
        item("00:00.010", {"cwd": str(home), "approval_policy": "on-request", "model": "gpt-5-codex"}, "turn_context"),
        *user("00:01.000", "Cut the release for 2.4.1."),
        item("00:02.000", {"type": "function_call", "name": "shell", "arguments": json.dumps(read), "call_id": "c1"}),
        item("00:02.500", {"type": "function_call_output", "call_id": "c1", "output": json.dumps({"output": "# Release", "metadata": {"exit_code": 0}})}),
        *said("00:03.000", "Released 2.4.1."),
        *user("01:00.000", "Which issues are new?"),
        *said("01:03.000", "Three."),
    ]
    jsonl(root / "codex-home" / "sessions" / "2026" / "11" / "05" / f"rollout-2026-11-05T09-00-00-{sid}.jsonl", lines)
    return {"format": "codex", "root": str(root / "codex-home"), "glob": "sessions/**/rollout-*.jsonl"}


def openclaw_sessions(root: Path, home: Path) -> dict[str, str]:
    """An OpenClaw session of two turns; in the first the agent reads a skill with its `read` tool."""
    def message(n: int, role: str, content: list[dict[str, Any]]) -> dict[str, Any]:
        return {"type": "message", "id": f"e{n}", "parentId": f"e{n - 1}" if n else None,
                "timestamp": f"2026-11-05T09:00:{n:02d}Z", "message": {"role": role, "content": content}}

    read = {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": f"{home}/skills/release/SKILL.md"}}
    lines = [
        {"type": "session", "version": 3, "id": "s1", "timestamp": "2026-11-05T09:00:00Z", "cwd": str(home)},
        message(1, "user", [{"type": "text", "text": "Cut the release for 2.4.1."}]),
        message(2, "assistant", [read]),
        {**message(3, "toolResult", [{"type": "text", "text": "# Release"}]), "toolCallId": "c1"},
        message(4, "assistant", [{"type": "text", "text": "Released 2.4.1."}]),
        message(5, "user", [{"type": "text", "text": "Which issues are new?"}]),
        message(6, "assistant", [{"type": "text", "text": "Three."}]),
    ]
    jsonl(root / "openclaw" / "agents" / "main" / "sessions" / "s1.jsonl", lines)
    return {"format": "openclaw", "root": str(root / "openclaw" / "agents" / "main"), "glob": "sessions/*.jsonl"}


def hermes_sessions(root: Path, _home: Path) -> dict[str, str]:
    """Hermes `state.db` rows of two turns; in the first the agent opens a skill with `skill_view`."""
    db = root / "hermes-home" / "state.db"
    db.parent.mkdir(parents=True)
    view = json.dumps([{"id": "c1", "type": "function", "function": {"name": "skill_view", "arguments": json.dumps({"name": "release"})}}])
    at = datetime(2026, 11, 5, 9, 0, tzinfo=UTC).timestamp()
    with sqlite3.connect(db) as connection:
        connection.execute(
            "CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL, role TEXT NOT NULL, "
            "content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL, "
            "token_count INTEGER, finish_reason TEXT, active INTEGER NOT NULL DEFAULT 1)"
        )
        connection.executemany(
            "INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, tool_name, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                ("h1", "user", "Cut the release for 2.4.1.", None, None, None, at + 1),
                ("h1", "assistant", None, None, view, None, at + 2),
                ("h1", "tool", "# Release", "c1", None, "skill_view", at + 2.5),
                ("h1", "assistant", "Released 2.4.1.", None, None, None, at + 3),
                ("h1", "user", "Which issues are new?", None, None, None, at + 60),
                ("h1", "assistant", "Three.", None, None, None, at + 63),
            ],
        )
    connection.close()
    return {"format": "hermes", "root": str(db.parent), "glob": "state.db"}


@pytest.mark.parametrize("sessions", [codex_sessions, openclaw_sessions, hermes_sessions], ids=["codex", "openclaw", "hermes"])
def test_a_skill_the_agent_opened_shows_in_skills_list_and_status(root: Path, sessions: Any) -> None:
    home = root / "ada"
    home.mkdir()
    config = skills_config(root, None, transcripts=sessions(root, home))
    make_skill(root / "packs", "release")
    make_skill(root / "packs", "triage")
    done = run_cli(config, "once", "--agent", "ada", "--json", clock=clock)
    assert done.code == 0, done.err
    rows = run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    assert {r["name"]: r["uses"] for r in rows} == {"release": 1, "triage": 0}
    assert next(r for r in rows if r["name"] == "release")["last_use"].startswith("2026-11-05")
    status = run_cli(config, "status", "--agent", "ada", "--json", clock=clock)
    assert status.code == 0, status.err
    usage = status.json()["agents"][0]["usage"]
    assert (usage["skills_used"], usage["skills_never_used"], usage["skill_opens"], usage["sessions_read"]) == (1, 1, 1, 1)


@pytest.mark.parametrize("name", ["claude-code", "codex"])
def test_the_runtime_examples_show_the_skill_their_sessions_open(root: Path, fake_model: FakeModelServer, name: str) -> None:
    config = example(root, name)
    consume(config, "coder", fake_model)
    rows = run_cli(config, "skills", "list", "--agent", "coder", "--json").json()
    assert [(r["name"], r["uses"]) for r in rows] == [("run-tests", 1)]
    human = run_cli(config, "skills", "list", "--agent", "coder").out
    assert next(line for line in human.splitlines() if line.startswith("run-tests")).split()[5] == "1"
