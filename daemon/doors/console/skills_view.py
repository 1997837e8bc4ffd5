"""The Skills page's reading: the inventory with source, shadowing, fork provenance, quarantine,
how often and when the agent last opened each skill (the usage record), each skill's place
in the curator's lifecycle and why, the library health, what the next curator run would move
(and whether it waits for a person's consent), and the archived skills with the run that moved each."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from daemon.config.roots import relative_inside
from daemon.doors.skill_health import LibraryHealth, health
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.kernel.review_queue import list_proposals
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.transcripts import usage_record
from daemon.transcripts.usage_record import UsageFile
from skills_engine.archive import Archived, read_archive
from skills_engine.curator import KIND, Approval, approvals, plan, recurring_of
from skills_engine.inventory import Skill, load_inventory
from skills_engine.lifecycle import Verdict


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
    state: str = ""  # its place in the curator's lifecycle ("" when unknown)
    why: str = ""  # why it stands there


@dataclass(frozen=True)
class NextRun:
    """What the next curator run would move and why (`curator --dry-run`'s plan), and whether
    the moves wait for a person: `consent` says why, `waiting` names a proposal already open."""

    moves: list[Verdict]
    consent: str | None
    waiting: str | None


@dataclass(frozen=True)
class SkillsPage:
    rows: list[SkillRow]
    archived: list[Archived]
    health: LibraryHealth | None  # None when the pins cannot be read
    problems: list[str] = field(default_factory=list)
    next_run: NextRun | None = None  # None when the curator's plan cannot be read
    # (archived skill, the run in its archive.json) → the approval that moved it, when the
    # move went through the review queue: that run proposed it, the approval's run moved it
    approvals: dict[tuple[str, str | None], Approval] = field(default_factory=dict)


def _usage(agent: AgentSettings, state_dir: Path | None, problems: list[str]) -> UsageFile:
    if state_dir is None:
        return UsageFile()
    try:
        return usage_record.load(StateLayout(state_dir).agent(agent.name).usage)
    except DaemonError as exc:
        problems.append(f"uses not shown: {exc}")
        return UsageFile()


def skills_page(agent: AgentSettings, state_dir: Path, now: datetime) -> SkillsPage:
    """The Skills page of `agent`: every skill with its uses and its place now (the verdicts
    the curator acts on), the library health, the archive, and every problem met reading them."""
    view = AgentView(agent.home)
    inventory = load_inventory(agent, view)
    problems = list(inventory.problems)
    usage = _usage(agent, state_dir, problems)
    archive, archive_problems = read_archive(view)
    problems += archive_problems
    try:
        moved_by = approvals(view)
        waiting = next((p.id for p in list_proposals(view) if p.kind == KIND and p.status(view) == "open"), None)
    except DaemonError as exc:
        problems.append(f"the review queue cannot be read: {exc}")
        moved_by, waiting = {}, None
    try:
        # the plan `curator --dry-run` prints: its verdicts are `status`'s (curator.standing)
        recurring = recurring_of(StateLayout(state_dir).agent(agent.name).impact_skills, agent, now)
        planned = plan(agent, view, inventory, usage, now, None, recurring)
    except DaemonError as exc:
        problems.append(f"places in the curator's lifecycle not shown: {exc}")
        rows = [_row(agent, skill, usage, None) for skill in inventory.skills]
        return SkillsPage(rows, list(archive.values()), None, problems, approvals=moved_by)
    found = list(zip(inventory.skills, planned.verdicts, strict=True))
    rows = [_row(agent, skill, usage, place) for skill, place in found]
    next_run = NextRun(planned.moves, planned.consent, waiting)
    return SkillsPage(rows, list(archive.values()), health(agent, found, sorted(archive)), problems, next_run, moved_by)


def skill_rows(agent: AgentSettings, state_dir: Path | None = None) -> tuple[list[SkillRow], list[str]]:
    """Every skill of `agent` as the page shows it, and the inventory's problems; with the
    deployment's `state_dir`, each with its uses."""
    inventory = load_inventory(agent, AgentView(agent.home))
    problems = list(inventory.problems)
    usage = _usage(agent, state_dir, problems)
    return [_row(agent, skill, usage, None) for skill in inventory.skills], problems


def _row(agent: AgentSettings, skill: Skill, usage: UsageFile, place: Verdict | None) -> SkillRow:
    prov = skill.provenance
    why = skill.quarantine or (skill.guard[0] if skill.guard else None)
    reason = None
    if skill.status == "quarantined" and why is not None:
        reason = f"{why.rule}: {why.detail}"
    used = usage.skill(skill.name, skill.path.name)
    return SkillRow(
        skill,
        origin=prov.origin if prov else None,
        base=(prov.base[:12] if prov and prov.base else None),
        kind=prov.kind if prov else None,
        reason=reason,
        quarantine_run=skill.quarantine.run_id if skill.quarantine else None,
        where=relative_inside(skill.path, agent.home) or str(skill.path),
        shadows=(relative_inside(skill.shadows, agent.home) or str(skill.shadows)) if skill.shadows else "",
        uses=used.count,
        last_use=used.last,
        sessions_since=usage.sessions_since(used),
        state=place.state if place else "",
        why=place.why if place else "",
    )
