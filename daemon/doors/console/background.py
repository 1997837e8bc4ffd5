"""Work a console button starts in a thread (Run now, Compute now): one job per agent at a
time, refused with AgentBusy while one goes; its end always marked, so a bug never leaves a
page polling forever; started and ended in the log as the button's action."""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Generic, TypeVar

import structlog

from daemon.doors.console.auth import Session
from daemon.kernel.errors import AgentBusy, DaemonError

log = structlog.get_logger("metaeng.console")


@dataclass
class BackgroundJob:
    """One job of an agent: when it started, then its error if it failed."""

    agent: str
    started_at: datetime
    error: str | None = None
    finished: threading.Event = field(default_factory=threading.Event)

    @property
    def running(self) -> bool:
        return not self.finished.is_set()


J = TypeVar("J", bound=BackgroundJob)


class Background(Generic[J]):
    """The jobs of one button, the last of each agent (in this process)."""

    def __init__(self, action: str, what: str) -> None:
        self.action = action  # the log's `action`: "run-now", "impact"
        self.what = what  # what a failure names: "the run", "the computation"
        self._jobs: dict[str, J] = {}
        self._lock = threading.Lock()

    def job(self, agent: str) -> J | None:
        return self._jobs.get(agent)

    def start(
        self,
        agent: str,
        session: Session,
        make: Callable[[], J],
        work: Callable[[J], Mapping[str, object]],
        busy: Callable[[J | None], str | None],
    ) -> J:
        """Start `work` on the job `make` builds in a thread; raises AgentBusy with what `busy`
        says of the agent's last job (None: free), checked under the lock, nothing started then.
        `work` returns what the end's log line adds (its `outcome` among them)."""
        with self._lock:
            why = busy(self._jobs.get(agent))
            if why is not None:
                raise AgentBusy(agent, message=why)
            job = make()
            self._jobs[agent] = job
        log.info("console.action", session=session.label, action=self.action, agent=agent, outcome="started")
        threading.Thread(target=self._run, args=(job, work, session), name=f"{self.action}-{agent}", daemon=True).start()
        return job

    def _run(self, job: J, work: Callable[[J], Mapping[str, object]], session: Session) -> None:
        ended: Mapping[str, object] = {"outcome": "failed"}
        try:
            ended = work(job)
        except (DaemonError, OSError) as exc:
            job.error = str(exc)
        except Exception:  # a bug must not leave the page polling forever
            log.exception("console.background_crashed", action=self.action, agent=job.agent)
            job.error = f"{self.what} failed unexpectedly; the daemon's log has the traceback"
        finally:
            fields = {"outcome": "failed", **ended} if job.error else dict(ended)
            log.info("console.action", session=session.label, action=self.action, agent=job.agent, error=job.error, **fields)
            job.finished.set()


def still_going(job: BackgroundJob | None) -> bool:
    return job is not None and job.running
