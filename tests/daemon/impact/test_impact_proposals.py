"""`impact` links an item to the instruction proposal made from its turn, with its fate, and
counts the proposal's approval as its delivery (daemon/impact/review_links.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.daemon.impact.test_impact_cli import SAID, first_session, later_sessions
from tests.support.deploy import run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.runs import OTHER_PASSES, setup_agent
from tests.workspace.ada import turn_id

ANCHOR = "- Be brief."
ADDED = "- Use pnpm for JavaScript dependencies, never npm."


def review_deployment(root: Path, fake_model: FakeModelServer) -> tuple[Path, str]:
    """The correction of `test_impact_cli`, an instruction proposal citing its turn, then the
    later sessions (one says it again); returns the config and the proposal's id."""
    passes = {name: name == "instruction_review" for name in (*OTHER_PASSES, "distillation")}
    config = setup_agent(root, fake_model, passes=passes)
    first_session(root)
    proposal = {
        "file": "AGENTS.md",
        "title": "Use pnpm, not npm",
        "rationale": "The user corrected the package manager.",
        "evidence": [{"turn": turn_id(root / "ada", SAID), "quote": SAID}],
        "edits": [{"old": ANCHOR, "new": f"{ANCHOR}\n{ADDED}"}],
    }
    fake_model.reply({"proposals": [proposal]}, schema="InstructionReviewResponse")
    result = run_cli(config, "once", "--agent", "ada", "--pass", "instruction_review", "--json")
    assert result.code == 0, result.err
    (entry,) = [p for p in result.json()["passes"] if p["name"] == "instruction_review"]
    (pid,) = entry["proposals"]
    later_sessions(root)
    return config, pid


def impact(config: Path) -> dict[str, Any]:
    result = run_cli(config, "impact", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    (item,) = result.json()["items"]
    return dict(item)


def test_impact_links_the_instruction_proposal_citing_the_turn_open_then_approved_and_delivered(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, pid = review_deployment(root, fake_model)
    item = impact(config)
    (link,) = item["learned_proposals"]
    assert (link["id"], link["kind"], link["linked_by"], link["status"]) == (pid, "instruction", "cited", "open")
    assert link["decided_at"] is None and link["delivered_at"] is None
    # proposed, not yet in the instructions: nothing of it reached the agent, nor was learned
    assert item["delivered_at"] is None and item["never_learned"] is True
    assert f"  proposal: {pid} (instruction, cites this turn): open" in run_cli(config, "impact", "--agent", "ada").out

    approved = run_cli(config, "review", "approve", pid, "--by", "jonas", "--json")
    assert approved.code == 0, approved.err
    run_id = approved.json()["run_id"]
    item = impact(config)
    (link,) = item["learned_proposals"]
    assert (link["status"], link["decided_by"], link["decided_by_run"]) == ("approved", "jonas", run_id)
    assert link["decided_at"] is not None and link["delivered_at"] == link["decided_at"]
    assert item["delivered_at"] == link["decided_at"] and item["delivered_by"] == "instruction_approved"
    assert item["never_learned"] is False
    # approved today, after the person said it again in November: said again before delivery
    assert [r["after_delivery"] for r in item["recurrences"]] == [False]
    out = run_cli(config, "impact", "--agent", "ada").out
    assert f"  proposal: {pid} (instruction, cites this turn): approved {link['decided_at']} by jonas in run {run_id}" in out
    assert f"  delivered: {link['decided_at']} (instruction_approved)" in out


def test_a_rejected_proposal_is_linked_with_its_fate_and_delivers_nothing(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, pid = review_deployment(root, fake_model)
    assert run_cli(config, "review", "reject", pid, "--by", "jonas").code == 0
    item = impact(config)
    (link,) = item["learned_proposals"]
    assert (link["status"], link["decided_by"], link["delivered_at"]) == ("rejected", "jonas", None)
    assert item["delivered_at"] is None and item["never_learned"] is True
