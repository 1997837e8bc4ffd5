"""The passes of a run share one cacheable prefix, and cached input tokens are priced as such.

Through `once` against the scripted server: every request of distillation, the scout and
instruction review starts with the same bytes (system message, then the same turns), and
what the server reports as cached is priced at `model.cached_input_price` and shown by
`status` (daemon/passes/turn_prompt.py, daemon/model/usage_price.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import conversation, run_cli, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.request_layout import turns_of, user_text
from tests.support.runs import setup_agent

PASSES = ("distillation", "skill_learning", "instruction_review")
SCHEMAS = {"DistillationResponse": {"facts": []}, "ScoutResponse": {"candidates": []},
           "InstructionReviewResponse": {"proposals": []}}


def three_passes(root: Path, fake_model: FakeModelServer, **model_changes: Any) -> Path:
    config = setup_agent(root, fake_model, model_changes=model_changes)
    text = config.read_text(encoding="utf-8")
    import yaml

    data = yaml.safe_load(text)
    data["passes"] = {name: name in PASSES for name in data["passes"]}
    config.write_text(yaml.safe_dump(data), encoding="utf-8")
    return config


def prefix(body: dict[str, Any]) -> str:
    """What a request says before its task: the part every pass must send alike."""
    return json.dumps(body["messages"][0]) + user_text(body).split("\n\n<task>\n", 1)[0]


def script(fake_model: FakeModelServer, rounds: int = 1, **reply: Any) -> None:
    for _ in range(rounds):
        for schema, answer in SCHEMAS.items():
            fake_model.reply(answer, schema=schema, **reply)


def data_tag(body: dict[str, Any]) -> str:
    """Which pass sent a request: the tag of the data its task carries."""
    return user_text(body).split("</task>\n", 1)[1].split(">", 1)[0].lstrip("<")


@pytest.mark.parametrize("dialect", ["openai", "llama.cpp"])
def test_every_pass_of_a_run_starts_with_the_same_bytes(root: Path, fake_model: FakeModelServer, dialect: str) -> None:
    config = three_passes(root, fake_model, dialect=dialect)
    if dialect == "openai":
        script(fake_model)
    else:  # json_object names no schema: the answers go out in the passes' order
        for answer in SCHEMAS.values():
            fake_model.reply(answer)
    done = run_cli(config, "once", "--agent", "ada", "--json")
    assert done.code == 0, done.err
    bodies = fake_model.requests
    assert [data_tag(b) for b in bodies] == ["memory_keys", "skill_inventory", "instruction_files"]
    assert {p["name"]: p["status"] for p in done.json()["passes"] if p["name"] in PASSES} == dict.fromkeys(PASSES, "nothing")
    assert len({prefix(b) for b in bodies}) == 1
    assert [t["id"] for t in turns_of(bodies[0])] == ["T1", "T2", "T3", "T4"]
    for body in bodies:
        system = body["messages"][0]["content"]
        assert "JSON Schema" not in system and "I live in Berlin" not in system
        task = user_text(body).split("\n\n<task>\n", 1)[1]
        if dialect == "llama.cpp":  # the schema travels in the prompt: after the task, never before
            assert task.rstrip().endswith("}") and "Answer with one JSON object matching this JSON Schema" in task


def test_a_backlog_in_several_requests_is_grouped_alike_by_every_pass(root: Path, fake_model: FakeModelServer) -> None:
    config = three_passes(root, fake_model, max_input_bytes=6000, max_calls_per_pass=20)
    pairs = [(f"Please file expense report {i} for the trip to Lyon, with the receipts {'x' * 300}.", f"Filed report {i}.")
             for i in range(24)]
    write_transcript(root / "ada", "s2.jsonl", conversation(pairs, day="2026-11-03"))
    script(fake_model, rounds=20)
    done = run_cli(config, "once", "--agent", "ada", "--json")
    assert done.code == 0, done.err
    by_pass: dict[str, list[str]] = {}
    for body in fake_model.requests:
        by_pass.setdefault(data_tag(body), []).append(prefix(body))
    assert len(by_pass["memory_keys"]) > 2  # the backlog took several requests
    assert by_pass["memory_keys"] == by_pass["skill_inventory"] == by_pass["instruction_files"]


def _settles(root: Path) -> list[dict[str, Any]]:
    entries = [json.loads(line) for path in sorted((root / "state" / "spend").glob("*.jsonl"))
               for line in path.read_text().splitlines()]
    return [e for e in entries if e["kind"] == "settle"]


def test_cached_input_tokens_are_priced_at_the_cached_price_and_status_shows_the_saving(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model, model_changes={"cached_input_price": 0.1})  # input 1.0, output 4.0
    fake_model.reply({"facts": []}, schema="DistillationResponse", prompt_tokens=1000, completion_tokens=500, cached_tokens=800)
    assert run_cli(config, "once", "--agent", "ada").code == 0
    (settle,) = _settles(root)
    assert settle["usd"] == pytest.approx((200 * 1.0 + 800 * 0.1 + 500 * 4.0) / 1e6)
    assert settle["cached_tokens"] == 800 and settle["saved_usd"] == pytest.approx(800 * 0.9 / 1e6)
    status = run_cli(config, "status", "--json").json()
    (agent,) = status["agents"]
    assert agent["cached_tokens_today"] == 800
    assert agent["cache_saved_today_usd"] == pytest.approx(0.00072)
    assert agent["spend_today_usd"] == pytest.approx(0.00228)
    human = run_cli(config, "status").out
    assert "0.0007 USD saved by the prompt cache, 800 cached input tokens" in human


@pytest.mark.parametrize(
    ("cached", "shown"),
    [
        # no cached price: cached tokens cost the input price, and status says the server caches
        (800, "0.0000 USD saved by the prompt cache, 800 cached input tokens"),
        (None, None),  # the server says nothing about a cache
    ],
)
def test_without_a_cached_price_or_a_cache_report_input_costs_in_full(
    root: Path, fake_model: FakeModelServer, cached: int | None, shown: str | None
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": []}, schema="DistillationResponse", prompt_tokens=1000, completion_tokens=500, cached_tokens=cached)
    assert run_cli(config, "once", "--agent", "ada").code == 0
    (settle,) = _settles(root)
    assert settle["usd"] == pytest.approx((1000 * 1.0 + 500 * 4.0) / 1e6)
    assert settle.get("saved_usd") == (0.0 if cached else None)
    human = run_cli(config, "status").out
    assert (shown in human) if shown else ("saved by the prompt cache" not in human)


@pytest.mark.parametrize("cached", [5000, -3])
def test_a_cache_report_that_cannot_be_true_never_lowers_the_cost_below_what_was_sent(
    root: Path, fake_model: FakeModelServer, cached: Any
) -> None:
    config = setup_agent(root, fake_model, model_changes={"cached_input_price": 0.0})
    fake_model.reply({"facts": []}, schema="DistillationResponse", prompt_tokens=1000, completion_tokens=500, cached_tokens=cached)
    assert run_cli(config, "once", "--agent", "ada").code == 0
    (settle,) = _settles(root)
    # more cached than sent: all of it cached at most; a negative count: none
    expected_cached = 1000 if cached == 5000 else 0
    assert settle.get("cached_tokens", 0) == expected_cached
    assert settle["usd"] == pytest.approx(((1000 - expected_cached) * 1.0 + 500 * 4.0) / 1e6)


def test_a_negative_cached_price_is_refused_naming_the_key(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model, model_changes={"cached_input_price": -1})
    done = run_cli(config, "config", "check")
    assert done.code != 0 and "cached_input_price" in done.out + done.err
