"""Backlogs of any size: split into requests that fit, drained over cycles, never a stall.

Before, ~400 ordinary turns (≈170 KB) were refused on every run ("request of … bytes
exceeds max_input_bytes"): the limiter counted text length while the JSON sent is 1.2–2.4×
larger, and nothing ever advanced.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from daemon.kernel.settings import ModelSettings
from tests.skills_engine.builders import candidate, make_skill, skill_md, skills_config
from tests.support.deploy import conversation, run_cli, write_transcript
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer
from tests.support.request_layout import data_of
from tests.support.runs import berlin_fact, setup_agent

LIMIT = ModelSettings.model_fields["max_input_bytes"].default


def request_bytes(body: dict[str, Any]) -> int:
    """The size `DeepTier` measures: the messages and response format as sent."""
    sent = {"messages": body["messages"], "response_format": body["response_format"]}
    return len(json.dumps(sent, ensure_ascii=False).encode("utf-8"))


def schema_slack(body: dict[str, Any]) -> int:
    return len(json.dumps(body["response_format"]["json_schema"]["schema"])) + 4096


def ordinary_turns(count: int, day: str = "2026-11-02") -> str:
    # Quotes, backslashes and non-ASCII: what makes the JSON sent larger than the text.
    pairs = [
        (
            f'Turn {i}: please check "ticket #{i}" in C:\\exports\\{i}.csv — naïve totals, 20% up? ' * 3,
            f'Done: "ticket #{i}" has {i} rows; the path is C:\\exports\\{i}.csv. ' * 3,
        )
        for i in range(count)
    ]
    return conversation(pairs, day=day)


def set_model(config: Path, **changes: Any) -> None:
    data = yaml.safe_load(config.read_text())
    data["model"].update(changes)
    config.write_text(yaml.safe_dump(data))


def distill(body: dict[str, Any]) -> dict[str, Any]:
    return next(p for p in body["passes"] if p["name"] == "distillation")


def consumed(root: Path, consumer: str, file: str) -> int:
    path = root / "state" / "agents" / "ada" / "cursors.json"
    if not path.exists():
        return 0
    return int(json.loads(path.read_text())["consumers"].get(consumer, {}).get(file, {}).get("offset", 0))


def test_four_hundred_ordinary_turns_are_sent_in_requests_that_fit_and_all_consumed(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    transcript = write_transcript(root / "ada", "long.jsonl", ordinary_turns(400))
    assert transcript.stat().st_size > 150_000
    for _ in range(8):
        fake_model.reply({"facts": []}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    entry = distill(result.json())
    # 400 turns here and the 4 of setup_agent's own transcript.
    assert entry["status"] == "nothing" and entry["turns"] == 404 and entry["turns_waiting"] == 0
    assert entry["model_requests"] == len(fake_model.requests) > 1
    for body in fake_model.requests:
        assert request_bytes(body) <= LIMIT + schema_slack(body)
    # Every turn went out exactly once, in order.
    sent = [t["id"] for b in fake_model.requests for t in _turns_of(b)]
    assert len(sent) == 404
    assert consumed(root, "distillation", "transcripts/long.jsonl") == transcript.stat().st_size
    assert "progress: distillation: request 2, turns" in result.err


def _turns_of(body: dict[str, Any]) -> list[dict[str, Any]]:
    user = body["messages"][1]["content"]
    inner = user.split("<untrusted_transcript_data>\n", 1)[1].rsplit("\n</untrusted_transcript_data>", 1)[0]
    data = json.loads(inner)
    return list(data["turns"] if isinstance(data, dict) else data)


@pytest.mark.slow
def test_a_backlog_beyond_the_call_cap_drains_over_cycles_and_says_what_waits(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    set_model(config, max_input_bytes=20_000, max_calls_per_pass=2)
    transcript = write_transcript(root / "ada", "long.jsonl", ordinary_turns(150))
    runs = []
    for _cycle in range(20):
        for _ in range(2):
            fake_model.reply({"facts": []}, schema="DistillationResponse")
        entry = distill(run_cli(config, "once", "--agent", "ada", "--json").json())
        fake_model.clear()
        runs.append(entry)
        if entry["turns_waiting"] == 0:
            break
    assert runs[0]["model_requests"] == 2 and runs[0]["turns_waiting"] > 0
    assert "wait for the next cycle (at most 2 request(s) per pass" in runs[0]["reason"]
    assert runs[-1]["turns_waiting"] == 0 and len(runs) > 2
    assert sum(r["turns"] for r in runs) == 154  # and setup_agent's 4
    assert consumed(root, "distillation", "transcripts/long.jsonl") == transcript.stat().st_size


def test_a_failed_later_request_keeps_what_earlier_ones_settled(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    set_model(config, max_input_bytes=20_000)
    (root / "ada" / "transcripts" / "s1.jsonl").unlink()
    write_transcript(root / "ada", "a.jsonl", conversation([("I live in Berlin.", "Noted."), *[("x " * 50, "y")] * 3]))
    write_transcript(root / "ada", "b.jsonl", ordinary_turns(120))
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    fake_model.reply("not json", schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    entry = distill(result.json())
    assert entry["status"] == "applied" and entry["model_requests"] == 1
    assert "stopped after 1 request(s)" in entry["reason"] and entry["turns_waiting"] > 0
    assert '"value":"Berlin"' in store_text(root / "ada")
    done = consumed(root, "distillation", "transcripts/b.jsonl")
    assert consumed(root, "distillation", "transcripts/a.jsonl") > 0
    assert 0 < done < (root / "ada" / "transcripts" / "b.jsonl").stat().st_size  # on a turn boundary
    raw = (root / "ada" / "transcripts" / "b.jsonl").read_bytes()
    assert raw[done - 1 : done] == b"\n" and b'"role": "user"' in raw[done : done + 40]


def test_one_turn_larger_than_a_request_is_cut_with_a_marker_and_consumed(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    set_model(config, max_input_bytes=10_000)
    lines = json.dumps({"role": "user", "content": "Here is the whole export log."}) + "\n"
    lines += "".join(json.dumps({"role": "tool", "content": f"row {i} " * 400}) + "\n" for i in range(40))
    lines += json.dumps({"type": "session_end"}) + "\n"
    write_transcript(root / "ada", "huge.jsonl", lines)
    for _ in range(4):
        fake_model.reply({"facts": []}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    assert distill(result.json())["turns_waiting"] == 0
    bodies = [t for b in fake_model.requests for t in _turns_of(b)]
    cut = next(t for t in bodies if any("[…cut:" in m[1] for m in t["messages"]))
    assert any("more message(s) of this turn not shown" in m[1] for m in cut["messages"])
    for body in fake_model.requests:
        assert request_bytes(body) <= 10_000 + schema_slack(body)


@pytest.mark.slow
def test_a_scout_over_two_thousand_skills_fits_and_shows_the_relevant_ones(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skills_config(root, fake_model.url)
    for index in range(2000):
        make_skill(root / "packs", f"pack-skill-{index:04d}", skill_md(f"pack-skill-{index:04d}", "Generic chore."))
    make_skill(root / "packs", "vendor-invoice", skill_md("vendor-invoice", "Reconcile a vendor invoice. Use for invoices."))
    pairs = [("Please reconcile the vendor invoice from Acme", "Done")] * 5
    write_transcript(root / "ada", "t1.jsonl", conversation(pairs))
    fake_model.reply({"candidates": [candidate("skip", "vendor-invoice")]}, schema="ScoutResponse")

    result = run_cli(config, "once", "--agent", "ada", "--pass", "skill_learning", "--json")

    assert result.code == 0, result.err
    (body,) = fake_model.requests
    assert request_bytes(body) <= LIMIT + schema_slack(body)
    inventory = data_of(body, "skill_inventory")
    assert inventory[0]["name"] == "vendor-invoice" and "steps" in inventory[0]
    assert inventory[-1]["omitted"] > 0
    scout = next(p for p in result.json()["passes"] if p["name"] == "skill_learning")
    assert scout["turns_waiting"] == 0 and scout["candidates"][0]["outcome"] == "skipped"


def test_instruction_files_of_any_size_fit_the_review_request(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    data = yaml.safe_load(config.read_text())
    data["passes"] = {**data["passes"], "distillation": False, "instruction_review": True}
    config.write_text(yaml.safe_dump(data))
    (root / "ada" / "AGENTS.md").write_text("# Instructions\n" + "- Keep the weekly report short.\n" * 20_000)
    fake_model.reply({"proposals": []}, schema="InstructionReviewResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    (body,) = fake_model.requests
    assert request_bytes(body) <= LIMIT + schema_slack(body)
    assert "more bytes of this file not shown" in body["messages"][1]["content"]
    review = next(p for p in result.json()["passes"] if p["name"] == "instruction_review")
    assert review["status"] == "nothing" and review["turns"] == 4
