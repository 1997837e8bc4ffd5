"""What is derived from an agent's store after each run the applier commits (the delivery
index): the composition root gives it (`Deployment.after_commit`, carried by the session).

Derived data only: a failure is logged and noted in the run, the run stands, and the next
run tries again.
"""

from __future__ import annotations

from datetime import datetime

import structlog

from daemon.run.session import AgentSession

log = structlog.get_logger("metaeng.runner")


def derived_notes(session: AgentSession, now: datetime) -> list[str]:
    """Bring what is derived from the store up to date with the run just committed; the
    notes to add to the run (none when all went well)."""
    notes: list[str] = []
    for derive in session.after_commit:
        try:
            note = derive(session.agent, session.state, now)
        except Exception as exc:  # derived data never fails a committed run
            log.warning("run.derived_not_updated", agent=session.agent.name, error=f"{type(exc).__name__}: {exc}")
            note = f"derived data not updated (retried on the next run) — {type(exc).__name__}: {exc}"
        if note:
            notes.append(note)
    return notes
