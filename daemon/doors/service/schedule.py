"""Which jobs a deployment schedules, and when they fire — pure functions, no scheduler.

A job is one agent and one pass group (docs/reference/configuration.md): the two transcript passes together on
the transcript cadence, memory consolidation on its own, the three maintenance passes
together. A job runs the group's passes that are enabled for the agent and exist in
this version; a group with none of them is not scheduled. One more job per agent is no
pass at all: `store_maintenance`, git gc of the agent's store (daily unless
`service.intervals.store_maintenance` says otherwise; its last run is in `maintenance.json`).

First fire time after a (re)start comes from the agent's run log: the last run of the
group plus the interval, or now if that is past (missed runs coalesce into one), plus
jitter. So a restart neither skips a due weekly pass nor runs everything twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from daemon.config.resolve import Deployment
from daemon.kernel.cadence import interval_for
from daemon.kernel.settings import PASS_ORDER, AgentSettings

if TYPE_CHECKING:
    # Only named in signatures: `status` computes next runs without the pass machinery.
    from daemon.passes.protocol import Pass

GROUPS: dict[str, tuple[str, ...]] = {
    "transcripts": ("distillation", "skill_learning"),
    "memory_consolidation": ("memory_consolidation",),
    "maintenance": ("library_maintenance", "workspace_consolidation", "instruction_review"),
}
GROUP_OF: dict[str, str] = {name: group for group, names in GROUPS.items() for name in names}
# Not a pass group: git gc of the agent's store (daemon.run.store_maintenance), daily by default.
STORE_MAINTENANCE = "store_maintenance"
STORE_MAINTENANCE_SECONDS = 86400.0
MAX_DEFAULT_JITTER_SECONDS = 300.0
MIN_MISFIRE_GRACE_SECONDS = 60.0


@dataclass(frozen=True)
class JobSpec:
    agent: str
    group: str
    passes: tuple[str, ...]
    interval_seconds: float
    jitter_seconds: float

    @property
    def id(self) -> str:
        return f"{self.group}:{self.agent}"

    @property
    def misfire_grace_seconds(self) -> float:
        """A job late by up to one interval still runs (a busy pool is not a reason to skip)."""
        return max(self.interval_seconds, MIN_MISFIRE_GRACE_SECONDS)


def why_nothing_scheduled(deployment: Deployment) -> str | None:
    """Why the deployment schedules no job at all, or None."""
    if not deployment.config.enabled:
        return "master switch is off (enabled: false)"
    if deployment.config.mode == "on_demand":
        return "mode is on_demand: passes run only through `once`"
    return None


def interval_seconds(deployment: Deployment, agent: AgentSettings, group: str) -> float:
    override = getattr(deployment.config.service.intervals, group)
    if override is not None:
        return float(override)
    if group == STORE_MAINTENANCE:
        return STORE_MAINTENANCE_SECONDS
    return interval_for(agent.cadence, GROUPS[group][0]).total_seconds()


def jitter_seconds(deployment: Deployment, interval: float) -> float:
    configured = deployment.config.service.jitter_seconds
    if configured is not None:
        return float(configured)
    return min(MAX_DEFAULT_JITTER_SECONDS, interval * 0.05)


def group_passes(agent: AgentSettings, group: str, registry: Mapping[str, Pass]) -> tuple[str, ...]:
    """The group's passes enabled for the agent and available in this version, in PASS_ORDER."""
    return tuple(p for p in PASS_ORDER if p in GROUPS[group] and agent.passes.get(p) and p in registry)


def job_specs(deployment: Deployment, registry: Mapping[str, Pass]) -> list[JobSpec]:
    """Every job the deployment schedules (empty when on demand or switched off)."""
    if why_nothing_scheduled(deployment):
        return []
    specs: list[JobSpec] = []
    for agent in deployment.agents.values():
        if not agent.enabled:
            continue
        for group in GROUPS:
            passes = group_passes(agent, group, registry)
            if not passes:
                continue
            interval = interval_seconds(deployment, agent, group)
            specs.append(JobSpec(agent.name, group, passes, interval, jitter_seconds(deployment, interval)))
        interval = interval_seconds(deployment, agent, STORE_MAINTENANCE)
        specs.append(JobSpec(agent.name, STORE_MAINTENANCE, (), interval, jitter_seconds(deployment, interval)))
    return specs


def first_run(spec: JobSpec, now: datetime, last_started: datetime | None, fraction: float) -> datetime:
    """Fire time after a (re)start; `fraction` in [0, 1) spreads agents over the jitter window."""
    return due_at(spec, now, last_started) + timedelta(seconds=fraction * spec.jitter_seconds)


def due_at(spec: JobSpec, now: datetime, last_started: datetime | None) -> datetime:
    """When the group is next due without jitter: last run + interval, never before `now`.

    A last run stamped in the future (a clock that was ahead, then corrected) counts as now:
    it must not postpone the group until that date.
    """
    if last_started is None:
        return now
    return max(now, min(last_started, now) + timedelta(seconds=spec.interval_seconds))
