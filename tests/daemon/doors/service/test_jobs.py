"""Scheduled jobs: a job that finds its agent busy is retried, and frequent transcript
jobs stand aside for it instead of starving it; a busy attempt is never logged as a run."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock

from daemon.config import load_deployment
from daemon.doors import logs
from daemon.doors.service.jobs import JobRunner
from daemon.wiring.pass_registry import default_registry
from tests.daemon.doors.service.helpers import add_turns, service_config
from tests.support.deploy import base_config, write_config

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def events(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.startswith("{")]


def test_a_busy_maintenance_job_is_not_starved_by_frequent_transcript_jobs(root: Path) -> None:
    cfg = service_config(base_config(root, None))
    cfg["passes"] = {**cfg["passes"], "library_maintenance": True}
    config = write_config(root, cfg)
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    deployment = load_deployment(config, {"HOME": str(root)})
    stream = io.StringIO()
    logs.configure(stream, level="info", json_lines=True)
    runner = JobRunner(deployment, default_registry(), {"HOME": str(root)}, lambda: NOW)
    retries: list[str] = []
    runner.retry = lambda job_id, _delay: retries.append(job_id)

    lock = FileLock(str(root / "state" / "agents" / "ada" / "run.lock"))
    (root / "state" / "agents" / "ada").mkdir(parents=True)
    with lock:  # another process (a long transcript run, a manual `once`) holds the agent
        runner.run("ada", "maintenance")
        assert retries == ["maintenance:ada"]
    # Refused once: transcript jobs still run on their cadence.
    runner.run("ada", "transcripts")
    assert runner.runs == 1
    with lock:
        runner.run("ada", "maintenance")
        runner.run("ada", "maintenance")
    assert retries == ["maintenance:ada"] * 3
    # Refused three times in a row: transcript jobs now stand aside until it had its turn.
    runner.run("ada", "transcripts")
    assert runner.runs == 1
    names = [e["event"] for e in events(stream) if e["event"].startswith(("job.", "run."))]
    assert names.count("job.busy") == 3 and names[-1] == "job.yielded"
    runner.run("ada", "maintenance")  # the retry
    runner.run("ada", "transcripts")
    assert runner.runs == 3
    started = [e for e in events(stream) if e["event"] == "run.start"]
    assert len(started) == 3  # busy attempts were never logged as runs


def test_a_job_starts_nothing_while_stopping_or_for_an_agent_a_reload_removed(root: Path) -> None:
    config = write_config(root, service_config(base_config(root, None)))
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    deployment = load_deployment(config, {"HOME": str(root)})
    runner = JobRunner(deployment, default_registry(), {"HOME": str(root)}, lambda: NOW)
    runner.stopping.set()  # queued before SIGTERM: no new work while draining
    runner.run("ada", "transcripts")
    runner.stopping.clear()
    runner.run("bob", "transcripts")  # an agent the last reload removed
    assert runner.runs == 0
    assert not (root / "state" / "agents" / "ada" / "runs.jsonl").exists()
    runner.run("ada", "transcripts")  # the same job, now: it runs
    assert runner.runs == 1
