"""Learned skills published where Claude Code discovers them (`skills.learned: .claude/skills`)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import yaml

from tests.skills_engine.builders import candidate, clock, pass_entry
from tests.support.deploy import TEST_KEY, run_cli
from tests.support.fake_model import FakeModelServer

EXAMPLES = Path(__file__).parents[2] / "examples" / "runtimes"


def test_a_learned_skill_lands_in_claude_skills_with_provenance_and_undo(
    root: Path, fake_model: FakeModelServer
) -> None:
    target = root / "claude-code"
    shutil.copytree(EXAMPLES / "claude-code", target, ignore=shutil.ignore_patterns("state"))
    for path in target.rglob("*.jsonl"):
        os.utime(path, (1_700_000_000, 1_700_000_000))
    config = target / "config.yaml"
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
    raw["agents"]["coder"]["skills"] = {"learned": ".claude/skills"}
    config.write_text(yaml.safe_dump(raw, sort_keys=False))
    fake_model.reply(
        {
            "candidates": [
                candidate(
                    "create",
                    "billing-release",
                    description="Deploy the billing service. Use when releasing billing.",
                    trigger="When deploying the billing service",
                    steps=["Deploy the billing service with make release, not the old fab script"],
                    cites=["T1"],
                )
            ]
        },
        schema="ScoutResponse",
    )
    result = run_cli(
        config,
        "once",
        "--agent",
        "coder",
        "--json",
        "--pass",
        "skill_learning",
        env={"TEST_API_KEY": TEST_KEY},
        clock=clock(),
    )
    assert result.code == 0, result.err
    entry = pass_entry(result.json(), "skill_learning")
    assert [(c["name"], c["outcome"]) for c in entry["candidates"]] == [("billing-release", "created")]
    skill = target / "home" / ".claude" / "skills" / "billing-release" / "SKILL.md"
    assert "name: billing-release" in skill.read_text()
    sidecar = json.loads(
        (target / "home" / ".claude" / "skills" / "billing-release.provenance.json").read_text()
    )
    assert sidecar["machine_written"] is True
    assert sidecar["history"][0]["cites"][0].startswith("5f0c1a2e-1111-4a4a-8b8b-000000000001.jsonl@")
    listed = run_cli(config, "skills", "list", "--agent", "coder", "--json")
    assert [(s["name"], s["source"]) for s in listed.json()] == [
        ("billing-release", "learned"), ("run-tests", "learned")  # the example's own skill, a person's
    ]
    assert run_cli(config, "undo", result.json()["run_id"]).code == 0
    assert not skill.exists()
