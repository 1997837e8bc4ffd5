"""Run the preservation guard over an agent's learned library and plan the quarantines.

Shared by the skill-learning pass, the library pass (both run it first, model or not)
and `skills check`. A fork failing the guard is moved into quarantine; everything else
is left alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from daemon.kernel.changeset import Changeset, PassDetails
from daemon.kernel.json_contract import Document
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from skills_engine import provenance, quarantine
from skills_engine.edits import SkillEdits
from skills_engine.inventory import Inventory, load_inventory


class Quarantined(Document):
    """A fork the preservation guard moved into quarantine, the rule it failed and how."""

    name: str
    rule: str
    detail: str


class GuardDetails(PassDetails):
    """What `skills check` quarantined."""

    quarantined: list[Quarantined]


@dataclass(frozen=True)
class GuardOutcome:
    quarantined: tuple[Quarantined, ...]  # newly quarantined
    ok: tuple[str, ...]  # machine-written forks that pass
    report: tuple[str, ...]


def enforce_guard(agent: AgentSettings, edits: SkillEdits, now: datetime, run_id: str | None) -> GuardOutcome:
    """Plan the quarantine of every failing fork into `edits`."""
    inventory = load_inventory(agent, edits.view)
    return quarantine_failing(agent, inventory, edits, now, run_id)


def quarantine_failing(
    agent: AgentSettings, inventory: Inventory, edits: SkillEdits, now: datetime, run_id: str | None
) -> GuardOutcome:
    learned = agent.skills.learned
    newly: list[Quarantined] = []
    report: list[str] = []
    ok: list[str] = []
    for skill in inventory.learned_skills():
        if not skill.is_fork:
            continue
        if not skill.pending_quarantine:
            ok.append(skill.name)
            continue
        sidecar = edits.view.read_bytes(provenance.sidecar_path(learned, skill.name))
        stale = quarantine.existing_paths(edits.view, skill.name)
        writes, deletes, record = quarantine.plan_move(
            learned, skill.name, skill.folder.files, sidecar, skill.guard, now, run_id, stale
        )
        edits.apply(writes, deletes)
        newly.append(Quarantined(name=skill.name, rule=record.rule, detail=record.detail))
        original = inventory.original(skill.name)
        serves = f"; {original.source} original {original.path} serves again" if original else ""
        report.append(f"quarantined {skill.name} ({record.rule}: {record.detail}){serves}")
    return GuardOutcome(tuple(newly), tuple(sorted(ok)), tuple(report))


def plan_check(agent: AgentSettings, view: AgentView, now: datetime, run_id: str) -> Changeset:
    """`skills check` as a run: quarantine every failing fork (status `nothing` if none fails)."""
    edits = SkillEdits(agent, view)
    outcome = enforce_guard(agent, edits, now, run_id)
    names = ", ".join(q.name for q in outcome.quarantined)
    reason = f"preservation guard: quarantined {names}" if names else "preservation guard: every fork passes"
    return edits.changeset("skills-check", reason, outcome.report, GuardDetails(quarantined=list(outcome.quarantined)))
