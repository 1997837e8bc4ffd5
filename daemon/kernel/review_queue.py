"""The review queue: one JSON file per proposal under `.metaeng/review/` in the agent home.

Every pass that proposes (instruction review, contradictions, lab settings, skills and
facts under `autonomy: review`) writes proposals here through `proposal_write`; they
ride the run's commit like any file. A proposal carries the exact new content of each
target and the sha256 of the target when it was made: approving applies that content as
a run (undoable), and a proposal whose target changed since — or can no longer be read
as a regular file — is *stale* and refused. Status is derived at read time, so
staleness needs no background job.

The queue lives in the agent home, which the agent's runtime can write: nothing stored
in a proposal but its new content is trusted. What a person is shown is computed from
the current file and that content (`shown_diff`; the stored `diff` is never shown), and
approval is vetted by the caller (`plan_approval`'s `vet`: what each kind may change).

A proposal may offer `choices` (a contradiction: keep one side, the other, or both), each
with its own changes bound like `changes`; a person approves one of them (`review approve
ID --keep KEY`), and the decided proposal records it in `chosen`. Such a proposal is
written as version 2, which an older daemon refuses with a sentence rather than misreading.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import secrets
import stat
from collections.abc import Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from daemon.kernel.changeset import Changeset, FileWrite
from daemon.kernel.errors import CorruptState, DaemonError, PathRefused
from daemon.kernel.paths import REVIEW_DIR
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView, confined

VERSION = 2  # the newest this daemon reads; 2: `choices` and `chosen`
CHOICES_VERSION = 2
Status = Literal["open", "approved", "rejected", "stale"]


class ReviewError(DaemonError):
    """A review action was refused (unknown, already decided, stale)."""


class ProposedChange(BaseModel):
    # Built when first read: `status` counts proposals, most runs have none.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    path: str
    base_sha256: str | None  # the target when the proposal was made; None = it did not exist
    new_content: str | None  # None = delete the file
    # The diff when the proposal was made. Kept so existing queue files stay readable, but
    # never shown: anyone who can write the home can make it disagree with `new_content`.
    diff: str


class Choice(BaseModel):
    """One way a person may decide the proposal: `key` names it (`--keep KEY`), `label`
    says what it keeps, `changes` are what approving it applies (none: only recorded)."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    key: str
    label: str
    changes: list[ProposedChange] = Field(default_factory=list)


class HistoryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    at: str
    action: Literal["created", "updated", "approved", "rejected"]
    by: str
    why: str = ""
    run_id: str | None = None


