"""The console's Run now button: `metaeng-daemon once --agent A [--pass P]` in a thread.

`start` returns at once; the run is the same library call as `once` (`run_once`, under
the agent's run lock), its progress lines kept for the page that polls `job`. One run per
agent: a second Run now while the console's run goes, or while any other run (the
scheduler, a `once` in a terminal) holds the agent's run lock, is refused with AgentBusy
and starts nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.doors.console.auth import Session
from daemon.doors.console.background import Background, BackgroundJob, still_going
from daemon.doors.environment import model_access
from daemon.kernel import lock_probe
from daemon.kernel.errors import DaemonError
from daemon.kernel.settings import PASS_ORDER
from daemon.run.runner import RunResult, run_once
from daemon.run.session import agent_state
from daemon.wiring.pass_registry import default_registry

LOCK_WAIT_SECONDS = 5.0  # how long a started run waits for the run lock
PROGRESS_LINES = 12  # the newest progress lines a page shows


@dataclass
class Job(BackgroundJob):
    """One Run now: what was asked, its progress so far, then its result or error."""

    passes: tuple[str, ...] = ()
    progress: deque[str] = field(default_factory=lambda: deque(maxlen=PROGRESS_LINES))
    result: RunResult | None = None


class RunNow:
    """The console's runs in progress and the last one of each agent (in this process)."""

    def __init__(self, clock: Callable[[], datetime], env: Mapping[str, str]) -> None:
        self._clock = clock
        self._env = dict(env)
        self._jobs: Background[Job] = Background("run-now", "the run")

    def job(self, agent: str) -> Job | None:
        return self._jobs.job(agent)

    def start(self, deployment: Deployment, agent: str, pass_name: str | None, session: Session) -> Job:
        """Start the run in a thread; raises UnknownAgent, DaemonError for an unknown pass,
        AgentBusy if a run of the agent is going (nothing started then)."""
        name = deployment.agent(agent).name
        if pass_name and pass_name not in PASS_ORDER:
            raise DaemonError(f"unknown pass {pass_name} (passes: {', '.join(PASS_ORDER)})")

        def busy(going: Job | None) -> str | None:
            if still_going(going):
                assert going is not None
                return f"agent {name!r} is busy: the run started here at {going.started_at:%H:%M:%S} UTC is still going"
            if lock_probe.held(agent_state(deployment, name).run_lock):
                return f"agent {name!r} is busy: another run holds its run lock; try again when it ends"
            return None

        passes = (pass_name,) if pass_name else ()
        return self._jobs.start(
            name, session, lambda: Job(name, self._clock(), passes=passes), lambda job: self._run(deployment, job), busy
        )

    def _run(self, deployment: Deployment, job: Job) -> Mapping[str, object]:
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
        return {"outcome": job.result.outcome, "run_id": job.result.run_id, "passes": list(job.passes)}
