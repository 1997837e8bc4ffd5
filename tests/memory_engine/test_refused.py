"""Refused facts are logged with their reason, and a person can have their turns read again."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import run_cli
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

FACTS = ".metaeng/facts.jsonl"


def distill(result: Any) -> dict[str, Any]:
    return next(p for p in result.json()["passes"] if p["name"] == "distillation")


@pytest.mark.slow
def test_refused_facts_are_listed_and_their_turns_can_be_read_again(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    # A junk answer: the value is not in the quote. The turns are consumed all the same.
    fake_model.reply({"facts": [berlin_fact(value="Paris")]}, schema="DistillationResponse")
    first = run_cli(config, "once", "--agent", "ada", "--json")
    entry = distill(first)
    assert entry["rejected"] == 1 and "1 refused fact(s) logged" in entry["reason"]
    run_id = first.json()["run_id"]

    listed = run_cli(config, "memory", "refused", "--agent", "ada", "--json").json()
    assert [(e["value"], e["reason"], e["file"], e["start"], e["run_id"]) for e in listed] == [
        ("Paris", "ungrounded", "transcripts/s1.jsonl", 0, run_id)
    ]
    human = run_cli(config, "memory", "refused", "--agent", "ada")
    assert "user.city = 'Paris'  rejected: ungrounded" in human.out and "quoted “I live in Berlin”" in human.out

    retry = run_cli(config, "memory", "retry", "--agent", "ada", "--run", run_id, "--json")
    assert retry.code == 0, retry.err
    assert retry.json()["queued"] == 1 and retry.json()["run_id"]
    again = run_cli(config, "memory", "retry", "--agent", "ada", "--run", run_id, "--json")
    assert again.json()["run_id"] is None  # already queued: nothing to do

    # Next cycle: no new turns, but the queued turn is read again — and this time grounded.
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    second = run_cli(config, "once", "--agent", "ada", "--json")
    entry = distill(second)
    assert entry["status"] == "applied" and entry["turns"] == 1, entry
    assert "1 re-queued turn(s) read again" in entry["reason"]
    sent = fake_model.requests[-1]["messages"][1]["content"]
    assert "I live in Berlin" in sent and "Question" not in sent
    assert '"value":"Berlin"' in store_text(root / "ada")
    queue = json.loads((root / "ada" / ".metaeng" / "retry.json").read_text())
    assert queue["turns"] == []


@pytest.mark.timeout(60)
def test_a_queued_turn_whose_transcript_became_a_named_pipe_is_dropped_without_blocking(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact(value="Paris")]}, schema="DistillationResponse")
    run_id = run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    assert run_cli(config, "memory", "retry", "--agent", "ada", "--run", run_id, "--json").json()["queued"] == 1
    transcript = root / "ada" / "transcripts" / "s1.jsonl"
    transcript.unlink()
    os.mkfifo(transcript)  # opening it for reading would wait for a writer forever

    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    entry = distill(result)
    assert "transcripts/s1.jsonl@0: queued for retry, but the transcript no longer holds that turn; dropped" in (
        entry["warnings"]
    ), entry
    queue = json.loads((root / "ada" / ".metaeng" / "retry.json").read_text())
    assert queue["turns"] == []


def test_retry_of_a_run_that_refused_nothing_is_a_clear_error(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    result = run_cli(config, "memory", "retry", "--agent", "ada", "--run", "20261130T000000Z-abcdef")
    assert result.code == 1 and "refused no fact of agent ada" in result.err


def test_the_refused_log_is_bounded(root: Path, fake_model: FakeModelServer) -> None:
    from memory_engine import refused

    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact(value="Paris")] * 3}, schema="DistillationResponse")
    run_cli(config, "once", "--agent", "ada")
    log = root / "ada" / refused.REFUSED_LOG
    line = log.read_text().splitlines()[0]
    log.write_text((line + "\n") * refused.MAX_ENTRIES)
    add_turns(root)
    fake_model.reply({"facts": [berlin_fact(turn="T1", quote="Question 0?", value="Rome")]}, schema="DistillationResponse")
    run_cli(config, "once", "--agent", "ada")
    lines = log.read_text().splitlines()
    assert len(lines) == refused.MAX_ENTRIES and json.loads(lines[-1])["value"] == "Rome"
