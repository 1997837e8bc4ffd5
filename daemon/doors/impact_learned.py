"""What an impact computation keeps beyond its report: the learned skills it read, what it
found of them for the curator (`skills_engine.impact_record`, whole-history runs only), and an
`impact_flagged` notification per newly flagged item (`daemon.doors.impact_flags`). Shared by
`metaeng-daemon impact` and the console (`daemon.doors.impact_compute`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

from daemon.config.resolve import Deployment
from daemon.doors.impact_flags import notify_flagged
from daemon.impact.document import ImpactItem, SkillRecurrence
from daemon.impact.report import skill_recurrences
from daemon.impact.skills import SkillSource, sources_of
from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from skills_engine import impact_record
from skills_engine.inventory import load_inventory


def learned_skills(agent: AgentSettings) -> list[SkillSource]:
    """The agent's learned library (not quarantined) as the impact report reads it."""
    return sources_of(load_inventory(agent, AgentView(agent.home)).learned_skills())


def keep_found(
    deployment: Deployment,
    agent: str,
    items: Sequence[ImpactItem],
    since: str | None,
    clock: Callable[[], datetime],
    env: Mapping[str, str] | None = None,
) -> list[str]:
    """Write what `items` (the whole history's) say of the learned skills when `since` is None,
    and notify the newly flagged items; return what could not be done, in words (never raises:
    the report stands on its own)."""
    problems: list[str] = []
    if since is None:
        path = StateLayout(deployment.state_dir).agent(agent).impact_skills
        try:
            impact_record.write(path, _record(skill_recurrences(items), clock()))
        except OSError as exc:
            problems.append(f"what impact found of the learned skills was not saved for the curator: {exc}")
    try:
        notify_flagged(deployment, agent, items, clock, env or {})
    except (DaemonError, OSError) as exc:
        problems.append(f"the flagged items were not notified: {exc}")
    return problems


def _record(found: Sequence[SkillRecurrence], now: datetime) -> impact_record.ImpactSkills:
    """What the curator reads of `found`: per skill, its items and its recurrences after delivery."""
    return impact_record.ImpactSkills(
        computed_at=now.astimezone(UTC).isoformat(timespec="seconds"),
        skills={
            s.name: impact_record.SkillImpact(
                items=len(s.items), delivered_at=s.delivered_at, recurrences_after_delivery=s.recurrences_after_delivery
            )
            for s in found
        },
    )
