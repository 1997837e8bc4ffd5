"""Migration of a single-file fact store into shards, streamed in bounded memory.

The reference for "the same facts" is what the store did before streaming: every record
parsed at once, grouped by shard and rendered (`factstore.parse` + `by_shard` +
`factstore.render`); the streamed migration must write those exact bytes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from daemon.config.loader import load_deployment
from daemon.kernel.errors import CorruptState
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from memory_engine import factstore
from memory_engine.agent_memory import open_edit
from memory_engine.fact_shards import by_shard
from memory_engine.records import FactRecord
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.facts import shard_of, store_records, store_text, stored_fact, write_store
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, once_killed_at, setup_agent

REPO = Path(__file__).resolve().parents[2]
STORE = ".metaeng/facts.jsonl"


def varied_records(count: int) -> list[dict[str, Any]]:
    """Records over several owners, entities and keys, some closed, some with quotes and
    characters JSON must escape or may keep (quotes, non-ASCII)."""
    records = []
    for i in range(count):
        record = stored_fact(
            id=f"f-{i:04d}",
            user=("ada", "bob", "cy")[i % 3],
            entity=f"thing{i % 17}",
            key=("city", "plan", "language")[i % 5 % 3],
            value=f"value {i} — Zürich \"{i}\"" if i % 7 == 0 else f"value {i}",
            valid_from=f"2026-0{1 + i % 9}-1{i % 10}",
        )
        if i % 4 == 0:
            record["quote"] = f"said «{i}»"
        records.append(record)
    return records


def reference_shards(legacy: bytes) -> dict[str, bytes]:
    """The shards the single file became before streaming: every record parsed at once."""
    records = factstore.parse(legacy.decode("utf-8"), "legacy")
    return {path: factstore.render(group) for path, group in by_shard(records, STORE).items()}


def agent_of(root: Path) -> AgentSettings:
    config = write_config(root, base_config(root, None))
    return load_deployment(config, {}).agent("ada")


def test_the_streamed_migration_writes_byte_for_byte_the_shards_of_the_whole_file_read(tmp_path: Path) -> None:
    agent = agent_of(tmp_path)
    home = tmp_path / "ada"
    records = varied_records(300)
    # Shuffled lines, a blank line and a CRLF line: the order of the file never shows in a shard.
    lines = [json.dumps(r, ensure_ascii=False) for r in records]
    lines = [*lines[::2], "", *lines[1::2]]
    lines[5] += "\r"
    (home / ".metaeng").mkdir()
    (home / STORE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    legacy = (home / STORE).read_bytes()

    edit = open_edit(agent, AgentView(home))
    writes, deletes = edit.changes("2026-12-02")

    assert deletes == (STORE,)
    assert {w.path: w.content for w in writes} == reference_shards(legacy)
    assert all(w.spooled is not None for w in writes)  # none held in memory
    assert len(edit.memory) == 0


def test_a_shard_the_run_touches_is_loaded_from_the_migration_and_rendered_with_the_change(tmp_path: Path) -> None:
    agent = agent_of(tmp_path)
    home = tmp_path / "ada"
    write_store(home, *varied_records(40))
    reference = reference_shards((home / STORE).read_bytes())
    edit = open_edit(agent, AgentView(home))
    scope = ("default", "ada", "thing0", "city")
    edit.load_scope(scope)
    loaded = {r.id for r in edit.records()}
    assert loaded == {r["id"] for r in varied_records(40) if (r["user"], r["entity"], r["key"]) == scope[1:]}

    result = edit.memory.delete(("default", "ada"), "thing0", "city")
    writes = {w.path: w for w in edit.changes("2026-12-02")[0]}

    path = shard_of("thing0", "city")
    others = [r for r in factstore.parse(reference[path].decode(), "ref") if r.id not in result.deleted_ids]
    assert result.deleted_ids
    # Its only record deleted, the shard is never written (nothing on disk to delete either).
    assert path not in writes if not others else writes[path].content == factstore.render(others)
    assert {p: w.content for p, w in writes.items() if p != path} == {p: c for p, c in reference.items() if p != path}


def test_the_facts_view_mid_migration_is_the_view_of_every_record_without_holding_them(tmp_path: Path) -> None:
    agent = agent_of(tmp_path)
    home = tmp_path / "ada"
    write_store(home, *varied_records(300))  # 300 current facts: more than the view shows
    everything = factstore.parse((home / STORE).read_text(), "all")
    edit = open_edit(agent, AgentView(home))
    edit.load_scope(("default", "ada", "thing0", "city"))
    deleted = edit.memory.delete(("default", "ada"), "thing0", "city").deleted_ids

    view = edit.facts_view("2026-12-02")

    assert deleted
    assert view == factstore.render_markdown([r for r in everything if r.id not in deleted], "2026-12-02")
    assert len(edit.memory) == 0


def test_a_record_in_both_the_single_file_and_its_shard_is_kept_once(tmp_path: Path) -> None:
    agent = agent_of(tmp_path)
    home = tmp_path / "ada"
    first, second = stored_fact(id="f-a"), stored_fact(id="f-b", key="plan", value="pro")
    write_store(home, first, second)
    shard = home / shard_of("user", "city")
    shard.parent.mkdir(parents=True)
    # A run migrated it, then the single file came back (a person restored it).
    shard.write_bytes(factstore.render([FactRecord.model_validate(first)]))

    writes, _ = open_edit(agent, AgentView(home)).changes("2026-12-02")

    assert {w.path for w in writes} == {shard_of("user", "plan")}  # the city shard is already right


def test_two_records_under_one_id_refuse_the_migration_naming_the_line(tmp_path: Path) -> None:
    agent = agent_of(tmp_path)
    home = tmp_path / "ada"
    write_store(home, stored_fact(id="f-a"), stored_fact(id="f-b", entity="x"), stored_fact(id="f-a", entity="y"))
    with pytest.raises(CorruptState, match=r"line 3: duplicate record id 'f-a'"):
        open_edit(agent, AgentView(home))
    shard = home / shard_of("user", "city")
    shard.parent.mkdir(parents=True)
    shard.write_text(json.dumps(stored_fact(id="f-z", value="Rome")) + "\n")
    write_store(home, stored_fact(id="f-z"))
    with pytest.raises(CorruptState, match=r"line 1: record id 'f-z' is used by another record"):
        open_edit(agent, AgentView(home))


def test_a_new_id_avoids_every_id_of_the_single_file_unread(tmp_path: Path) -> None:
    agent = agent_of(tmp_path)
    home = tmp_path / "ada"
    write_store(home, *varied_records(30))
    edit = open_edit(agent, AgentView(home))
    assert "f-0007" in edit._taken and "f-9999" not in edit._taken
    # A shard not migrated holding an id of the single file is refused when read.
    stray = home / shard_of("elsewhere", "city")
    stray.parent.mkdir(parents=True, exist_ok=True)
    stray.write_text(json.dumps(stored_fact(id="f-0007", entity="elsewhere")) + "\n")
    with pytest.raises(CorruptState, match="'f-0007' is used by another record"):
        edit.load_scope(("default", "ada", "elsewhere", "city"))


def test_a_migrating_run_commits_every_shard_undo_restores_the_single_file_and_no_spool_is_left(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    legacy = write_store(root / "ada", *varied_records(120))
    original = legacy.read_bytes()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    body = run_cli(config, "once", "--agent", "ada", "--json")

    assert body.code == 0, body.err
    assert not legacy.exists()
    after = {r["id"]: r for r in store_records(root / "ada")}
    assert all(after[r["id"]] == r for r in map(json.loads, original.decode().splitlines()))
    assert len(after) == 121
    assert not list((root / "state" / "agents" / "ada").rglob("spool-*"))
    undone = run_cli(config, "undo", body.json()["run_id"])
    assert undone.code == 0, undone.err
    assert legacy.read_bytes() == original
    assert store_text(root / "ada") == original.decode()


@pytest.mark.parametrize("point", ["after_plan", "migration_half_written"])
def test_a_crash_at_a_migration_point_leaves_the_single_file_and_the_next_run_migrates(
    root: Path, fake_model: FakeModelServer, point: str
) -> None:
    config = setup_agent(root, fake_model)
    legacy = write_store(root / "ada", *varied_records(60))
    original = legacy.read_bytes()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    once_killed_at(config, root, point, timeout=120)
    state = root / "state" / "agents" / "ada"
    assert list(state.rglob("spool-*"))  # what the killed run had spooled

    # The next run recovers first (rolls the uncommitted run back), then reads the turns again.
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    body = run_cli(config, "once", "--agent", "ada", "--json")

    assert body.code == 0, body.err
    assert not legacy.exists() and not list(state.rglob("spool-*"))
    records = {r["id"]: r for r in store_records(root / "ada")}
    old = [json.loads(line) for line in original.decode().splitlines()]
    assert all(records[r["id"]] == r for r in old)
    assert len(records) == len(old) + 1
    undone = run_cli(config, "undo", body.json()["run_id"])
    assert undone.code == 0, undone.err
    assert legacy.read_bytes() == original
