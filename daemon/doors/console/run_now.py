"""The console's Run now button: `metaeng-daemon once --agent A [--pass P]` in a thread.

`start` returns at once; the run is the same library call as `once` (`run_once`, under
the agent's run lock), its progress lines kept for the page that polls `job`. One run per
agent: a second Run now while the console's run goes, or while any other run (the
scheduler, a `once` in a terminal) holds the agent's run lock, is refused with AgentBusy
and starts nothing.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

import structlog

from daemon.config.resolve import Deployment
from daemon.doors.console.auth import Session
from daemon.doors.environment import model_access
from daemon.kernel import lock_probe
from daemon.kernel.errors import AgentBusy, DaemonError
from daemon.kernel.settings import PASS_ORDER
from daemon.run.runner import RunResult, run_once
from daemon.run.session import agent_state
from daemon.wiring.pass_registry import default_registry

log = structlog.get_logger("metaeng.console")
LOCK_WAIT_SECONDS = 5.0  # how long a started run waits for the run lock
PROGRESS_LINES = 12  # the newest progress lines a page shows


@dataclass
class Job:
    """One Run now: what was asked, its progress so far, then its result or error."""

    agent: str
    passes: tuple[str, ...]
    started_at: datetime
    progress: deque[str] = field(default_factory=lambda: deque(maxlen=PROGRESS_LINES))
    result: RunResult | None = None
    error: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    @property
    def running(self) -> bool:
        return not self.finished.is_set()


class RunNow:
    """The console's runs in progress and the last one of each agent (in this process)."""

    def __init__(self, clock: Callable[[], datetime], env: Mapping[str, str]) -> None:
        self._clock = clock
        self._env = dict(env)
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()

    def job(self, agent: str) -> Job | None:
        return self._jobs.get(agent)

    def start(self, deployment: Deployment, agent: str, pass_name: str | None, session: Session) -> Job:
        """Start the run in a thread; raises UnknownAgent, DaemonError for an unknown pass,
        AgentBusy if a run of the agent is going (nothing started then)."""
        name = deployment.agent(agent).name
        if pass_name and pass_name not in PASS_ORDER:
            raise DaemonError(f"unknown pass {pass_name} (passes: {', '.join(PASS_ORDER)})")
        with self._lock:
            going = self._jobs.get(name)
            if going is not None and going.running:
                raise AgentBusy(name, message=f"agent {name!r} is busy: the run started here at {going.started_at:%H:%M:%S} UTC is still going")
            if lock_probe.held(agent_state(deployment, name).run_lock):
                raise AgentBusy(name, message=f"agent {name!r} is busy: another run holds its run lock; try again when it ends")
            job = Job(name, (pass_name,) if pass_name else (), self._clock())
            self._jobs[name] = job
        log.info("console.action", session=session.label, action="run-now", agent=name, passes=list(job.passes), outcome="started")
        threading.Thread(target=self._run, args=(deployment, job, session), name=f"run-now-{name}", daemon=True).start()
        return job

    def _run(self, deployment: Deployment, job: Job, session: Session) -> None:
        try:
            job.result = run_once(
                deployment,
                job.agent,
                registry=default_registry(),
                access=model_access(deployment.model, self._env, deployment.config.redact_env),
                now=job.started_at,
                passes=list(job.passes) or None,
                progress=job.progress.append,
                clock=self._clock,
                # `start` found the lock free a moment ago: wait out a page's probe of it (a
                # shared flock held for microseconds) instead of failing as busy
                lock_timeout=max(deployment.config.run_lock_timeout_seconds, LOCK_WAIT_SECONDS),
            )
        except DaemonError as exc:
            job.error = str(exc)
        except Exception:  # a bug must not leave the page polling forever
            log.exception("console.run_now_crashed", agent=job.agent)
            job.error = "the run failed unexpectedly; the daemon's log has the traceback"
        finally:
            outcome = job.result.outcome if job.result else "refused"
            run_id = job.result.run_id if job.result else None
            log.info("console.action", session=session.label, action="run-now", agent=job.agent, outcome=outcome, run_id=run_id, error=job.error)
            job.finished.set()
