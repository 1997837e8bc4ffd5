"""The Impact page's Compute now: `metaeng-daemon impact --agent A` in a thread.

Computing reads every session of the agent (tens of seconds on a long history), so `start`
returns at once; the computation is the same call as the command's (`compute_impact`, which
also saves the headline `status` shows), its step kept for the page that polls `job`. The
last result of each agent stays in this process for the page to read; a new computation
keeps showing it until its own is done. One computation per agent at a time: a second
Compute now while one goes is refused with AgentBusy and starts nothing. It takes no run
lock: it only reads, like `impact`.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

import structlog

from daemon.config.resolve import Deployment
from daemon.doors.console.auth import Session
from daemon.doors.impact_compute import STEPS, compute_impact
from daemon.impact.document import ImpactDocument
from daemon.kernel.errors import AgentBusy, DaemonError

log = structlog.get_logger("metaeng.console")


@dataclass(frozen=True)
class ImpactResult:
    """A finished computation: the report, when it was done, and a note if its headline was not saved."""

    document: ImpactDocument
    computed_at: datetime
    warning: str | None


@dataclass
class ImpactJob:
    """One Compute now: when it started, the step it is at, then its result or error."""

    agent: str
    started_at: datetime
    step: str = STEPS[0]
    error: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    @property
    def running(self) -> bool:
        return not self.finished.is_set()

    @property
    def step_number(self) -> int:
        return STEPS.index(self.step) + 1 if self.step in STEPS else len(STEPS)

    @property
    def steps(self) -> int:
        return len(STEPS)


class ImpactNow:
    """The console's impact computations in progress and the last result of each agent (in this process)."""

    def __init__(self, clock: Callable[[], datetime], env: Mapping[str, str] | None = None) -> None:
        self._env = dict(env or {})  # the console's environment: a notify command's PATH and locale
        self._clock = clock
        self._jobs: dict[str, ImpactJob] = {}
        self._results: dict[str, ImpactResult] = {}
        self._lock = threading.Lock()

    def job(self, agent: str) -> ImpactJob | None:
        return self._jobs.get(agent)

    def result(self, agent: str) -> ImpactResult | None:
        return self._results.get(agent)

    def start(self, deployment: Deployment, agent: str, session: Session) -> ImpactJob:
        """Start the computation in a thread; raises UnknownAgent, or AgentBusy if one of the
        agent's is going (nothing started then)."""
        name = deployment.agent(agent).name
        with self._lock:
            going = self._jobs.get(name)
            if going is not None and going.running:
                raise AgentBusy(
                    name,
                    message=(
                        f"the impact of agent {name!r} is already being computed "
                        f"(started {going.started_at:%H:%M:%S} UTC)"
                    ),
                )
            job = ImpactJob(name, self._clock())
            self._jobs[name] = job
        log.info("console.action", session=session.label, action="impact", agent=name, outcome="started")
        threading.Thread(target=self._run, args=(deployment, job, session), name=f"impact-{name}", daemon=True).start()
        return job

    def _step(self, job: ImpactJob, step: str) -> None:
        job.step = step

    def _run(self, deployment: Deployment, job: ImpactJob, session: Session) -> None:
        try:
            computed = compute_impact(deployment, job.agent, self._clock, None, lambda s: self._step(job, s), self._env)
            self._results[job.agent] = ImpactResult(computed.document, self._clock(), computed.headline_error)
        except (DaemonError, OSError) as exc:
            job.error = str(exc)
        except Exception:  # a bug must not leave the page polling forever
            log.exception("console.impact_crashed", agent=job.agent)
            job.error = "the computation failed unexpectedly; the daemon's log has the traceback"
        finally:
            outcome = "failed" if job.error else "done"
            log.info("console.action", session=session.label, action="impact", agent=job.agent, outcome=outcome, error=job.error)
            job.finished.set()
