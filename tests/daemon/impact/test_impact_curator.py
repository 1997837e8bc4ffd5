"""A learned skill whose corrections keep coming back after it was opened is stale: the
curator reads what the last `impact` wrote (skills_engine/lifecycle.py, skills_engine/impact_record.py)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.daemon.impact.skill_fixture import SKILL, opened, said_again, said_ref, write_skill
from tests.daemon.impact.test_impact_cli import deployment
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer

REASON = "its corrections keep coming back after it was used (impact)"


def skill_said_again_twice(root: Path, fake_model: FakeModelServer, machine: bool = True) -> Path:
    config = deployment(root, fake_model)
    write_skill(root / "ada", cites=(said_ref(config),), description="Install dependencies with pnpm.", machine=machine)
    opened(root / "ada", "s2b.jsonl", "2026-11-12")
    said_again(root / "ada", "s4.jsonl", "2026-11-24", "Again: pnpm, not npm!")
    return config


def place(config: Path) -> dict[str, object]:
    dry = run_cli(config, "curator", "--agent", "ada", "--dry-run", "--json")
    assert dry.code == 0, dry.err
    (row,) = [r for r in dry.json()["skills"] if r["name"] == SKILL]
    return row


def test_impact_writes_the_skill_record_and_the_curator_finds_the_skill_stale(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skill_said_again_twice(root, fake_model)
    assert place(config)["state"] == "active"  # no impact computed yet
    assert run_cli(config, "impact", "--agent", "ada", "--json").code == 0
    record = json.loads((root / "state" / "agents" / "ada" / "impact-skills.json").read_text(encoding="utf-8"))
    assert record["version"] == 1 and record["skills"][SKILL]["recurrences_after_delivery"] == 2
    row = place(config)
    assert row["state"] == "stale" and str(row["why"]).startswith(REASON)
    text = run_cli(config, "curator", "--agent", "ada", "--dry-run").out
    assert REASON in text
    listed = run_cli(config, "skills", "list", "--agent", "ada").out
    assert f"{SKILL}: stale — {REASON}" in listed
    # status and the console's Skills page read the same record: they never disagree with the curator
    (agent,) = run_cli(config, "status", "--json").json()["agents"]
    assert SKILL in agent["library"]["stale_skills"]
    from tests.daemon.doors.console.helpers import client

    page = client(config).get("/skills?agent=ada").text
    assert REASON in page


def test_impact_since_does_not_write_the_skill_record(root: Path, fake_model: FakeModelServer) -> None:
    config = skill_said_again_twice(root, fake_model)
    assert run_cli(config, "impact", "--agent", "ada", "--since", "2026-11-20").code == 0
    assert not (root / "state" / "agents" / "ada" / "impact-skills.json").exists()


def test_the_curator_ignores_an_old_impact_record(root: Path, fake_model: FakeModelServer) -> None:
    config = skill_said_again_twice(root, fake_model)
    assert run_cli(config, "impact", "--agent", "ada").code == 0
    path = root / "state" / "agents" / "ada" / "impact-skills.json"
    record = json.loads(path.read_text(encoding="utf-8"))
    record["computed_at"] = (datetime.now(UTC) - timedelta(days=15)).isoformat(timespec="seconds")
    path.write_text(json.dumps(record), encoding="utf-8")
    assert place(config)["state"] == "active"


def test_a_pinned_or_hand_written_skill_is_never_made_stale_by_impact(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skill_said_again_twice(root, fake_model, machine=False)
    assert run_cli(config, "impact", "--agent", "ada").code == 0
    assert place(config)["state"] == "kept"
    (root / "ada" / "skills" / f"{SKILL}.provenance.json").write_text(
        json.dumps({"version": 1, "name": SKILL, "kind": "created", "created_at": "2026-11-02T12:00:00+00:00"}),
        encoding="utf-8",
    )
    assert place(config)["state"] == "stale"
    assert run_cli(config, "skills", "pin", SKILL, "--agent", "ada").code == 0
    assert place(config)["state"] == "pinned"
