"""Transcript adapters on the synthetic sessions of examples/runtimes, through the CLI.

Each adapter's turns and texts, its precision guards (counted by rule), and its cursors
across appends, archiving, concurrent writers and in-place rewrites.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from daemon.kernel.changeset import Cursor
from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import TurnBatch, read_new_turns
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer

EXAMPLES = Path(__file__).parents[3] / "examples" / "runtimes"
OLD = 1_700_000_000
NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
CODEX_SESSION = "0199a213-81c0-7800-8aa1-bbab2a035a53"


def example(root: Path, name: str) -> Path:
    """A copy of examples/runtimes/<name> with every session file idle (old mtime); its config."""
    target = root / name
    shutil.copytree(EXAMPLES / name, target, ignore=shutil.ignore_patterns("state", "*.sqlite", "state.db*"))
    for path in target.rglob("*.jsonl"):
        os.utime(path, (OLD, OLD))
    return target / "config.yaml"


def build_db(path: Path, script: Path, wal: bool = False) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(path) as connection:
        if wal:
            connection.execute("PRAGMA journal_mode=WAL")
        connection.executescript(script.read_text(encoding="utf-8"))
    connection.close()


def pending(config: Path, agent: str) -> dict[str, Any]:
    result = run_cli(config, "transcripts", "--agent", agent, "--json", "--full")
    assert result.code == 0, result.err
    data: dict[str, Any] = result.json()
    return data


def users(data: dict[str, Any]) -> list[str]:
    return [t["messages"][0]["text"] for t in data["turns"]]


LOCAL_MODEL = "http://127.0.0.1:8080/v1"


def use_scripted_model(config: Path, model: FakeModelServer) -> None:
    """Point the example's own model section (a local llama.cpp server) at the scripted server."""
    text = config.read_text()
    assert text.count(LOCAL_MODEL) == 1, "the example's model section names the local server once"
    config.write_text(text.replace(LOCAL_MODEL, model.url))


