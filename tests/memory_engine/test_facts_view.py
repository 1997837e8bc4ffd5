"""The facts view: on by default where the runtime reads, short, and wired in only by review."""

from __future__ import annotations

import re
import shutil
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from memory_engine.markdown_text import facts_view
from memory_engine.records import FactRecord
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.facts import shard_of, store_records, stored_fact, write_store
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

EXAMPLES = Path(__file__).parents[2] / "examples" / "runtimes"


def claude_project(root: Path, **memory: Any) -> Path:
    """The claude-code example with a small fact store; memory consolidation alone runs."""
    target = root / "claude-code"
    shutil.copytree(EXAMPLES / "claude-code", target, ignore=shutil.ignore_patterns("state"))
    config = target / "config.yaml"
    text = config.read_text().replace(
        "version: 1\n",
        "version: 1\npasses: {distillation: false, skill_learning: false, library_maintenance: false, workspace_consolidation: false, instruction_review: false}\n",
    )
    if memory:
        text += "    memory:\n" + "".join(f"      {k}: {v}\n" for k, v in memory.items())
    config.write_text(text)
    write_store(
        target / "home",
        stored_fact(user="coder", id="f-old", value="Lisbon", valid_from="2026-01-01", valid_to="2026-10-01"),
        stored_fact(
            user="coder", id="f-new", value="Porto", valid_from="2026-10-01", supersedes_memory_id="f-old"
        ),
        stored_fact(
            user="coder",
            id="f-db",
            entity="staging",
            key="database",
            value="pg-staging-2",
            valid_from="2026-11-01",
        ),
    )
    return config


def once(config: Path) -> dict[str, Any]:
    result = run_cli(config, "once", "--agent", "coder", "--json")
    assert result.code == 0, result.err
    data: dict[str, Any] = result.json()
    return data


def proposals(config: Path) -> list[dict[str, Any]]:
    result = run_cli(config, "review", "list", "--agent", "coder", "--json")
    assert result.code == 0, result.err
    found: list[dict[str, Any]] = (
        result.json()["proposals"] if isinstance(result.json(), dict) else result.json()
    )
    return found


def test_the_view_is_written_by_default_where_claude_code_reads_current_facts_newest_first(
    root: Path,
) -> None:
    config = claude_project(root)
    once(config)
    view = (root / "claude-code" / "home" / ".claude" / "metaeng-facts.md").read_text()
    facts = [line for line in view.splitlines() if line.startswith("- ")]
    assert facts == [
        "- staging / database: pg-staging-2 (since 2026-11-01, confidence 0.9)",
        "- user / city: Porto (since 2026-10-01, confidence 0.9)",
    ]


def test_the_wiring_line_is_proposed_once_and_never_written_silently(root: Path) -> None:
    config = claude_project(root)
    claude_md = root / "claude-code" / "home" / "CLAUDE.md"
    before = claude_md.read_bytes()
    once(config)
    found = [p for p in proposals(config) if p["kind"] == "facts-view-wiring"]
    assert len(found) == 1
    assert claude_md.read_bytes() == before
    once(config)
    assert len([p for p in proposals(config) if p["kind"] == "facts-view-wiring"]) == 1
    rejected = run_cli(config, "review", "reject", found[0]["id"], "--agent", "coder", "--why", "not here")
    assert rejected.code == 0, rejected.err
    once(config)
    assert len([p for p in proposals(config) if p["kind"] == "facts-view-wiring"]) == 1
    assert claude_md.read_bytes() == before


def test_an_approved_wiring_adds_the_import_line_to_claude_md(root: Path) -> None:
    config = claude_project(root)
    once(config)
    proposal = next(p for p in proposals(config) if p["kind"] == "facts-view-wiring")
    approved = run_cli(config, "review", "approve", proposal["id"], "--agent", "coder")
    assert approved.code == 0, approved.err
    text = (root / "claude-code" / "home" / "CLAUDE.md").read_text()
    assert text == "# Project\n\nRun the tests before pushing.\n\n@.claude/metaeng-facts.md\n"


@pytest.mark.slow
def test_the_view_is_bounded_and_says_where_the_rest_is(root: Path) -> None:
    raw = base_config(root, None)
    raw["agents"]["ada"]["memory"] = {"markdown_view": "FACTS.md"}
    config = write_config(root, raw)
    many = [
        stored_fact(
            id=f"f-{i:03d}",
            entity=f"project{i:03d}",
            key="status",
            value="active " * 20,
            valid_from=f"2025-{1 + i % 12:02d}-01",
        )
        for i in range(300)
    ]
    write_store(root / "ada", *many)
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    view = (root / "ada" / "FACTS.md").read_text()
    lines = [line for line in view.splitlines() if line.startswith("- ")]
    assert len(view.encode()) <= 16 * 1024 + 200
    assert lines[0].endswith("(since 2025-12-01, confidence 0.9)")
    assert view.rstrip().endswith(
        f"({300 - len(lines)} older fact(s) not shown; `metaeng-daemon memory list` has them all)"
    )


def test_markdown_view_false_writes_no_view_and_proposes_nothing(root: Path) -> None:
    config = claude_project(root, markdown_view="false")
    once(config)
    assert not (root / "claude-code" / "home" / ".claude" / "metaeng-facts.md").exists()
    assert proposals(config) == []


