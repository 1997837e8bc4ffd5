"""The explicit table of passes, in one place (no discovery by name strings)."""

from __future__ import annotations

from collections.abc import Mapping

from daemon.kernel.passes import Pass
from memory_engine.distillation import DistillationPass
from memory_engine.memory_consolidation import MemoryConsolidationPass
from skills_engine.library_maintenance import LibraryMaintenancePass
from skills_engine.skill_learning import SkillLearningPass
from workspace.instruction_review import InstructionReviewPass
from workspace.workspace_consolidation import WorkspaceConsolidationPass


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
