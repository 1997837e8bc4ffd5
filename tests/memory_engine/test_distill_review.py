"""Distillation with `autonomy: review`: memory writes become one proposal, not a fact-store write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.support.deploy import (
    CliResult,
    base_config,
    conversation,
    run_cli,
    tree_snapshot,
    write_config,
    write_transcript,
)
from tests.support.facts import store_text, stored_fact, write_store
from tests.support.fake_model import FakeModelServer
from tests.workspace.ada import clock

STORE = ".metaeng/facts.jsonl"


def _deploy(root: Path, url: str) -> tuple[Path, Path]:
    config = base_config(root, url)
    config["autonomy"] = "review"
    return write_config(root, config), root / "ada"


def _talk(home: Path, name: str, statement: str) -> None:
    pairs = [("Hello.", "Hi."), (statement, "Noted."), ("Thanks.", "Welcome."), ("Bye.", "Bye.")]
    write_transcript(home, name, conversation(pairs, day="2026-11-23"))


def _fact(key: str, value: str, quote: str) -> dict[str, Any]:
    return {
        "turn": "T2",
        "quote": quote,
        "entity": "user",
        "key": key,
        "value": value,
        "confidence": 0.95,
        "valid_from": "2026-11-23",
    }


def _distil(config: Path) -> CliResult:
    return run_cli(config, "once", "--agent", "ada", "--pass", "distillation", "--json", clock=clock)


def test_review_mode_proposes_the_fact_store_and_approval_writes_it(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, home = _deploy(root, fake_model.url)
    _talk(home, "a.jsonl", "I live in Paris.")
    fake_model.reply({"facts": [_fact("city", "Paris", "I live in Paris")]}, schema="DistillationResponse")

    result = _distil(config)

    entry = result.json()["passes"][0]
    assert entry["status"] == "applied" and entry["stored"] == 1
    assert entry["files"] == [f".metaeng/review/{entry['proposal']}.json"]
    assert store_text(home) == ""
    shown = run_cli(config, "review", "show", entry["proposal"], "--json", clock=clock).json()
    assert (shown["kind"], shown["target"], shown["status"]) == ("memory", STORE, "open")
    assert '"value":"Paris"' in shown["diff"].replace(" ", "")
    assert "user.city = 'Paris'" in shown["evidence"][0]

    assert run_cli(config, "review", "approve", entry["proposal"], clock=clock).code == 0
    assert '"Paris"' in store_text(home)


@pytest.mark.slow
def test_a_second_run_extends_the_open_memory_proposal(root: Path, fake_model: FakeModelServer) -> None:
    config, home = _deploy(root, fake_model.url)
    _talk(home, "a.jsonl", "I live in Paris.")
    fake_model.reply({"facts": [_fact("city", "Paris", "I live in Paris")]}, schema="DistillationResponse")
    first = _distil(config).json()["passes"][0]["proposal"]
    _talk(home, "b.jsonl", "I speak French.")
    fake_model.reply(
        {"facts": [_fact("language", "French", "I speak French")]}, schema="DistillationResponse"
    )

    second = _distil(config).json()["passes"][0]["proposal"]

    assert second == first
    queue = run_cli(config, "review", "list", "--json", clock=clock).json()
    assert len(queue) == 1
    shown = run_cli(config, "review", "show", first, "--json", clock=clock).json()
    assert [h["action"] for h in shown["history"]] == ["created", "updated"]
    assert len(shown["evidence"]) == 2
    assert run_cli(config, "review", "approve", first, clock=clock).code == 0
    store = store_text(home)
    assert '"Paris"' in store and '"French"' in store


@pytest.mark.slow
def test_a_pending_migration_proposal_does_not_list_facts_twice_in_the_view(
    root: Path, fake_model: FakeModelServer
) -> None:
    """Under review the single file stays on disk while its migration waits; the next run's
    view (read through the query index) must not show its facts again beside the shards."""
    config, home = _deploy(root, fake_model.url)
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["ada"].setdefault("memory", {})["markdown_view"] = "FACTS.md"
    config.write_text(yaml.safe_dump(raw))
    write_store(
        home,
        stored_fact(id="f-old1", entity="e1", value="Oldtown", valid_from="2026-01-01"),
        stored_fact(id="f-old2", entity="e2", value="Elsewhere", valid_from="2026-01-02"),
    )
    _talk(home, "a.jsonl", "I live in Paris.")
    fake_model.reply({"facts": [_fact("city", "Paris", "I live in Paris")]}, schema="DistillationResponse")
    _distil(config)
    _talk(home, "b.jsonl", "I speak French.")
    fake_model.reply({"facts": [_fact("language", "French", "I speak French")]}, schema="DistillationResponse")

    _distil(config)

    views = [
        next(c for c in json.loads(p.read_text())["changes"] if c["path"] == "FACTS.md")["new_content"]
        for p in sorted((home / ".metaeng" / "review").glob("*.json"))
    ]
    assert views and all(v.count("Oldtown") == 1 and v.count("Elsewhere") == 1 for v in views), views
    assert any("French" in v for v in views)


def test_approval_refuses_facts_of_a_key_forbidden_since_and_changes_nothing(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, home = _deploy(root, fake_model.url)
    _talk(home, "a.jsonl", "I live in Paris.")
    fake_model.reply({"facts": [_fact("city", "Paris", "I live in Paris")]}, schema="DistillationResponse")
    pid = _distil(config).json()["passes"][0]["proposal"]
    # A person forbids the key after the proposal was made (the file `memory forget --forbid` keeps).
    (home / ".metaeng" / "forbidden-keys.json").write_text('{"version": 1, "keys": ["city"]}\n')
    before = tree_snapshot(root, skip=("state",))

    result = run_cli(config, "review", "approve", pid, clock=clock)

    assert result.code == 1
    assert result.err.startswith(f"error: proposal {pid} (memory) refused: .metaeng/facts.jsonl.d/")
    assert "would store a fact of the forbidden key 'city'" in result.err
    assert tree_snapshot(root, skip=("state",)) == before
    assert store_text(home) == ""


def test_under_review_a_proposed_fact_leaves_the_tentative_statement_open(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, home = _deploy(root, fake_model.url)
    _talk(home, "a.jsonl", "I might move to Paris.")
    fake_model.reply({"facts": [_fact("city", "Paris", "I might move to Paris")]}, schema="DistillationResponse")
    assert _distil(config).json()["passes"][0]["rejected"] == 1
    _talk(home, "b.jsonl", "I live in Paris.")
    fake_model.reply({"facts": [_fact("city", "Paris", "I live in Paris")]}, schema="DistillationResponse")

    entry = _distil(config).json()["passes"][0]

    assert entry["stored"] == 1 and entry["proposal"]
    assert not any("confirmed by a later turn" in line for line in entry.get("report", []))
    refused = run_cli(config, "memory", "refused", "--agent", "ada", "--open", "--json", clock=clock).json()
    assert [(e["reason"], e["value"], e["settled"]) for e in refused] == [("tentative", "Paris", None)]
