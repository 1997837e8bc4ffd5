"""The deployment file as frozen pydantic models (docs/reference/configuration.md).

Field names are the YAML keys. Strict types: `enabled: 1` or `top_k: "3"` are errors, not
guesses. Paths stay strings here; `daemon.config.resolve` turns them into absolute paths
against the config file's folder (or the agent home) once validation passed.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from daemon.config.door_settings import ConsoleSettings, NotifySettings
from daemon.kernel.name_patterns import NamePattern
from daemon.kernel.settings import (
    AgentMemory,
    Frozen,
    ModelSettings,
    SkillSources,
    TranscriptSettings,
    WorkspaceRoles,
)

AGENT_NAME = NamePattern(
    "agent name",
    re.compile(r"[a-z0-9][a-z0-9_-]{0,62}"),
    "lowercase letters, digits, '-' or '_' (at most 63)",
    "ada",
)


class BudgetSettings(Frozen):
    daily_usd: float = Field(default=5.0, ge=0)
    per_agent_daily_usd: float = Field(default=1.0, ge=0)


class PassToggles(Frozen):
    distillation: bool = True
    skill_learning: bool = True
    memory_consolidation: bool = True
    library_maintenance: bool = True
    workspace_consolidation: bool = True
    instruction_review: bool = True


class PassOverrides(Frozen):
    """Per-agent overrides; an absent key inherits the deployment toggle."""

    distillation: bool | None = None
    skill_learning: bool | None = None
    memory_consolidation: bool | None = None
    library_maintenance: bool | None = None
    workspace_consolidation: bool | None = None
    instruction_review: bool | None = None


class RetentionSettings(Frozen):
    """How long an agent's data is kept (docs/how-to/retention.md); unset: for ever.

    Applied by the daily store maintenance (and `maintenance`); per agent, a field set
    there wins over the deployment's.
    """

    # Fact versions closed (superseded) more than N days ago are purged like `memory forget --purge`.
    closed_facts_days: int | None = Field(default=None, ge=1, le=36500)
    # Lab ledger folders (console.lab_ledgers) untouched for more than N days are removed.
    lab_ledgers_days: int | None = Field(default=None, ge=1, le=36500)
    # Run history: runs older than N days, or beyond the newest N runs, are squashed into one
    # baseline commit (they can no longer be shown or undone). Either, both, or neither.
    history_days: int | None = Field(default=None, ge=1, le=36500)
    history_runs: int | None = Field(default=None, ge=1, le=10_000_000)


class AgentConfig(Frozen):
    home: str = Field(min_length=1)
    enabled: bool = True
    autonomy: Literal["autonomous", "review"] | None = None
    cadence: Literal["relaxed", "balanced", "aggressive"] | None = None
    # True = instruction files only ever change through an approved proposal.
    instruction_hold: bool = True
    budget_usd: float | None = Field(default=None, ge=0)
    passes: PassOverrides = Field(default_factory=PassOverrides)
    transcripts: TranscriptSettings = Field(default_factory=TranscriptSettings)
    skills: SkillSources = Field(default_factory=SkillSources)
    workspace: WorkspaceRoles = Field(default_factory=WorkspaceRoles)
    memory: AgentMemory = Field(default_factory=AgentMemory)
    retention: RetentionSettings | None = None


class IntervalOverrides(Frozen):
    """Replace the cadence preset's intervals, in seconds (tests, demos, unusual hosts).

    The daily deep-pass caps and the budgets still come from the preset and `budget`,
    so a short interval never raises what a day may cost.
    """

    transcripts: float | None = Field(default=None, ge=1, le=30 * 86400)  # distillation + skill learning
    memory_consolidation: float | None = Field(default=None, ge=1, le=30 * 86400)
    maintenance: float | None = Field(default=None, ge=1, le=30 * 86400)  # library, workspace, instructions
    # git gc of each agent's store, under its run lock (daemon.run.store_maintenance); unset = daily.
    store_maintenance: float | None = Field(default=None, ge=1, le=30 * 86400)


class ServiceSettings(Frozen):
    """How `metaeng-daemon run` schedules, watches transcripts and stops (docs/explanation/service.md)."""

    # auto: kernel notifications, falling back to polling if they are unavailable or the
    # watch limit is reached; polling: always poll (NFS/CIFS transcript folders); off: cadence only.
    watch: Literal["auto", "polling", "off"] = "auto"
    poll_interval_seconds: float = Field(default=2.0, ge=0.05, le=600)
    watch_debounce_seconds: float = Field(default=2.0, ge=0.05, le=600)
    # An early wake needs this long since the agent's last transcript run (0 = no gap).
    wake_min_gap_seconds: float = Field(default=600.0, ge=0, le=7 * 86400)
    # Reconciliation scan of every agent's transcripts, in case a notification was lost.
    rescan_seconds: float = Field(default=600.0, ge=1, le=86400)
    # Random delay added to each fire time; unset = 5% of the interval, at most 300 s.
    jitter_seconds: float | None = Field(default=None, ge=0, le=3600)
    max_parallel_runs: int = Field(default=4, ge=1, le=64)
    # SIGTERM: wait this long for runs in progress, then exit (an unfinished run rolls back at next start).
    stop_timeout_seconds: float = Field(default=90.0, ge=1, le=3600)
    # A job that finds its agent busy (a manual `once`, another pass group) retries this much later.
    busy_retry_seconds: float = Field(default=60.0, ge=0.1, le=3600)
    intervals: IntervalOverrides = Field(default_factory=IntervalOverrides)


class CoordinationSettings(Frozen):
    """Where a fleet of daemons shares budget, caps, breakers and run locks (docs/how-to/fleet.md).

    The password never sits here: it comes from `password_env` or the systemd credential
    of that name in lower case; a URL that carries one is refused.
    """

    url: str = Field(min_length=1, max_length=2000)
    password_env: str | None = Field(default="METAENG_PG_PASSWORD", min_length=1, max_length=200)
    # Each attempt to reach the database gives up after this long; a run never waits longer.
    connect_timeout_seconds: float = Field(default=3.0, ge=0.1, le=60)
    # Each statement gives up after this long (a lock wait after half); a server silent for this
    # plus connect_timeout_seconds loses the connection. The run lock is held however long the run.
    query_timeout_seconds: float = Field(default=10.0, ge=0.5, le=600)
    pool_max_size: int = Field(default=4, ge=1, le=64)
    # How often a running daemon writes its heartbeat to the hosts table.
    heartbeat_seconds: float = Field(default=30.0, ge=1, le=3600)
    # How this daemon appears in `status --fleet`; unset: the host name and the state folder.
    host_name: str | None = Field(default=None, min_length=1, max_length=200)


class DeploymentConfig(Frozen):
    version: Literal[1] = 1
    enabled: bool = True
    mode: Literal["schedule", "on_demand"] = "schedule"
    cadence: Literal["relaxed", "balanced", "aggressive"] = "balanced"
    autonomy: Literal["autonomous", "review"] = "autonomous"
    state_dir: str | None = None
    run_lock_timeout_seconds: float = Field(default=0.0, ge=0, le=3600)
    model: ModelSettings | None = None
    # Names of environment variables whose values are secrets too (besides the API key):
    # their values are masked as `***` in every log line, console line and file we write.
    redact_env: list[str] = Field(default_factory=list)
    budget: BudgetSettings = Field(default_factory=BudgetSettings)
    passes: PassToggles = Field(default_factory=PassToggles)
    service: ServiceSettings = Field(default_factory=ServiceSettings)
    console: ConsoleSettings | None = None  # set: `run` serves the web console too
    notify: NotifySettings | None = None
    # Absent: budget, caps, breakers and locks live in the state folder (one host).
    coordination: CoordinationSettings | None = None
    retention: RetentionSettings | None = None
    agents: dict[str, AgentConfig] = Field(min_length=1)

    @field_validator("agents")
    @classmethod
    def _agent_names(cls, value: dict[str, AgentConfig]) -> dict[str, AgentConfig]:
        for name in value:
            if not AGENT_NAME.accepts(name):
                raise ValueError(AGENT_NAME.refusal(name))
        return value
