"""`lab verify` rebuilds ledger.json's summaries from the re-runs; `propose --ledger` acts only on those.

Each forgery below edits a summary in ledger.json and recomputes every hash, as a careful
forger would: only the rebuilt claims can catch it, and nothing may be proposed from it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from daemon.lab.experiment_ledger import MANIFEST
from tests.daemon.lab.test_adopt import BASELINE, BEST, Clock, deployment
from tests.daemon.lab.test_campaign import SCHEMA, decision
from tests.daemon.lab.test_ledger import reseal
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer

PUBLISHED = ("--scenarios", "builtin:published")


def forge(ledger: Path, edit: Any) -> None:
    doc = json.loads((ledger / "ledger.json").read_text())
    edit(doc)
    (ledger / "ledger.json").write_text(json.dumps(doc, indent=1), encoding="utf-8")
    reseal(ledger)


def assert_refused(config: Path, ledger: Path, root: Path, clock: Clock, problem: str) -> None:
    """verify names the forged field with both values; propose refuses and writes nothing."""
    check = run_cli(config, "lab", "verify", str(ledger), "--json")
    assert check.code == 1, check.out
    assert problem in check.json()["problems"], check.json()["problems"]
    before = tree_snapshot(root)
    refused = run_cli(config, "lab", "propose", "--agent", "ada", "--ledger", str(ledger), clock=clock)
    assert refused.code == 1 and "does not verify" in refused.err, refused.err
    assert refused.out == ""
    assert tree_snapshot(root) == before
    queue = run_cli(config, "review", "list", "--agent", "ada", "--json", clock=clock)
    assert queue.code == 0 and queue.json() == []


@pytest.mark.slow
def test_a_grid_ledger_with_a_forged_best_is_refused_by_verify_and_propose(root: Path) -> None:
    clock = Clock()
    config = deployment(root, None)
    ledger = root / "grid"
    assert run_cli(config, "lab", "grid", *PUBLISHED, "--output", str(ledger)).code == 0

    def other_best(doc: dict[str, Any]) -> None:  # another 20/20 configuration, 1.75 stored
        doc["best"]["settings"] = {**BEST, "deduplicate": False, "top_k": 1}

    forge(ledger, other_best)
    assert_refused(
        config,
        ledger,
        root,
        clock,
        "ledger.json: best.settings.deduplicate is false but the re-run gives true",
    )


@pytest.mark.slow
def test_a_grid_ledger_without_its_grid_is_refused(root: Path) -> None:
    clock = Clock()
    config = deployment(root, None)
    ledger = root / "grid"
    assert run_cli(config, "lab", "grid", *PUBLISHED, "--output", str(ledger)).code == 0
    (ledger / "grid.json").unlink()
    manifest = json.loads((ledger / MANIFEST).read_text())
    manifest["files"] = [f for f in manifest["files"] if f["path"] != "grid.json"]
    (ledger / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    assert_refused(
        config, ledger, root, clock, "grid.json: missing; a grid ledger is checked against its re-run"
    )


def test_an_evaluate_ledger_with_forged_scores_is_refused_by_verify_and_propose(
    root: Path, tmp_path: Path
) -> None:
    clock = Clock()
    config = deployment(root, None)
    candidate = tmp_path / "c.json"
    candidate.write_text(json.dumps({"filter_entity": True, "time_aware": True}), encoding="utf-8")
    ledger = root / "eval"
    made = run_cli(config, "lab", "evaluate", str(candidate), *PUBLISHED, "--output", str(ledger))
    assert made.code == 0, made.err

    def claim_the_best(doc: dict[str, Any]) -> None:
        doc["evaluation"]["settings"] = BEST
        doc["evaluation"]["passed"] = 20

    forge(ledger, claim_the_best)
    assert_refused(
        config,
        ledger,
        root,
        clock,
        "ledger.json: evaluation.settings.min_confidence is 0.6 but the re-run gives 0.7",
    )
    check = run_cli(config, "lab", "verify", str(ledger), "--json").json()
    assert "ledger.json: evaluation.passed is 20 but the re-run gives 19" in check["problems"]


@pytest.mark.slow
def test_a_campaign_ledger_with_a_forged_selection_is_refused_by_verify_and_propose(
    root: Path, fake_model: FakeModelServer
) -> None:
    clock = Clock()
    config = deployment(root, fake_model.url)
    fake_model.reply(decision({"filter_entity": True, "time_aware": True}), schema=SCHEMA)
    fake_model.reply(decision({}, cites=(("duplicate-confirmation", 1),), action="stop"), schema=SCHEMA)
    ledger = root / "study"
    made = run_cli(
        config, "lab", "campaign", "--live", "--campaigns", "1", *PUBLISHED, "--output", str(ledger), "--json"
    )
    assert made.code == 0, made.err + made.out
    selected = made.json()["selected"]["settings"]
    assert selected == {**BASELINE, "filter_entity": True, "time_aware": True}
    assert run_cli(config, "lab", "verify", str(ledger)).code == 0

    def claim_the_best(doc: dict[str, Any]) -> None:
        doc["selected"]["settings"] = BEST

    forge(ledger, claim_the_best)
    assert_refused(
        config,
        ledger,
        root,
        clock,
        "ledger.json: selected.settings.min_confidence is 0.6 but the re-run gives 0.7",
    )


@pytest.mark.slow
def test_a_campaign_ledger_with_a_forged_chain_of_parents_is_refused(
    root: Path, fake_model: FakeModelServer
) -> None:
    """A rejected candidate passed off as the final parent: result, summary and selection all forged."""
    clock = Clock()
    config = deployment(root, fake_model.url)
    fake_model.reply(decision({"filter_entity": True, "time_aware": True}), schema=SCHEMA)
    fake_model.reply(decision({"min_confidence": 0.2}, (("useful-low-confidence", 1),)), schema=SCHEMA)
    ledger = root / "study"
    made = run_cli(
        config,
        "lab",
        "campaign",
        "--live",
        "--campaigns",
        "1",
        "--iterations",
        "2",
        *PUBLISHED,
        "--output",
        str(ledger),
    )
    assert made.code == 0, made.err + made.out
    rejected = ledger / "campaign-01/iteration-02"
    result = json.loads((rejected / "result.json").read_text())
    assert not result["selected"]
    forged_settings = json.loads((rejected / "candidate.json").read_text())["settings"]

    def promote(doc: dict[str, Any]) -> None:
        doc["campaigns"][0]["final_parent"].update(
            id="agent-02", folder="campaign-01/iteration-02/evaluation", settings=forged_settings
        )
        doc["selected"].update(
            candidate_id="agent-02",
            evaluation="campaign-01/iteration-02/evaluation",
            settings=forged_settings,
        )

    forge(ledger, promote)
    check = run_cli(config, "lab", "verify", str(ledger), "--json")
    assert check.code == 1
    problems = check.json()["problems"]
    assert (
        'ledger.json: campaigns[campaign=1].final_parent.id is "agent-02" but the re-run gives "agent-01"'
        in problems
    )
    assert 'ledger.json: selected.candidate_id is "agent-02" but the re-run gives "agent-01"' in problems
    before = tree_snapshot(root)
    refused = run_cli(config, "lab", "propose", "--agent", "ada", "--ledger", str(ledger), clock=clock)
    assert refused.code == 1 and "does not verify" in refused.err
    assert tree_snapshot(root) == before
