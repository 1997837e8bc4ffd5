"""Done-when of issue 6, on the example deployment: `once --agent ada` consolidates without
losing a unit and writes a grounded instruction proposal; everything instruction-related waits."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer
from tests.workspace.ada import (
    EXAMPLES,
    MEMORY_NEW,
    SOUL_NEW,
    USER_NEW,
    clock,
    consolidation_answer,
    copy_example,
    on_call_proposal,
)

pytestmark = pytest.mark.slow  # the example deployment end to end


def test_once_on_the_example_consolidates_without_loss_and_proposes_instruction_changes(
    tmp_path: Path, fake_model: FakeModelServer
) -> None:
    config = copy_example(tmp_path, fake_model.url)
    home = config.parent / "ada"
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    fake_model.reply(consolidation_answer(), schema="ConsolidationResponse")
    fake_model.reply({"proposals": [on_call_proposal(home)]}, schema="InstructionReviewResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json", clock=clock)

    assert result.code == 0, result.err
    passes = {p["name"]: p for p in result.json()["passes"]}
    consolidation = passes["workspace_consolidation"]
    assert consolidation["status"] == "applied"
    assert consolidation["lost_units"] == [] and consolidation["added_units"] == []
    assert consolidation["units_before"] == 31 and consolidation["units_after"] == 26
    assert consolidation["rewrite"] == "partly applied"
    # Lossless tidy-ups applied directly...
    assert (home / "SOUL.md").read_text() == SOUL_NEW
    assert (home / "USER.md").read_text() == USER_NEW
    assert (home / "MEMORY.md").read_text() == MEMORY_NEW
    logs = "".join(p.read_text() for p in sorted((home / "memory").glob("*.md")))
    assert logs.count("Reminder: the ticket export lives at exports/tickets.csv.") == 1
    # ...instruction files untouched (the hold is on in the example).
    for name in ("AGENTS.md", "TOOLS.md"):
        assert (home / name).read_bytes() == (EXAMPLES / "ada" / name).read_bytes()

    queue = run_cli(config, "review", "list", "--agent", "ada", "--json", clock=clock).json()
    assert sorted(p["kind"] for p in queue) == ["consolidation", "contradiction", "instruction"]
    assert {p["status"] for p in queue} == {"open"}
    instruction = next(p for p in queue if p["kind"] == "instruction")
    shown = run_cli(config, "review", "show", instruction["id"], "--json", clock=clock).json()
    assert shown["target"] == "AGENTS.md"
    assert "+- End the weekly report with who is on call next week." in shown["diff"]
    assert shown["diff"].startswith("--- a/AGENTS.md\n+++ b/AGENTS.md\n")
    assert shown["evidence"][0].startswith("transcripts/2026-11-23-weekly-report.jsonl@")
    assert "(user, 2026-11-23T09:04:00Z)" in shown["evidence"][0]
    assert shown["rationale"]

    contradiction = next(p for p in queue if p["kind"] == "contradiction")
    shown = run_cli(config, "review", "show", contradiction["id"], "--json", clock=clock).json()
    assert shown["evidence"] == [
        "AGENTS.md:4: - Post the weekly ops report in #ops.",
        "TOOLS.md:5: - Post reports to #ops-reports.",
    ]
