"""What the running daemon says about itself: systemd's STATUS= line and `state/daemon.json`."""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path

from daemon.doors.service import daemon_json
from daemon.doors.service.jobs import JobRunner
from daemon.doors.service.schedule import why_nothing_scheduled
from daemon.doors.service.table import JobTable
from daemon.doors.version import installed_version


def status_text(runner: JobRunner, table: JobTable) -> str:
    """One line for `systemctl status`: agents, jobs, runs going and done, the last outcome."""
    deployment = runner.deployment
    why = why_nothing_scheduled(deployment)
    if why:
        return f"{len(deployment.agents)} agent(s); nothing scheduled: {why}"
    text = (
        f"{len(deployment.agents)} agent(s), {len(table.specs)} job(s), "
        f"{len(runner.active())} run(s) going, {runner.runs} done"
    )
    return f"{text}; last: {runner.last_outcome}" if runner.last_outcome else text


def daemon_state(runner: JobRunner, table: JobTable, started_at: datetime, config: Path) -> daemon_json.DaemonState:
    """The state `status` reads while this daemon runs: its jobs and their next runs."""
    next_runs = table.next_runs()
    jobs = [
        daemon_json.JobState(
            id=spec.id,
            agent=spec.agent,
            group=spec.group,
            passes=list(spec.passes),
            next_run=_iso(next_runs.get(spec.id)),
        )
        for spec in table.specs.values()
    ]
    return daemon_json.DaemonState(
        pid=os.getpid(),
        started_at=started_at.isoformat(),
        config=str(config),
        scheduling=why_nothing_scheduled(runner.deployment) or "scheduled",
        jobs=jobs,
        daemon_version=installed_version("metaeng-daemon"),
    )


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None
