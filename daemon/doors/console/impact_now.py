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

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.doors.console.auth import Session
from daemon.doors.console.background import Background, BackgroundJob, still_going
from daemon.doors.impact_compute import STEPS, compute_impact
from daemon.impact.document import ImpactDocument


@dataclass(frozen=True)
class ImpactResult:
    """A finished computation: the report, when it was done, and a note if its headline was not saved."""

    document: ImpactDocument
    computed_at: datetime
    warning: str | None


@dataclass
class ImpactJob(BackgroundJob):
    """One Compute now: when it started, the step it is at, then its result or error."""

    step: str = STEPS[0]
    since: str | None = None  # YYYY-MM-DD: only items said on or after it, as `impact --since`

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
        self._jobs: Background[ImpactJob] = Background("impact", "the computation")
        self._results: dict[str, ImpactResult] = {}

    def job(self, agent: str) -> ImpactJob | None:
        return self._jobs.job(agent)

    def result(self, agent: str) -> ImpactResult | None:
        return self._results.get(agent)

    def start(self, deployment: Deployment, agent: str, session: Session, since: str | None = None) -> ImpactJob:
        """Start the computation in a thread, of the items said on or after `since` if given;
        raises UnknownAgent, or AgentBusy if one of the agent's is going (nothing started then)."""
        name = deployment.agent(agent).name

        def busy(going: ImpactJob | None) -> str | None:
            if not still_going(going):
                return None
            assert going is not None
            return f"the impact of agent {name!r} is already being computed (started {going.started_at:%H:%M:%S} UTC)"

        return self._jobs.start(
            name, session, lambda: ImpactJob(name, self._clock(), since=since), lambda job: self._run(deployment, job), busy
        )

    def _run(self, deployment: Deployment, job: ImpactJob) -> Mapping[str, object]:
        def step(name: str) -> None:
            job.step = name

        computed = compute_impact(deployment, job.agent, self._clock, job.since, step, self._env)
        self._results[job.agent] = ImpactResult(computed.document, self._clock(), computed.headline_error)
        return {"outcome": "done"}
