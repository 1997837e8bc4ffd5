"""What `once --json` prints: the run, and one entry per pass with the pass's own details.

An entry is the pass's details (the model its changeset reports, declared by the pass
itself) with `name`, `status`, `reason` and `files` added, in one flat object. Each kind
of details has its entry model here, so the document's JSON Schema lists every shape a
pass entry can take; `ENTRIES` maps details to entries and a test checks that every
details model a pass can report has one.
"""

from __future__ import annotations

from typing import cast

from daemon.kernel.changeset import PassDetails, PassStatus
from daemon.kernel.json_contract import Document
from daemon.passes.turn_input import TurnsSeen
from daemon.run.applier import PassResult
from daemon.run.runner import RunResult
from memory_engine.distillation import DistillationDetails
from memory_engine.memory_consolidation import ConsolidationBlocked, ConsolidationDetails
from skills_engine.library_maintenance import LibraryDetails
from skills_engine.skill_learning import ScoutDetails, SkillLearningDetails
from workspace.consolidate_report import CheckedDetails, ConsolidatedDetails
from workspace.instruction_review import InstructionReviewDetails, TooFewToReview


class PassHeader(Document):
    name: str
    status: PassStatus
    reason: str
    files: list[str]  # the paths it changed, relative to the agent home


class PassOutcome(PassHeader):
    """A pass that reports nothing beyond its status: skipped before it began (cap, budget,
    switched off, dropped because a person changed its files), or failed."""


class TurnsSeenEntry(PassHeader, TurnsSeen):
    """A transcript-driven pass that stopped before the model (fewer than 4 turns, no model)."""


class TooFewToReviewEntry(PassHeader, TooFewToReview):
    """`instruction_review` with fewer than 4 new turns."""


class DistillationEntry(PassHeader, DistillationDetails):
    """`distillation` after the model saw turns."""


class MemoryConsolidationEntry(PassHeader, ConsolidationDetails):
    """`memory_consolidation`."""


class ConsolidationBlockedEntry(PassHeader, ConsolidationBlocked):
    """`memory_consolidation` refusing a fact store that needs a person."""


class SkillLearningEntry(PassHeader, SkillLearningDetails):
    """`skill_learning` before (or without) the model."""


class ScoutEntry(PassHeader, ScoutDetails):
    """`skill_learning` after the scout answered."""


class LibraryMaintenanceEntry(PassHeader, LibraryDetails):
    """`library_maintenance`."""


class WorkspaceCheckedEntry(PassHeader, CheckedDetails):
    """`workspace_consolidation` whose rewrite and daily-log tidying the loss check both rejected (nothing written)."""


class WorkspaceConsolidatedEntry(PassHeader, ConsolidatedDetails):
    """`workspace_consolidation`."""


class InstructionReviewEntry(PassHeader, InstructionReviewDetails):
    """`instruction_review` after the model saw turns."""


PassEntry = (
    PassOutcome
    | TurnsSeenEntry
    | TooFewToReviewEntry
    | DistillationEntry
    | MemoryConsolidationEntry
    | ConsolidationBlockedEntry
    | SkillLearningEntry
    | ScoutEntry
    | LibraryMaintenanceEntry
    | WorkspaceCheckedEntry
    | WorkspaceConsolidatedEntry
    | InstructionReviewEntry
)

ENTRIES: dict[type[PassDetails], type[PassHeader]] = {
    TurnsSeen: TurnsSeenEntry,
    TooFewToReview: TooFewToReviewEntry,
    DistillationDetails: DistillationEntry,
    ConsolidationDetails: MemoryConsolidationEntry,
    ConsolidationBlocked: ConsolidationBlockedEntry,
    SkillLearningDetails: SkillLearningEntry,
    ScoutDetails: ScoutEntry,
    LibraryDetails: LibraryMaintenanceEntry,
    CheckedDetails: WorkspaceCheckedEntry,
    ConsolidatedDetails: WorkspaceConsolidatedEntry,
    InstructionReviewDetails: InstructionReviewEntry,
}


class OnceDocument(Document):
    """What `once --json` prints."""

    agent: str
    run_id: str | None  # null when nothing changed (no commit)
    dry_run: bool
    outcome: str  # applied | nothing | skipped | failed
    passes: list[PassEntry]  # one per pass, in run order
    files_changed: list[str]
    cost_usd: float
    model_calls: int
    notes: list[str]
    error: str | None  # why the run could not start or be applied
    preview: str | None  # with --dry-run: the unified diff of what would change


def pass_entry(result: PassResult) -> PassEntry:
    """`result` as its entry of `once --json`; raises KeyError for details with no entry model."""
    header = {"name": result.name, "status": result.status, "reason": result.reason, "files": list(result.files)}
    if result.details is None:
        return PassOutcome.model_validate(header)
    entry = ENTRIES[type(result.details)].model_validate({**dict(result.details), **header})
    return cast(PassEntry, entry)  # every entry model of ENTRIES is one of PassEntry (tested)


def once_document(result: RunResult) -> OnceDocument:
    return OnceDocument(
        agent=result.agent,
        run_id=result.run_id,
        dry_run=result.dry_run,
        outcome=result.outcome,
        passes=[pass_entry(p) for p in result.passes],
        files_changed=list(result.files_changed),
        cost_usd=round(result.cost_usd, 6),
        model_calls=len(result.model_calls),
        notes=list(result.notes),
        error=result.error,
        preview=result.preview if result.dry_run else None,
    )
