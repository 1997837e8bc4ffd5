"""Adoption: a lab selection becomes a review proposal; approval is an undoable run."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tests.daemon.lab.test_campaign import SCHEMA, decision
from tests.support.deploy import base_config, run_cli, tree_snapshot, write_config
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # lab grids and campaigns run to a proposal, approved, undone

BASELINE = {
    "min_confidence": 0.7,
    "filter_entity": False,
    "time_aware": False,
    "deduplicate": False,
    "top_k": 3,
}
BEST = {"min_confidence": 0.6, "filter_entity": True, "time_aware": True, "deduplicate": True, "top_k": 3}


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def deployment(root: Path, model_url: str | None, settings: dict[str, Any] | None = BASELINE) -> Path:
    config = base_config(root, model_url)
    if settings is not None:
        config["agents"]["ada"]["memory"] = {"settings": settings}
    return write_config(root, config)


def memory_settings(config: Path, clock: Clock) -> tuple[dict[str, Any], str]:
    listing = run_cli(config, "memory", "list", "--agent", "ada", "--json", clock=clock)
    assert listing.code == 0, listing.err
    return listing.json()["settings"], listing.json()["settings_origin"]


def test_propose_then_approve_changes_the_settings_and_undo_reverts_them(root: Path, clock: Clock) -> None:
    config = deployment(root, None)
    proposed = run_cli(
        config, "lab", "propose", "--agent", "ada", "--scenarios", "builtin:published", "--json", clock=clock
    )
    assert proposed.code == 0, proposed.err
    doc = proposed.json()
    proposal_id = doc["proposal"]
    assert proposal_id and doc["run_id"]
    assert doc["settings"] == BEST, "the tied best with the fewest changes keeps top_k 3"
    assert memory_settings(config, clock) == (BASELINE, "config"), "a proposal changes nothing"

    queue = run_cli(config, "review", "list", "--agent", "ada", "--json", clock=clock).json()
    assert [(p["id"], p["kind"], p["status"]) for p in queue] == [(proposal_id, "memory-settings", "open")]
    shown = run_cli(config, "review", "show", proposal_id, "--json", clock=clock).json()
    assert "13/20" in shown["rationale"] and "20/20" in shown["rationale"]
    assert any("future-move" in item for item in shown["evidence"])
    runs = run_cli(config, "runs", "--agent", "ada", "--json", clock=clock).json()
    assert runs[0]["run_id"] == doc["run_id"] and runs[0]["passes"] == ["lab-propose"]

    approved = run_cli(config, "review", "approve", proposal_id, "--json", clock=clock)
    assert approved.code == 0, approved.err
    settings, origin = memory_settings(config, clock)
    assert settings == BEST and proposal_id in origin

    undone = run_cli(config, "undo", approved.json()["run_id"], "--json", clock=clock)
    assert undone.code == 0, undone.err
    assert memory_settings(config, clock) == (BASELINE, "config")

    again = run_cli(
        config, "lab", "propose", "--agent", "ada", "--scenarios", "builtin:published", "--json", clock=clock
    )
    assert again.code == 0 and again.json()["proposal"] is None
    assert f"already proposed and still open: {proposal_id}" in again.json()["reason"]


def test_nothing_is_proposed_when_the_current_settings_already_score_best(root: Path, clock: Clock) -> None:
    config = deployment(root, None, settings=None)  # the daemon's default settings
    before = tree_snapshot(root / "ada")
    result = run_cli(
        config, "lab", "propose", "--agent", "ada", "--scenarios", "builtin:published", clock=clock
    )
    assert result.code == 0, result.err
    assert result.out.startswith("nothing to propose")
    assert tree_snapshot(root / "ada") == before


def test_propose_from_a_verified_grid_ledger_and_refuse_a_tampered_one(root: Path, clock: Clock) -> None:
    config = deployment(root, None)
    ledger = root / "grid"
    assert (
        run_cli(config, "lab", "grid", "--scenarios", "builtin:published", "--output", str(ledger)).code == 0
    )
    grid_doc = ledger / "grid.json"
    original = grid_doc.read_bytes()
    grid_doc.write_bytes(original + b" ")
    refused = run_cli(config, "lab", "propose", "--agent", "ada", "--ledger", str(ledger), clock=clock)
    assert refused.code == 1 and "does not verify" in refused.err
    grid_doc.write_bytes(original)
    result = run_cli(
        config, "lab", "propose", "--agent", "ada", "--ledger", str(ledger), "--json", clock=clock
    )
    assert result.code == 0, result.err
    assert result.json()["settings"] == {**BEST, "top_k": 1}, "a ledger's selection is proposed as recorded"
    shown = run_cli(config, "review", "show", result.json()["proposal"], "--json", clock=clock).json()
    assert f"ledger {ledger}" in shown["evidence"]


def test_a_campaign_for_an_agent_starts_from_its_settings_and_ends_in_a_review_proposal(
    root: Path, clock: Clock, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model.url)
    fake_model.reply(decision({"filter_entity": True, "time_aware": True}), schema=SCHEMA)
    fake_model.reply(decision({"min_confidence": 0.6}, (("useful-low-confidence", 1),)), schema=SCHEMA)
    fake_model.reply(decision({}, cites=(("duplicate-confirmation", 1),), action="stop"), schema=SCHEMA)
    out = root / "study"
    result = run_cli(
        config,
        "lab",
        "campaign",
        "--live",
        "--agent",
        "ada",
        "--campaigns",
        "1",
        "--scenarios",
        "builtin:published",
        "--output",
        str(out),
        "--json",
        clock=clock,
    )
    assert result.code == 0, result.err
    doc = result.json()
    assert doc["campaigns"][0]["status"] == "agent_stopped"
    assert doc["proposal"]["proposal"], doc["proposal"]
    assert doc["proposal"]["settings"] == {**BEST, "deduplicate": False}
    ledger = json.loads((out / "ledger.json").read_text())
    assert ledger["plan"]["start_label"] == "current" and ledger["plan"]["start"] == BASELINE
    spend = "".join(p.read_text() for p in (root / "state" / "spend").iterdir())
    assert '"agent": "ada"' in spend
    assert memory_settings(config, clock) == (BASELINE, "config")


def test_a_busy_agent_leaves_the_sealed_ledger_and_says_no_proposal_was_written(
    root: Path, clock: Clock, fake_model: FakeModelServer
) -> None:
    from filelock import FileLock

    config = deployment(root, fake_model.url)
    fake_model.reply(decision({"filter_entity": True, "time_aware": True}), schema=SCHEMA)
    out = root / "study"
    lock_path = root / "state" / "agents" / "ada" / "run.lock"
    lock_path.parent.mkdir(parents=True)
    with FileLock(str(lock_path)):
        result = run_cli(
            config,
            "lab",
            "campaign",
            "--live",
            "--agent",
            "ada",
            "--campaigns",
            "1",
            "--iterations",
            "1",
            "--scenarios",
            "builtin:published",
            "--output",
            str(out),
            clock=clock,
        )
    assert result.code == 1
    assert "no proposal written: agent 'ada' is busy" in result.out
    assert run_cli(config, "lab", "verify", str(out)).code == 0
    adopted = run_cli(config, "lab", "propose", "--agent", "ada", "--ledger", str(out), "--json", clock=clock)
    assert adopted.code == 0 and adopted.json()["proposal"]
