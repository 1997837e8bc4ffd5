"""`impact` counts an MCP answer that gave an item's fact as its delivery: the server, run as a
runtime starts it, logs what it gave (ids only) in the agent's state folder
(daemon/doors/mcp_answers.py, daemon/impact/answers.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml
from mcp.client import Client

from tests.daemon.doors.mcp.test_mcp import call, stdio
from tests.daemon.impact.test_impact_cli import first_session, learn
from tests.support.deploy import TEST_KEY, conversation, run_cli, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.runs import setup_agent


def learned_deployment(root: Path, fake_model: FakeModelServer) -> Path:
    """The correction of `test_impact_cli` and the fact learned from it; no facts view read since."""
    config = setup_agent(root, fake_model)
    settings = yaml.safe_load(config.read_text(encoding="utf-8"))
    settings["agents"]["ada"]["memory"] = {"allowed_keys": "coding"}
    config.write_text(yaml.safe_dump(settings, sort_keys=False), encoding="utf-8")
    first_session(root)
    learn(root, fake_model, config)
    write_transcript(
        root / "ada", "s3.jsonl", conversation([("I told you, pnpm, not npm!", "Sorry, pnpm.")], day="2026-11-17")
    )
    return config


@pytest.mark.slow
def test_an_mcp_answer_giving_the_items_fact_is_logged_without_its_value_and_counts_as_delivery(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = learned_deployment(root, fake_model)
    (fact,) = run_cli(config, "memory", "list", "--agent", "ada", "--json").json()["records"]

    async def main() -> Any:
        async with Client(stdio(config, TEST_API_KEY=TEST_KEY)) as client:
            return await call(client, "memory_search", text="which package manager, pnpm?")

    answer = anyio.run(main)
    assert [f["id"] for f in answer["facts"]] == [fact["id"]]
    log = root / "state" / "agents" / "ada" / "mcp-answers.jsonl"
    (line,) = log.read_text(encoding="utf-8").splitlines()
    logged = json.loads(line)
    assert set(logged) == {"v", "at", "tool", "facts", "skills"}
    assert (logged["v"], logged["tool"], logged["facts"], logged["skills"]) == (1, "memory_search", [fact["id"]], [])
    assert "pnpm" not in line and "npm" not in line  # neither the value, the quote nor the question

    document = run_cli(config, "impact", "--agent", "ada", "--json").json()
    (item,) = document["items"]
    assert item["delivered_by"] == "mcp_answer"
    assert item["delivered_at"] == item["facts_delivered_at"] == logged["at"]
    assert document["figures"]["delivered"] == 1


def test_lines_of_the_answer_log_that_cannot_be_read_are_left_out_and_said(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = learned_deployment(root, fake_model)
    folder = root / "state" / "agents" / "ada"
    lines = [
        "not json at all",
        json.dumps(["a", "list"]),
        json.dumps({"v": 1, "at": 12, "tool": "memory_search", "facts": [], "skills": []}),  # at: no time
        json.dumps({"v": 1, "at": "2026-11-20T00:00:00+00:00", "tool": "memory_search", "facts": "f-1"}),
        json.dumps({"v": 9, "at": "2026-11-20T00:00:00+00:00", "tool": "memory_search", "facts": ["f-1"]}),
        "",
    ]
    (folder / "mcp-answers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (folder / "mcp-answers.jsonl.1").mkdir()  # the rotated log cannot be read as a file

    document = run_cli(config, "impact", "--agent", "ada", "--json").json()

    (item,) = document["items"]
    assert item["delivered_by"] != "mcp_answer"
    said = "\n".join(document["warnings"])
    assert "mcp-answers.jsonl.1 were not read" in said
    assert "4 line(s) are not an MCP answer and were left out" in said
    assert "1 line(s) of a newer version than 1 were left out" in said
