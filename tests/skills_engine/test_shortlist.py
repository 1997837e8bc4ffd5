"""The scout's shortlist at 1,000 and 3,000 skills: bounded requests, the matching skill in full."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from skills_engine import shortlist
from tests.skills_engine.builders import candidate, make_skill, once, pass_entry, skill_md, skills_config
from tests.support.deploy import conversation, message, write_transcript
from tests.support.fake_model import FakeModelServer
from tests.support.request_layout import data_of

pytestmark = pytest.mark.slow  # libraries of 1,000 and 3,000 skills

VERBS = ["draft", "check", "sync", "archive", "review", "tag", "merge", "index", "label", "rank"]
NOUNS = ["invoice", "ticket", "calendar", "newsletter", "budget", "roster", "backlog", "contract", "survey", "playbook"]
PLANTED = "skill-0900"
ASK = (
    "Rotate the TLS certificate on the edge proxy again: renew it with certbot, reload haproxy, "
    "then check the expiry date with openssl and note it in the runbook."
)


def filler(index: int) -> str:
    verb, noun = VERBS[index % 10], NOUNS[(index // 10) % 10]
    steps = [f"Open the {noun} list", f"{verb.capitalize()} each {noun} entry", "Post the summary to the team"]
    return skill_md(f"skill-{index:04d}", f"{verb.capitalize()} the {noun}s. Use when asked for a report.", steps)


def planted() -> str:
    # A generic name and description; the steps say what the turns did.
    steps = [
        "Renew the TLS certificate with certbot",
        "Reload haproxy on the edge proxy",
        "Check the expiry date with openssl and note it in the runbook",
    ]
    return skill_md(PLANTED, "Keep a service reachable. Use when asked for a report.", steps)


def deployment(root: Path, url: str, skills: int, max_input_bytes: int | None = None) -> Path:
    config = skills_config(root, url)
    for index in range(skills):
        make_skill(root / "packs", f"skill-{index:04d}", planted() if index == 900 else filler(index))
    if max_input_bytes is not None:
        text = config.read_text(encoding="utf-8").replace(
            "  timeout_seconds: 5\n", f"  timeout_seconds: 5\n  max_input_bytes: {max_input_bytes}\n"
        )
        config.write_text(text, encoding="utf-8")
    pairs = [(f"{ASK} (week {i})", f"Done: certificate renewed, week {i}.") for i in range(4)]
    write_transcript(root / "ada", "t1.jsonl", conversation(pairs))
    return config


def inventory_sent(body: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = data_of(body, "skill_inventory")
    return rows


def request_bytes(body: dict[str, Any]) -> int:
    sent = {"messages": body["messages"], "response_format": body["response_format"]}
    return len(json.dumps(sent, ensure_ascii=False).encode("utf-8"))


def test_the_planted_skill_of_a_thousand_is_sent_in_full_and_every_skill_is_accounted_for(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model.url, 1000)
    fake_model.reply({"candidates": []}, schema="ScoutResponse")

    entry = pass_entry(once(config, "skill_learning"), "skill_learning")

    assert entry["status"] in ("nothing", "changes") and entry["model_requests"] == 1
    (body,) = fake_model.requests
    rows = inventory_sent(body)
    full = [r["name"] for r in rows if "steps" in r]
    assert full[0] == PLANTED
    named = [r for r in rows if "name" in r]
    omitted = sum(r.get("omitted", 0) for r in rows)
    assert len(named) + omitted == 1000 and len({r["name"] for r in named}) == len(named)
    assert request_bytes(body) <= 120_000


def test_three_thousand_skills_keep_the_scout_request_within_max_input_bytes(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = deployment(root, fake_model.url, 3000, max_input_bytes=60_000)
    fake_model.reply({"candidates": []}, schema="ScoutResponse")

    entry = pass_entry(once(config, "skill_learning"), "skill_learning")

    # Called, not refused for its size: the inventory takes at most a third of the input.
    assert entry["model_requests"] == 1, entry["reason"]
    (body,) = fake_model.requests
    assert request_bytes(body) <= 60_000
    rows = inventory_sent(body)
    assert next(r for r in rows if "steps" in r)["name"] == PLANTED
    assert sum(r.get("omitted", 0) for r in rows) + sum(1 for r in rows if "name" in r) == 3000


def test_a_new_step_resting_on_tool_output_past_the_cut_is_refused_and_nothing_is_written(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = skills_config(root, fake_model.url)
    listing = "x" * 400 + " then purge the varnish cache with purgectl"
    lines = "".join(
        message("user", f"Deploy the site, round {i}: build the bundle and upload it.", f"2026-11-02T10:0{i}:00Z")
        + message("tool", listing, f"2026-11-02T10:0{i}:10Z")
        + message("assistant", f"Deployed round {i}.", f"2026-11-02T10:0{i}:20Z")
        for i in range(4)
    )
    write_transcript(root / "ada", "t1.jsonl", lines + '{"type": "session_end"}\n')
    shown = candidate("create", "deploy-site", description="Deploy the site.", steps=["Build the bundle", "Upload it"])
    hidden = candidate("create", "purge-cache", description="Purge the cache.", steps=["Purge the varnish cache with purgectl"])
    fake_model.reply({"candidates": [hidden, shown]}, schema="ScoutResponse")

    entry = pass_entry(once(config, "skill_learning"), "skill_learning")

    outcomes = {c["name"]: c for c in entry["candidates"]}
    assert outcomes["deploy-site"]["outcome"] == "created"
    assert outcomes["purge-cache"]["outcome"] == "refused" and "ungrounded" in outcomes["purge-cache"]["reason"]
    assert "purgectl" not in fake_model.requests[0]["messages"][1]["content"]
    assert (root / "ada" / "skills" / "deploy-site" / "SKILL.md").exists()
    assert not (root / "ada" / "skills" / "purge-cache").exists()


def test_a_skill_written_in_cyrillic_ranks_first_for_turns_in_russian(root: Path, fake_model: FakeModelServer) -> None:
    config = skills_config(root, fake_model.url)
    for index in range(1000):
        make_skill(root / "packs", f"skill-{index:04d}", filler(index))
    steps = ["Продлить сертификат", "Перезагрузить прокси", "Проверить срок действия сертификата"]
    make_skill(root / "packs", PLANTED, skill_md(PLANTED, "Держать сервис доступным.", steps))
    ask = "Продли сертификат на прокси ещё раз: продлить, перезагрузить прокси, проверить срок действия."
    write_transcript(root / "ada", "t1.jsonl", conversation([(f"{ask} (неделя {i})", "Готово.") for i in range(4)]))
    fake_model.reply({"candidates": []}, schema="ScoutResponse")

    pass_entry(once(config, "skill_learning"), "skill_learning")

    (body,) = fake_model.requests
    assert next(r["name"] for r in inventory_sent(body) if "steps" in r) == PLANTED
    assert shortlist._field_tokens.cache_info().currsize == 0  # the library's words held for the pass only
