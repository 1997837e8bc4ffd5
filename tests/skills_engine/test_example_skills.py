"""The example deployment end to end, with the fake model answering as a deep model would."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.skills_engine.builders import candidate, clock, pass_entry
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # the example deployment end to end

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def copy_example(root: Path, url: str) -> Path:
    target = root / "demo"
    shutil.copytree(EXAMPLES, target, ignore=shutil.ignore_patterns("state"))
    config = target / "config.yaml"
    data = yaml.safe_load(config.read_text())
    data["model"].update(base_url=url, api_key_env="TEST_API_KEY")
    config.write_text(yaml.safe_dump(data, sort_keys=False))
    return config


def once(config: Path, hours: int = 0) -> dict[str, Any]:
    result = run_cli(config, "once", "--agent", "ada", "--json", clock=clock(hours))
    assert result.code == 0, result.err
    data: dict[str, Any] = result.json()
    return data


WEEKLY = candidate(
    "create",
    "weekly-ops-report",
    cites=["T2", "T3", "T7", "T15"],  # the turns that walk through the report
    description="Build the weekly support ops report from the ticket export and post it to #ops.",
    trigger="When Jonas asks for the weekly ops report",
    steps=[
        "Read exports/tickets.csv",
        "Count tickets by priority",
        "Compare with reports/last-week.json and flag growth over 20%",
        "Add the median time to resolution per priority",
        "Post to #ops as bullet points",
        "End with who is on call next week",
    ],
)
POSTMORTEM = candidate(
    "update",
    "incident-postmortem",
    cites=["T12"],  # "every postmortem needs a 'Customer impact' section with affected accounts and duration"
    steps=["Add a Customer impact section with affected accounts and duration"],
    file_additions=[
        {"path": "templates/postmortem.md", "text": "## Customer impact\nAffected accounts:\nDuration:\n"}
    ],
)
VENDOR = {
    "duplicates": True,
    "reason": "both write vendor emails in German",
    "name": "vendor-email",
    "description": "Write an email to a vendor in German (plan, delivery or any other change).",
    "trigger": "When Jonas asks to write to a vendor",
    "sections": [],
    "steps": [
        "Write the email in German",
        "Address the vendor's account manager by name",
        "Mention the current plan (Pro) when it matters",
        "Copy Jonas on the email",
        "Keep it under 150 words",
    ],
}


def test_example_learns_forks_merges_duplicates_and_absorbs_an_upstream_update(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = copy_example(root, fake_model.url)
    demo = config.parent
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    fake_model.reply(
        {"candidates": [WEEKLY, POSTMORTEM, candidate("skip", "web-research")]}, schema="ScoutResponse"
    )
    fake_model.reply(VENDOR, schema="CanonicalSkill")
    first = once(config)
    scout = pass_entry(first, "skill_learning")
    assert [(c["name"], c["outcome"]) for c in scout["candidates"]] == [
        ("weekly-ops-report", "created"),
        ("incident-postmortem", "forked"),
        ("web-research", "skipped"),
    ]
    library = pass_entry(first, "library_maintenance")
    assert [d["outcome"] for d in library["duplicates"]] == ["merged", "merged"]
    rows = {
        (r["name"], r["source"]): r
        for r in run_cli(config, "skills", "list", "--agent", "ada", "--json").json()
    }
    assert rows[("incident-postmortem", "learned")]["shadows"] == str(
        demo / "packs/ops-pack/incident-postmortem"
    )
    assert rows[("incident-postmortem", "pack")]["status"] == "shadowed"
    assert rows[("weekly-ops-report", "learned")]["machine_written"] is True
    assert {name for name, source in rows if source == "learned"} == {
        "incident-postmortem",
        "weekly-ops-report",
        "vendor-email",
        "on-call-lookup",
    }
    # The vendor updates the pack: the next run merges it into the fork and keeps the agent's improvement.
    pack = demo / "packs/ops-pack/incident-postmortem/SKILL.md"
    pack.write_text(
        pack.read_text().replace(
            "Keep it blameless: describe systems and decisions, not people.",
            "Keep it blameless: describe systems and decisions, not people.\n"
            "Link the incident ticket at the top of the document.",
        )
    )
    assert rows[("incident-postmortem", "learned")]["status"] == "active"
    second = once(config, hours=1)
    merge = pass_entry(second, "library_maintenance")["upstream_merges"]
    assert merge[0]["outcome"] == "merged" and merge[0]["rules"]["SKILL.md"] == "text-merged"
    fork = (demo / "ada/skills/incident-postmortem/SKILL.md").read_text()
    assert "5. Add a Customer impact section with affected accounts and duration" in fork
    assert "Link the incident ticket at the top of the document." in fork
    third = once(config, hours=2)
    assert pass_entry(third, "library_maintenance")["upstream_merges"] == []