def request_schema(body: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema a request asks the answer to follow (json_object or json_schema form)."""
    form = body["response_format"]
    schema: dict[str, Any] = form["schema"] if "schema" in form else form["json_schema"]["schema"]
    return schema


def nothing_found(body: dict[str, Any]) -> dict[str, list[Any]]:
    """The answer that finds nothing, whatever the pass asks: each of its lists empty."""
    return {name: [] for name in request_schema(body)["required"]}


def consume(config: Path, agent: str, model: FakeModelServer) -> dict[str, Any]:
    """One `once` run on the scripted model, which finds nothing: every pass commits its offsets."""
    use_scripted_model(config, model)
    for _ in range(20):
        model.reply(nothing_found)
    result = run_cli(config, "once", "--agent", agent, "--json")
    assert result.code == 0, result.err
    data: dict[str, Any] = result.json()
    return data


# --- Claude Code ---------------------------------------------------------------------------


def test_claude_code_turns_are_user_turns_only_with_every_guard_counted(root: Path) -> None:
    data = pending(example(root, "claude-code"), "coder")
    assert users(data) == [
        "We deploy the billing service with `make release` now, not the old fab script.",
        "Our staging database is pg-staging-2 since last week.",
        "That list is stale: I moved to Porto in October.",
        "Please always open release PRs against the `release/*` branch.",
        "Releases go out from eu-west-1 only, never us-east-1.",
        "Also tag the release commit with the date.",
        "Keep the changelog in CHANGELOG.md, not in the release notes.",
        "Before you push, run `make lint`: CI rejects any ruff warning.",
        "Invoice totals are off by a cent on some orders (issue #212). We test with `pytest -q` from the "
        "repo root; reproduce it first.",
        "The dashboard in web/ uses pnpm, not npm: `pnpm install --frozen-lockfile`, then `pnpm test`. "
        "Never commit a package-lock.json.",
        "Staging is at https://staging.example.test. After every deploy, smoke-test it: "
        '`curl -fsS https://staging.example.test/healthz` must answer {"status": "ok"}.',
        "This is how we cut a release, keep it for next time: bump the version in pyproject.toml, add the "
        "entry to CHANGELOG.md, open the PR against `release/*`, and once it is merged run `make release` "
        "and tag the commit `vX.Y.Z-YYYYMMDD`.",
        "One more thing: commit subjects in the imperative, under 72 characters, like "
        "`Fix cent rounding in invoice totals`.",
    ]
    first = data["turns"][0]["messages"]
    # One API message split over three lines (thinking, text, tool_use) is one message.
    assert [m["role"] for m in first] == ["user", "assistant", "assistant"]
    assert first[1]["text"] == "Noted. Let me check the Makefile.\n[tool: Bash: grep -n release Makefile]"
    assert first[1]["tools"] == ["Bash: grep -n release Makefile"]
    assert first[0]["source"] == "u1"
    assert data["skipped"] == {
        "command_wrapper": 2,
        "meta": 2,  # the skill's text Claude Code adds after a Skill call
        "injected_context": 1,
        "tool_result": 10,
        "sidechain": 2,
        "injected_memory": 2,
        "interrupted": 1,
        "compaction_summary": 3,
        "subagent": 2,
        "task_notification": 3,
        "ide_context": 2,
        "command_output": 1,
    }
    assert data["warnings"] == [] and data["set_aside"] == []


def test_claude_code_subagent_files_are_read_when_asked_for(root: Path) -> None:
    """Every line of a subagent's own file is a sidechain line: read them, not skip them."""
    config = example(root, "claude-code")
    text = config.read_text().replace(
        "turn_idle_seconds: 300", "turn_idle_seconds: 300\n      subagents: true"
    )
    config.write_text(text)
    data = pending(config, "coder")
    assert "subagent" not in data["skipped"]
    assert data["skipped"]["sidechain"] == 2  # only the main session's inline sidechain lines
    subagent_turns = {
        t["ref"].split("@")[0]: [m["text"] for m in t["messages"]]
        for t in data["turns"]
        if "agent-" in t["ref"]
    }
    assert subagent_turns == {
        "9d41c7e0-2222-4b4b-9c9c-000000000002/subagents/agent-b7e1c2d3.jsonl": [
            "List the region each release job uses.",
            "Every release job sets REGION=us-east-1.",
        ],
        "agent-7a1b2c3d.jsonl": ["Search for deploy scripts"],
    }


def test_claude_code_last_turn_waits_for_the_idle_rule(root: Path) -> None:
    config = example(root, "claude-code")
    session = next((root / "claude-code" / "projects").rglob("5f0c*.jsonl"))
    os.utime(session)  # written just now: no session-end line exists, so the last turn waits
    turns = pending(config, "coder")["turns"]
    assert len([t for t in turns if t["ref"].startswith("5f0c")]) == 3


def read(folder: Path, fmt: str, glob: str, prior: dict[str, Cursor] | None = None) -> TurnBatch:
    settings = TranscriptSettings(format=fmt, glob=glob)  # type: ignore[arg-type]
    return read_new_turns(TranscriptSource(folder, settings), prior or {}, "distillation", NOW)


def commit(batch: TurnBatch, prior: dict[str, Cursor] | None = None) -> dict[str, Cursor]:
    return {**(prior or {}), **{a.file: a.cursor for a in batch.advances}}


def test_a_skipped_subagent_file_is_counted_once_not_every_run(root: Path) -> None:
    example(root, "claude-code")
    folder = root / "claude-code" / "projects" / "-srv-project"
    first = read(folder, "claude-code", "*.jsonl")
    assert first.skipped["subagent"] == 1
    cursors = commit(first)
    again = read(folder, "claude-code", "*.jsonl", cursors)
    assert "subagent" not in again.skipped and again.advances == ()


def test_claude_code_cursor_reads_only_what_was_appended(root: Path) -> None:
    example(root, "claude-code")
    folder = root / "claude-code" / "projects" / "-srv-project"
    cursors = commit(read(folder, "claude-code", "*.jsonl"))
    assert read(folder, "claude-code", "*.jsonl", cursors).turns == ()
    session = next(folder.glob("5f0c*.jsonl"))
    line = {
        "type": "user",
        "uuid": "u9",
        "parentUuid": "a5",
        "sessionId": "s",
        "timestamp": "2026-11-03T09:00:00Z",
        "isSidechain": False,
        "message": {"role": "user", "content": "Tomorrow's standup moves to 9:30."},
    }
    with session.open("a") as fh:
        fh.write(json.dumps(line) + "\n")
    os.utime(session, (OLD, OLD))
    batch = read(folder, "claude-code", "*.jsonl", cursors)
    assert [t.messages[0].content for t in batch.turns] == ["Tomorrow's standup moves to 9:30."]


def test_claude_code_blocks_that_are_not_objects_never_show_as_python_reprs(root: Path) -> None:
    lines = [
        {"type": "user", "uuid": "u1", "message": {"role": "user", "content": "Run it"}},
        {
            "type": "assistant",
            "uuid": "a1",
            "message": {
                "role": "assistant",
                "content": [
                    {"type": "text", "text": "Done."},
                    "bare string",
                    42,
                    None,
                    [1],
                    {"type": "tool_use", "name": {"n": 1}, "input": {"command": ["ls", None, 1]}},
                ],
            },
        },
    ]
    session = root / "s.jsonl"
    session.write_text("".join(json.dumps(line) + "\n" for line in lines))
    os.utime(session, (OLD, OLD))
    (turn,) = read(root, "claude-code", "*.jsonl").turns
    assert turn.messages[1].content == "Done.\nbare string\n[tool: tool: ls 1]"


def test_a_generic_jsonl_file_under_claude_code_format_is_held_not_consumed(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = example(root, "claude-code")
    folder = root / "claude-code" / "projects" / "-srv-project"
    (folder / "notes.jsonl").write_text(
        "".join(json.dumps({"role": "user", "content": f"m{i}"}) + "\n" for i in range(6))
    )
    os.utime(folder / "notes.jsonl", (OLD, OLD))
    data = pending(config, "coder")
    assert data["held"] == [
        {
            "file": "notes.jsonl",
            "reason": "6 of 6 lines read are not in the configured format (agents.coder.transcripts.format: "
            'claude-code, Claude Code session lines, {"type": "user"|"assistant"|..., "message": {...}, '
            '"uuid": ...}); not consumed, its cursor kept until the file or the config is fixed',
        }
    ]
    before = (folder / "notes.jsonl").read_bytes()
    consume(config, "coder", fake_model)
    assert pending(config, "coder")["held"][0]["file"] == "notes.jsonl"
    assert (folder / "notes.jsonl").read_bytes() == before
    state = root / "claude-code" / "state" / "agents" / "coder" / "cursors.json"
    assert not state.exists() or "notes.jsonl" not in state.read_text()


# --- Codex ---------------------------------------------------------------------------------


def test_codex_counts_a_user_message_once_and_skips_subagent_sessions(root: Path) -> None:
    data = pending(example(root, "codex"), "coder")
    assert users(data) == [
        "The invoices API now lives at /v2/invoices; update the client.",
        "Use ruff, not flake8, in this repo.",
        "We run the tests with `uv run pytest -q`; never pip install anything into the system Python.",
        "Whenever you add an endpoint to the invoices client, document it in docs/api.md and record a "
        "response fixture under tests/fixtures/invoices/.",
        "Retries on the invoices client must back off exponentially, capped at 30 s.",
        "Point the integration tests at staging, https://staging.example.test/api, never at production.",
        "Release the client as 1.8.0. Our release steps: `make check`, bump `__version__` in "
        "billing/__init__.py, add the CHANGELOG.md entry, then tag `client-v<version>` and push the tag; "
        "CI publishes to the internal index.",
        "Style preference for this repo: type hints on every public function and Google-style docstrings.",
    ]
    assert [m["text"] for m in data["turns"][0]["messages"]] == [
        "The invoices API now lives at /v2/invoices; update the client.",
        "[tool: shell: rg -n /v1/invoices]",
        "Updated client.py to /v2/invoices.",
    ]
    assert data["skipped"] == {
        "system_prompt": 1,
        "injected_context": 2,
        "tool_result": 11,
        "compaction_summary": 1,
        "subagent": 1,
        "ide_context": 1,
    }


def test_codex_task_complete_closes_the_turn_without_the_idle_wait(root: Path) -> None:
    config = example(root, "codex")
    for path in (root / "codex").rglob("*.jsonl"):
        os.utime(path)  # just written
    assert len(pending(config, "coder")["turns"]) == 8


def test_codex_tool_arguments_nested_too_deep_skip_that_line_not_the_read(root: Path) -> None:
    config = example(root, "codex")
    rollout = next(p for p in (root / "codex").rglob("rollout-*.jsonl") if p.name.endswith("035a53.jsonl"))
    deep = {"type": "function_call", "name": "shell", "arguments": "[" * 1200 + "]" * 1200}
    line = json.dumps({"timestamp": "2026-11-02T10:00:09Z", "type": "response_item", "payload": deep})
    offset = rollout.stat().st_size
    with rollout.open("a", encoding="utf-8") as fh:
        fh.write(line + "\n")
    os.utime(rollout, (OLD, OLD))
    data = pending(config, "coder")
    assert len(data["turns"]) == 8
    assert any(
        f"skipped a malformed line at offset {offset}: tool call arguments nested deeper than 32" in w
        for w in data["warnings"]
    )


def test_codex_archived_rollout_keeps_its_cursor(root: Path, fake_model: FakeModelServer) -> None:
    config = example(root, "codex")
    report = consume(config, "coder", fake_model)
    assert (
        "skipped by precision guards: 11 tool results, 2 injected context blocks, 1 compaction summaries, "
        "1 IDE context blocks, 1 subagent sessions, 1 system prompts"
    ) in json.dumps(report)
    home = root / "codex" / "codex-home"
    rollout = next(home.rglob(f"*{CODEX_SESSION}.jsonl"))
    archived = home / "archived_sessions" / rollout.name
    archived.parent.mkdir()
    rollout.rename(archived)
    line = {
        "timestamp": "2026-11-03T08:00:00Z",
        "type": "event_msg",
        "payload": {"type": "user_message", "message": "CI now runs on Python 3.13."},
    }
    with archived.open("a") as fh:
        fh.write(json.dumps(line) + "\n")
    os.utime(archived, (OLD, OLD))
    data = pending(config, "coder")
    assert users(data) == ["CI now runs on Python 3.13."]
    assert data["turns"][0]["ref"].startswith(f"archived_sessions/{rollout.name}@")
    cursors = json.loads((root / "codex" / "state" / "agents" / "coder" / "cursors.json").read_text())
    assert f"codex-session:{CODEX_SESSION}" in cursors["consumers"]["distillation"]


# --- OpenClaw ------------------------------------------------------------------------------


def test_openclaw_legacy_sessions_skip_heartbeats_tool_results_and_recalled_memory(root: Path) -> None:
    data = pending(example(root, "openclaw"), "legacy")
    assert users(data) == [
        "My dentist appointment moved to Thursday 3pm.",
        "I switched my mobile carrier to Vodafone.",
        "I moved to Berlin for work, so show my reminders in Berlin time from now on.",
        "When a parcel tracking email comes in, add the tracking number to my notes under Deliveries and "
        "remind me the evening before it arrives.",
        "Please keep replies short, a few lines at most.",
    ]
    assert data["skipped"] == {
        "injected_memory": 1,
        "tool_result": 2,
        "compaction_summary": 1,
        "heartbeat": 1,
    }


def test_openclaw_database_reads_events_and_drops_the_memory_flush(root: Path) -> None:
    config = example(root, "openclaw")
    db = root / "openclaw" / "openclaw-home" / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    build_db(db, root / "openclaw" / "transcript_events.sql")
    before = db.read_bytes()
    data = pending(config, "main")
    assert users(data) == [
        "My sister Ana's birthday is on 12 March.",
        "I now take the 8:10 train to work instead of driving.",
        "Every Friday at 17:00, send me the week's expenses: read ~/finance/expenses.csv, total them by "
        "category and send me the summary.",
        "Send reminders like that on Telegram, not by email.",
        "And write to me in English, even when I forward you emails in Portuguese.",
    ]
    assert data["turns"][0]["ref"] == "agent/openclaw-agent.sqlite#sess-db-1@2"
    assert data["turns"][2]["messages"][1]["tools"] == ["read: ~/finance/expenses.csv"]
    assert data["skipped"] == {"heartbeat": 1, "tool_result": 2}
    assert db.read_bytes() == before


def test_openclaw_zstd_events_are_decoded(root: Path) -> None:
    zstandard = pytest.importorskip("zstandard")
    config = example(root, "openclaw")
    db = root / "openclaw" / "openclaw-home" / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    build_db(db, root / "openclaw" / "transcript_events.sql")
    with sqlite3.connect(db) as connection:
        rows = connection.execute("SELECT seq, event_json FROM transcript_events").fetchall()
        for seq, event in rows:
            packed = zstandard.ZstdCompressor().compress(event.encode())
            connection.execute(
                "UPDATE transcript_events SET event_json = NULL, event_zstd = ? WHERE seq = ?", (packed, seq)
            )
    connection.close()
    assert len(pending(config, "main")["turns"]) == 5


def test_a_database_that_is_not_openclaw_is_held_with_the_reason(root: Path) -> None:
    config = example(root, "openclaw")
    db = root / "openclaw" / "openclaw-home" / "agents" / "main" / "agent" / "openclaw-agent.sqlite"
    db.write_bytes(b"not a database at all, just text " * 200)
    data = pending(config, "main")
    assert data["turns"] == []
    assert data["held"][0]["file"] == "agent/openclaw-agent.sqlite"
    assert "cannot be read as a openclaw database" in data["held"][0]["reason"]


WRITER = """
import json, sqlite3, sys
db, count = sys.argv[1], int(sys.argv[2])
connection = sqlite3.connect(db, timeout=30, isolation_level=None)
connection.execute("PRAGMA journal_mode=WAL")
for n in range(count):
    connection.execute("BEGIN IMMEDIATE")
    for offset, (role, text) in enumerate((("user", f"fact number {n}"), ("assistant", "ok"))):
        event = {"type": "message", "id": f"w{n}-{role}", "timestamp": "2026-09-01T00:00:00Z",
                 "message": {"role": role, "content": [{"type": "text", "text": text}]}}
        connection.execute("INSERT INTO transcript_events (session_id, seq, event_json) VALUES ('live', ?, ?)",
                           (2 * n + offset + 1, json.dumps(event)))
    connection.execute("COMMIT")
"""


@pytest.mark.slow
def test_openclaw_database_read_while_another_process_writes_in_wal(root: Path) -> None:
    db = root / "agent" / "openclaw-agent.sqlite"
    db.parent.mkdir()
    with sqlite3.connect(db) as connection:
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE transcript_events (session_id TEXT, seq INTEGER, event_json TEXT)")
    connection.close()
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(db), "300"])
    seen: list[str] = []
    cursors: dict[str, Cursor] = {}
    while True:
        finished = writer.poll() is not None
        batch = read(root, "openclaw", "agent/*.sqlite", cursors)
        seen += [t.messages[0].content for t in batch.turns]
        cursors = commit(batch, cursors)
        if finished:
            break
    assert writer.returncode == 0
    assert seen == [f"fact number {n}" for n in range(300)]
    with sqlite3.connect(db) as connection:
        assert connection.execute("SELECT count(*) FROM transcript_events").fetchone() == (600,)
    connection.close()


