"""`metaeng-daemon mcp`: the read-only MCP server, through the SDK's own clients."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

import anyio
import pytest
import yaml
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from daemon.config import load_deployment
from daemon.doors.mcp.mcp_server import build_server
from daemon.doors.mcp_answers import LOG_MAX_BYTES, read_answers
from tests.support.deploy import base_config, run_cli, tree_snapshot, write_config
from tests.support.facts import stored_fact, write_store

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
TOOLS = [
    "memory_entities",
    "memory_history",
    "memory_keys",
    "memory_query",
    "memory_search",
    "skill_get",
    "skills_list",
]
FACT_FIELDS = {"id", "entity", "key", "value", "valid_from", "valid_to", "quote"}
REPO = Path(__file__).parents[4]


def deployment(root: Path) -> Path:
    config = write_config(root, base_config(root, None))
    home = root / "ada"
    write_store(
        home,
        stored_fact(id="f-old", value="Lisbon", valid_from="2026-01-01", valid_to="2026-10-01", quote="I live in Lisbon"),
        stored_fact(
            id="f-new",
            value="Porto",
            valid_from="2026-10-01",
            supersedes_memory_id="f-old",
            quote="Jonas lives in Porto, and I moved there too",
        ),
        stored_fact(id="f-team", key="team", value="billing platform", valid_from="2026-09-01"),
        stored_fact(id="f-editor", entity="project", key="editor", value="vim", valid_from="2026-09-01"),
        stored_fact(id="f-bob", user="bob", value="Oslo", valid_from="2026-10-05", quote="Jonas lives in Oslo"),
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
        async with Client(build_server("ada", lambda: (agent, deployment.state_dir), lambda: NOW)) as client:
            return await body(client)

    return anyio.run(main)


def stdio(config: Path | str, agent: str = "ada", **env: str) -> StdioServerParameters:
    """The server as a runtime starts it: a subprocess speaking MCP on stdin/stdout."""
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "daemon", "--config", str(config), "mcp", "--agent", agent],
        # coverage's own variables pass, so the server process is measured like the others
        env={**{k: v for k, v in os.environ.items() if k.startswith("COVERAGE")}, "HOME": os.environ["HOME"], **env},
        cwd=str(REPO),
    )


async def call(client: Client, tool: str, **arguments: Any) -> Any:
    result = await client.call_tool(tool, arguments)
    text = result.content[0].text  # type: ignore[union-attr]
    return ("error", text) if result.is_error else json.loads(text)


def facts_in(answer: Any) -> list[dict[str, Any]]:
    """Every fact an answer carries, under `fact` or `facts`."""
    found = answer.get("facts", [])
    return [*found, answer["fact"]] if answer.get("fact") else found


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
    assert got["query"]["fact"] == {
        "id": "f-new",
        "entity": "user",
        "key": "city",
        "value": "Porto",
        "valid_from": "2026-10-01",
        "quote": "Jonas lives in Porto, and I moved there too",
    }
    assert got["past"]["value"] == "Lisbon"
    assert [f["id"] for f in got["search"]["facts"]] == ["f-new"]
    assert got["search_other"]["facts"] == []  # bob's fact never reaches ada's server
    assert [(f["id"], f.get("valid_to")) for f in got["history"]["facts"]] == [("f-old", "2026-10-01"), ("f-new", None)]
    assert [(s["name"], s["source"]) for s in got["skills"]["skills"]] == [("release-notes", "learned")]
    assert got["skill"]["body"].startswith("# Release notes")
    assert got["missing"][0] == "error" and "no skill named 'nope'" in got["missing"][1]
    assert got["bad_date"][0] == "error" and "as_of" in got["bad_date"][1]
    assert tree_snapshot(root) == before


def test_mcp_answers_carry_no_storage_fields(root: Path) -> None:
    config = deployment(root)

    async def body(client: Client) -> list[Any]:
        return [
            await call(client, "memory_query", entity="user", key="city"),
            await call(client, "memory_search", text="Porto billing vim", include_superseded=True),
            await call(client, "memory_history", entity="user", key="city"),
        ]

    answers = with_client(config, body)
    facts = [f for answer in answers for f in facts_in(answer)]
    assert len(facts) == 1 + 3 + 2
    assert all(set(f) <= FACT_FIELDS and {"id", "entity", "key", "value", "valid_from"} <= set(f) for f in facts)
    for noise in ("tenant", "schema_version", "memory_type", "source_event_id", "observed_at", "confidence"):
        assert noise not in json.dumps(answers)


def test_mcp_search_reads_a_question_against_quotes_and_ranks_rarer_words_first(root: Path) -> None:
    config = deployment(root)

    async def body(client: Client) -> dict[str, Any]:
        return {
            "question": await call(client, "memory_search", text="where does Jonas live"),
            "name": await call(client, "memory_search", text="Jonas"),
            "superseded": await call(client, "memory_search", text="Lisbon"),
            "with_superseded": await call(client, "memory_search", text="Lisbon", include_superseded=True),
            "one": await call(client, "memory_search", text="user billing", limit=1),
        }

    got = with_client(config, body)
    assert [f["id"] for f in got["question"]["facts"]] == ["f-new"]  # "Jonas", "live(s)": only in its quote
    assert got["question"]["words"] == ["Jonas", "live"]  # "where", "does": the language's function words
    assert [f["id"] for f in got["name"]["facts"]] == ["f-new"]  # bob's "Jonas lives in Oslo" is not ada's
    assert got["superseded"]["facts"] == [] and got["superseded"]["as_of"] == "2026-11-30"
    assert [(f["id"], f["valid_to"]) for f in got["with_superseded"]["facts"]] == [("f-old", "2026-10-01")]
    assert got["with_superseded"]["as_of"] is None
    # "user" is in three of the four facts, "billing" in one: that one first, and more exist.
    assert [f["id"] for f in got["one"]["facts"]] == ["f-team"] and got["one"]["more"] is True


def test_mcp_lists_entities_and_keys_with_counts(root: Path) -> None:
    config = deployment(root)

    async def body(client: Client) -> dict[str, Any]:
        return {
            "entities": await call(client, "memory_entities"),
            "first": await call(client, "memory_entities", limit=1),
            "page": await call(client, "memory_entities", limit=1, offset=1),
            "keys": await call(client, "memory_keys", entity="user"),
            "unknown": await call(client, "memory_keys", entity="nobody"),
        }

    got = with_client(config, body)
    assert got["entities"] == {
        "as_of": "2026-11-30",
        "entities": [
            {"entity": "user", "keys": 2, "facts": 2, "superseded": 1},
            {"entity": "project", "keys": 1, "facts": 1, "superseded": 0},
        ],
        "total": 2,
        "more": False,
    }
    assert [e["entity"] for e in got["first"]["entities"]] == ["user"] and got["first"]["more"] is True
    assert [e["entity"] for e in got["page"]["entities"]] == ["project"] and got["page"]["more"] is False
    assert got["keys"]["keys"] == [
        {"key": "city", "facts": 1, "superseded": 1},
        {"key": "team", "facts": 1, "superseded": 0},
    ]
    assert got["unknown"][0] == "error" and "no current fact about entity 'nobody'" in got["unknown"][1]


def test_mcp_bad_arguments_answer_errors_and_the_next_call_is_served(root: Path) -> None:
    config = deployment(root)
    before = tree_snapshot(root)

    async def body(client: Client) -> list[Any]:
        return [
            await call(client, "memory_search", text="Porto", limit=0),
            await call(client, "memory_search", text="Porto", limit="many"),
            await call(client, "memory_search"),
            await call(client, "memory_search", text="?!"),
            await call(client, "memory_search", text="Porto " * 100),
            await call(client, "memory_entities", offset=-1),
            await call(client, "no_such_tool"),
            await call(client, "memory_search", text="Porto"),
        ]

    *refused, served = with_client(config, body)
    assert all(answer[0] == "error" for answer in refused), refused
    assert "limit" in refused[0][1] and "text" in refused[2][1]
    assert "at least one word" in refused[3][1] and "at most 500 characters" in refused[4][1]
    assert "no_such_tool" in refused[6][1]
    assert [f["id"] for f in served["facts"]] == ["f-new"]
    assert tree_snapshot(root) == before


@pytest.mark.slow
def test_mcp_server_runs_as_a_stdio_subprocess_with_its_version_and_logs_off_stdout(root: Path) -> None:
    config = deployment(root)
    before = tree_snapshot(root)

    async def main() -> Any:
        async with Client(stdio(config, METAENG_LOG_LEVEL="info")) as client:
            listed = await client.list_tools()
            refused = await call(client, "memory_search", text="Porto", limit=0)
            answer = await call(client, "memory_search", text="where does Jonas live")
            return client.server_info, sorted(t.name for t in listed.tools), refused, answer

    info, names, refused, answer = anyio.run(main)
    try:
        expected = metadata.version("metaeng-daemon")
    except metadata.PackageNotFoundError:
        expected = "unknown"
    assert info is not None and info.name == "metaeng-daemon (ada)" and info.version == expected != ""
    assert names == TOOLS
    assert refused[0] == "error"
    assert [f["id"] for f in answer["facts"]] == ["f-new"]
    assert tree_snapshot(root) == before


@pytest.mark.slow
@pytest.mark.parametrize(
    ("agent", "config_name", "message"),
    [
        ("nobody", "config.yaml", "unknown agent 'nobody' (configured: ada)"),
        ("ada", "missing.yaml", "missing.yaml"),
    ],
    ids=["unknown-agent", "missing-config"],
)
def test_mcp_with_no_agent_to_serve_answers_every_call_with_the_error_and_keeps_serving(
    root: Path, agent: str, config_name: str, message: str
) -> None:
    deployment(root)
    before = tree_snapshot(root)

    async def main() -> Any:
        async with Client(stdio(root / config_name, agent)) as client:
            listed = await client.list_tools()
            first = await call(client, "memory_search", text="Porto")
            second = await call(client, "skills_list")
            return client.server_info, sorted(t.name for t in listed.tools), first, second

    info, names, first, second = anyio.run(main)
    assert info is not None and info.name == f"metaeng-daemon ({agent})"
    assert names == TOOLS
    assert first[0] == second[0] == "error"
    assert message in first[1] and message in second[1]
    assert tree_snapshot(root) == before


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

    async def main() -> list[Any]:
        async with Client(stdio(config, DB_SECRET=secret)) as client:
            return [
                await call(client, "memory_history", entity="user", key="plan"),
                await call(client, "memory_search", text="plan"),
                await call(client, "memory_query", entity="user", key="plan"),
                await call(client, "memory_history", entity=secret, key="city"),
                await call(client, "skill_get", name=secret),
                await call(client, "memory_entities"),
            ]

    history, search, query, by_entity, missing, entities = anyio.run(main)
    assert [f["value"] for f in history["facts"]] == ["***"]
    assert [f["value"] for f in search["facts"]] == ["***"]
    assert query["value"] == "***" and query["fact"]["value"] == "***"
    assert by_entity["entity"] == "***" and [f["entity"] for f in by_entity["facts"]] == ["***"]
    assert missing[0] == "error" and "no skill named '***'" in missing[1]
    assert sorted(e["entity"] for e in entities["entities"]) == ["***", "user"]
    assert secret not in json.dumps([history, search, query, by_entity, missing, entities])
    listed = run_cli(config, "memory", "list", "--agent", "ada", env={"DB_SECRET": secret})
    assert secret not in listed.out and "***" in listed.out


def test_an_answer_is_served_when_its_log_cannot_be_written(root: Path) -> None:
    config = deployment(root)
    folder = root / "state" / "agents" / "ada"
    (folder / "mcp-answers.jsonl").mkdir(parents=True)  # no one, not even root, writes a line there
    folder.chmod(0o500)
    try:
        answer = with_client(config, lambda client: call(client, "memory_search", text="Porto"))
    finally:
        folder.chmod(0o700)
    assert [f["id"] for f in answer["facts"]] == ["f-new"]
    assert list((folder / "mcp-answers.jsonl").iterdir()) == []


def test_answers_giving_facts_or_a_skill_are_logged_with_ids_and_names_only(root: Path) -> None:
    config = deployment(root)
    folder = root / "state" / "agents" / "ada"
    folder.mkdir(parents=True)  # the daemon has run for the agent: its state folder exists

    async def body(client: Client) -> None:
        await call(client, "memory_query", entity="user", key="city")
        await call(client, "memory_entities")  # gives no fact: not logged
        await call(client, "skills_list")  # names and descriptions only: not logged
        await call(client, "skill_get", name="release-notes")
        await call(client, "memory_search", text="nothing-matches-this")  # gave nothing: not logged

    with_client(config, body)
    lines = [json.loads(line) for line in (folder / "mcp-answers.jsonl").read_text().splitlines()]
    assert [(e["tool"], e["facts"], e["skills"], e["at"]) for e in lines] == [
        ("memory_query", ["f-new"], [], "2026-11-30T12:00:00+00:00"),
        ("skill_get", [], ["release-notes"], "2026-11-30T12:00:00+00:00"),
    ]
    assert "Porto" not in (folder / "mcp-answers.jsonl").read_text()


def test_a_full_answers_log_is_moved_aside_before_the_next_line(root: Path) -> None:
    config = deployment(root)
    log = root / "state" / "agents" / "ada" / "mcp-answers.jsonl"
    log.parent.mkdir(parents=True)
    full = b'{"v": 1, "at": "2026-11-01T00:00:00+00:00", "tool": "memory_search", "facts": ["f-x"], "skills": []}\n'
    log.write_bytes(full * (LOG_MAX_BYTES // len(full) + 1))

    with_client(config, lambda client: call(client, "memory_search", text="Porto"))
    assert log.with_name("mcp-answers.jsonl.1").read_bytes().startswith(full)
    (line,) = log.read_text().splitlines()
    assert json.loads(line)["facts"] == ["f-new"]
    answers, warnings = read_answers(log)
    assert warnings == [] and answers[-1].facts == ("f-new",) and len(answers) > LOG_MAX_BYTES // len(full)
