"""A scripted proposer over the local OpenAI-compatible test server, through the real CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from daemon.kernel.memory_settings import SETTING_NAMES
from daemon.lab.verify import VerifyDocument
from tests.daemon.lab.test_ledger import reseal
from tests.support.deploy import TEST_KEY, base_config, run_cli, tree_snapshot, write_config
from tests.support.fake_model import FakeModelServer

SCHEMA = "MemorySettingsDecision"
PUBLISHED = ("--scenarios", "builtin:published")


def decision(
    patch: dict[str, Any],
    cites: tuple[tuple[str, int], ...] = (("entity-grounding", 3),),
    action: str = "propose",
) -> dict[str, Any]:
    full: dict[str, Any] = dict.fromkeys(SETTING_NAMES)
    full.update(patch)
    return {
        "observations": [{"scenario_id": s, "step": n, "observation": "see the trace"} for s, n in cites],
        "hypothesis": "the settings explain the failure",
        "predicted_effect": "more scenarios pass",
        "action": action,
        "patch": full,
    }


def stop() -> dict[str, Any]:
    return decision({}, cites=(), action="stop")


def context_of(request: dict[str, Any]) -> dict[str, Any]:
    return json.loads(request["messages"][1]["content"])


@pytest.fixture
def config(root: Path, fake_model: FakeModelServer) -> Path:
    return write_config(root, base_config(root, fake_model.url))


def campaign(config: Path, out: Path, *extra: str) -> Any:
    return run_cli(config, "lab", "campaign", "--live", *PUBLISHED, "--output", str(out), *extra)


@pytest.mark.slow
def test_scripted_campaign_feeds_back_keeps_the_parent_on_regression_and_verifies(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    fake_model.reply(decision({"filter_entity": True, "time_aware": True}), schema=SCHEMA)
    fake_model.reply(decision({"min_confidence": 0.2}, (("useful-low-confidence", 1),)), schema=SCHEMA)
    fake_model.reply(decision({"deduplicate": True}, (("duplicate-confirmation", 2),)), schema=SCHEMA)
    fake_model.reply(decision({"min_confidence": 0.6}, (("useful-low-confidence", 2),)), schema=SCHEMA)
    out = root / "study"
    result = campaign(config, out, "--campaigns", "1", "--iterations", "4", "--json")
    assert result.code == 0, result.err + result.out
    doc = result.json()
    assert doc["status"] == "completed" and doc["calls"] == 4
    assert doc["campaigns"][0]["status"] == "iteration_limit"
    assert doc["selected"]["settings"] == {
        "min_confidence": 0.6,
        "filter_entity": True,
        "time_aware": True,
        "deduplicate": True,
        "top_k": 3,
    }
    assert (doc["selected"]["passed"], doc["selected"]["mean_stored_records"]) == (20, 1.65)

    ledger = json.loads((out / "ledger.json").read_text())
    steps = ledger["campaigns"][0]["iterations"]
    assert [(s["passed"], s["mean_stored_records"], s["selected"]) for s in steps] == [
        (19, 1.7, True),
        (16, 1.95, False),
        (19, 1.6, True),
        (20, 1.65, True),
    ]
    regression = json.loads((out / "campaign-01/iteration-02/result.json").read_text())
    assert regression["next_parent_id"] == "agent-01" and not regression["selected"]

    second = context_of(fake_model.requests[1])
    assert second["parent_id"] == "agent-01"
    assert [t["id"] for t in second["tested"]] == ["baseline", "agent-01"]
    fed_back = second["previous_iterations"][0]
    assert fed_back["status"] == "evaluated" and fed_back["selected"] is True
    assert fed_back["feedback"]["passed"] == 19
    third = context_of(fake_model.requests[2])
    assert third["parent_id"] == "agent-01", "the regressing candidate did not become the parent"
    assert third["previous_iterations"][1]["feedback"]["recommendation"] == "recommend_reject"
    assert {e["scenario_id"] for e in third["evidence"]} >= {
        "useful-low-confidence",
        "duplicate-confirmation",
    }

    for name in ("request.json", "response.json", "validation.json", "candidate.json", "result.json"):
        assert (out / "campaign-01/iteration-04" / name).is_file()
    assert (out / "campaign-01/baseline/traces/future-move.json").is_file()
    check = run_cli(config, "lab", "verify", str(out), "--json")
    assert check.code == 0, check.out
    assert VerifyDocument.model_validate_json(check.out).model_dump(mode="json") == check.json()
    assert check.json()["validations_rechecked"] == 4 and check.json()["decisions_rechecked"] == 4
    assert TEST_KEY not in "".join(p.read_text() for p in out.rglob("*") if p.is_file())

    response = out / "campaign-01/iteration-02/response.json"
    forged = json.loads(response.read_text())
    forged["raw"] = forged["raw"].replace('"min_confidence": 0.2', '"min_confidence": 0.3')
    response.write_text(json.dumps(forged), encoding="utf-8")
    tampered = run_cli(config, "lab", "verify", str(out), "--json")
    assert tampered.code == 1
    assert "campaign-01/iteration-02/response.json: sha256 differs" in " ".join(tampered.json()["problems"])
    reseal(out)
    resealed = run_cli(config, "lab", "verify", str(out), "--json")
    assert resealed.code == 1
    assert resealed.json()["problems"] == [
        "campaign-01/iteration-02/validation.json: re-validating the recorded response gives a different verdict"
    ]


def test_an_unknown_reference_is_rejected_before_evaluation_and_fed_back(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    fake_model.reply(
        decision({"filter_entity": True}, (("entity-grounding", 99), ("agent-01", 1))), schema=SCHEMA
    )
    fake_model.reply(stop(), schema=SCHEMA)
    out = root / "study"
    result = campaign(config, out, "--campaigns", "1")
    assert result.code == 0, result.err
    first = out / "campaign-01/iteration-01"
    validation = json.loads((first / "validation.json").read_text())
    assert not validation["ok"]
    assert "agent-01:1, entity-grounding:99" in validation["error"]
    assert not (first / "evaluation").exists() and not (first / "candidate.json").exists()
    fed_back = context_of(fake_model.requests[1])["previous_iterations"][0]
    assert fed_back["status"] == "invalid_proposal"
    assert "entity-grounding:99" in fed_back["rejection"]
    assert json.loads(fed_back["rejected_output"])["patch"]["filter_entity"] is True
    ledger = json.loads((out / "ledger.json").read_text())
    assert ledger["campaigns"][0]["status"] == "agent_stopped"
    assert ledger["selected"] is None
    assert run_cli(config, "lab", "verify", str(out)).code == 0


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        (decision({"top_k": 20}), "patch.top_k"),
        (decision({"filter_entity": True, "time_aware": True, "deduplicate": True}), "1-2 settings, got 3"),
        (decision({"top_k": 3}), "no-op"),
        (decision({"min_confidence": 0.7, "top_k": 3}), "no-op"),
        (decision({"deduplicate": True}, action="stop"), "stop must carry an empty patch"),
        (decision({"deduplicate": True}, cites=()), "at least one observation"),
    ],
)
def test_invalid_decisions_are_rejected_with_their_error(
    config: Path, root: Path, fake_model: FakeModelServer, reply: dict[str, Any], error: str
) -> None:
    fake_model.reply(reply, schema=SCHEMA)
    out = root / "study"
    assert campaign(config, out, "--campaigns", "1", "--iterations", "1").code == 0
    validation = json.loads((out / "campaign-01/iteration-01/validation.json").read_text())
    assert not validation["ok"] and error in validation["error"]


def test_an_already_tested_configuration_is_rejected(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    fake_model.reply(decision({"deduplicate": True}), schema=SCHEMA)
    fake_model.reply(decision({"deduplicate": True, "filter_entity": True}), schema=SCHEMA)
    fake_model.reply(decision({"filter_entity": False}, (("historical-address", 1),)), schema=SCHEMA)
    out = root / "study"
    assert campaign(config, out, "--campaigns", "1", "--iterations", "3").code == 0
    third = json.loads((out / "campaign-01/iteration-03/validation.json").read_text())
    assert "already tested" in third["error"]


def test_a_response_that_breaks_the_schema_is_fed_back_and_the_campaign_goes_on(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    broken = decision({"deduplicate": True})
    del broken["patch"]["top_k"]
    fake_model.reply(broken, schema=SCHEMA)
    fake_model.reply(stop(), schema=SCHEMA)
    out = root / "study"
    assert campaign(config, out, "--campaigns", "1").code == 0
    fed_back = context_of(fake_model.requests[1])["previous_iterations"][0]
    assert fed_back["status"] == "invalid_proposal" and "patch.top_k" in fed_back["rejection"]


def test_budget_exhaustion_stops_the_campaign_before_a_call(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    out = root / "study"
    result = campaign(config, out, "--campaigns", "2", "--budget-usd", "0.001")
    assert result.code == 0, result.err
    assert fake_model.requests == []
    ledger = json.loads((out / "ledger.json").read_text())
    assert [c["status"] for c in ledger["campaigns"]] == ["budget_exhausted", "budget_exhausted"]
    assert "no call made" in ledger["campaigns"][0]["iterations"][0]["reason"]
    assert not (out / "campaign-01/iteration-01/request.json").exists()


def test_actual_cost_counts_toward_the_budget_so_the_second_call_does_not_fit(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    probe = root / "probe"
    assert campaign(config, probe, "--campaigns", "1", "--budget-usd", "0.000001").code == 0
    estimate = json.loads((probe / "ledger.json").read_text())["campaigns"][0]["iterations"][0][
        "estimate_usd"
    ]
    fake_model.reply(
        decision({"deduplicate": True}), schema=SCHEMA, prompt_tokens=2000, completion_tokens=500
    )
    out = root / "study"
    result = campaign(config, out, "--campaigns", "1", "--budget-usd", f"{estimate + 0.001:.6f}")
    assert result.code == 0, result.err
    assert len(fake_model.requests) == 1
    ledger = json.loads((out / "ledger.json").read_text())
    first, second = ledger["campaigns"][0]["iterations"]
    assert first["cost_usd"] == pytest.approx((2000 * 1.0 + 500 * 4.0) / 1e6)
    assert second["status"] == "budget_exhausted"
    assert ledger["spend"]["charged_or_reserved_usd"] == pytest.approx(0.004)


def test_a_provider_error_is_recorded_by_type_and_never_replaced_by_a_proposal(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    fake_model.reply(status=500, schema=SCHEMA)
    out = root / "study"
    result = campaign(config, out, "--campaigns", "3")
    assert result.code == 1
    ledger = json.loads((out / "ledger.json").read_text())
    assert ledger["status"] == "completed_with_errors"
    assert [c["status"] for c in ledger["campaigns"]] == ["provider_error", "not_started", "not_started"]
    step = ledger["campaigns"][0]["iterations"][0]
    assert step["error_type"] == "InternalServerError"
    assert step["reserved_usd"] > 0 and step["cost_usd"] is None
    folder = out / "campaign-01/iteration-01"
    assert sorted(p.name for p in folder.iterdir()) == ["request.json", "response.json"]
    assert ledger["selected"] is None
    text = "".join(p.read_text() for p in out.rglob("*") if p.is_file())
    assert "scripted failure" not in text
    spend = "".join(p.read_text() for p in (root / "state" / "spend").iterdir())
    assert '"kind": "reserve"' in spend and '"kind": "settle"' not in spend
    assert run_cli(config, "lab", "verify", str(out)).code == 0


def test_missing_usage_keeps_the_reservation_and_ends_the_campaign(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    fake_model.reply(decision({"deduplicate": True}), schema=SCHEMA, prompt_tokens=None)
    out = root / "study"
    result = campaign(config, out, "--campaigns", "1")
    assert result.code == 1
    ledger = json.loads((out / "ledger.json").read_text())
    assert ledger["campaigns"][0]["status"] == "usage_unavailable"
    step = ledger["campaigns"][0]["iterations"][0]
    assert step["status"] == "evaluated" and step["cost_usd"] is None
    assert ledger["spend"]["charged_or_reserved_usd"] == pytest.approx(step["reserved_usd"])


def test_without_live_the_campaign_refuses_even_with_a_key_and_touches_nothing(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    before = tree_snapshot(root)
    out = root / "study"
    result = run_cli(config, "lab", "campaign", "--output", str(out), env={"OPENAI_API_KEY": "sk-real"})
    assert result.code == 1
    assert "add --live" in result.err
    assert fake_model.requests == [] and not out.exists()
    assert tree_snapshot(root) == before


def test_bad_limits_and_a_missing_key_are_refused_before_the_output_folder_exists(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    out = root / "study"
    for args, message in (
        (("--campaigns", "9"), "--campaigns must be between 1 and 5"),
        (("--iterations", "0"), "--iterations must be between 1 and 4"),
        (("--budget-usd", "5"), "--budget-usd must be > 0 and <= 2"),
    ):
        result = campaign(config, out, *args)
        assert result.code == 1 and message in result.err
    no_key = run_cli(config, "lab", "campaign", "--live", "--output", str(out), env={"TEST_API_KEY": ""})
    assert no_key.code == 1 and "TEST_API_KEY" in no_key.err
    assert not out.exists() and fake_model.requests == []
