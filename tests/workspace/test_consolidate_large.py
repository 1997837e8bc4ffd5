"""Issue 13: role files larger than one model request, consolidated section by section."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import CliResult, base_config, run_cli, write_config
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # a 500 KB role file through many model requests

PASS = ("--pass", "workspace_consolidation")
SCHEMA = "ConsolidationResponse"
MAX_CALLS = 8


def _deploy(root: Path, model_url: str, **model: Any) -> tuple[Path, Path]:
    config = base_config(root, model_url)
    config["model"].update(model)
    config["budget"] = {"daily_usd": 50.0, "per_agent_daily_usd": 50.0}
    return write_config(root, config), root / "ada"


def _once(config: Path) -> CliResult:
    result = run_cli(config, "once", "--agent", "ada", *PASS, "--json")
    assert result.code == 0, result.err
    return result


def _entry(result: CliResult) -> dict[str, Any]:
    return next(p for p in result.json()["passes"] if p["name"] == "workspace_consolidation")


def _memory(size: int) -> tuple[str, str]:
    """A MEMORY.md of about `size` bytes whose every section repeats one note at its end,
    and the same file with those repeats removed (every other line as it was)."""
    lines, kept = ["# Long memory", ""], ["# Long memory", ""]
    week = 0
    while sum(len(line) + 1 for line in lines) < size:
        section = [f"## Week {week}", ""]
        section += [f"- Week {week}, host-{j}: the export took {week * 7 + j} s." for j in range(30)]
        lines += [*section, section[5], ""]
        kept += [*section, ""]
        week += 1
    return "\n".join(lines[:-1]) + "\n", "\n".join(kept[:-1]) + "\n"


def _units(body: dict[str, Any]) -> list[dict[str, str]]:
    user = body["messages"][1]["content"]
    data = json.loads(user.removeprefix("<workspace_files>\n").removesuffix("\n</workspace_files>"))
    # Per file, in order: a heading is a string, a unit a pair [N, text] whose id is PATH#N.
    return [
        {"id": f"{path}#{entry[0]}", "text": entry[1]}
        for path, entries in data["units"].items()
        for entry in entries
        if isinstance(entry, list)
    ]


def _dedupe(body: dict[str, Any]) -> dict[str, Any]:
    """A scripted model: drop every unit whose text an earlier unit of the request already has."""
    first: dict[str, str] = {}
    operations = []
    for unit in _units(body):
        if unit["text"] in first:
            operations.append({"op": "drop_duplicate", "unit": unit["id"], "of": first[unit["text"]]})
        else:
            first[unit["text"]] = unit["id"]
    return {"operations": operations, "contradictions": []}


def _request_bytes(body: dict[str, Any]) -> int:
    """The size `DeepTier.call` checks against max_input_bytes: messages and response format."""
    sent = {"messages": body["messages"], "response_format": body["response_format"]}
    return len(json.dumps(sent, ensure_ascii=False).encode("utf-8"))


def test_a_500_kb_memory_file_is_consolidated_in_several_requests_within_the_limit(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, home = _deploy(root, fake_model.url)
    text, deduplicated = _memory(500_000)
    (home / "MEMORY.md").write_text(text, encoding="utf-8")
    for _ in range(MAX_CALLS):
        fake_model.reply(_dedupe, schema=SCHEMA)

    result = _once(config)

    entry = _entry(result)
    requests = fake_model.requests
    assert 4 <= len(requests) <= MAX_CALLS and result.json()["model_calls"] == len(requests)
    assert all(_request_bytes(body) <= 120_000 for body in requests)
    # Each unit is sent exactly once, and every request's answer was used.
    sent = [u["id"] for body in requests for u in _units(body)]
    assert len(sent) == len(set(sent)) == text.count("\n- ")
    assert [r["outcome"] for r in entry["requests"]] == ["applied"] * len(requests)
    assert entry["status"] == "applied" and entry["rewrite"] == "applied"
    assert entry["lost_units"] == [] and entry["added_units"] == [] and entry["requests_waiting"] == 0
    assert entry["units_before"] == entry["units_after"]  # only exact repeats went
    # Every line not removed is still there, byte for byte and in order.
    assert (home / "MEMORY.md").read_text(encoding="utf-8") == deduplicated
    # Nothing changed since: the next run makes no model call.
    again = _entry(_once(config))
    assert again["rewrite"] == "skipped" and "unchanged since the last consolidation" in again["reason"]
    assert len(fake_model.requests) == len(requests)


def test_requests_beyond_the_call_bound_wait_for_the_next_run(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, home = _deploy(root, fake_model.url, max_input_bytes=20_000)
    text, deduplicated = _memory(150_000)
    (home / "MEMORY.md").write_text(text, encoding="utf-8")
    for _ in range(3 * MAX_CALLS):
        fake_model.reply(_dedupe, schema=SCHEMA)

    first = run_cli(config, "once", "--agent", "ada", *PASS)

    assert first.code == 0, first.err
    assert len(fake_model.requests) == MAX_CALLS
    assert all(_request_bytes(body) <= 20_000 for body in fake_model.requests)
    assert "request(s) wait for the next run" in first.out
    assert f"units of MEMORY.md) wait for the next run: at most {MAX_CALLS} model calls per pass" in first.out
    second = _once(config)
    assert _entry(second)["requests_waiting"] == 0 and _entry(second)["lost_units"] == []
    assert 0 < second.json()["model_calls"] <= MAX_CALLS
    assert (home / "MEMORY.md").read_text(encoding="utf-8") == deduplicated
    third = _once(config)
    assert third.json()["model_calls"] == 0
    assert "unchanged since the last consolidation" in _entry(third)["reason"]


def _two_requests(root: Path, fake_model: FakeModelServer) -> tuple[Path, Path]:
    """USER.md and MEMORY.md, each fitting one request alone but not both together."""
    config, home = _deploy(root, fake_model.url, max_input_bytes=10_000)
    notes = [f"- Note {n}: the nightly job on host-{n} finished at 0{n % 10}:00." for n in range(120)]
    (home / "USER.md").write_text("# User\n\n" + "\n".join(notes[:60]) + "\n", encoding="utf-8")
    memory = "# Memory\n\n" + "\n".join([*notes[60:], notes[60]]) + "\n"
    (home / "MEMORY.md").write_text(memory, encoding="utf-8")
    return config, home


def _answer(*operations: dict[str, Any]) -> dict[str, Any]:
    return {"operations": list(operations), "contradictions": []}


def test_an_operation_on_a_unit_of_another_request_or_an_unknown_unit_is_refused_with_its_reason(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, home = _two_requests(root, fake_model)
    user_before = (home / "USER.md").read_bytes()
    # Request 1 holds USER.md, request 2 MEMORY.md (role order); MEMORY.md#61 repeats MEMORY.md#1.
    fake_model.reply(
        _answer({"op": "drop_duplicate", "unit": "USER.md#2", "of": "MEMORY.md#1"}), schema=SCHEMA
    )
    fake_model.reply(
        _answer({"op": "drop_duplicate", "unit": "MEMORY.md#61", "of": "MEMORY.md#1"}), schema=SCHEMA
    )

    entry = _entry(_once(config))

    assert [_units(b)[0]["id"] for b in fake_model.requests] == ["USER.md#1", "MEMORY.md#1"]
    first, second = entry["requests"]
    assert first["outcome"] == "refused" and first["files"] == ["USER.md"]
    assert (
        "operation 1 (drop_duplicate) names unit 'MEMORY.md#1', which was not sent in this request"
        in (first["reason"])
    )
    # The other answer still counts.
    assert second["outcome"] == "applied" and entry["rewrite"] == "applied"
    assert (home / "MEMORY.md").read_text().count("Note 60:") == 1
    assert (home / "USER.md").read_bytes() == user_before

    # The refused part is asked again on the next run (and only that part).
    fake_model.reply(
        _answer({"op": "merge", "units": ["USER.md#1", "USER.md#99"], "text": "x"}), schema=SCHEMA
    )
    again = run_cli(config, "once", "--agent", "ada", *PASS)
    assert again.code == 0, again.err
    assert len(fake_model.requests) == 3 and _units(fake_model.requests[2])[0]["id"] == "USER.md#1"
    assert (
        "rewrite skipped: model answer rejected — workspace_consolidation: operations refused, nothing of "
        "this answer used: operation 1 (merge) names unit 'USER.md#99', which does not exist"
    ) in again.out
    assert (home / "USER.md").read_bytes() == user_before


def test_an_answer_that_loses_a_unit_is_rejected_while_the_other_requests_apply(
    root: Path, fake_model: FakeModelServer
) -> None:
    config, home = _two_requests(root, fake_model)
    user_before = (home / "USER.md").read_bytes()
    # "Note 1 … host-1 … 01:00" is no duplicate of "Note 0 … host-0 … 00:00": its numbers would be lost.
    fake_model.reply(_answer({"op": "drop_duplicate", "unit": "USER.md#2", "of": "USER.md#1"}), schema=SCHEMA)
    fake_model.reply(
        _answer({"op": "drop_duplicate", "unit": "MEMORY.md#61", "of": "MEMORY.md#1"}), schema=SCHEMA
    )

    entry = _entry(_once(config))

    assert [r["outcome"] for r in entry["requests"]] == ["rejected", "applied"]
    assert [(u["file"], u["line"], u["text"]) for u in entry["lost_units"]] == [
        ("USER.md", 4, "Note 1: the nightly job on host-1 finished at 01:00.")
    ]
    assert "changes what it says" in entry["lost_units"][0]["reason"]
    assert entry["status"] == "applied" and entry["rewrite"] == "applied"
    assert "1 answer(s) rejected by the loss check" in entry["reason"]
    assert (home / "USER.md").read_bytes() == user_before
    assert (home / "MEMORY.md").read_text().count("Note 60:") == 1
