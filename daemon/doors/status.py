"""What `metaeng-daemon status` reports per agent, read from the state; nothing is written.

Sources: the config (effective toggles and where they came from), the spend ledger
(deep passes and USD today), the run log (last run, passes stuck on the same failure),
the cursors and transcripts (pending turns, transcripts held as not in the configured
format, lines of kinds the adapter does not know, sessions set aside as another project's
or profile's), the review queue (open proposals), the skills engine (quarantined
skills), the usage record (skills used and never used, facts view reads, hook
deliveries), the curator's verdicts on the same record (library health:
daemon/doors/skill_health.py) and the schedule. `next_run` comes from the running daemon's state file when a
daemon holds the state directory's lock; with no daemon running it is computed from the
cadence and the run log: the group's last run plus its interval, or now if that is past
(when a daemon started now would run it, before jitter). It is null when the pass would
not run: switched off, `mode: on_demand`, master switch or agent off, or a pass this
version does not have.

A field whose source cannot be read is null, with a warning naming the file; one broken
agent never hides the others. `AgentStatus` is one agent's entry of `status --json`
(`StatusDocument`), and what the console's agents page shows.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from daemon.config.resolve import Deployment
from daemon.coordination.backends import agent_breaker, coordination_for
from daemon.doors.impact_headline import headline_path, read_headline
from daemon.doors.service import daemon_json, runlog
from daemon.doors.service.schedule import (
    GROUP_OF,
    GROUPS,
    JobSpec,
    due_at,
    interval_seconds,
    jitter_seconds,
    why_nothing_scheduled,
)
from daemon.doors.skill_health import library_health
from daemon.doors.status_documents import (
    AgentStatus,
    BreakerState,
    DaemonRunning,
    HeldTranscript,
    ImpactHeadline,
    LastRun,
    PassSchedule,
    StatusDocument,
    StoreMaintenance,
    StuckPass,
    UnreadablePath,
    UsageHeadline,
)
from daemon.kernel.errors import DaemonError
from daemon.kernel.json_contract import RawJson
from daemon.kernel.managed import managed_paths
from daemon.kernel.paths import StateLayout
from daemon.kernel.review_queue import list_proposals
from daemon.kernel.settings import PASS_ORDER, AgentSettings
from daemon.kernel.view import AgentView
from daemon.transcripts import cursors, usage_record
from daemon.transcripts.files import source_of
from daemon.transcripts.reader import TurnBatch, read_new_turns
from daemon.transcripts.usage_record import UsageFile
from skills_engine.curator import recurring_of
from skills_engine.inventory import Inventory, load_inventory, quarantined_names

if TYPE_CHECKING:
    from daemon.run.store_maintenance import MaintenanceRecord

T = TypeVar("T")


def quarantined_skills(agent: AgentSettings) -> list[str]:
    """Names of the agent's quarantined skills (moved out, or failing the guard now)."""
    return sorted(quarantined_names(agent))


def _breaker(
    deployment: Deployment, agent: AgentSettings, layout: StateLayout, now: datetime
) -> BreakerState | None:
    breaker = agent_breaker(deployment, agent.name)
    if breaker is None:
        return None
    state = breaker.state()
    until = breaker.open_until(now)
    return BreakerState(
        open=until is not None,
        open_until=until.isoformat() if until else None,
        consecutive_failures=state.consecutive_failures,
    )


@dataclass
class StatusReport:
    agents: list[AgentStatus]
    daemon: daemon_json.DaemonState | None
    running: bool  # a daemon holds the state folder's lock (its state file may lag behind)
    warnings: list[str] = field(default_factory=list)
    nothing_scheduled: str | None = None  # why the deployment schedules nothing, if it does not
    missing_passes: tuple[str, ...] = ()  # passes this version does not have
    impact_unreadable: tuple[str, ...] = ()  # agents whose impact headline file could not be read

    def document(self) -> StatusDocument:
        d = self.daemon
        said = (d.pid, d.started_at, d.config, d.daemon_version) if d is not None else (None, None, None, None)
        running = DaemonRunning(running=self.running, pid=said[0], started_at=said[1], config=said[2], version=said[3])
        return StatusDocument(daemon=running, agents=self.agents)


def _guard(warnings: list[str], fn: Callable[[], T]) -> T | None:
    try:
        return fn()
    except (DaemonError, OSError) as exc:
        message = str(exc)
        if message not in warnings:
            warnings.append(message)
        return None


