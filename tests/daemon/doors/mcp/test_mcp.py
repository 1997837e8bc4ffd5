"""`metaeng-daemon mcp`: the read-only MCP server, through the SDK's own clients."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from daemon.config import load_deployment
from daemon.doors.mcp.mcp_server import build_server
from tests.support.deploy import base_config, run_cli, tree_snapshot, write_config
from tests.support.facts import stored_fact, write_store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TOOLS = ["memory_history", "memory_query", "memory_search", "skill_get", "skills_list"]


def deployment(root: Path) -> Path:
    config = write_config(root, base_config(root, None))
    home = root / "ada"
    write_store(
        home,
        stored_fact(id="f-old", value="Lisbon", valid_from="2026-01-01", valid_to="2026-10-01"),
        stored_fact(id="f-new", value="Porto", valid_from="2026-10-01", supersedes_memory_id="f-old"),
        stored_fact(id="f-team", key="team", value="billing platform", valid_from="2026-09-01"),
        stored_fact(id="f-bob", user="bob", value="Oslo", valid_from="2026-10-05"),
    )
    skill = home / "skills" / "release-notes"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text(
        "---\nname: release-notes\ndescription: Write release notes. Use when a release is cut.\n---\n\n"
        "# Release notes\n\n1. List merged PRs.\n2. Group by area.\n"
    )
    return config


def with_client(config: Path, body: Callable[[Client], Awaitable[Any]]) -> Any:
    deployment = load_deployment(config, {"HOME": os.environ["HOME"]})
    agent = deployment.agent("ada")

    async def main() -> Any:
        async with Client(build_server(agent, lambda: NOW, deployment.state_dir)) as client:
            return await body(client)

    return anyio.run(main)


async def call(client: Client, tool: str, **arguments: Any) -> Any:
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    return ("error", text) if result.is_error else json.loads(text)


def test_mcp_tools_answer_like_the_cli_and_only_for_the_agents_owner(root: Path) -> None:
    config = deployment(root)
    before = tree_snapshot(root)

    async def body(client: Client) -> dict[str, Any]:
        listed = await client.list_tools()
        return {
            "tools": sorted(t.name for t in listed.tools),
            "query": await call(client, "memory_query", entity="user", key="city"),
            "past": await call(client, "memory_query", entity="user", key="city", as_of="2026-05-01"),
            "search": await call(client, "memory_search", text="PORTO"),
            "search_other": await call(client, "memory_search", text="oslo"),
            "history": await call(client, "memory_history", entity="user", key="city"),
            "skills": await call(client, "skills_list"),
            "skill": await call(client, "skill_get", name="release-notes"),
            "missing": await call(client, "skill_get", name="nope"),
            "bad_date": await call(client, "memory_query", entity="user", key="city", as_of="someday"),
        }

    got = with_client(config, body)
    assert got["tools"] == TOOLS
    cli = run_cli(config, "memory", "query", "--agent", "ada", "--entity", "user", "--key", "city", "--json")
    assert got["query"]["value"] == cli.json()["value"] == "Porto"
    assert got["query"]["record"] == cli.json()["record"]
    assert got["past"]["value"] == "Lisbon"
    assert [r["id"] for r in got["search"]["records"]] == ["f-new"]
    assert got["search_other"]["records"] == []  # bob's fact never reaches ada's server
    assert [r["id"] for r in got["history"]["records"]] == ["f-old", "f-new"]
    assert [(s["name"], s["source"]) for s in got["skills"]["skills"]] == [("release-notes", "learned")]
    assert got["skill"]["body"].startswith("# Release notes")
    assert got["missing"][0] == "error" and "no skill named 'nope'" in got["missing"][1]
    assert got["bad_date"][0] == "error" and "as_of" in got["bad_date"][1]
    assert tree_snapshot(root) == before


@pytest.mark.slow
def test_mcp_server_runs_as_a_stdio_subprocess_with_logs_off_stdout(root: Path) -> None:
    config = deployment(root)
    before = tree_snapshot(root)
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "daemon", "--config", str(config), "mcp", "--agent", "ada"],
        env={"HOME": os.environ["HOME"], "METAENG_LOG_LEVEL": "info"},
        cwd=str(Path(__file__).parents[4]),
    )

    async def main() -> Any:
        async with Client(params) as client:
            listed = await client.list_tools()
            return sorted(t.name for t in listed.tools), await call(
                client, "memory_query", entity="user", key="team"
            )

    names, answer = anyio.run(main)
    assert names == TOOLS
    assert answer["value"] == "billing platform"
    assert tree_snapshot(root) == before


def test_mcp_for_an_unknown_agent_fails_with_one_line_and_exit_1(root: Path) -> None:
    config = deployment(root)
    result = run_cli(config, "mcp", "--agent", "nobody")
    assert result.code == 1
    assert result.err.startswith("error: ") and "nobody" in result.err


@pytest.mark.slow
def test_mcp_masks_redact_env_values_in_answers_and_errors_like_the_cli(root: Path) -> None:
    secret = "dbpass-REDACTENVcanary-4Kz8Pq"
    config = deployment(root)
    body = yaml.safe_load(config.read_text())
    config = write_config(root, {**body, "redact_env": ["DB_SECRET"]})
    write_store(
        root / "ada",
        stored_fact(id="f-plan", key="plan", value=secret, valid_from="2026-11-24"),
        stored_fact(id="f-city", entity=secret, value="Porto", valid_from="2026-11-24"),
    )
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "daemon", "--config", str(config), "mcp", "--agent", "ada"],
        env={"HOME": os.environ["HOME"], "DB_SECRET": secret},
        cwd=str(Path(__file__).parents[4]),
    )

    async def main() -> list[Any]:
        async with Client(params) as client:
            return [
                await call(client, "memory_history", entity="user", key="plan"),
                await call(client, "memory_search", text="plan"),
                await call(client, "memory_query", entity="user", key="plan"),
                await call(client, "memory_history", entity=secret, key="city"),
                await call(client, "skill_get", name=secret),
            ]

    history, search, query, by_entity, missing = anyio.run(main)
    assert [r["value"] for r in history["records"]] == ["***"]
    assert [r["value"] for r in search["records"]] == ["***"]
    assert query["value"] == "***" and query["record"]["value"] == "***"
    assert by_entity["entity"] == "***" and [r["entity"] for r in by_entity["records"]] == ["***"]
    assert missing[0] == "error" and "no skill named '***'" in missing[1]
    assert secret not in json.dumps([history, search, query, by_entity, missing])
    listed = run_cli(config, "memory", "list", "--agent", "ada", env={"DB_SECRET": secret})
    assert secret not in listed.out and "***" in listed.out