@pytest.mark.slow
def test_a_distillation_run_renders_the_same_view_from_the_index_as_from_every_shard(
    root: Path, fake_model: FakeModelServer
) -> None:
    """Past the migration, the view reads only the run's shards and the index's newest
    facts; it must be byte-identical to the view of the whole store, a person's edit of an
    untouched shard and the hidden-facts count included."""
    config = setup_agent(root, fake_model)
    raw = yaml.safe_load(config.read_text())
    raw["agents"]["ada"]["memory"] = {"markdown_view": "FACTS.md"}
    config.write_text(yaml.safe_dump(raw))
    home = root / "ada"
    seeded = [
        stored_fact(id=f"f-{i:04d}", entity=f"e{i:04d}", value=f"v{i}", valid_from=f"2026-{1 + i % 10:02d}-{1 + i % 27:02d}")
        for i in range(600)
    ]
    write_store(home, *seeded)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0  # migrates to shards: reads them all
    newest = max(sorted(seeded, key=lambda r: str(r["entity"])), key=lambda r: str(r["valid_from"]))  # the view's first
    shard = home / shard_of(entity=newest["entity"])
    shard.write_text(shard.read_text().replace(f'"{newest["value"]}"', '"edited-by-a-person"'))
    add_turns(root, "s2.jsonl", first="I speak German at work.")
    fake_model.reply(
        {"facts": [berlin_fact(quote="I speak German", key="language", value="German", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )

    second = run_cli(config, "once", "--agent", "ada", "--json")

    assert second.code == 0, second.err
    assert "German" in (home / "FACTS.md").read_text()
    assert (root / "state" / "agents" / "ada" / "facts-index.sqlite3").is_file()  # the run read through it
    records = [FactRecord.model_validate(r) for r in store_records(home)]
    assert "edited-by-a-person" in (home / "FACTS.md").read_text()
    assert (home / "FACTS.md").read_bytes() == facts_view(records, datetime.now(UTC).date().isoformat())


def test_an_at_sign_in_a_value_is_no_claude_code_import(root: Path) -> None:
    # Claude Code imports `@path` from a file CLAUDE.md imports: a value "@../.env" would pull
    # the agent's secrets into its context.
    config = claude_project(root)
    write_store(root / "claude-code" / "home", stored_fact(user="coder", key="plan", value="see @../.env and @/etc/passwd"))
    once(config)
    view = (root / "claude-code" / "home" / ".claude" / "metaeng-facts.md").read_text()
    assert "see \\@../.env and \\@/etc/passwd" in view
    assert not re.search(r"(?:^|\s)@", view)


def test_words_stay_plain_in_the_view_and_only_what_could_be_markup_is_escaped(root: Path) -> None:
    # The agent reads the view as text: `deploy\_command` would teach it a backslash that is
    # not there. `_` inside a word, `#` after one and `\` before a letter are no markup.
    config = claude_project(root)
    write_store(
        root / "claude-code" / "home",
        stored_fact(user="coder", id="f-1", entity="staging", key="deploy_command", value="make deploy_prod"),
        stored_fact(user="coder", id="f-2", key="editor", value="C:\\Tools\\vim_9 for C# and F#"),
        stored_fact(user="coder", id="f-3", key="code_style", value="_em_, snake__case_, *bold*, \\*, #1"),
    )
    once(config)
    view = (root / "claude-code" / "home" / ".claude" / "metaeng-facts.md").read_text()
    facts = sorted(line.split(" (since")[0] for line in view.splitlines() if line.startswith("- "))
    assert facts == [
        "- staging / deploy_command: make deploy_prod",
        "- user / code_style: \\_em\\_, snake__case\\_, \\*bold\\*, \\\\\\*, \\#1",
        "- user / editor: C:\\Tools\\vim_9 for C# and F#",
    ]


@pytest.mark.slow
def test_a_stale_wiring_proposal_is_made_afresh_and_a_symlinked_claude_md_gets_none(root: Path) -> None:
    config = claude_project(root)
    home = root / "claude-code" / "home"
    once(config)
    (stale,) = [p for p in proposals(config) if p["kind"] == "facts-view-wiring"]
    with (home / "CLAUDE.md").open("a") as fh:
        fh.write("Keep commits small.\n")
    once(config)
    wiring = [p for p in proposals(config) if p["kind"] == "facts-view-wiring"]
    assert {p["id"]: p["status"] for p in wiring}[stale["id"]] == "stale"
    assert sorted(p["status"] for p in wiring) == ["open", "stale"]
    fresh = next(p for p in wiring if p["status"] == "open")
    assert run_cli(config, "review", "approve", fresh["id"], "--agent", "coder").code == 0
    assert (home / "CLAUDE.md").read_text().endswith("Keep commits small.\n\n@.claude/metaeng-facts.md\n")

    # The common CLAUDE.md -> AGENTS.md link: no proposal, and the run does not fail.
    other = claude_project(root / "linked")
    linked = root / "linked" / "claude-code" / "home"
    (linked / "AGENTS.md").write_bytes((linked / "CLAUDE.md").read_bytes())
    (linked / "CLAUDE.md").unlink()
    (linked / "CLAUDE.md").symlink_to("AGENTS.md")
    body = once(other)
    assert body["outcome"] != "failed" and all(p["status"] != "failed" for p in body["passes"]), body
    assert [p for p in proposals(other) if p["kind"] == "facts-view-wiring"] == []


def test_a_view_path_with_a_space_is_imported_escaped_and_the_instruction_file_is_refused_as_the_view(
    root: Path,
) -> None:
    config = claude_project(root, markdown_view='"my facts.md"')
    once(config)
    proposal = next(p for p in proposals(config) if p["kind"] == "facts-view-wiring")
    assert run_cli(config, "review", "approve", proposal["id"], "--agent", "coder").code == 0
    assert (root / "claude-code" / "home" / "CLAUDE.md").read_text().endswith("\n@my\\ facts.md\n")
    refused = run_cli(claude_project(root / "b", markdown_view="CLAUDE.md"), "config", "check")
    assert refused.code == 1 and "memory.markdown_view: CLAUDE.md is the file claude-code reads" in refused.err
