"""The Skills page's reading: the inventory with source, shadowing, fork provenance, quarantine,
and how often and when the agent last opened each skill (the usage record)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from daemon.config.roots import relative_inside
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.transcripts import usage_record
from daemon.transcripts.usage_record import UsageFile
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
    uses: int = 0  # times the agent opened it (by name), as its transcripts show
    last_use: str | None = None  # UTC ISO 8601
    sessions_since: int | None = None  # sessions read since its last use


def _usage(agent: AgentSettings, state_dir: Path | None, problems: list[str]) -> UsageFile:
    if state_dir is None:
        return UsageFile()
    try:
        return usage_record.load(StateLayout(state_dir).agent(agent.name).usage)
    except DaemonError as exc:
        problems.append(f"uses not shown: {exc}")
        return UsageFile()


def skill_rows(agent: AgentSettings, state_dir: Path | None = None) -> tuple[list[SkillRow], list[str]]:
    """Every skill of `agent` as the page shows it, and the inventory's problems; with the
    deployment's `state_dir`, each with its uses."""
    inventory = load_inventory(agent, AgentView(agent.home))
    problems = list(inventory.problems)
    usage = _usage(agent, state_dir, problems)
    rows = []
    for skill in inventory.skills:
        prov = skill.provenance
        why = skill.quarantine or (skill.guard[0] if skill.guard else None)
        reason = None
        if skill.status == "quarantined" and why is not None:
            reason = f"{why.rule}: {why.detail}"
        used = usage.skill(skill.name, skill.path.name)
        rows.append(
            SkillRow(
                skill,
                origin=prov.origin if prov else None,
                base=(prov.base[:12] if prov and prov.base else None),
                kind=prov.kind if prov else None,
                reason=reason,
                quarantine_run=skill.quarantine.run_id if skill.quarantine else None,
                where=relative_inside(skill.path, agent.home) or str(skill.path),
                shadows=(relative_inside(skill.shadows, agent.home) or str(skill.shadows))
                if skill.shadows
                else "",
                uses=used.count,
                last_use=used.last,
                sessions_since=usage.sessions_since(used),
            )
        )
    return rows, problems