class Proposal(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    version: int = 1  # CHOICES_VERSION when it offers choices
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
    choices: list[Choice] = Field(default_factory=list)
    chosen: str | None = None  # the key of the choice a person approved

    @property
    def path(self) -> str:
        return f"{REVIEW_DIR}/{self.id}.json"

    def status(self, view: AgentView) -> Status:
        if self.decision != "open":
            return self.decision
        return "stale" if stale_targets(self, view) else "open"


def sha256(data: bytes | None) -> str | None:
    return None if data is None else hashlib.sha256(data).hexdigest()


def unified_diff(path: str, current: bytes | None, new_content: str | None) -> str:
    """The unified diff from `current` (None: absent) to `new_content` (None: deleted)."""
    old_text = (current or b"").decode("utf-8", "replace").splitlines(keepends=True)
    new_text = (new_content or "").splitlines(keepends=True)
    return "".join(
        difflib.unified_diff(
            old_text,
            new_text,
            f"a/{path}" if current is not None else "/dev/null",
            f"b/{path}" if new_content is not None else "/dev/null",
        )
    )


def make_change(view: AgentView, path: str, new_content: str | None) -> ProposedChange:
    """A change of `path` to `new_content`, bound to the file as it is in `view` now."""
    current = view.read_bytes(path)
    diff = unified_diff(path, current, new_content)
    return ProposedChange(path=path, base_sha256=sha256(current), new_content=new_content, diff=diff)


def _read_target(view: AgentView, path: str) -> tuple[bytes | None, str | None]:
    """(content, None) of a target through `view` (None content: absent), or (None, why it
    cannot be read as a regular file: an invalid path, a symlink, a folder, no permission)."""
    try:
        content = view.read_bytes(path)
        if content is not None or path in view.overlay:
            return content, None
        mode = os.lstat(confined(view.home, path)).st_mode
    except PathRefused as exc:
        return None, exc.reason
    except (FileNotFoundError, NotADirectoryError):
        return None, None
    except OSError as exc:
        return None, f"{path} cannot be read: {exc.strerror or exc}"
    if stat.S_ISREG(mode):
        return None, f"{path} cannot be read (permission denied)"
    return None, f"{path} is not a regular file"


def stale_reasons(proposal: Proposal, view: AgentView) -> dict[str, str]:
    """Each target of `proposal` that no longer is what it was made against, with why."""
    reasons: dict[str, str] = {}
    for change in [*proposal.changes, *(c for choice in proposal.choices for c in choice.changes)]:
        if change.path in reasons:
            continue
        content, problem = _read_target(view, change.path)
        if problem is not None:
            reasons[change.path] = problem
        elif sha256(content) != change.base_sha256:
            reasons[change.path] = f"{change.path} changed since the proposal was made"
    return reasons


def shown_changes(proposal: Proposal, view: AgentView) -> list[tuple[str, str]]:
    """(path, diff) of each change: what approving `proposal` would change now, computed
    from each target as it is and the proposal's new content — never the diff stored in
    the proposal, which nothing binds to that content. A target that cannot be read is
    named, with why, instead of diffed."""
    return changes_shown(proposal.changes, view)


def changes_shown(changes: Sequence[ProposedChange], view: AgentView) -> list[tuple[str, str]]:
    """(path, diff) of each of `changes` against the files now (see `shown_changes`)."""
    shown = []
    for change in changes:
        current, problem = _read_target(view, change.path)
        if problem is not None:
            shown.append((change.path, f"# {change.path}: not shown: {problem}\n"))
        else:
            shown.append((change.path, unified_diff(change.path, current, change.new_content)))
    return shown


def shown_diff(proposal: Proposal, view: AgentView) -> str:
    """The diffs of `shown_changes`, one after the other."""
    return "".join(diff for _path, diff in shown_changes(proposal, view))


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
    """The files the open proposals `changeset` writes (makes or extends) would change.

    A proposal's new content was computed from what the pass read; if a person changes a
    target before the run commits, that content would undo the person's edit on approval.
    The applier holds these paths to their content at the run's base, as it does the
    files a pass writes. A proposal written as decided (rejected, or approved with its
    changes among the run's own writes) waits for nothing: its targets are not held, so a
    target that changed or became unreadable never blocks recording the decision.
    """
    targets: set[str] = set()
    for write in changeset.writes:
        if write.path.startswith(REVIEW_DIR + "/") and write.path.endswith(".json"):
            proposal = parse_versioned(write.content, Path(write.path), Proposal, VERSION)
            if proposal.decision == "open":
                targets.update(change.path for change in proposal.changes)
                targets.update(change.path for choice in proposal.choices for change in choice.changes)
    return targets


def list_proposals(view: AgentView) -> list[Proposal]:
    """Every proposal in the queue, oldest first; unreadable files raise CorruptState naming them."""
    found = []
    for rel in view.walk(REVIEW_DIR):
        if rel.endswith(".json"):
            raw = view.read_bytes(rel)
            if raw is not None:
                proposal = parse_versioned(raw, view.home / rel, Proposal, VERSION)
                # A decision is written to the proposal's own path: an id that is not its file
                # name would be decided into a second file, and the first stay open forever.
                if proposal.path != rel:
                    raise CorruptState(
                        view.home / rel,
                        f"its id {proposal.id!r} is not its file name (a proposal is "
                        f"{REVIEW_DIR}/<id>.json); fix the id or remove the file",
                    )
                found.append(proposal)
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
    """The targets of `proposal` that changed or can no longer be read (see `stale_reasons`)."""
    return list(stale_reasons(proposal, view))


def summary(proposals: Iterable[Proposal], view: AgentView) -> dict[str, int]:
    counts: dict[str, int] = {}
    for proposal in proposals:
        status = proposal.status(view)
        counts[status] = counts.get(status, 0) + 1
    return counts
