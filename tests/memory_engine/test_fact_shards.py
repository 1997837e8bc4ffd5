"""The fact store in shards: what a run writes, undo across shards, migration of the single file."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.deploy import run_cli, tree_snapshot
from tests.support.facts import shard_of, store_records, store_text, stored_fact, write_store
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, once_killed_at, setup_agent

REPO = Path(__file__).resolve().parents[2]
STORE = ".metaeng/facts.jsonl"
GERMAN = berlin_fact(turn="T2", quote="I speak German", key="language", value="German")


def git_files(root: Path) -> list[str]:
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    out = subprocess.run(["git", f"--git-dir={git_dir}", "ls-files"], capture_output=True, text=True, check=True)
    return sorted(out.stdout.split())


def once(config: Path) -> dict:
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    return result.json()


def test_a_run_writes_each_fact_to_its_own_shard_and_commits_only_those(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact(), GERMAN]}, schema="DistillationResponse")
    body = once(config)
    city, language = shard_of("user", "city"), shard_of("user", "language")
    assert body["files_changed"] == sorted([city, language])
    assert [json.loads(line)["value"] for line in (root / "ada" / city).read_text().splitlines()] == ["Berlin"]
    assert [json.loads(line)["value"] for line in (root / "ada" / language).read_text().splitlines()] == ["German"]
    assert not (root / "ada" / STORE).exists()
    assert git_files(root) == sorted(["AGENTS.md", city, language])


def test_undo_reverts_record_by_record_and_keeps_a_persons_record_in_the_same_shard(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact(), GERMAN]}, schema="DistillationResponse")
    run_id = once(config)["run_id"]
    shard = root / "ada" / shard_of("user", "city")
    # A person adds a record of their own to the same shard (a fact about the same key).
    mine = stored_fact(id="f-person", value="Potsdam", valid_from="2020-01-01", valid_to="2021-01-01")
    shard.write_text(json.dumps(mine) + "\n" + shard.read_text())

    undone = run_cli(config, "undo", run_id)

    assert undone.code == 0, undone.err
    assert [r["id"] for r in store_records(root / "ada")] == ["f-person"]
    assert not (root / "ada" / shard_of("user", "language")).exists()


def test_a_single_file_store_migrates_in_the_first_run_that_writes_and_undo_brings_it_back(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    legacy = write_store(
        root / "ada",
        stored_fact(id="f-old", value="Rome", valid_from="2026-01-01"),
        stored_fact(id="f-bob", user="bob", entity="user", key="plan", value="pro"),
    )
    original = legacy.read_bytes()
    before = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]
    assert [r["id"] for r in before] == ["f-old"]  # read from the single file, bob's never shown
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    run_id = once(config)["run_id"]

    assert not legacy.exists()
    records = {r["id"]: r for r in store_records(root / "ada")}
    assert set(records) - {"f-old", "f-bob"} and records["f-old"]["valid_to"] == "2026-11-02"
    assert (root / "ada" / shard_of("user", "plan", user="bob")).is_file()
    listed = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]
    assert [r["value"] for r in listed] == ["Rome", "Berlin"]
    undone = run_cli(config, "undo", run_id)
    assert undone.code == 0, undone.err
    assert legacy.read_bytes() == original
    assert store_text(root / "ada") == original.decode()


@pytest.mark.slow
@pytest.mark.parametrize("point", ["mid_write", "after_write", "after_stage"])
def test_a_crash_mid_migration_loses_nothing_and_the_next_run_migrates(
    root: Path, fake_model: FakeModelServer, point: str
) -> None:
    config = setup_agent(root, fake_model)
    legacy = write_store(root / "ada", *[stored_fact(id=f"f-{i}", entity=f"thing{i}") for i in range(20)])
    original = legacy.read_bytes()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    once_killed_at(config, root, point, timeout=120)

    # The next start recovers (rolls the uncommitted run back), then reads the turns again.
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    body = once(config)

    assert not legacy.exists()
    records = {r["id"]: r for r in store_records(root / "ada")}
    old = {json.loads(line)["id"]: json.loads(line) for line in original.decode().splitlines()}
    assert all(records[i] == r for i, r in old.items())
    assert [r["value"] for i, r in records.items() if i not in old] == ["Berlin"], body


def test_memory_consolidation_moves_a_record_back_to_its_shard(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model, passes={"distillation": True, "memory_consolidation": True})
    fake_model.reply({"facts": [berlin_fact(), GERMAN]}, schema="DistillationResponse")
    once(config)
    city, language = root / "ada" / shard_of("user", "city"), root / "ada" / shard_of("user", "language")
    language.write_text(language.read_text() + city.read_text())  # a person moved a line by hand
    city.unlink()
    query = run_cli(config, "memory", "query", "--agent", "ada", "--entity", "user", "--key", "city")
    assert query.code == 1 and shard_of("user", "language") in query.err and "line 2" in query.err
    assert f"belongs in shard {shard_of('user', 'city').split('.d/')[1]}" in query.err

    result = run_cli(config, "once", "--agent", "ada", "--pass", "memory_consolidation", "--json")

    assert result.code == 0, result.err
    assert result.json()["passes"][0]["status"] == "applied", result.json()
    assert '"Berlin"' in city.read_text() and '"Berlin"' not in language.read_text()
    fixed = run_cli(config, "memory", "query", "--agent", "ada", "--entity", "user", "--key", "city")
    assert fixed.code == 0 and fixed.out.startswith("Berlin")


def test_forget_rewrites_only_the_shard_of_that_fact(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact(), GERMAN]}, schema="DistillationResponse")
    once(config)
    before = tree_snapshot(root / "ada")
    result = run_cli(config, "memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--json")
    assert result.code == 0, result.err
    after = tree_snapshot(root / "ada")
    assert {p for p in before if before[p] != after.get(p)} == {shard_of("user", "city")}
    assert shard_of("user", "city") not in after


def test_one_id_for_two_different_records_fails_the_run_naming_the_file_and_changes_nothing(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    write_store(root / "ada", stored_fact(id="f-twice", value="Rome"))
    shard = root / "ada" / shard_of()
    shard.parent.mkdir(parents=True)
    shard.write_text(json.dumps(stored_fact(id="f-twice", value="Paris")) + "\n")
    run_cli(config, "once", "--agent", "ada")  # commits both as a person's edits
    before = tree_snapshot(root / "ada")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    entry = next(p for p in result.json()["passes"] if p["name"] == "distillation")
    assert result.code == 1 and entry["status"] == "failed"
    assert (
        f"{root / 'ada' / STORE} is unreadable: line 1: record id 'f-twice' is used by another record"
        in entry["reason"]
    )
    assert tree_snapshot(root / "ada") == before
