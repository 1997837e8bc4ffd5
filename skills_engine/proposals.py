"""Skill changes as review-queue proposals (`autonomy: review`).

The planned writes and deletes of one create, update or merge become one proposal whose
changes carry the exact new content; approving it applies them as a run. The queue
holds text, so a change that would write a binary file cannot be proposed and is refused
with that reason. The same change is never proposed twice while an earlier proposal of
it is still open.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from daemon.kernel.changeset import FileWrite
from daemon.kernel.review_queue import (
    list_proposals,
    make_change,
    new_proposal,
    open_fingerprints,
    proposal_write,
)
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from skills_engine.edits import SkillEdits
from skills_engine.folders import is_text


@dataclass(frozen=True)
class ProposeOutcome:
    proposal_id: str | None
    refused: str | None = None


def propose(
    agent: AgentSettings,
    edits: SkillEdits,
    *,
    kind: str,
    title: str,
    target: str,
    rationale: str,
    evidence: Sequence[str],
    writes: Sequence[FileWrite],
    deletes: Sequence[str],
    now: datetime,
    run_id: str,
) -> ProposeOutcome:
    """Plan one proposal for these changes into `edits` (or say why it cannot be proposed)."""
    binary = [w.path for w in writes if not is_text(w.content)]
    if binary:
        return ProposeOutcome(None, f"cannot propose binary files for review: {', '.join(binary)}")
    view = edits.view
    changes = [make_change(view, w.path, w.content.decode("utf-8")) for w in writes]
    changes += [make_change(view, path, None) for path in deletes if view.exists(path)]
    # a change without a diff changes nothing, but deleting an empty file does
    changes = [c for c in changes if c.base_sha256 is None or c.diff or c.new_content is None]
    proposal = new_proposal(
        kind=kind,
        agent=agent.name,
        title=title,
        target=target,
        rationale=rationale,
        evidence=evidence,
        changes=changes,
        now=now,
        run_id=run_id,
    )
    if proposal.fingerprint in open_fingerprints(view):
        return ProposeOutcome(None, "the same change is already waiting in the review queue")
    edits.apply([proposal_write(proposal)])
    return ProposeOutcome(proposal.id)


def waiting(view: AgentView, kind: str) -> list[tuple[str, frozenset[str]]]:
    """(target, evidence) of the open proposals of `kind`: work already waiting for a person."""
    return [
        (p.target, frozenset(p.evidence))
        for p in list_proposals(view)
        if p.kind == kind and p.decision == "open"
    ]