# --- Hermes --------------------------------------------------------------------------------


def hermes(root: Path) -> tuple[Path, Path]:
    config = example(root, "hermes")
    db = root / "hermes" / "hermes-home" / "state.db"
    build_db(db, root / "hermes" / "messages.sql", wal=True)
    return config, db


def test_hermes_reads_user_turns_and_skips_system_and_tool_rows(root: Path) -> None:
    config, _ = hermes(root)
    data = pending(config, "hermes")
    assert users(data) == [
        "I started a new job at Acme as a data engineer.",
        "Remind me: my passport expires in June 2027.",
        "Every Monday morning, check last week's failed Airflow DAG runs and send me a short summary: DAG, "
        "date and a link to the log.",
        "Send that summary to my Slack DM, not by email.",
        "My timezone is Europe/Amsterdam, so Monday 08:00 means Amsterdam time.",
    ]
    assert data["turns"][1]["messages"][1]["tools"] == ["memory: add"]
    assert data["skipped"] == {"system_prompt": 1, "tool_result": 2}


def test_hermes_compaction_does_not_reanalyse_old_turns(root: Path, fake_model: FakeModelServer) -> None:
    config, db = hermes(root)
    consume(config, "hermes", fake_model)
    assert pending(config, "hermes")["turns"] == []
    with sqlite3.connect(db) as connection:
        kept = connection.execute(
            "SELECT session_id, role, content, tool_calls, tool_name, timestamp FROM messages WHERE id >= 4"
        ).fetchall()
        connection.execute("UPDATE messages SET active = 0")
        connection.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES "
            "('h1', 'user', '[CONTEXT COMPACTION] Earlier: the user joined Acme.', 1793614500.0)"
        )
        connection.executemany(
            "INSERT INTO messages (session_id, role, content, tool_calls, tool_name, timestamp) VALUES (?, ?, ?, ?, ?, ?)",
            kept,
        )
        connection.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES "
            "('h1', 'user', 'My manager is Priya.', 1793614600.0), ('h1', 'assistant', 'Noted.', 1793614601.0)"
        )
    connection.close()
    data = pending(config, "hermes")
    assert users(data) == ["My manager is Priya."]
    assert len(kept) == 12
    assert data["skipped"] == {"reinserted_row": 12, "compaction_summary": 1}


