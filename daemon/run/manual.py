"""Apply a change a person asked for (forget a fact, approve a proposal) as a run.

Same bracket and commit protocol as a pass run: run lock, recovery, external edits
first, one commit with a `Run-Id`, undoable with `undo`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime

from filelock import FileLock, Timeout

from daemon.config.resolve import Deployment
from daemon.kernel.changeset import Changeset
from daemon.kernel.errors import ChangedDuringRun, DaemonError
from daemon.kernel.view import AgentView, confined
from daemon.run.apply import Applied, apply_run, new_run_id
from daemon.run.session import AgentSession, agent_session

MEMORY_LOCK_WAIT_SECONDS = 60.0


@dataclass(frozen=True)
class ManualResult:
    changeset: Changeset
    applied: Applied | None


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
    """Plan with `plan(session, view, run_id)` and apply the changeset as one run."""
    with agent_session(deployment, agent_name, now, lock_timeout) as session, ExitStack() as stack:
        if memory_lock:
            try:
                stack.enter_context(
                    FileLock(str(session.state.memory_lock), timeout=MEMORY_LOCK_WAIT_SECONDS)
                )
            except Timeout:
                raise DaemonError(
                    f"memory of agent {agent_name!r} is locked by a running consolidation; try again"
                ) from None
        run_id = new_run_id(now)
        changeset = plan(session, AgentView(session.agent.home), run_id)
        if changeset.status != "changes":
            return ManualResult(changeset, None)
        for path in changeset.touched:
            confined(session.agent.home, path)
            if not session.managed.covers(path):
                raise DaemonError(f"refused: {path} is not a path the daemon manages")
        changes: dict[str, bytes | None] = {w.path: w.content for w in changeset.writes}
        changes.update({p: None for p in changeset.deletes})
        message = f"run {run_id}: {label} ({agent_name})\n\n{changeset.reason}\n" + "\n".join(
            f"  {line}" for line in changeset.report
        )
        try:
            applied = apply_run(
                session.store,
                session.state,
                agent=agent_name,
                run_id=run_id,
                passes=[label],
                changes=changes,
                cursor_advances=changeset.cursor_advances,
                message=message,
                trailers={"Kind": label, **(trailers or {})},
                now=now,
                base=session.base,
                keep_dirs=session.managed.dirs,
            )
        except ChangedDuringRun as exc:
            raise DaemonError(f"{label} not applied, nothing changed — {exc}; try again") from exc
        return ManualResult(changeset, applied)