def _next_run(
    deployment: Deployment,
    agent: AgentSettings,
    pass_name: str,
    registry: Collection[str],
    jobs: Mapping[str, daemon_json.JobState] | None,
    now: datetime,
) -> str | None:
    if why_nothing_scheduled(deployment) or not agent.enabled:
        return None
    if not agent.passes.get(pass_name) or pass_name not in registry:
        return None
    group = GROUP_OF[pass_name]
    if jobs is not None:
        job = jobs.get(f"{group}:{agent.name}")
        return job.next_run if job is not None and pass_name in job.passes else None
    interval = interval_seconds(deployment, agent, group)
    spec = JobSpec(agent.name, group, (pass_name,), interval, jitter_seconds(deployment, interval))
    last = runlog.last_started(StateLayout(deployment.state_dir).agent(agent.name).run_log, GROUPS[group])
    return due_at(spec, now, last).isoformat()


def _text(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _last_run(entry: RawJson | None) -> LastRun | None:
    if entry is None:
        return None
    return LastRun(
        run_id=_text(entry.get("run_id")),
        status=_text(entry.get("outcome")),
        finished_at=runlog.finished_at(entry),
    )


def _waiting(agent: AgentSettings, layout: StateLayout, now: datetime) -> TurnBatch:
    """What the transcripts hold after distillation's cursors (skill learning's if it is off)."""
    consumer = next((p for p in ("distillation", "skill_learning") if agent.passes.get(p)), "distillation")
    state = cursors.load(layout.agent(agent.name).cursors)
    return read_new_turns(source_of(agent), cursors.for_consumer(state, consumer), "status", now)


def _stuck(agent: AgentSettings, layout: StateLayout) -> dict[str, runlog.Stuck]:
    return runlog.stuck_passes(layout.agent(agent.name).run_log, [p for p in agent.passes if agent.passes[p]])


def held_transcripts(batch: TurnBatch) -> list[HeldTranscript]:
    return [HeldTranscript(file=held.file, reason=held.reason) for held in batch.held]


def _stuck_pass(stuck: runlog.Stuck | None) -> StuckPass | None:
    if stuck is None:
        return None
    return StuckPass(reason=stuck.reason, since=stuck.since, runs=stuck.runs)


def _unreadable(agent: AgentSettings) -> list[UnreadablePath]:
    """Managed files and folders the daemon cannot read (left out of every run until fixed)."""
    scan = managed_paths(agent).scan(agent.home)
    return [UnreadablePath(path=path, reason=why) for path, why in scan.unreadable]


def skill_sources(agent: AgentSettings, layout: StateLayout) -> tuple[Inventory, UsageFile]:
    """The agent's skills and its usage record, read once for the usage headline and the library health."""
    record = usage_record.load(layout.agent(agent.name).usage)
    return load_inventory(agent, AgentView(agent.home)), record


def usage_headline(inventory: Inventory, record: UsageFile) -> UsageHeadline:
    """The agent's usage headline: its skills (by name, shadowed copies once) against the usage record."""
    opened = {s.name: record.skill(s.name, s.path.name).count for s in inventory.skills}
    return UsageHeadline(
        skills_used=sum(1 for n in opened.values() if n),
        skills_never_used=sum(1 for n in opened.values() if not n),
        skill_opens=sum(opened.values()),
        facts_view_reads=record.facts_view.count,
        hook_deliveries=record.hook_context.count,
        sessions_read=record.sessions_seen,
    )


def impact_headline(state_dir: Path, agent: str) -> ImpactHeadline | None:
    """The agent's impact headline as last computed (never computed here: it reads every session)."""
    found = read_headline(state_dir, agent)
    if found is None:
        return None
    return ImpactHeadline(
        computed_at=found.computed_at, since=found.since, sessions_read=found.sessions_read, figures=found.figures
    )


def _open_proposals(agent: AgentSettings) -> int:
    view = AgentView(agent.home)
    return sum(1 for p in list_proposals(view) if p.status(view) == "open")


def agent_status(
    deployment: Deployment,
    agent: AgentSettings,
    *,
    now: datetime,
    registry: Collection[str],
    jobs: Mapping[str, daemon_json.JobState] | None,
    warnings: list[str],
) -> AgentStatus:
    layout = StateLayout(deployment.state_dir)
    ledger = coordination_for(deployment).ledger()
    totals = _guard(warnings, lambda: ledger.totals(now.date().isoformat(), agent.name))
    origins = {o.key: o.origin for o in agent.origins}
    stuck = _guard(warnings, lambda: _stuck(agent, layout)) or {}
    passes = {
        name: PassSchedule(
            enabled=bool(agent.passes.get(name)),
            origin=origins.get(f"passes.{name}", "default"),
            # _guard calls the lambda at once, inside this iteration: no late binding.
            next_run=_guard(warnings, lambda: _next_run(deployment, agent, name, registry, jobs, now)),  # noqa: B023
            stuck=_stuck_pass(stuck.get(name)),
        )
        for name in agent.passes
    }
    waiting = _guard(warnings, lambda: _waiting(agent, layout, now))
    sources = _guard(warnings, lambda: skill_sources(agent, layout))
    library = None
    if sources is not None:
        inventory, record = sources
        library = _guard(
            warnings,
            lambda: library_health(
                agent, AgentView(agent.home), inventory, record, now, recurring_of(layout.agent(agent.name).impact_skills, agent, now)
            ),
        )
    return AgentStatus(
        name=agent.name,
        enabled=deployment.config.enabled and agent.enabled,
        passes=passes,
        deep_passes_today=totals.agent_deep_passes if totals else None,
        deep_cap=agent.deep_cap,
        spend_today_usd=round(totals.agent_usd, 6) if totals else None,
        cache_saved_today_usd=round(totals.agent_saved_usd, 6) if totals else None,
        cached_tokens_today=totals.agent_cached_tokens if totals else None,
        budget_usd=agent.budget_usd,
        pending_turns=len(waiting.turns) if waiting is not None else None,
        held_transcripts=held_transcripts(waiting) if waiting is not None else None,
        unknown_lines=waiting.unknown if waiting is not None else None,
        set_aside_sessions=len(waiting.set_aside) if waiting is not None else None,
        quarantined=_guard(warnings, lambda: quarantined_skills(agent)),
        usage=usage_headline(*sources) if sources is not None else None,
        library=library,
        breaker=_guard(warnings, lambda: _breaker(deployment, agent, layout, now)),
        open_proposals=_guard(warnings, lambda: _open_proposals(agent)),
        unreadable=_guard(warnings, lambda: _unreadable(agent)),
        last_run=_last_run(_guard(warnings, lambda: runlog.last_run(layout.agent(agent.name).run_log))),
        store_maintenance=_maintenance(_guard(warnings, lambda: _last_maintenance(layout.agent(agent.name).maintenance))),
        impact=_guard(warnings, lambda: impact_headline(deployment.state_dir, agent.name)),
    )


def _last_maintenance(path: Path) -> MaintenanceRecord | None:
    """The agent's last store maintenance, None if it never ran.

    Its reader lives with the run machinery, imported only when there is a record to read.
    """
    try:
        path.stat()
    except FileNotFoundError:
        return None
    except OSError:
        pass  # the reader names the file and the fault
    from daemon.run.store_maintenance import last_maintenance

    return last_maintenance(path)


def _maintenance(record: MaintenanceRecord | None) -> StoreMaintenance | None:
    """The last git maintenance of the agent's store, None if never."""
    if record is None:
        return None
    return StoreMaintenance(
        started_at=record.started_at,
        duration_s=record.duration_s,
        outcome=record.outcome,
        detail=record.detail,
        size_after_bytes=record.size_after_bytes,
    )


def build_status(
    deployment: Deployment, *, now: datetime, registry: Collection[str], only: str | None = None
) -> StatusReport:
    """Status of every agent (or only `only`), in config order."""
    layout = StateLayout(deployment.state_dir)
    warnings: list[str] = []
    running = daemon_json.daemon_running(layout)
    daemon = _guard(warnings, lambda: daemon_json.read(layout)) if running else None
    jobs = {job.id: job for job in daemon.jobs} if daemon is not None else None
    names = [deployment.agent(only).name] if only else list(deployment.agents)
    agents = [
        agent_status(
            deployment, deployment.agents[name], now=now, registry=registry, jobs=jobs, warnings=warnings
        )
        for name in names
    ]
    missing = tuple(p for p in PASS_ORDER if p not in registry)
    unreadable = tuple(
        a.name for a in agents if a.impact is None and headline_path(deployment.state_dir, a.name).exists()
    )
    return StatusReport(agents, daemon, running, warnings, why_nothing_scheduled(deployment), missing, unreadable)
