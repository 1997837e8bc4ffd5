"""The Skills page's reading: the inventory with source, shadowing, fork provenance, quarantine."""

from __future__ import annotations

from dataclasses import dataclass

from daemon.config.roots import relative_inside
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from skills_engine.inventory import Skill, load_inventory


@dataclass(frozen=True)
class SkillRow:
    skill: Skill
    origin: str | None
    base: str | None
    kind: str | None
    reason: str | None  # the guard's reason, for a quarantined skill
    quarantine_run: str | None  # the run that moved it; undoing that run restores it
    where: str = ""  # its folder, relative to the agent home when inside it
    shadows: str = ""  # the original it shadows, the same way


def skill_rows(agent: AgentSettings) -> tuple[list[SkillRow], list[str]]:
    inventory = load_inventory(agent, AgentView(agent.home))
    rows = []
    for skill in inventory.skills:
        prov = skill.provenance
        why = skill.quarantine or (skill.guard[0] if skill.guard else None)
        reason = None
        if skill.status == "quarantined" and why is not None:
            reason = f"{why.rule}: {why.detail}"
        rows.append(
            SkillRow(
                skill,
                origin=prov.origin if prov else None,
                base=(prov.base[:12] if prov and prov.base else None),
                kind=prov.kind if prov else None,
                reason=reason,
                quarantine_run=skill.quarantine.run_id if skill.quarantine else None,
                where=relative_inside(skill.path, agent.home) or str(skill.path),
                shadows=(relative_inside(skill.shadows, agent.home) or str(skill.shadows)) if skill.shadows else "",
            )
        )
    return rows, list(inventory.problems)