def test_hermes_retry_reinsert_is_recognised_after_the_row_was_deleted(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, db = hermes(root)
    consume(config, "hermes", fake_model)
    with sqlite3.connect(db) as connection:
        (last,) = connection.execute("SELECT max(id) FROM messages WHERE role = 'user'").fetchone()
        row = connection.execute(
            "SELECT session_id, role, content, timestamp FROM messages WHERE id = ?", (last,)
        ).fetchone()
        connection.execute("DELETE FROM messages WHERE id >= ?", (last,))  # /retry: the last exchange
        connection.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES (?, ?, ?, ?)", row
        )
        connection.execute(
            "INSERT INTO messages (session_id, role, content, timestamp) VALUES ('h1', 'assistant', 'Retried answer.', 1793614410.0)"
        )
    connection.close()
    data = pending(config, "hermes")
    assert data["skipped"] == {"reinserted_row": 1}
    assert all(m["role"] != "user" for t in data["turns"] for m in t["messages"])


def test_an_unknown_format_is_refused_with_the_key_and_line_and_nothing_is_written(root: Path) -> None:
    (root / "h").mkdir()
    config = root / "config.yaml"
    config.write_text(
        "version: 1\nstate_dir: ./state\nagents:\n  a:\n    home: ./h\n    transcripts:\n      format: claude\n"
    )
    result = run_cli(config, "transcripts", "--agent", "a")
    assert result.code == 1
    assert (
        "agents.a.transcripts.format: Input should be 'jsonl', 'claude-code', 'codex', 'openclaw' or 'hermes', "
        "got 'claude' (config.yaml:7)" in result.err
    )
    assert sorted(p.name for p in root.iterdir()) == ["config.yaml", "h"]
    assert list((root / "h").iterdir()) == []


