"""The explicit table of passes, in one place (no discovery by name strings)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from daemon.kernel.settings import PASS_ORDER

if TYPE_CHECKING:
    from daemon.passes.protocol import Pass

# The name of every pass `default_registry` holds. Commands that only need to know which
# passes exist (`status`) take this and skip importing the engines, most of their start-up.
PASS_NAMES: tuple[str, ...] = PASS_ORDER
# The passes whose `uses_model` is true, for the same commands (`config check` warns when
# one is on without the model's key); a test checks both against the registry.
MODEL_PASS_NAMES: frozenset[str] = frozenset(
    {"distillation", "skill_learning", "library_maintenance", "workspace_consolidation", "instruction_review"}
)


def default_registry() -> Mapping[str, Pass]:
    from memory_engine.distillation import DistillationPass
    from memory_engine.memory_consolidation import MemoryConsolidationPass
    from skills_engine.library_maintenance import LibraryMaintenancePass
    from skills_engine.skill_learning import SkillLearningPass
    from workspace.instruction_review import InstructionReviewPass
    from workspace.workspace_consolidation import WorkspaceConsolidationPass

    passes: list[Pass] = [
        DistillationPass(),
        MemoryConsolidationPass(),
        SkillLearningPass(),
        LibraryMaintenancePass(),
        WorkspaceConsolidationPass(),
        InstructionReviewPass(),
    ]
    return {p.name: p for p in passes}
