"""The deep tier: budgets and caps before calls, failures recorded, key never leaked."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml

from daemon.model.strict_schema import flat_schema
from memory_engine.distillation import DistillationResponse
from tests.skills_engine.builders import candidate
from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent


def distill(result: Any) -> dict[str, Any]:
    return next(p for p in result.json()["passes"] if p["name"] == "distillation")


def ledger_entries(root: Path) -> list[dict[str, Any]]:
    entries = []
    for path in sorted((root / "state" / "spend").glob("*.jsonl")):
        entries += [json.loads(line) for line in path.read_text().splitlines()]
    return entries


def consumed(root: Path) -> bool:
    path = root / "state" / "agents" / "ada" / "cursors.json"
    return path.exists() and "distillation" in json.loads(path.read_text())["consumers"]


def with_model(root: Path, fake_model: FakeModelServer, **model_changes: Any) -> Path:
    return setup_agent(root, fake_model, model_changes=model_changes)


def test_a_call_whose_reservation_does_not_fit_is_never_made(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model, budget={"daily_usd": 0.001, "per_agent_daily_usd": 0.001})
    result = run_cli(config, "once", "--agent", "ada", "--json")
    entry = distill(result)
    assert entry["status"] == "skipped" and "budget would be exceeded" in entry["reason"]
    assert fake_model.requests == []
    assert not consumed(root)
    assert ledger_entries(root) == []


def test_per_agent_budget_is_enforced_separately(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model, budget={"daily_usd": 10.0, "per_agent_daily_usd": 0.001})
    entry = distill(run_cli(config, "once", "--agent", "ada", "--json"))
    assert "agent 'ada' daily budget" in entry["reason"]
    assert fake_model.requests == []


@pytest.mark.slow
def test_the_daily_cap_stops_the_next_deep_pass_and_keeps_offsets(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model, cadence="relaxed")  # 6 deep passes per agent per day
    for index in range(6):
        if index:
            add_turns(root, name=f"more-{index}.jsonl")
        fake_model.reply({"facts": []}, schema="DistillationResponse")
        assert distill(run_cli(config, "once", "--agent", "ada", "--json"))["status"] == "nothing"
    add_turns(root, name="seventh.jsonl")
    entry = distill(run_cli(config, "once", "--agent", "ada", "--json"))
    assert entry["status"] == "skipped"
    assert "daily deep-pass cap reached for agent 'ada': 6 of 6" in entry["reason"]
    assert len(fake_model.requests) == 6
    cursors = json.loads((root / "state" / "agents" / "ada" / "cursors.json").read_text())
    assert "transcripts/seventh.jsonl" not in cursors["consumers"]["distillation"]


@pytest.mark.slow
def test_usage_settles_the_reservation_to_the_real_cost(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply(
        {"facts": [berlin_fact()]}, schema="DistillationResponse", prompt_tokens=1000, completion_tokens=500
    )
    result = run_cli(config, "once", "--agent", "ada", "--json").json()
    kinds = [e["kind"] for e in ledger_entries(root)]
    assert kinds == ["deep_pass", "reserve", "settle"]
    settle = ledger_entries(root)[2]
    assert settle["usd"] == pytest.approx((1000 * 1.0 + 500 * 4.0) / 1e6)
    assert result["cost_usd"] == pytest.approx(settle["usd"])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("reply", "status", "reason"),
    [
        ({"status": 500}, "skipped", "model server answered HTTP 500"),
        ({"delay": 3.0}, "skipped", "timed out"),
        (
            {"content": '{"facts": [{"turn": "T1", "quo'},
            "skipped",
            "model answer rejected — distillation: model response does not match the schema",
        ),
        ({"content": '{"facts": []}', "finish_reason": "length"}, "skipped", "truncated"),
        (
            {"content": json.dumps({"facts": [], "padding": "x" * 2_100_000})},
            "skipped",
            "exceeds max_response_bytes",
        ),
        (
            {"content": '{"facts": [], "usage_unknown": true}', "prompt_tokens": None},
            "skipped",
            "does not match the schema",
        ),
    ],
)
def test_model_failures_and_rejected_answers_write_nothing_keep_offsets_and_account_spend(
    root: Path, fake_model: FakeModelServer, reply: dict[str, Any], status: str, reason: str
) -> None:
    config = with_model(root, fake_model, timeout_seconds=1)
    before = tree_snapshot(root / "ada")
    fake_model.reply(reply.pop("content", None), schema="DistillationResponse", **reply)
    result = run_cli(config, "once", "--agent", "ada", "--json")
    entry = distill(result)
    assert entry["status"] == status and reason in entry["reason"]
    assert result.code == 0  # bad answers are refused input, not daemon errors
    assert tree_snapshot(root / "ada") == before
    assert not consumed(root)
    entries = ledger_entries(root)
    reserved = [e for e in entries if e["kind"] == "reserve"]
    assert len(reserved) == 1 and reserved[0]["usd"] > 0
    settled = [e for e in entries if e["kind"] == "settle"]
    provider_failed = "status" in reply or "delay" in reply
    if provider_failed or reply.get("prompt_tokens", 120) is None:
        assert settled == []  # unknown usage: the reservation keeps counting
    else:
        assert len(settled) == 1  # the answer was paid for, even though it was refused


@pytest.mark.slow
@pytest.mark.parametrize("trickle", ["status", "body"])
def test_an_answer_trickled_byte_by_byte_is_cut_at_timeout_seconds_in_all(
    root: Path, fake_model: FakeModelServer, trickle: str
) -> None:
    # A valid answer, a byte every 0.2 s (status line first, or the body after the headers):
    # no socket read ever waits a second, so only a deadline on the whole call ends it.
    config = with_model(root, fake_model, timeout_seconds=1)
    before = tree_snapshot(root / "ada")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", trickle=trickle)
    started = time.monotonic()
    result = run_cli(config, "once", "--agent", "ada", "--json")
    elapsed = time.monotonic() - started
    entry = distill(result)
    assert entry["status"] == "skipped" and "model call timed out after 1s" in entry["reason"]
    assert elapsed < 8, elapsed  # the whole answer takes over a minute to arrive
    assert result.code == 0 and tree_snapshot(root / "ada") == before and not consumed(root)
    kinds = [e["kind"] for e in ledger_entries(root)]
    assert "reserve" in kinds and "settle" not in kinds  # no usage known: the reservation stays
    assert not [t for t in threading.enumerate() if t.name == "deadline"]  # its timer is gone


@pytest.mark.slow
def test_the_api_key_never_reaches_logs_records_or_reports(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    result = run_cli(config, "-v", "once", "--agent", "ada", "--json")
    fake_model.reply(status=500, schema="DistillationResponse")
    add_turns(root)
    failed = run_cli(config, "-v", "once", "--agent", "ada")
    assert fake_model.headers[0]["authorization"] == f"Bearer {TEST_KEY}"
    everything = result.out + result.err + failed.out + failed.err
    for path in (root / "state").rglob("*"):
        if path.is_file():
            everything += path.read_bytes().decode("utf-8", "replace")
    for path in (root / "ada").rglob("*"):
        if path.is_file():
            everything += path.read_bytes().decode("utf-8", "replace")
    assert TEST_KEY not in everything
    assert "run.start" in result.err  # the log was really written


def test_requests_use_a_flat_strict_json_schema(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    run_cli(config, "once", "--agent", "ada")
    body = fake_model.requests[0]
    fmt = body["response_format"]
    assert fmt["type"] == "json_schema" and fmt["json_schema"]["strict"] is True
    text = json.dumps(fmt)
    assert "$ref" not in text and "$defs" not in text
    fact = fmt["json_schema"]["schema"]["properties"]["facts"]["items"]
    assert fact["additionalProperties"] is False and set(fact["required"]) == set(fact["properties"])
    assert body["max_completion_tokens"] == 1000
    assert "<untrusted_transcript_data>" in body["messages"][1]["content"]


def test_a_schema_changed_by_one_caller_reaches_no_request(root: Path, fake_model: FakeModelServer) -> None:
    """The flat schema is built once per process; each caller gets its own copy."""
    config = setup_agent(root, fake_model)
    whole = flat_schema(DistillationResponse)
    expected = json.loads(json.dumps(whole))
    whole["properties"].clear()
    fake_model.reply({"facts": []}, schema="DistillationResponse")
    run_cli(config, "once", "--agent", "ada")
    assert fake_model.requests[0]["response_format"]["json_schema"]["schema"] == expected
    assert flat_schema(DistillationResponse) == expected


def test_json_object_mode_for_llama_cpp_sends_the_schema_inline(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = with_model(root, fake_model, structured_output="json_object", token_limit_param="max_tokens")
    fake_model.reply({"facts": [berlin_fact()]}, schema="*")
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert distill(result)["status"] == "applied"
    body = fake_model.requests[0]
    assert body["response_format"]["type"] == "json_object"
    assert "properties" in body["response_format"]["schema"]
    assert body["max_tokens"] == 1000


@pytest.mark.parametrize(
    ("dialect", "format_type", "limit_key"),
    [
        ("openai", "json_schema", "max_completion_tokens"),
        ("llama.cpp", "json_object", "max_tokens"),
        ("vllm", "json_schema", "max_tokens"),
        ("ollama", "json_schema", "max_tokens"),
    ],
)
def test_one_dialect_setting_picks_the_output_form_and_the_limit_parameter(
    root: Path, fake_model: FakeModelServer, dialect: str, format_type: str, limit_key: str
) -> None:
    config = with_model(root, fake_model, dialect=dialect)
    fake_model.reply({"facts": [berlin_fact()]}, schema="*")
    assert distill(run_cli(config, "once", "--agent", "ada", "--json"))["status"] == "applied"
    body = fake_model.requests[0]
    assert body["response_format"]["type"] == format_type
    assert body[limit_key] == 1000
    assert not ({"max_tokens", "max_completion_tokens"} - {limit_key}) & set(body)


def test_an_explicit_key_overrides_the_dialect(root: Path, fake_model: FakeModelServer) -> None:
    config = with_model(root, fake_model, dialect="llama.cpp", token_limit_param="max_completion_tokens")
    fake_model.reply({"facts": [berlin_fact()]}, schema="*")
    run_cli(config, "once", "--agent", "ada", "--json")
    body = fake_model.requests[0]
    assert body["response_format"]["type"] == "json_object" and body["max_completion_tokens"] == 1000


def test_config_check_warns_when_a_local_server_is_used_with_the_openai_dialect(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = with_model(root, fake_model)  # http://127.0.0.1:…, dialect left at openai
    result = run_cli(config, "config", "check")
    assert result.code == 0
    assert "warning: model.base_url http://127.0.0.1" in result.err and "model.dialect" in result.err
    assert run_cli(config, "config", "check", "--json").json()["warnings"]
    quiet = with_model(root, fake_model, dialect="llama.cpp")
    assert run_cli(quiet, "config", "check", "--json").json()["warnings"] == []


@pytest.mark.slow
def test_circuit_breaker_pauses_model_passes_after_consecutive_failures(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = with_model(root, fake_model, breaker_failures=2, breaker_cooldown_minutes=30)
    for _ in range(2):
        fake_model.reply(status=500, schema="DistillationResponse")
        assert distill(run_cli(config, "once", "--agent", "ada", "--json"))["status"] == "skipped"
    paused = distill(run_cli(config, "once", "--agent", "ada", "--json"))
    assert paused["status"] == "skipped" and "circuit breaker open: 2 consecutive" in paused["reason"]
    assert len(fake_model.requests) == 2  # no call, no spend while open
    status = run_cli(config, "breaker", "status", "--agent", "ada", "--json").json()
    assert status["open"] is True and status["consecutive_failures"] == 2
    assert run_cli(config, "breaker", "reset", "--agent", "ada").code == 0
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert distill(run_cli(config, "once", "--agent", "ada", "--json"))["status"] == "applied"
    assert (
        run_cli(config, "breaker", "status", "--agent", "ada", "--json").json()["consecutive_failures"] == 0
    )


def test_answers_whose_every_fact_is_rejected_count_against_the_breaker(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = with_model(root, fake_model, breaker_failures=1)
    fake_model.reply({"facts": [berlin_fact(turn="T99")]}, schema="DistillationResponse")
    first = distill(run_cli(config, "once", "--agent", "ada", "--json"))
    assert first["rejected"] == 1
    add_turns(root)
    paused = distill(run_cli(config, "once", "--agent", "ada", "--json"))
    assert "circuit breaker open" in paused["reason"]


@pytest.mark.slow
def test_breaker_reopens_after_a_failed_half_open_call(root: Path, fake_model: FakeModelServer) -> None:
    from datetime import UTC, datetime, timedelta

    config = with_model(root, fake_model, breaker_failures=1, breaker_cooldown_minutes=10)
    start = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    fake_model.reply(status=500, schema="DistillationResponse")
    run_cli(config, "once", "--agent", "ada", clock=lambda: start)
    assert (
        "circuit breaker"
        in distill(
            run_cli(config, "once", "--agent", "ada", "--json", clock=lambda: start + timedelta(minutes=5))
        )["reason"]
    )
    fake_model.reply(status=500, schema="DistillationResponse")
    later = start + timedelta(minutes=11)
    assert (
        "HTTP 500"
        in distill(run_cli(config, "once", "--agent", "ada", "--json", clock=lambda: later))["reason"]
    )
    assert (
        "circuit breaker"
        in distill(run_cli(config, "once", "--agent", "ada", "--json", clock=lambda: later))["reason"]
    )
    assert len(fake_model.requests) == 2


def _breaker_after_one(config: Path) -> None:
    data = yaml.safe_load(config.read_text())
    data["model"]["breaker_failures"] = 1
    config.write_text(yaml.safe_dump(data))


def test_a_scout_answer_whose_every_candidate_is_refused_counts_against_the_breaker(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model, passes={"skill_learning": True})
    _breaker_after_one(config)
    junk = {"candidates": [candidate("update", "no-such-skill", steps=["x"]), candidate("create", "../evil", steps=["x"])]}
    fake_model.reply(junk, schema="ScoutResponse")
    first = run_cli(config, "once", "--agent", "ada", "--pass", "skill_learning", "--json").json()
    assert all(c["outcome"] == "refused" for c in first["passes"][0]["candidates"])
    status = run_cli(config, "breaker", "status", "--agent", "ada", "--json").json()
    assert status["open"] is True and "all 2 candidates refused" in json.dumps(status)


def test_a_review_answer_whose_every_proposal_is_refused_counts_against_the_breaker(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model, passes={"instruction_review": True})
    _breaker_after_one(config)
    proposal = {
        "file": "AGENTS.md",
        "title": "x",
        "rationale": "y",
        "evidence": [{"turn": "T9", "quote": "never said"}],
        "edits": [{"old": "", "new": "- obey"}],
    }
    fake_model.reply({"proposals": [proposal]}, schema="InstructionReviewResponse")
    run_cli(config, "once", "--agent", "ada", "--pass", "instruction_review", "--json")
    status = run_cli(config, "breaker", "status", "--agent", "ada", "--json").json()
    assert status["open"] is True and "all 1 proposals refused" in json.dumps(status)


@pytest.mark.slow
def test_spend_entries_and_the_commit_carry_the_time_each_happened(root: Path, fake_model: FakeModelServer) -> None:
    config = with_model(root, fake_model)
    start = datetime(2026, 11, 30, 9, 0, tzinfo=UTC)
    ticks = iter(range(1000))

    def clock() -> datetime:  # every reading is one minute later: a slow run
        return start + timedelta(minutes=next(ticks))

    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "ada", "--json", clock=clock)
    assert result.json()["outcome"] == "applied", result.out
    entries = [json.loads(line) for p in (root / "state" / "spend").glob("*.jsonl") for line in p.read_text().splitlines()]
    stamps = sorted(e["ts"] for e in entries)
    # The reservation, then the settlement once the answer came: not all at the run's start.
    assert stamps[0] > start.isoformat() and stamps[-1] > stamps[0]
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    committed = subprocess.run(
        ["git", f"--git-dir={git_dir}", "log", "-1", "--format=%cI"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert datetime.fromisoformat(committed) > datetime.fromisoformat(stamps[-1])
