"""Memory consolidation: compact the fact store without losing history, under the memory lock."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memory_engine.memory_consolidation import MemoryConsolidationPass, consolidate
from tests.support.deploy import base_config, conversation, run_cli, write_config, write_transcript
from tests.support.facts import store_records, store_text
from tests.support.fake_model import FakeModelServer

STORE = ".metaeng/facts.jsonl"


def rec(
    rid: str,
    value: str,
    valid_from: str,
    valid_to: str | None = None,
    supersedes: str | None = None,
    observed: str | None = None,
    entity: str = "home",
) -> dict[str, Any]:
    return {
        "tenant": "default",
        "user": "ada",
        "entity": entity,
        "key": "city",
        "value": value,
        "confidence": 0.9,
        "source": "user",
        "valid_from": valid_from,
        "schema_version": 1,
        "memory_type": "fact",
        "id": rid,
        "source_event_id": f"t.jsonl@{rid}",
        "observed_at": observed or valid_from,
        "valid_to": valid_to,
        "supersedes_memory_id": supersedes,
    }


def lines(*records: dict[str, Any]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def by_id(records: list[Any]) -> dict[str, Any]:
    return {r.id: r for r in records}


def test_exact_duplicates_are_merged_and_links_follow_while_every_version_stays() -> None:
    store = lines(
        rec("m1", "Berlin", "2026-01-01", "2026-01-10"),
        rec("m2", "Berlin", "2026-01-01", "2026-01-10", observed="2026-01-03"),
        rec("m3", "Paris", "2026-01-10", supersedes="m2"),
        rec("m3", "Paris", "2026-01-10", supersedes="m2"),
    )
    plan = consolidate(store, "facts.jsonl")
    kept = by_id(plan.records)
    assert sorted(kept) == ["m1", "m3"]
    assert kept["m3"].supersedes_memory_id == "m1"
    assert kept["m1"].valid_to == "2026-01-10", "the closed version (history) is kept"
    assert len(plan.dropped) == 2 and not plan.reported and not plan.blocking


def test_broken_links_are_repaired_when_one_version_closes_on_the_records_start() -> None:
    plan = consolidate(
        lines(
            rec("a1", "Lisbon", "2026-01-01", "2026-01-15"),
            rec("a2", "Porto", "2026-01-15", supersedes="gone"),
            rec("b1", "Rome", "2026-01-01", "2026-01-05", entity="office"),
            rec("b2", "Milan", "2026-01-05", entity="office"),
        ),
        "facts.jsonl",
    )
    kept = by_id(plan.records)
    assert kept["a2"].supersedes_memory_id == "a1"
    assert kept["b2"].supersedes_memory_id == "b1"
    assert len(plan.repaired) == 2 and not plan.reported


def test_what_cannot_be_repaired_is_reported_and_left_as_it_is() -> None:
    plan = consolidate(
        lines(
            rec("a1", "Lisbon", "2026-01-01"),
            rec("a2", "Porto", "2026-01-15", supersedes="gone"),
        ),
        "facts.jsonl",
    )
    kept = by_id(plan.records)
    assert kept["a2"].supersedes_memory_id == "gone"
    assert any("2 open versions" in line for line in plan.reported)
    assert any("a2" in line and "cannot be repaired" in line for line in plan.reported)


def test_two_different_records_under_one_id_block_the_pass() -> None:
    plan = consolidate(
        lines(rec("m1", "Berlin", "2026-01-01"), rec("m1", "Paris", "2026-01-01")), "facts.jsonl"
    )
    assert plan.blocking == ["line 2: id m1 is used by two different records"]


def test_the_pass_holds_the_memory_lock_and_uses_no_model() -> None:
    consolidation = MemoryConsolidationPass()
    assert consolidation.memory_lock == "wait" and not consolidation.uses_model


@pytest.fixture
def config(root: Path, fake_model: FakeModelServer) -> Path:
    return write_config(root, base_config(root, fake_model.url))


def test_once_compacts_the_store_as_one_undoable_run(config: Path, root: Path) -> None:
    store = root / "ada" / STORE
    store.parent.mkdir(parents=True)
    original = lines(
        rec("m3", "Paris", "2026-01-10", supersedes="m2"),
        rec("m1", "Berlin", "2026-01-01", "2026-01-10"),
        rec("m2", "Berlin", "2026-01-01", "2026-01-10", observed="2026-01-03"),
    )
    store.write_bytes(original)
    result = run_cli(config, "once", "--agent", "ada", "--pass", "memory_consolidation", "--json")
    assert result.code == 0, result.err
    entry = result.json()["passes"][0]
    assert entry["status"] == "applied" and entry["duplicates_removed"] == 1
    # The single-file store moves into its shard in the same run.
    assert not store.exists()
    assert [r["id"] for r in store_records(root / "ada")] == ["m1", "m3"]
    again = run_cli(config, "once", "--agent", "ada", "--pass", "memory_consolidation", "--json")
    assert again.json()["passes"][0]["status"] == "nothing"
    undone = run_cli(config, "undo", result.json()["run_id"])
    assert undone.code == 0, undone.err
    assert store.read_bytes() == original and store_records(root / "ada") == [
        json.loads(line) for line in original.splitlines()
    ]


def test_a_store_that_needs_a_person_fails_the_pass_and_is_left_untouched(config: Path, root: Path) -> None:
    store = root / "ada" / STORE
    store.parent.mkdir(parents=True)
    broken = lines(rec("m1", "Berlin", "2026-01-01")) + b"{not json\n"
    store.write_bytes(broken)
    result = run_cli(config, "once", "--agent", "ada", "--pass", "memory_consolidation", "--json")
    assert result.code == 1
    assert "line 2: not JSON" in result.json()["passes"][0]["reason"]
    assert store.read_bytes() == broken


TURNS = [
    ("I live in Berlin now.", "Noted."),
    ("What's the weather?", "Sunny."),
    ("Thanks!", "You're welcome."),
    ("Bye.", "Bye."),
]
FACTS = {
    "facts": [
        {
            "turn": "T1",
            "quote": "I live in Berlin now.",
            "entity": "user.home",
            "key": "city",
            "value": "Berlin",
            "confidence": 0.95,
            "valid_from": "2026-11-02",
        }
    ]
}


@pytest.fixture
def lock_holder(root: Path) -> Iterator[subprocess.Popen[str]]:
    """Another process holding the agent's memory lock, as a running consolidation would."""
    path = root / "state" / "agents" / "ada" / "memory.lock"
    path.parent.mkdir(parents=True)
    code = (
        "import sys; from filelock import FileLock; lock = FileLock(sys.argv[1]); lock.acquire(); "
        "print('held', flush=True); sys.stdin.read()"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(path)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    yield holder
    if holder.poll() is None:
        holder.communicate("")


@pytest.mark.slow
def test_distillation_backs_off_while_another_process_holds_the_memory_lock(
    config: Path, root: Path, fake_model: FakeModelServer, lock_holder: subprocess.Popen[str]
) -> None:
    write_transcript(root / "ada", "chat.jsonl", conversation(TURNS))
    fake_model.reply(FACTS, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "ada", "--pass", "distillation", "--json")
    assert result.code == 0, result.err
    entry = result.json()["passes"][0]
    assert entry["status"] == "skipped" and "memory lock held" in entry["reason"]
    assert fake_model.requests == []
    cursors = root / "state" / "agents" / "ada" / "cursors.json"
    assert not cursors.exists() or "distillation" not in json.loads(cursors.read_text())["consumers"]
    assert store_text(root / "ada") == ""

    lock_holder.communicate("")  # the consolidation finished: the same turns are read now
    retried = run_cli(config, "once", "--agent", "ada", "--pass", "distillation", "--json")
    assert retried.json()["passes"][0]["status"] == "applied"
    assert len(fake_model.requests) == 1
    assert "distillation" in json.loads(cursors.read_text())["consumers"]


def test_distillation_and_consolidation_share_the_lock_within_one_run(
    config: Path, root: Path, fake_model: FakeModelServer
) -> None:
    # Regression: two FileLock objects on one path in one run made consolidation wait
    # on the lock distillation already held (600 s, then skipped).
    write_transcript(root / "ada", "chat.jsonl", conversation(TURNS))
    fake_model.reply(FACTS, schema="DistillationResponse")
    started = time.monotonic()
    result = run_cli(
        config, "once", "--agent", "ada", "--pass", "distillation", "--pass", "memory_consolidation", "--json"
    )
    assert result.code == 0, result.err
    statuses = {p["name"]: p["status"] for p in result.json()["passes"]}
    assert statuses == {"distillation": "applied", "memory_consolidation": "nothing"}
    assert time.monotonic() - started < 60
