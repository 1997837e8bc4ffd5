"""What an undo does to the review queue, in words: the proposals it withdraws, brings back
or sets back to an earlier state (pure; `revert` computes the file changes).

A run that raised a proposal wrote `.metaeng/review/<id>.json`; undoing it deletes the file,
and the proposal leaves the queue. A person reading "undo run X" expects files restored, not
three proposals gone from the queue: the undo says so before (`undo --dry-run`, the
console's confirm) and after.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pydantic import ValidationError

from daemon.kernel.paths import REVIEW_DIR
from daemon.kernel.review_queue import Proposal


@dataclass(frozen=True)
class ProposalEffects:
    withdrawn: tuple[str, ...] = ()  # "id (kind): title" of proposals the undo removes
    restored: tuple[str, ...] = ()  # proposals it brings back
    reverted: tuple[str, ...] = ()  # proposals it sets back to an earlier state (a decision undone)

    def lines(self) -> list[str]:
        return (
            [f"withdraws proposal {p}" for p in self.withdrawn]
            + [f"brings back proposal {p}" for p in self.restored]
            + [f"sets back proposal {p}" for p in self.reverted]
        )


def _proposal(data: bytes | None) -> Proposal | None:
    if data is None:
        return None
    try:
        return Proposal.model_validate_json(data)
    except (ValidationError, ValueError):
        return None


def _label(proposal: Proposal) -> str:
    return f"{proposal.id} ({proposal.kind}, {proposal.decision}): {proposal.title}"


def proposal_effects(changes: Mapping[str, bytes | None], current: Callable[[str], bytes | None]) -> ProposalEffects:
    """The review-queue side of `changes` (path → new content, None: deleted), each proposal
    file compared with what `current` (path → content now) holds."""
    withdrawn: list[str] = []
    restored: list[str] = []
    reverted: list[str] = []
    for path in sorted(changes):
        if not (path.startswith(REVIEW_DIR + "/") and path.endswith(".json")):
            continue
        now, after = _proposal(current(path)), _proposal(changes[path])
        if now is not None and after is None:
            withdrawn.append(_label(now))
        elif now is None and after is not None:
            restored.append(_label(after))
        elif now is not None and after is not None:
            reverted.append(f"{after.id} ({after.kind}): {now.decision} → {after.decision}: {after.title}")
    return ProposalEffects(tuple(withdrawn), tuple(restored), tuple(reverted))
