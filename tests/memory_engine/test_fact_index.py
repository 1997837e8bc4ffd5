"""`memory query`/`memory list` answer from the SQLite index: fresh, rebuildable, never another owner's."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory_engine.fact_shards import shard_name
from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot
from tests.support.facts import shard_of, stored_fact, write_store
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

REPO = Path(__file__).resolve().parents[2]


def index_file(root: Path) -> Path:
    return root / "state" / "agents" / "ada" / "facts-index.sqlite3"


def query(config: Path, entity: str = "user", key: str = "city") -> tuple[int, str, str]:
    result = run_cli(config, "memory", "query", "--agent", "ada", "--entity", entity, "--key", key, "--as-of", "2026-11-30")
    return result.code, result.out, result.err


@pytest.fixture
def stored(root: Path, fake_model: FakeModelServer) -> Path:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    return config


def test_a_hand_edit_to_a_shard_is_seen_by_the_next_query(root: Path, stored: Path) -> None:
    assert query(stored)[1].startswith("Berlin")
    assert index_file(root).is_file()
    shard = root / "ada" / shard_of()
    shard.write_text(shard.read_text().replace('"Berlin"', '"Hamburg"'))
    code, out, _err = query(stored)
    assert code == 0 and out.startswith("Hamburg")


def test_a_same_size_edit_in_the_clock_tick_of_the_last_refresh_is_seen(root: Path, stored: Path) -> None:
    """On a coarse clock an edit right after a refresh can leave size and times as recorded:
    the index must hash such a recent file again, as git does with "racily clean" entries."""
    assert query(stored)[1].startswith("Berlin")
    shard = root / "ada" / shard_of()
    shard.write_text(shard.read_text().replace('"Berlin"', '"Munich"'))  # same length
    st = shard.stat()
    with sqlite3.connect(index_file(root)) as db:  # what a coarse clock would have recorded
        db.execute(
            "UPDATE files SET size = ?, mtime_ns = ?, ctime_ns = ?, ino = ? WHERE path = ?",
            (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, shard_of()),
        )
    db.close()
    code, out, _err = query(stored)
    assert code == 0 and out.startswith("Munich")


def test_a_malformed_line_is_reported_with_file_and_line_and_the_index_keeps_what_it_had(
    root: Path, stored: Path
) -> None:
    assert query(stored)[0] == 0
    shard = root / "ada" / shard_of()
    good = shard.read_text()
    shard.write_text(good + "{not json\n")
    code, out, err = query(stored)
    assert code == 1 and out == ""
    assert f"{shard} is unreadable: line 2: not JSON" in err and "Traceback" not in err
    listing = run_cli(stored, "memory", "list", "--agent", "ada")
    assert listing.code == 1 and "line 2: not JSON" in listing.err
    shard.write_text(good)
    assert query(stored)[1].startswith("Berlin")


@pytest.mark.parametrize(
    "damage",
    ["garbage", "older schema", "other store", "truncated"],
)
def test_a_damaged_or_outdated_index_is_rebuilt(root: Path, stored: Path, damage: str) -> None:
    assert query(stored)[0] == 0
    path = index_file(root)
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    elif damage == "truncated":
        path.write_bytes(path.read_bytes()[:100])
    else:
        with sqlite3.connect(path) as db:
            column = "schema" if damage == "older schema" else "store"
            db.execute("UPDATE meta SET value = 'x' WHERE key = ?", (column,))
            db.execute("DELETE FROM facts")  # what a stale index would answer: nothing
    code, out, err = query(stored)
    assert code == 0 and out.startswith("Berlin"), err
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM facts").fetchone() == (1,)


def test_a_query_never_sees_another_owners_facts(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    write_store(
        root / "ada",
        stored_fact(id="f-bob", user="bob", value="Oslo"),
        stored_fact(id="f-other-tenant", tenant="acme", value="Lima"),
    )
    assert run_cli(config, "once", "--agent", "ada").code == 0
    code, out, _err = query(config)
    assert code == 0 and out.startswith("no answer for user.city")
    listing = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json")
    assert listing.json()["records"] == []


def test_a_query_creates_no_state_and_writes_nothing_in_the_home(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    write_store(root / "ada", stored_fact())
    before = tree_snapshot(root / "ada")
    code, out, _err = query(config)
    assert code == 0 and out.startswith("Berlin")
    assert not (root / "state").exists() and tree_snapshot(root / "ada") == before


@pytest.mark.slow
def test_readers_during_a_migrating_run_always_see_every_fact(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    facts = [stored_fact(id=f"f-{i:03d}", entity=f"thing{i}", value=f"v{i}") for i in range(300)]
    write_store(root / "ada", *facts)
    # The shard written last by the run (paths are written in order) is the one asked for.
    last = max(facts, key=lambda r: shard_name(("default", "ada", r["entity"], "city")))
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY}
    # Output to files, not pipes nobody drains while the loop reads: a full pipe would stop the run.
    log = root / "run.log"
    with log.open("w") as sink:
        run = subprocess.Popen(
            [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada"],
            env=env,
            cwd=REPO,
            stdout=sink,
            stderr=subprocess.STDOUT,
            text=True,
        )
    answers = []
    deadline = time.monotonic() + 120
    while run.poll() is None or not answers:
        assert time.monotonic() < deadline, "the run did not end within 120 s"
        code, out, err = query(config, entity=last["entity"])
        assert code == 0, err
        answers.append(out.splitlines()[0])
        listed = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json")
        assert listed.code == 0 and len(listed.json()["records"]) in (300, 301)
    assert run.wait(timeout=120) == 0, log.read_text()
    assert set(answers) == {last["value"]}
    records = run_cli(config, "memory", "list", "--agent", "ada", "--all", "--json").json()["records"]
    assert len(records) == 301 and not (root / "ada" / ".metaeng" / "facts.jsonl").exists()
