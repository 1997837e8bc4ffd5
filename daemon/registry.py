"""The explicit table of passes, in one place (no discovery by name strings)."""

from __future__ import annotations

from collections.abc import Mapping

from daemon.passes import Pass
from memory_engine.consolidate import MemoryConsolidationPass
from memory_engine.distill import DistillationPass
from skills_engine.library import LibraryMaintenancePass
from skills_engine.scout import SkillLearningPass
from workspace.consolidate import WorkspaceConsolidationPass
from workspace.instruction_review import InstructionReviewPass


def default_registry() -> Mapping[str, Pass]:
    passes: list[Pass] = [
        DistillationPass(),
        MemoryConsolidationPass(),
        SkillLearningPass(),
        LibraryMaintenancePass(),
        WorkspaceConsolidationPass(),
        InstructionReviewPass(),
    ]
    return {p.name: p for p in passes}
