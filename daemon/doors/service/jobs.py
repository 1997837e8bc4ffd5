"""The function the scheduler calls: one agent, one pass group, one call to `run_once`.

It is the same code path as `metaeng-daemon once`. The per-agent run lock makes runs of
one agent exclusive across processes: a job that finds the agent busy (a manual `once`,
another group of the same agent) logs it and asks for a retry a little later. A job of
the transcript group with nothing new to read returns without a run (one `stat` per
transcript instead of a git session). The `store_maintenance` job packs the agent's store
instead (`daemon.run.store_maintenance`), never waiting for the run lock: busy, it is
retried and counted like any job, so frequent transcript jobs cannot starve it. Every failure is logged and contained: a job
never raises into the scheduler.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime

import structlog

from daemon.config.resolve import Deployment
from daemon.coordination.backends import agent_breaker
from daemon.doors.environment import model_access
from daemon.doors.service.events import run_events
from daemon.doors.service.inputs import has_new_input
from daemon.doors.service.notify import Event, Notifier
from daemon.doors.service.schedule import STORE_MAINTENANCE, group_passes, why_nothing_scheduled
from daemon.kernel.errors import AgentBusy, DaemonError
from daemon.kernel.paths import StateLayout
from daemon.passes.protocol import Pass
from daemon.run.runner import RunResult, run_once
from daemon.run.store_maintenance import NoStore, maintain_store
from daemon.wiring.retention import apply_retention

log = structlog.get_logger("metaeng.service")
YIELD_AFTER_BUSY = 3


class JobRunner:
    """Runs scheduled jobs against the current deployment (swapped by a reload)."""

    def __init__(
        self,
        deployment: Deployment,
        registry: Mapping[str, Pass],
        env: Mapping[str, str],
        clock: Callable[[], datetime],
    ) -> None:
        self.deployment = deployment
        self.registry = registry
        self.env = env
        self.clock = clock
        self.retry: Callable[[str, float], None] = lambda _job_id, _delay: None
        self.notifier: Notifier | None = None  # set by the service when `notify:` is configured
        self.stopping = threading.Event()
        self.last_transcript_start: dict[str, datetime] = {}
        self.last_outcome = ""
        self.runs = 0
        self._lock = threading.Lock()
        self._active: dict[str, str] = {}  # job id -> agent
        # Jobs that found their agent busy, per agent, with how many times in a row: once one
        # was refused YIELD_AFTER_BUSY times, frequent transcript jobs stand aside until it
        # had its turn, instead of taking the lock again and again and starving it.
        self._waiting: dict[str, dict[str, int]] = {}

    def active(self) -> dict[str, str]:
        with self._lock:
            return dict(self._active)

    def is_busy(self, agent: str) -> bool:
        with self._lock:
            return agent in self._active.values()

    @contextmanager
    def _tracking(self, job_id: str, agent: str) -> Iterator[None]:
        with self._lock:
            self._active[job_id] = agent
        try:
            yield
        finally:
            with self._lock:
                self._active.pop(job_id, None)

    def _ran(self, agent: str, job_id: str) -> None:
        with self._lock:
            self._waiting.get(agent, {}).pop(job_id, None)

    def run(self, agent_name: str, group: str) -> None:
        """Run one job; never raises."""
        if self.stopping.is_set():
            return  # queued before SIGTERM: do not start new work while draining
        deployment = self.deployment
        agent = deployment.agents.get(agent_name)
        if why_nothing_scheduled(deployment) or agent is None or not agent.enabled:
            return
        if group == STORE_MAINTENANCE:
            with self._tracking(f"{group}:{agent_name}", agent_name):
                self._maintain(deployment, agent_name, f"{group}:{agent_name}")
            return
        passes = group_passes(agent, group, self.registry)
        if not passes:
            return
        job_id = f"{group}:{agent_name}"
        with self._lock:
            refused = self._waiting.get(agent_name, {})
            waiting = sorted(j for j, n in refused.items() if j != job_id and n >= YIELD_AFTER_BUSY)
        if group == "transcripts" and waiting:
            log.info("job.yielded", agent=agent_name, job=job_id, to=waiting)
            return
        state = StateLayout(deployment.state_dir).agent(agent_name)
        now = self.clock()
        try:
            if group == "transcripts" and not has_new_input(agent, state, passes):
                log.debug("job.idle", agent=agent_name, job=job_id)
                return
        except DaemonError as exc:
            log.error("job.failed", agent=agent_name, job=job_id, error=str(exc))
            return
        with self._tracking(job_id, agent_name):
            if group == "transcripts":
                self.last_transcript_start[agent_name] = now
            self._run_once(deployment, agent_name, job_id, passes, now)

    def _maintain(self, deployment: Deployment, agent: str, job_id: str) -> None:
        """Apply the agent's retention, then pack its store, if its run lock is free; busy → retried like any job."""
        try:
            try:
                applied = apply_retention(deployment, agent, self.clock(), 0.0)
            except AgentBusy:
                raise
            except DaemonError as exc:  # the store is still packed: a refused retention must not starve it
                log.error("retention.failed", agent=agent, job=job_id, error=str(exc))
            else:
                if not applied.empty:
                    log.info(
                        "retention.applied",
                        agent=agent,
                        closed_facts=len(applied.closed),
                        ledgers=len(applied.ledgers),
                        squashed_runs=applied.squash.squashed_runs if applied.squash else 0,
                    )
            record = maintain_store(deployment, agent, self.clock(), 0.0)
        except NoStore:
            log.debug("job.idle", agent=agent, job=job_id, note="no store yet")
            return
        except AgentBusy as exc:
            self._busy(deployment, agent, job_id, exc)
            return
        except DaemonError as exc:
            self._ran(agent, job_id)
            log.error("job.failed", agent=agent, job=job_id, error=str(exc))
            return
        except Exception:  # a bug must not kill the scheduler thread pool
            log.exception("job.crashed", agent=agent, job=job_id)
            return
        self._ran(agent, job_id)
        self.last_outcome = (
            f"{agent} store maintenance {record.outcome} at {self.clock().strftime('%H:%M:%SZ')}"
        )

    def _busy(self, deployment: Deployment, agent: str, job_id: str, exc: AgentBusy) -> None:
        """Log a job that found its agent busy, count it (see `_waiting`) and retry it later."""
        delay = deployment.config.service.busy_retry_seconds
        log.info("job.busy", agent=agent, job=job_id, detail=str(exc), retry_in_s=delay)
        if not self.stopping.is_set():
            with self._lock:
                refused = self._waiting.setdefault(agent, {})
                refused[job_id] = refused.get(job_id, 0) + 1
            self.retry(job_id, delay)

    def _breaker_open(self, deployment: Deployment, agent: str, now: datetime) -> bool:
        breaker = agent_breaker(deployment, agent)
        return breaker is not None and breaker.open_until(now) is not None

    def _notify(
        self, deployment: Deployment, agent: str, result: RunResult | None, error: str | None, was_open: bool
    ) -> None:
        """Tell people what this run needs from them (`notify:`); never raises."""
        if self.notifier is None:
            return
        try:
            if result is None:
                events = [
                    Event(
                        "run_failed", agent, f"run of agent {agent} failed: {error}", f"/runs?agent={agent}"
                    )
                ]
            else:
                is_open = self._breaker_open(deployment, agent, self.clock())
                events = run_events(deployment, result, was_open, is_open)
            # One budget for all of them; a stopping daemon does not wait (they stay in the outbox).
            self.notifier.deliver(events, self.stopping)
        except Exception:  # a notification problem must not fail the job
            log.exception("notify.crashed", agent=agent)

    def _run_once(
        self, deployment: Deployment, agent: str, job_id: str, passes: tuple[str, ...], now: datetime
    ) -> None:
        was_open = False
        if self.notifier is not None:
            try:
                was_open = self._breaker_open(deployment, agent, now)
            except DaemonError:
                was_open = False
        try:
            result = run_once(
                deployment,
                agent,
                registry=self.registry,
                access=model_access(deployment.model, self.env, deployment.config.redact_env),
                now=now,
                passes=passes,
                clock=self.clock,
            )
        except AgentBusy as exc:
            self._busy(deployment, agent, job_id, exc)
            return
        except DaemonError as exc:
            self._ran(agent, job_id)
            log.error("job.failed", agent=agent, job=job_id, error=str(exc))
            self._notify(deployment, agent, None, str(exc), was_open)
            return
        except Exception:  # a bug must not kill the scheduler thread pool
            log.exception("job.crashed", agent=agent, job=job_id)
            return
        self._notify(deployment, agent, result, None, was_open)
        self._ran(agent, job_id)
        self.runs += 1
        self.last_outcome = f"{agent} {result.outcome} at {now.strftime('%H:%M:%SZ')}"
