"""Apply a change a person asked for (forget a fact, approve a proposal, adopt lab settings,
restore a skill) as a run: the same bracket and the same applier as a pass run.

Run lock, recovery and external edits first (`agent_session`), then the one applier
(`daemon.run.applier`): path checks, the memory-lock wait, the commit with a `Kind`
trailer, the run log. Undoable with `undo` like any run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.kernel.changeset import Changeset
from daemon.kernel.errors import DaemonError
from daemon.kernel.view import AgentView
from daemon.run.applier import Submission, commit_run, hold_memory_lock
from daemon.run.apply import new_run_id
from daemon.run.session import AgentSession, agent_session


@dataclass(frozen=True)
class ManualResult:
    changeset: Changeset
    run_id: str | None  # the run committed, None when there was nothing to change
    files: tuple[str, ...] = ()


def run_manual(
    deployment: Deployment,
    agent_name: str,
    *,
    label: str,
    plan: Callable[[AgentSession, AgentView, str], Changeset],
    now: datetime,
    lock_timeout: float,
    trailers: Mapping[str, str] | None = None,
    memory_lock: bool = False,
) -> ManualResult:
    """Plan with `plan(session, view, run_id)` and apply the changeset as one run.

    Raises DaemonError (nothing changed) if a path may not be written, a file changed
    while the change was planned, the memory stays locked, or the commit fails.
    """
    with agent_session(deployment, agent_name, now, lock_timeout) as session, ExitStack() as stack:
        if memory_lock and not stack.enter_context(hold_memory_lock(session)):
            raise DaemonError(f"memory of agent {agent_name!r} is locked by a running consolidation; try again")
        run_id = new_run_id(now)
        changeset = plan(session, AgentView(session.agent.home), run_id)
        if changeset.status != "changes":
            return ManualResult(changeset, None)
        outcome = commit_run(
            session, Submission((changeset,), kind=label, trailers=trailers or {}), now=now, run_id=run_id
        )
        (result,) = outcome.passes
        if outcome.error is not None:
            raise DaemonError(f"{label} not applied — {outcome.error}")
        if result.status in ("failed", "skipped"):
            raise DaemonError(f"{label} not applied, nothing changed — {result.reason}")
        return ManualResult(changeset, outcome.run_id, outcome.files)
