"""The console's buttons: each calls the library code its command calls, under the same run lock.

| button            | command                          | library call                          |
| ----------------- | -------------------------------- | ------------------------------------- |
| Undo              | `undo RUN_ID`                    | `daemon.wiring.undo.undo`             |
| Approve / Reject  | `review approve|reject ID`       | `daemon.wiring.review.decide`         |
| Keep a / b / both | `review approve ID --keep KEY`   | `daemon.wiring.review.decide`         |
| Reset breaker     | `breaker reset --agent A`        | `agent_breaker(...).reset()`            |
| Restore skill     | `undo RUN_ID` (the quarantine's) | `daemon.wiring.undo.undo`             |
| Pin / Unpin       | `skills pin|unpin NAME`          | `daemon.wiring.skill_actions.set_pin` |
| Restore (archive) | `skills restore NAME`            | `daemon.wiring.skill_actions.restore` |
| Run now           | `once --agent A [--pass P]`      | `run_once`, in a thread (`run_now`)   |

Every action is logged (`console.action`) with the session that asked and what it did;
those that change files are runs, and so undoable.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

import structlog

from daemon.config.resolve import Deployment
from daemon.coordination.backends import agent_breaker
from daemon.doors.console.auth import Session
from daemon.kernel.errors import DaemonError
from daemon.run.revert import UndoResult
from daemon.wiring import skill_actions
from daemon.wiring.review import decide, locate
from daemon.wiring.undo import undo

log = structlog.get_logger("metaeng.console")


@dataclass(frozen=True)
class Done:
    message: str
    run_id: str | None = None
    files: tuple[str, ...] = ()


def _logged(session: Session, action: str, **fields: object) -> None:
    log.info("console.action", session=session.label, action=action, **fields)


def undo_run(deployment: Deployment, agent: str, run_id: str, now: datetime, session: Session) -> UndoResult:
    """`undo RUN_ID`; raises UndoRefused (with the blocking files) or DaemonError, nothing changed."""
    name = deployment.agent(agent).name
    try:
        result = undo(deployment, name, run_id, now, deployment.config.run_lock_timeout_seconds)
    except DaemonError as exc:
        _logged(session, "undo", agent=name, target=run_id, outcome="refused", error=str(exc))
        raise
    _logged(session, "undo", agent=name, target=run_id, outcome="applied", run_id=result.run_id)
    return result


def decide_proposal(
    deployment: Deployment,
    agent: str,
    proposal_id: str,
    verb: Literal["approve", "reject"],
    why: str,
    now: datetime,
    session: Session,
    user: str,
    keep: str | None = None,
) -> Done:
    """`review approve|reject ID --why ... [--keep KEY]`, decided by `user` through this console session."""
    name, _view = locate(deployment, proposal_id, agent)
    by = f"{user} ({session.label})"
    try:
        result = decide(
            deployment,
            name,
            proposal_id,
            verb,
            now=now,
            by=by,
            why=why,
            lock_timeout=deployment.config.run_lock_timeout_seconds,
            keep=keep,
        )
    except DaemonError as exc:
        _logged(session, verb, agent=name, target=proposal_id, keep=keep, outcome="refused", error=str(exc))
        raise
    _logged(session, verb, agent=name, target=proposal_id, keep=keep, outcome="applied", run_id=result.run_id)
    return Done(result.changeset.reason, result.run_id, result.files)


def reset_breaker(deployment: Deployment, agent: str, session: Session) -> Done:
    """`breaker reset --agent A`."""
    settings = deployment.agent(agent)
    breaker = agent_breaker(deployment, settings.name)
    if breaker is None:
        raise DaemonError("no model configured, so there is no circuit breaker")
    before = breaker.reset()
    _logged(session, "breaker-reset", agent=settings.name, failures=before.consecutive_failures)
    return Done(
        f"breaker of agent {settings.name} closed (was {before.consecutive_failures} consecutive failure(s))"
    )


def pin_skill(deployment: Deployment, agent: str, name: str, pin: bool, now: datetime, session: Session) -> Done:
    """`skills pin|unpin NAME --agent A`; raises DaemonError (nothing changed)."""
    settings = deployment.agent(agent)
    action = "pin" if pin else "unpin"
    try:
        result = skill_actions.set_pin(
            deployment, settings.name, name, pin, now=now, lock_timeout=deployment.config.run_lock_timeout_seconds
        )
    except DaemonError as exc:
        _logged(session, action, agent=settings.name, target=name, outcome="refused", error=str(exc))
        raise
    _logged(session, action, agent=settings.name, target=name, outcome="applied", run_id=result.run_id)
    return Done(result.changeset.reason, result.run_id, result.files)


def restore_archived(deployment: Deployment, agent: str, name: str, now: datetime, session: Session) -> Done:
    """`skills restore NAME --agent A`; raises DaemonError (nothing changed)."""
    settings = deployment.agent(agent)
    try:
        result = skill_actions.restore(
            deployment, settings.name, name, now=now, lock_timeout=deployment.config.run_lock_timeout_seconds
        )
    except DaemonError as exc:
        _logged(session, "skill-restore", agent=settings.name, target=name, outcome="refused", error=str(exc))
        raise
    _logged(session, "skill-restore", agent=settings.name, target=name, outcome="applied", run_id=result.run_id)
    return Done(result.changeset.reason, result.run_id, result.files)
