"""The APScheduler 3 job table: built from the config at start, reconciled on reload.

`BackgroundScheduler` in UTC with an in-memory job store (never shared between
processes; the daemon lock keeps one scheduler per state directory). Every job has an
explicit id (`<group>:<agent>`), coalesces missed runs, never runs twice at once
(`max_instances=1`), and tolerates being late by up to one interval (the 1 s default
grace would silently drop jobs queued behind a busy pool). A heartbeat job on its own
one-thread executor proves the scheduler still fires; the watchdog pings only while it
is fresh.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta

import structlog
from apscheduler.events import (
    EVENT_JOB_ERROR,
    EVENT_JOB_EXECUTED,
    EVENT_JOB_MAX_INSTANCES,
    EVENT_JOB_MISSED,
    EVENT_JOB_SUBMITTED,
    JobEvent,
    JobExecutionEvent,
)
from apscheduler.executors.pool import ThreadPoolExecutor
from apscheduler.jobstores.base import JobLookupError
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.triggers.interval import IntervalTrigger

from daemon.doors.service.jobs import JobRunner
from daemon.doors.service.schedule import JobSpec

log = structlog.get_logger("metaeng.scheduler")
HEARTBEAT_ID = "heartbeat"
HEARTBEAT_SECONDS = 5.0


class JobTable:
    def __init__(self, runner: JobRunner, max_parallel_runs: int) -> None:
        self.runner = runner
        self.scheduler = BackgroundScheduler(
            timezone=UTC,
            executors={
                "default": ThreadPoolExecutor(max_parallel_runs),
                HEARTBEAT_ID: ThreadPoolExecutor(1),
            },
            job_defaults={"coalesce": True, "max_instances": 1, "misfire_grace_time": 60},
        )
        self.specs: dict[str, JobSpec] = {}
        self.heartbeat_at = time.monotonic()
        self.changed = threading.Event()
        self.scheduler.add_listener(
            self._on_event,
            EVENT_JOB_MISSED
            | EVENT_JOB_MAX_INSTANCES
            | EVENT_JOB_ERROR
            | EVENT_JOB_EXECUTED
            | EVENT_JOB_SUBMITTED,
        )

    def start(self) -> None:
        self.scheduler.add_job(
            self._beat,
            IntervalTrigger(seconds=HEARTBEAT_SECONDS, timezone=UTC),
            id=HEARTBEAT_ID,
            name=HEARTBEAT_ID,
            executor=HEARTBEAT_ID,
            misfire_grace_time=None,
        )
        # Paused until the daemon is ready: no job fires before READY=1.
        self.scheduler.start(paused=True)

    def resume(self) -> None:
        self.scheduler.resume()

    def _beat(self) -> None:
        self.heartbeat_at = time.monotonic()

    def heartbeat_fresh(self) -> bool:
        return time.monotonic() - self.heartbeat_at < 3 * HEARTBEAT_SECONDS

    def _on_event(self, event: JobEvent) -> None:
        if event.job_id == HEARTBEAT_ID:
            return
        if event.code == EVENT_JOB_MISSED:
            assert isinstance(event, JobExecutionEvent)
            log.warning("job.missed", job=event.job_id, scheduled=event.scheduled_run_time.isoformat())
        elif event.code == EVENT_JOB_MAX_INSTANCES:
            log.info("job.still_running", job=event.job_id, note="this fire time is skipped")
        elif event.code == EVENT_JOB_ERROR:
            log.error("job.error", job=event.job_id, error=repr(getattr(event, "exception", None)))
        self.changed.set()

    def reconcile(self, specs: Iterable[JobSpec], first_run: Callable[[JobSpec], datetime]) -> dict[str, int]:
        """Make the scheduled jobs match `specs`; unchanged jobs keep their next run time."""
        desired = {spec.id: spec for spec in specs}
        counts = {"added": 0, "removed": 0, "rescheduled": 0, "kept": 0}
        for job_id in [j for j in self.specs if j not in desired]:
            self._remove(job_id)
            counts["removed"] += 1
        for job_id, spec in desired.items():
            old = self.specs.get(job_id)
            if old is not None and (old.interval_seconds, old.jitter_seconds) == (
                spec.interval_seconds,
                spec.jitter_seconds,
            ):
                counts["kept"] += 1  # passes are read from the config when the job runs
                continue
            self.scheduler.add_job(
                self.runner.run,
                IntervalTrigger(
                    seconds=spec.interval_seconds, jitter=spec.jitter_seconds or None, timezone=UTC
                ),
                args=(spec.agent, spec.group),
                id=job_id,
                name=job_id,
                next_run_time=first_run(spec),
                misfire_grace_time=int(spec.misfire_grace_seconds),
                coalesce=True,
                max_instances=1,
                replace_existing=True,
            )
            counts["rescheduled" if old is not None else "added"] += 1
        self.specs = desired
        self.changed.set()
        return counts

    def _remove(self, job_id: str) -> None:
        try:
            self.scheduler.remove_job(job_id)
        except JobLookupError:
            pass

    def bring_forward(self, job_id: str, when: datetime) -> bool:
        """Move a job's next run to `when` if that is sooner; False if it is unknown or sooner already."""
        job = self.scheduler.get_job(job_id)
        if job is None or (job.next_run_time is not None and job.next_run_time <= when):
            return False
        try:
            self.scheduler.modify_job(job_id, next_run_time=when)
        except JobLookupError:
            return False
        self.changed.set()
        return True

    def retry(self, job_id: str, delay_seconds: float) -> None:
        self.bring_forward(job_id, self.runner.clock() + timedelta(seconds=delay_seconds))

    def next_runs(self) -> dict[str, datetime | None]:
        return {job.id: job.next_run_time for job in self.scheduler.get_jobs() if job.id != HEARTBEAT_ID}

    def pause(self) -> None:
        self.scheduler.pause()

    def shutdown(self) -> None:
        # Called from the main loop, never from a signal handler (it can deadlock there).
        self.scheduler.shutdown(wait=False)
