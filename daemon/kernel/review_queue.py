"""The review queue: one JSON file per proposal under `.metaeng/review/` in the agent home.

Every pass that proposes (instruction review, contradictions, lab settings, skills and
facts under `autonomy: review`) writes proposals here through `proposal_write`; they
ride the run's commit like any file. A proposal carries the exact new content of each
target and the sha256 of the target when it was made: approving applies that content as
a run (undoable), and a proposal whose target changed since is *stale* and refused.
Status is derived at read time, so staleness needs no background job.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import secrets
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from daemon.kernel.changeset import Changeset, FileWrite
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import REVIEW_DIR
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView

VERSION = 1
Status = Literal["open", "approved", "rejected", "stale"]


class ReviewError(DaemonError):
    """A review action was refused (unknown, already decided, stale)."""


class ProposedChange(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str
    base_sha256: str | None  # the target when the proposal was made; None = it did not exist
    new_content: str | None  # None = delete the file
    diff: str


class HistoryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    at: str
    action: Literal["created", "updated", "approved", "rejected"]
    by: str
    why: str = ""
    run_id: str | None = None


class Proposal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    id: str
    kind: str
    agent: str
    title: str
    target: str
    created_at: str
    created_by_run: str | None = None
    rationale: str
    evidence: list[str] = Field(default_factory=list)
    changes: list[ProposedChange] = Field(default_factory=list)
    fingerprint: str
    decision: Literal["open", "approved", "rejected"] = "open"
    run_id: str | None = None
    history: list[HistoryEntry] = Field(default_factory=list)

    @property
    def path(self) -> str:
        return f"{REVIEW_DIR}/{self.id}.json"

    def diff(self) -> str:
        return "".join(c.diff for c in self.changes)

    def status(self, view: AgentView) -> Status:
        if self.decision != "open":
            return self.decision
        return "stale" if stale_targets(self, view) else "open"


def sha256(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def make_change(view: AgentView, path: str, new_content: str | None) -> ProposedChange:
    """A change of `path` to `new_content`, bound to the file as it is in `view` now."""
    current = view.read_bytes(path)
    old_text = (current or b"").decode("utf-8", "replace").splitlines(keepends=True)
    new_text = (new_content or "").splitlines(keepends=True)
    diff = "".join(
        difflib.unified_diff(
            old_text,
            new_text,
            f"a/{path}" if current is not None else "/dev/null",
            f"b/{path}" if new_content is not None else "/dev/null",
        )
    )
    return ProposedChange(path=path, base_sha256=sha256(current), new_content=new_content, diff=diff)


def new_proposal(
    *,
    kind: str,
    agent: str,
    title: str,
    target: str,
    rationale: str,
    evidence: Sequence[str],
    changes: Sequence[ProposedChange],
    now: datetime,
    run_id: str | None,
    by: str = "metaeng-daemon",
) -> Proposal:
    material = json.dumps([kind, target, [c.model_dump() for c in changes], rationale if not changes else ""])
    fingerprint = hashlib.sha256(material.encode("utf-8")).hexdigest()
    return Proposal(
        id=f"{now.strftime('%Y%m%d')}-{kind}-{secrets.token_hex(3)}",
        kind=kind,
        agent=agent,
        title=title,
        target=target,
        created_at=now.isoformat(),
        created_by_run=run_id,
        rationale=rationale,
        evidence=list(evidence),
        changes=list(changes),
        fingerprint=fingerprint,
        history=[HistoryEntry(at=now.isoformat(), action="created", by=by)],
    )


def proposal_write(proposal: Proposal) -> FileWrite:
    body = proposal.model_dump_json(indent=1) + "\n"
    return FileWrite(path=proposal.path, content=body.encode("utf-8"))


def proposal_targets(changeset: Changeset) -> set[str]:
    """The files the proposals `changeset` opens would change.

    A proposal's new content was computed from what the pass read; if a person changes a
    target before the run commits, that content would undo the person's edit on approval.
    The applier holds these paths to their content at the run's base, as it does the
    files a pass writes.
    """
    targets: set[str] = set()
    for write in changeset.writes:
        if write.path.startswith(REVIEW_DIR + "/") and write.path.endswith(".json"):
            proposal = parse_versioned(write.content, Path(write.path), Proposal, VERSION)
            targets.update(change.path for change in proposal.changes)
    return targets


def list_proposals(view: AgentView) -> list[Proposal]:
    """Every proposal in the queue, oldest first; unreadable files raise CorruptState naming them."""
    found = []
    for rel in view.walk(REVIEW_DIR):
        if rel.endswith(".json"):
            raw = view.read_bytes(rel)
            if raw is not None:
                found.append(parse_versioned(raw, view.home / rel, Proposal, VERSION))
    return sorted(found, key=lambda p: (p.created_at, p.id))


def open_fingerprints(view: AgentView) -> set[str]:
    """Fingerprints of proposals still open, so a pass does not propose the same thing twice."""
    return {p.fingerprint for p in list_proposals(view) if p.decision == "open"}


def known_fingerprints(view: AgentView, decisions: Sequence[str] = ("open", "rejected")) -> set[str]:
    """Fingerprints of proposals with one of `decisions` (a rejected one is not proposed again)."""
    return {p.fingerprint for p in list_proposals(view) if p.decision in decisions}


def waiting(view: AgentView, kind: str, paths: Iterable[str]) -> Proposal | None:
    """An open, not stale proposal of `kind` that would change one of `paths`, if any."""
    wanted = set(paths)
    for proposal in list_proposals(view):
        if proposal.kind != kind or proposal.decision != "open" or stale_targets(proposal, view):
            continue
        if wanted & {c.path for c in proposal.changes}:
            return proposal
    return None


def decided_directly(proposal: Proposal, *, now: datetime, run_id: str, by: str, why: str) -> Proposal:
    """`proposal` recorded as approved by the daemon itself, applied in run `run_id`."""
    entry = HistoryEntry(at=now.isoformat(), action="approved", by=by, why=why, run_id=run_id)
    return proposal.model_copy(
        update={"decision": "approved", "run_id": run_id, "history": [*proposal.history, entry]}
    )


def revised(
    proposal: Proposal,
    *,
    changes: Sequence[ProposedChange],
    evidence: Sequence[str],
    rationale: str,
    now: datetime,
    run_id: str | None,
    why: str,
) -> Proposal:
    """An open proposal extended by a later run (same id, new content, history says so)."""
    entry = HistoryEntry(at=now.isoformat(), action="updated", by="metaeng-daemon", why=why, run_id=run_id)
    fresh = new_proposal(
        kind=proposal.kind,
        agent=proposal.agent,
        title=proposal.title,
        target=proposal.target,
        rationale=rationale,
        evidence=evidence,
        changes=changes,
        now=now,
        run_id=run_id,
    )
    return proposal.model_copy(
        update={
            "rationale": rationale,
            "evidence": list(evidence),
            "changes": list(changes),
            "fingerprint": fresh.fingerprint,
            "history": [*proposal.history, entry],
        }
    )


def find(view: AgentView, proposal_id: str) -> Proposal:
    for proposal in list_proposals(view):
        if proposal.id == proposal_id:
            return proposal
    raise ReviewError(f"no proposal {proposal_id!r} in the review queue of {view.home}")


def stale_targets(proposal: Proposal, view: AgentView) -> list[str]:
    return [c.path for c in proposal.changes if sha256(view.read_bytes(c.path)) != c.base_sha256]


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


def plan_approval(
    view: AgentView, proposal_id: str, *, now: datetime, run_id: str, by: str, why: str
) -> Changeset:
    """Apply the proposal's changes and mark it approved, as one changeset; refuse if stale."""
    proposal, decided = _decide(view, proposal_id, "approved", now=now, run_id=run_id, by=by, why=why)
    stale = stale_targets(proposal, view)
    if stale:
        raise ReviewError(
            f"proposal {proposal_id} is stale: {', '.join(stale)} changed since it was made; nothing changed"
        )
    writes = [
        FileWrite(path=c.path, content=c.new_content.encode("utf-8"))
        for c in proposal.changes
        if c.new_content is not None
    ]
    deletes = tuple(c.path for c in proposal.changes if c.new_content is None)
    return Changeset(
        pass_name="review-approve",
        status="changes",
        reason=f"approved proposal {proposal.id} ({proposal.kind}): {proposal.title}",
        writes=(*writes, proposal_write(decided)),
        deletes=deletes,
        report=tuple(f"applied {c.path}" for c in proposal.changes),
        details={"proposal": proposal.id, "kind": proposal.kind},
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
        details={"proposal": proposal.id, "kind": proposal.kind},
    )


def summary(proposals: Iterable[Proposal], view: AgentView) -> dict[str, int]:
    counts: dict[str, int] = {}
    for proposal in proposals:
        status = proposal.status(view)
        counts[status] = counts.get(status, 0) + 1
    return counts
