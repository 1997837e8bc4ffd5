"""Git maintenance of the store: git's auto-gc never runs in a run; the daemon packs the
store itself, by hand or on the service's schedule, under the agent's run lock."""

from __future__ import annotations

import io
import json
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from filelock import FileLock

from daemon.config import load_deployment
from daemon.doors import logs
from daemon.doors.service.jobs import JobRunner
from daemon.wiring.pass_registry import default_registry
from tests.daemon.doors.service.helpers import add_turns, service_config
from tests.support.deploy import base_config, run_cli, tree_snapshot, write_config
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def git_dir(root: Path) -> Path:
    return root / "state" / "agents" / "ada" / "store.git"


def git(root: Path, *args: str, check: bool = True) -> str:
    done = subprocess.run(["git", f"--git-dir={git_dir(root)}", *args], capture_output=True, text=True, check=check)
    return done.stdout.strip()


def objects(root: Path) -> dict[str, int]:
    counts = dict(line.split(": ") for line in git(root, "count-objects", "-v").splitlines())
    return {key: int(value) for key, value in counts.items() if key in ("count", "in-pack", "packs")}


def applied(root: Path, fake_model: FakeModelServer) -> Path:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada", "--json").json()["run_id"]
    return config


def test_stores_the_daemon_creates_never_auto_gc(root: Path, fake_model: FakeModelServer) -> None:
    applied(root, fake_model)
    assert git(root, "config", "--get", "gc.auto") == "0"
    assert git(root, "config", "--get", "maintenance.auto") == "false"


def test_an_existing_store_gets_auto_gc_switched_off_by_the_next_run(root: Path, fake_model: FakeModelServer) -> None:
    config = applied(root, fake_model)
    # A store made by an older version: no gc.auto, no stamp.
    git(root, "config", "--unset", "gc.auto")
    git(root, "config", "--unset", "maintenance.auto")
    git(root, "config", "--unset", "metaeng.hermeticVersion")
    assert git(root, "config", "--get", "gc.auto", check=False) == ""
    assert run_cli(config, "runs").code == 0  # a reader writes nothing into the store (it commits nothing either)
    assert git(root, "config", "--get", "gc.auto", check=False) == ""
    assert run_cli(config, "once", "--agent", "ada").code == 0
    assert git(root, "config", "--get", "gc.auto") == "0"
    assert git(root, "config", "--get", "maintenance.auto") == "false"


@pytest.mark.slow
def test_maintenance_packs_the_store_and_status_shows_it(root: Path, fake_model: FakeModelServer) -> None:
    config = applied(root, fake_model)
    head = git(root, "rev-parse", "HEAD")
    assert objects(root)["count"] > 0  # loose objects from the runs
    done = run_cli(config, "maintenance", "--agent", "ada", "--json")
    assert done.code == 0, done.err
    (row,) = done.json()
    assert row["agent"] == "ada" and row["outcome"] == "done"
    assert row["size_before_bytes"] > 0 and row["size_after_bytes"] > 0
    packed = objects(root)
    assert packed["count"] == 0 and packed["packs"] == 1 and packed["in-pack"] > 0
    assert git(root, "rev-parse", "HEAD") == head
    assert subprocess.run(["git", f"--git-dir={git_dir(root)}", "fsck", "--strict"], capture_output=True).returncode == 0
    record = json.loads((root / "state" / "agents" / "ada" / "maintenance.json").read_text())
    assert record["version"] == 1 and record["outcome"] == "done"
    status = run_cli(config, "status", "--json").json()["agents"][0]["store_maintenance"]
    assert status["outcome"] == "done" and status["size_after_bytes"] == row["size_after_bytes"]
    human = run_cli(config, "status")
    assert "store maintenance: done at" in human.out
    # Runs and undo still work on the packed store.
    run_id = run_cli(config, "runs", "--json").json()[0]["run_id"]
    assert run_cli(config, "undo", run_id).code == 0


@pytest.mark.slow
def test_maintenance_waits_for_the_run_lock_and_gives_up_changing_nothing(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = applied(root, fake_model)
    before_objects = objects(root)
    before_state = tree_snapshot(root / "state" / "agents" / "ada", skip=["store.git"])
    with FileLock(str(root / "state" / "agents" / "ada" / "run.lock")):  # a run in progress
        busy = run_cli(config, "maintenance", "--agent", "ada", "--wait", "0.2")
    assert busy.code == 1
    assert "agent ada: maintenance not run" in busy.err and "busy" in busy.err
    assert objects(root) == before_objects
    assert tree_snapshot(root / "state" / "agents" / "ada", skip=["store.git"]) == before_state
    assert not (root / "state" / "agents" / "ada" / "maintenance.json").exists()


def test_maintenance_before_the_first_run_has_nothing_to_pack(root: Path) -> None:
    config = setup_agent(root, None)
    result = run_cli(config, "maintenance", "--json")
    assert result.code == 0, result.err
    assert result.json() == [
        {"agent": "ada", "outcome": "no store", "detail": "agent 'ada' has no store yet (no run so far): nothing to pack"}
    ]
    assert not git_dir(root).exists()


def test_the_maintenance_job_skips_a_busy_agent_and_frequent_transcript_jobs_yield_to_it(root: Path) -> None:
    cfg = service_config(base_config(root, None))
    config = write_config(root, cfg)
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    env = {"HOME": str(root)}
    deployment = load_deployment(config, env)
    stream = io.StringIO()
    logs.configure(stream, level="info", json_lines=True)
    runner = JobRunner(deployment, default_registry(), env, lambda: NOW)
    retries: list[str] = []
    runner.retry = lambda job_id, _delay: retries.append(job_id)
    runner.run("ada", "transcripts")  # the first run creates the store
    assert runner.runs == 1
    record = root / "state" / "agents" / "ada" / "maintenance.json"
    lock = FileLock(str(root / "state" / "agents" / "ada" / "run.lock"))
    with lock:  # a long run holds the agent: the job does not wait, it is retried
        for _ in range(3):
            runner.run("ada", "store_maintenance")
    assert retries == ["store_maintenance:ada"] * 3 and not record.exists()
    add_turns(root / "ada", "s2.jsonl", 4, "ada")
    runner.run("ada", "transcripts")  # refused three times: transcripts stand aside
    assert runner.runs == 1
    runner.run("ada", "store_maintenance")  # the retry, lock free
    assert json.loads(record.read_text())["outcome"] == "done"
    runner.run("ada", "transcripts")
    assert runner.runs == 2
    names = [json.loads(line)["event"] for line in stream.getvalue().splitlines() if line.startswith("{")]
    assert names.count("job.busy") == 3 and "job.yielded" in names and "maintenance.done" in names
