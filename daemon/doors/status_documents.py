"""The documents `metaeng-daemon status --json` prints (and the console's agents page shows):
the daemon's own state, then one `AgentStatus` per agent; built by `daemon.doors.status`."""

from __future__ import annotations

from typing import Literal

from daemon.doors.skill_health import LibraryHealth
from daemon.impact.figures import ImpactFigures
from daemon.kernel.json_contract import Document, Omittable


class StuckPass(Document):
    """A pass whose last `runs` recorded outcomes were the same failure, since `since`."""

    reason: str
    since: str | None
    runs: int


class PassSchedule(Document):
    enabled: bool  # the effective toggle
    origin: str  # where the toggle came from, as in `config show`
    next_run: str | None  # null when the pass would not run
    stuck: StuckPass | None


class HeldTranscript(Document):
    """A transcript not consumed, and why (not in the configured format, a busy database…)."""

    file: str
    reason: str


class UnreadablePath(Document):
    """A managed file or folder the daemon cannot read: left out of every run until fixed."""

    path: str
    reason: str


class BreakerState(Document):
    open: bool
    open_until: str | None
    consecutive_failures: int


class LastRun(Document):
    """The newest line of the run log; `run_id` null when the run committed nothing."""

    run_id: str | None
    status: str | None
    finished_at: str | None


class StoreMaintenance(Document):
    """The last git maintenance of the agent's store (`maintenance.json`)."""

    started_at: str
    duration_s: float
    outcome: Literal["done", "failed"]
    detail: str
    size_after_bytes: int


class UsageHeadline(Document):
    """What the agent used, as the transcripts read so far show (`usage.json`): of its skills,
    how many it opened at least once and how many never; how many times it opened one, read
    the facts view and got the hook's context; how many sessions were read."""

    skills_used: int
    skills_never_used: int
    skill_opens: int
    facts_view_reads: int
    hook_deliveries: int
    sessions_read: int


class ImpactHeadline(Document):
    """The figures the last `impact` (or the console's Impact page) computed for the agent,
    read from `impact.json`; `status` never computes them (docs/how-to/impact.md)."""

    computed_at: str
    since: str | None  # the `--since` day they were computed for; null for the whole history
    sessions_read: int
    figures: ImpactFigures


class AgentStatus(Document):
    """One agent's status; a field whose source cannot be read is null (with a warning)."""

    name: str
    enabled: bool  # the master switch and the agent's own switch together
    passes: dict[str, PassSchedule]
    deep_passes_today: int | None
    deep_cap: int
    spend_today_usd: float | None
    # What the server's prompt cache saved today (cached input tokens priced at
    # `model.cached_input_price` instead of the input price), and over how many tokens.
    cache_saved_today_usd: float | None
    cached_tokens_today: int | None
    budget_usd: float
    pending_turns: int | None
    held_transcripts: list[HeldTranscript] | None
    # Lines of kinds the transcript adapter does not know, by kind (format drift), and how
    # many sessions were set aside as another project's or profile's, in what waits to be read.
    unknown_lines: dict[str, int] | None
    set_aside_sessions: int | None
    quarantined: list[str] | None
    usage: UsageHeadline | None
    library: LibraryHealth | None  # the skills by the curator's verdicts
    breaker: BreakerState | None  # null with no model configured
    open_proposals: int | None
    unreadable: list[UnreadablePath] | None
    last_run: LastRun | None
    store_maintenance: StoreMaintenance | None  # null if it never ran
    # left out when impact was never computed for the agent, or its file is unreadable (a warning)
    impact: Omittable[ImpactHeadline] = None


class DaemonRunning(Document):
    """Whether a daemon runs on this state folder (its lock is held), and what it says of
    itself; the other fields are null when none runs."""

    running: bool
    pid: int | None
    started_at: str | None
    config: str | None  # the config file it was started with
    version: str | None  # its version (null if it runs a version that did not say)


class StatusDocument(Document):
    """What `status --json` prints: the daemon, then every agent asked for, in config order."""

    daemon: DaemonRunning
    agents: list[AgentStatus]