def test_distillation_from_a_claude_code_session_cites_the_turn_and_never_sees_injected_memory(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = example(root, "claude-code")
    raw = yaml.safe_load(config.read_text())
    raw["model"] = {
        "base_url": fake_model.url,
        "model": "deep-test",
        "api_key_env": "TEST_API_KEY",
        "price_input_per_million": 1.0,
        "price_output_per_million": 4.0,
        "max_output_tokens": 1000,
        "timeout_seconds": 5,
    }
    raw["budget"] = {"daily_usd": 5.0, "per_agent_daily_usd": 1.0}
    # a Claude Code agent's default keys are the coding preset, which has no city
    raw["agents"]["coder"]["memory"] = {"allowed_keys": ["city", "editor"]}
    config.write_text(yaml.safe_dump(raw, sort_keys=False))
    fact = {
        "turn": "T3",
        "quote": "I moved to Porto in October",
        "entity": "user",
        "key": "city",
        "value": "Porto",
        "confidence": 0.9,
        "valid_from": "2026-10-01",
    }
    fake_model.reply({"facts": [fact]}, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "coder", "--json", "--pass", "distillation")
    assert result.code == 0, result.err
    prompt = json.dumps(fake_model.requests[0]["messages"])
    assert "I moved to Porto in October" in prompt
    for injected in (
        "prefers tabs",
        "always run tests",
        "Lisbon",
        "12:release: build",
        "Found deploy/fab.py",
    ):
        assert injected not in prompt
    listed = run_cli(config, "memory", "list", "--agent", "coder", "--json").json()
    assert [(r["entity"], r["value"]) for r in listed["records"]] == [("user", "Porto")]
    assert listed["records"][0]["source_event_id"] == "5f0c1a2e-1111-4a4a-8b8b-000000000001.jsonl@5867"


def test_hermes_turn_sent_past_another_sessions_open_turn_is_not_sent_again(root: Path) -> None:
    """Session B's closed turn ends after A's open one starts: the cursor stops before A,
    and B's rows past it must not come back as a turn of their own."""
    folder = root / "hermes-home"
    folder.mkdir()
    db = folder / "state.db"
    old, recent = NOW.timestamp() - 10_000, NOW.timestamp() - 5
    with sqlite3.connect(db) as connection:
        connection.execute(
            "CREATE TABLE messages (id INTEGER PRIMARY KEY, session_id TEXT, role TEXT, content TEXT, "
            "tool_calls TEXT, tool_name TEXT, timestamp REAL, active INTEGER)"
        )
        connection.executemany(
            "INSERT INTO messages (id, session_id, role, content, timestamp) VALUES (?, ?, ?, ?, ?)",
            [
                (1, "B", "user", "B question one", old),
                (2, "A", "user", "A old question", old),
                (3, "A", "assistant", "A old answer", old),
                (4, "B", "assistant", "B answer part one", old + 1),
                (5, "A", "user", "A open question", recent),
                (6, "B", "assistant", "B answer part two", old + 2),
            ],
        )
    connection.close()
    first = read(folder, "hermes", "state.db")
    sent = [[m.content for m in t.messages] for t in first.turns]
    assert ["B question one", "B answer part one", "B answer part two"] in sent
    cursors = commit(first)
    later = read_new_turns(
        TranscriptSource(folder, TranscriptSettings(format="hermes", glob="state.db")),
        cursors,
        "distillation",
        NOW + timedelta(hours=1),
    )
    assert [[m.content for m in t.messages] for t in later.turns] == [["A open question"]]
