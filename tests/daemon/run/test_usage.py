"""Every run that reads turns records what the agent used in them, once, through the command
line: `once`, then `skills list`, `status` (docs/explanation/skills.md#usage-signals)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tests.daemon.transcripts.test_usage import (
    CONTEXT,
    SESSION,
    answer,
    attachment,
    prompt,
    tool_use,
    write_session,
)
from tests.daemon.transcripts.test_usage_record import append
from tests.skills_engine.builders import make_skill, skills_config
from tests.support.deploy import run_cli

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
HOOK = {"type": "hook_additional_context", "hookName": "UserPromptSubmit", "hookEvent": "UserPromptSubmit", "content": [CONTEXT]}


def clock() -> datetime:
    return NOW


def deployment(root: Path, **agent: Any) -> Path:
    """Agent `ada` on a Claude Code project folder, with two pack skills and one managed."""
    project = root / "projects" / "-srv-project"
    project.mkdir(parents=True)
    config = skills_config(
        root, None, transcripts={"format": "claude-code", "root": str(project), "glob": "*.jsonl"}, **agent
    )
    make_skill(root / "packs", "release")
    make_skill(root / "packs", "triage")
    make_skill(root / "managed", "web-research")
    return config


def two_turns() -> list[dict[str, Any]]:
    return [
        prompt(0, "Cut the release for 2.4.1."),
        attachment(1, HOOK),
        tool_use(2, "Skill", {"skill": "release"}),
        answer(3, "Released."),
        prompt(4, "What do you know about our staging?"),
        tool_use(5, "Read", {"file_path": "/srv/project/.claude/metaeng-facts.md"}),
        answer(6, "It is at staging.example.test."),
    ]


def once(config: Path, *args: str) -> dict[str, Any]:
    result = run_cli(config, "once", "--agent", "ada", "--json", *args, clock=clock)
    assert result.code in (0, 1), result.err
    data: dict[str, Any] = result.json()
    return data


def uses(config: Path) -> dict[str, tuple[int, str | None, int | None]]:
    rows = run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    return {r["name"]: (r["uses"], r["last_use"], r["sessions_since_last_use"]) for r in rows}


def headline(config: Path) -> dict[str, int]:
    result = run_cli(config, "status", "--agent", "ada", "--json", clock=clock)
    assert result.code == 0, result.err
    usage: dict[str, int] = result.json()["agents"][0]["usage"]
    return usage


def test_a_run_that_commits_offsets_without_analysis_records_the_uses_once(root: Path) -> None:
    config = deployment(root)
    write_session(root / "projects" / "-srv-project", two_turns())
    data = once(config)
    assert all("fewer than 4" in p["reason"] for p in data["passes"] if p["name"] == "distillation")
    assert uses(config) == {
        "release": (1, "2026-11-05T09:02:00+00:00", 0),
        "triage": (0, None, None),
        "web-research": (0, None, None),
    }
    assert headline(config) == {
        "skills_used": 1,
        "skills_never_used": 2,
        "skill_opens": 1,
        "facts_view_reads": 1,
        "hook_deliveries": 1,
        "sessions_read": 1,
    }
    once(config)  # nothing new: the same record
    assert uses(config)["release"][0] == 1 and headline(config)["hook_deliveries"] == 1


def test_three_passes_reading_the_same_turns_and_a_skipped_cycle_count_each_use_once(root: Path) -> None:
    config = deployment(root)
    path = write_session(root / "projects" / "-srv-project", two_turns())
    more = [
        prompt(10, "Triage the new issues."),
        tool_use(11, "Read", {"file_path": "/srv/project/.claude/skills/triage/SKILL.md"}),
        answer(12, "Labelled."),
        prompt(13, "Release again."),
        tool_use(14, "Skill", {"skill": "release"}),
        answer(15, "Released."),
    ]
    append(path, more)
    first = once(config)  # four turns and no model: every model pass skipped, offsets kept
    assert {p["status"] for p in first["passes"] if p["name"] in ("distillation", "skill_learning")} == {"skipped"}
    once(config)  # the same turns read again by every pass
    assert {k: v[0] for k, v in uses(config).items()} == {"release": 2, "triage": 1, "web-research": 0}
    state = json.loads((root / "state" / "agents" / "ada" / "usage.json").read_text())
    assert state["sources"][f"{SESSION}.jsonl"]["through"] == path.stat().st_size
    assert state["sessions_seen"] == 1


def test_a_dry_run_records_nothing(root: Path) -> None:
    config = deployment(root)
    write_session(root / "projects" / "-srv-project", two_turns())
    once(config, "--dry-run")
    assert not (root / "state" / "agents" / "ada" / "usage.json").exists()
    assert headline(config)["sessions_read"] == 0


def test_undo_leaves_the_usage_as_it_is_and_the_next_run_counts_nothing_again(root: Path) -> None:
    config = deployment(root, autonomy="review")
    home = root / "ada"
    (home / "memory").mkdir(parents=True)
    for day in ("2026-11-20", "2026-11-21", "2026-11-22"):
        (home / "memory" / f"{day}.md").write_text(f"# {day}\n\n- Reminder: the export lives at exports/t.csv.\n")
    write_session(root / "projects" / "-srv-project", two_turns())
    run_id = once(config)["run_id"]
    assert run_id, "the run committed nothing to undo"
    before = uses(config)
    undone = run_cli(config, "undo", run_id, clock=clock)
    assert undone.code == 0, undone.err
    assert uses(config) == before
    once(config)
    assert uses(config) == before and headline(config)["hook_deliveries"] == 1


def test_skills_list_shows_uses_and_last_use(root: Path) -> None:
    config = deployment(root)
    write_session(root / "projects" / "-srv-project", two_turns())
    once(config)
    lines = run_cli(config, "skills", "list", "--agent", "ada").out.splitlines()
    assert lines[0].split() == ["NAME", "SOURCE", "STATUS", "STATE", "WRITTEN", "BY", "USES", "LAST", "USE", "PATH"]
    release = next(line.split() for line in lines if line.startswith("release"))
    assert release[:8] == ["release", "pack", "active", "kept", "upstream", "1", "2026-11-05", "09:02"]
    triage = next(line.split() for line in lines if line.startswith("triage"))
    assert triage[5:7] == ["0", "never"]


def test_status_prints_the_usage_headline(root: Path) -> None:
    config = deployment(root)
    write_session(root / "projects" / "-srv-project", two_turns())
    once(config)
    out = run_cli(config, "status", "--agent", "ada", clock=clock).out
    assert (
        "  usage: 1 of 3 skill(s) used (2 never), 1 opening(s); facts view read 1 time(s); "
        "hook context given 1 time(s); 1 session(s) read"
    ) in out.splitlines()


def test_a_damaged_usage_record_never_stops_a_run_or_the_skill_list(root: Path) -> None:
    config = deployment(root)
    write_session(root / "projects" / "-srv-project", two_turns())
    record = root / "state" / "agents" / "ada" / "usage.json"
    record.parent.mkdir(parents=True)
    record.write_text("{not json")
    data = once(config)
    assert any("usage signals not recorded" in note for note in data.get("notes", [])), data
    listed = run_cli(config, "skills", "list", "--agent", "ada", "--json")
    assert listed.code == 0 and {r["uses"] for r in listed.json()} == {0}
    assert "warning: uses not shown:" in listed.err and "usage.json" in listed.err
    status = run_cli(config, "status", "--agent", "ada", "--json", clock=clock)
    assert status.json()["agents"][0]["usage"] is None and "usage.json" in status.err
