"""Deciding a proposal of the review queue: approval applies its changes, rejection records it (pure plans).

A decision is planned like a pass: a changeset the runner applies as one run, with the
proposal's new status and history (`daemon.kernel.review_queue`); a proposal whose target
changed since it was made is refused as stale.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Literal

from daemon.kernel.changeset import Changeset, FileWrite, PassDetails
from daemon.kernel.review_queue import (
    HistoryEntry,
    Proposal,
    ReviewError,
    find,
    proposal_write,
    stale_reasons,
)
from daemon.kernel.view import AgentView


def _decide(
    view: AgentView,
    proposal_id: str,
    decision: Literal["approved", "rejected"],
    *,
    now: datetime,
    run_id: str,
    by: str,
    why: str,
) -> tuple[Proposal, Proposal]:
    """The open proposal and its decided copy (history appended); refuse a decided one."""
    proposal = find(view, proposal_id)
    if proposal.decision != "open":
        raise ReviewError(f"proposal {proposal_id} was already {proposal.decision}; nothing changed")
    entry = HistoryEntry(at=now.isoformat(), action=decision, by=by, why=why, run_id=run_id)
    decided = proposal.model_copy(
        update={"decision": decision, "run_id": run_id, "history": [*proposal.history, entry]}
    )
    return proposal, decided


# Why an approval of the proposal is refused (one sentence per problem, naming the path
# or key), given the queue's view of the home; empty: it may be approved.
Vetting = Callable[[Proposal, AgentView], Sequence[str]]


class Decided(PassDetails):
    """The proposal a person approved or rejected, and its kind."""

    proposal: str
    kind: str


def _chosen(proposal: Proposal, decided: Proposal, keep: str) -> tuple[Proposal, Proposal, str]:
    """The proposal as if its changes were those of the choice `keep` (only that choice's
    targets count for staleness), its decided copy recording the choice, and the choice's label."""
    choice = next((c for c in proposal.choices if c.key == keep), None)
    if choice is None:
        offered = ", ".join(c.key for c in proposal.choices)
        raise ReviewError(
            f"proposal {proposal.id} offers no choice {keep!r} "
            f"({'its choices: ' + offered if offered else 'it offers no choices'}); nothing changed"
        )
    update = {"changes": list(choice.changes)}
    return (
        proposal.model_copy(update={**update, "choices": []}),
        decided.model_copy(update={**update, "chosen": keep}),
        choice.label,
    )


def plan_approval(
    view: AgentView,
    proposal_id: str,
    *,
    vet: Vetting,
    now: datetime,
    run_id: str,
    by: str,
    why: str,
    keep: str | None = None,
) -> Changeset:
    """Apply the proposal's changes (or those of its choice `keep`) and mark it approved, as
    one changeset.

    Raises ReviewError (nothing changed) if it is decided, offers no choice `keep`, changes
    one file twice, `vet` refuses it, or it is stale — each naming the paths at fault.
    """
    proposal, decided = _decide(view, proposal_id, "approved", now=now, run_id=run_id, by=by, why=why)
    kept: str | None = None
    if keep is not None:
        proposal, decided, kept = _chosen(proposal, decided, keep)
    twice = sorted(p for p, n in Counter(c.path for c in proposal.changes).items() if n > 1)
    problems = [f"it changes {p} more than once" for p in twice] + list(vet(proposal, view))
    if problems:
        raise ReviewError(
            f"proposal {proposal_id} ({proposal.kind}) refused: {'; '.join(problems)}; nothing changed"
        )
    stale = stale_reasons(proposal, view)
    if stale:
        raise ReviewError(f"proposal {proposal_id} is stale: {'; '.join(stale.values())}; nothing changed")
    # An empty file where none is, that had content when proposed (a memory proposal whose
    # facts a purge erased since), is no change: it is not written, as its shown diff (none)
    # says. One proposed empty (a skill's `__init__.py` moved to the archive) is written.
    writes = [
        FileWrite(path=c.path, content=c.new_content.encode("utf-8"))
        for c in proposal.changes
        if c.new_content is not None and (c.new_content or view.read_bytes(c.path) is not None or not c.diff)
    ]
    deletes = tuple(c.path for c in proposal.changes if c.new_content is None)
    return Changeset(
        pass_name="review-approve",
        status="changes",
        reason=f"approved proposal {proposal.id} ({proposal.kind}){f', keeping {kept}' if kept else ''}: {proposal.title}",
        writes=(*writes, proposal_write(decided)),
        deletes=deletes,
        report=tuple(f"applied {c.path}" for c in proposal.changes) + ((f"kept {kept}",) if kept else ()),
        details=Decided(proposal=proposal.id, kind=proposal.kind),
    )


def plan_rejection(
    view: AgentView, proposal_id: str, *, now: datetime, run_id: str, by: str, why: str
) -> Changeset:
    proposal, decided = _decide(view, proposal_id, "rejected", now=now, run_id=run_id, by=by, why=why)
    return Changeset(
        pass_name="review-reject",
        status="changes",
        reason=f"rejected proposal {proposal.id} ({proposal.kind}): {proposal.title}",
        writes=(proposal_write(decided),),
        details=Decided(proposal=proposal.id, kind=proposal.kind),
    )
