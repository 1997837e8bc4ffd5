"""`once` on each runtime example analyses its sessions, with the example's own model section.

The deployments under examples/runtimes are what a new user runs first. Every session the
agent reads holds at least 4 turns (a run that finds fewer commits their offsets unread:
the 4-turn rule), each config points at a local OpenAI-compatible server (the scripted one
here), and the sessions teach something a pass can keep: a project fact, a preference, a
procedure.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests.daemon.transcripts.test_adapters import (
    build_db,
    example,
    nothing_found,
    pending,
    request_schema,
    use_scripted_model,
)
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer

# The examples keep their databases as SQL; a user builds them with the line in config.yaml.
DATABASES = {
    "openclaw": ("openclaw-home/agents/main/agent/openclaw-agent.sqlite", "transcript_events.sql"),
    "hermes": ("hermes-home/state.db", "messages.sql"),
}
# Per example and agent: words one of its turns says, and the fact (entity, key, value) in them.
TAUGHT = [
    pytest.param(
        "claude-code",
        "coder",
        "We test with `pytest -q`",
        ("project", "test_command", "pytest -q"),
        id="claude-code",
    ),
    pytest.param(
        "codex",
        "coder",
        "We run the tests with `uv run pytest -q`",
        ("project", "test_command", "uv run pytest -q"),
        id="codex",
    ),
    pytest.param(
        "openclaw", "main", "write to me in English", ("user", "language", "English"), id="openclaw"
    ),
    pytest.param(
        "openclaw",
        "legacy",
        "show my reminders in Berlin time",
        ("user", "timezone", "Europe/Berlin"),
        id="openclaw-legacy",
    ),
    pytest.param(
        "hermes",
        "hermes",
        "My timezone is Europe/Amsterdam",
        ("user", "timezone", "Europe/Amsterdam"),
        id="hermes",
    ),
]


def runtime_example(root: Path, name: str) -> Path:
    """A copy of examples/runtimes/<name>, its sessions idle and its databases built; its config."""
    config = example(root, name)
    if name in DATABASES:
        db, script = DATABASES[name]
        build_db(root / name / db, root / name / script)
    return config


def sent_turns(body: dict[str, Any]) -> dict[str, tuple[str, str]]:
    """The turns a request sent: id → (day, the text of its messages)."""
    prompt = body["messages"][-1]["content"]
    data = json.loads(
        prompt.split("<untrusted_transcript_data>\n", 1)[1].split("\n</untrusted_transcript_data>")[0]
    )
    return {t["id"]: (t["date"], "\n".join(text for _role, text in t["messages"])) for t in data["turns"]}


@pytest.mark.parametrize(("name", "agent", "quote", "fact"), TAUGHT)
def test_every_session_of_a_runtime_example_holds_at_least_4_turns(
    root: Path, name: str, agent: str, quote: str, fact: tuple[str, str, str]
) -> None:
    turns = pending(runtime_example(root, name), agent)["turns"]
    sessions = Counter(t["ref"].split("@")[0] for t in turns)
    assert sessions and min(sessions.values()) >= 4, sessions
    assert any(quote in t["messages"][0]["text"] for t in turns)


@pytest.mark.parametrize(("name", "agent", "quote", "fact"), TAUGHT)
def test_once_on_a_runtime_example_analyses_its_sessions_and_keeps_what_they_teach(
    root: Path, fake_model: FakeModelServer, name: str, agent: str, quote: str, fact: tuple[str, str, str]
) -> None:
    config = runtime_example(root, name)
    use_scripted_model(config, fake_model)
    entity, key, value = fact

    def answer(body: dict[str, Any]) -> dict[str, list[Any]]:
        if "facts" not in request_schema(body)["required"]:
            return nothing_found(body)
        cited = [(tid, day) for tid, (day, text) in sent_turns(body).items() if quote in text]
        return {
            "facts": [
                {
                    "turn": tid,
                    "quote": quote,
                    "entity": entity,
                    "key": key,
                    "value": value,
                    "confidence": 0.9,
                    "valid_from": day,
                }
                for tid, day in cited
            ]
        }

    for _ in range(20):
        fake_model.reply(answer)
    result = run_cli(config, "once", "--agent", agent, "--json")
    assert result.code == 0, result.err
    passes = {p["name"]: p for p in result.json()["passes"]}
    for pass_name in ("distillation", "skill_learning", "instruction_review"):
        entry = passes[pass_name]
        assert entry["turns"] >= 4 and "without analysis" not in entry["reason"], entry
        assert entry["model_requests"] >= 1, entry
    assert passes["distillation"]["stored"] == 1, passes["distillation"]
    query = run_cli(config, "memory", "query", "--agent", agent, "--entity", entity, "--key", key, "--json")
    assert query.code == 0, query.err
    assert query.json()["value"] == value
