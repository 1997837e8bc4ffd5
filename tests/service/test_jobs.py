"""Scheduled jobs: a job that finds its agent busy is retried, and frequent transcript
jobs stand aside for it instead of starving it; a busy attempt is never logged as a run."""

from __future__ import annotations

import io
import json
from datetime import UTC, datetime
from pathlib import Path

from filelock import FileLock

from daemon import logs
from daemon.config import load_deployment
from daemon.registry import default_registry
from daemon.service.jobs import JobRunner
from tests.service.helpers import add_turns, service_config
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
    with lock:  # a manual `once` holds the agent
        runner.run("ada", "maintenance")
    assert retries == ["maintenance:ada"]
    # Until the maintenance job had its turn, transcript jobs stand aside.
    runner.run("ada", "transcripts")
    assert runner.runs == 0
    assert [e["event"] for e in events(stream) if e["event"].startswith(("job.", "run."))] == [
        "job.busy",
        "job.yielded",
    ]
    runner.run("ada", "maintenance")  # the retry
    runner.run("ada", "transcripts")
    assert runner.runs == 2
    started = [e for e in events(stream) if e["event"] == "run.start"]
    assert len(started) == 2  # the busy attempt was never logged as a run
