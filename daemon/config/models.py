"""The deployment file as frozen pydantic models (SPEC §5).

Field names are the YAML keys. Strict types: `enabled: 1` or `top_k: "3"` are errors, not
guesses. Paths stay strings here; `daemon.config.resolve` turns them into absolute paths
against the config file's folder (or the agent home) once validation passed.
"""

from __future__ import annotations

import re
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from memory_engine.settings import MemorySettings

PassName = Literal[
    "distillation",
    "skill_learning",
    "memory_consolidation",
    "library_maintenance",
    "workspace_consolidation",
    "instruction_review",
]
# Execution order inside one run: facts first, then skills on the same turns (SPEC §4.3),
# then the tidy-ups, then proposals.
PASS_ORDER: tuple[PassName, ...] = (
    "distillation",
    "skill_learning",
    "memory_consolidation",
    "library_maintenance",
    "workspace_consolidation",
    "instruction_review",
)

PUBLISHED_ALLOWED_KEYS = ("city", "language", "timezone", "delivery", "color", "plan")
AGENT_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


def _relative_inside(value: str, what: str) -> str:
    """A path that must stay inside the agent home: relative, no `..`, no NUL."""
    if not value or "\x00" in value:
        raise ValueError(f"{what} must be a non-empty path")
    if value.startswith("/"):
        raise ValueError(f"{what} must be relative to the agent home, got an absolute path")
    if any(part == ".." for part in value.split("/")):
        raise ValueError(f"{what} must not contain '..'")
    return value.strip("/")


Dialect = Literal["openai", "llama.cpp", "vllm", "ollama"]
# Per dialect: (structured_output, token_limit_param). vLLM and Ollama take a json_schema
# response format (Ollama ignores `strict` and `name`) and `max_tokens`; llama.cpp takes a
# json_object with its schema (the llama-cpp-python server drops a json_schema envelope).
DIALECTS: dict[str, tuple[Literal["json_schema", "json_object"], Literal["max_completion_tokens", "max_tokens"]]] = {
    "openai": ("json_schema", "max_completion_tokens"),
    "llama.cpp": ("json_object", "max_tokens"),
    "vllm": ("json_schema", "max_tokens"),
    "ollama": ("json_schema", "max_tokens"),
}


class ModelSettings(_Frozen):
    base_url: str = Field(min_length=1)
    model: str = Field(min_length=1)
    api_key_env: str | None = "OPENAI_API_KEY"
    # The server's flavour of the OpenAI API: sets the two settings below together.
    dialect: Dialect = "openai"
    # Unset: from the dialect. llama.cpp's servers want {"type": "json_object", "schema": ...}.
    structured_output: Literal["json_schema", "json_object"] | None = None
    # Unset: from the dialect. OpenAI's newer models refuse max_tokens; llama.cpp ignores
    # max_completion_tokens (and then generates without a limit), so it wants max_tokens.
    token_limit_param: Literal["max_completion_tokens", "max_tokens"] | None = None
    price_input_per_million: float = Field(ge=0)
    price_output_per_million: float = Field(ge=0)
    max_output_tokens: int = Field(default=4096, ge=16, le=200_000)
    max_input_bytes: int = Field(default=120_000, ge=1_000, le=10_000_000)
    max_response_bytes: int = Field(default=1_000_000, ge=1_000, le=50_000_000)
    timeout_seconds: float = Field(default=120.0, gt=0, le=3600)
    # A backlog larger than one request is sent in several; at most this many per pass and
    # run (the rest waits for the next cycle). Each request still reserves its own cost.
    max_calls_per_pass: int = Field(default=8, ge=1, le=1000)
    @property
    def output_format(self) -> Literal["json_schema", "json_object"]:
        """The structured-output form sent: the explicit setting, else the dialect's."""
        return self.structured_output or DIALECTS[self.dialect][0]

    @property
    def limit_param(self) -> Literal["max_completion_tokens", "max_tokens"]:
        """The output-limit parameter sent: the explicit setting, else the dialect's."""
        return self.token_limit_param or DIALECTS[self.dialect][1]

    # Circuit breaker: pause an agent's model passes after this many bad calls in a row.
    breaker_failures: int = Field(default=5, ge=1, le=1000)
    breaker_cooldown_minutes: int = Field(default=60, ge=1, le=100_000)


class BudgetSettings(_Frozen):
    daily_usd: float = Field(default=5.0, ge=0)
    per_agent_daily_usd: float = Field(default=1.0, ge=0)


class PassToggles(_Frozen):
    distillation: bool = True
    skill_learning: bool = True
    memory_consolidation: bool = True
    library_maintenance: bool = True
    workspace_consolidation: bool = True
    instruction_review: bool = True


class PassOverrides(_Frozen):
    """Per-agent overrides; an absent key inherits the deployment toggle."""

    distillation: bool | None = None
    skill_learning: bool | None = None
    memory_consolidation: bool | None = None
    library_maintenance: bool | None = None
    workspace_consolidation: bool | None = None
    instruction_review: bool | None = None


class TranscriptSettings(_Frozen):
    # The folder the glob is relative to: absolute, `~`, or relative to the config file's
    # folder; unset = the agent home. Agent runtimes often keep transcripts elsewhere.
    root: str | None = None
    glob: str = "transcripts/**/*.jsonl"
    format: Literal["jsonl"] = "jsonl"
    turn_idle_seconds: int = Field(default=300, ge=0)
    max_read_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    max_line_bytes: int = Field(default=1024 * 1024, ge=256)

    @field_validator("glob")
    @classmethod
    def _glob_inside(cls, value: str) -> str:
        return _relative_inside(value, "transcripts.glob")

    @field_validator("root")
    @classmethod
    def _root_named(cls, value: str | None) -> str | None:
        if value is not None and (not value.strip() or "\x00" in value):
            raise ValueError("transcripts.root must be a non-empty path")
        return value


class SkillSources(_Frozen):
    # Folders holding skill folders; relative paths resolve against the config file.
    managed: list[str] = Field(default_factory=list)
    packs: list[str] = Field(default_factory=list)
    # The learned library, relative to the agent home: the only place skills are written.
    learned: str = "skills"

    @field_validator("learned")
    @classmethod
    def _learned_inside(cls, value: str) -> str:
        return _relative_inside(value, "skills.learned")


class WorkspaceRoles(_Frozen):
    identity: list[str] = Field(default_factory=lambda: ["IDENTITY.md"])
    behaviour: list[str] = Field(default_factory=lambda: ["SOUL.md"])
    instructions: list[str] = Field(default_factory=lambda: ["AGENTS.md", "TOOLS.md"])
    long_memory: list[str] = Field(default_factory=lambda: ["USER.md", "MEMORY.md"])
    daily_logs: str = "memory"
    # Workspace consolidation reads the daily logs of the last `daily_log_days` days, ending
    # today ("today") or at the newest log ("latest": a quiet agent's last logs still count).
    daily_log_days: int = Field(default=14, ge=1, le=366)
    daily_log_anchor: Literal["today", "latest"] = "today"

    @model_validator(mode="after")
    def _paths_inside(self) -> WorkspaceRoles:
        seen: dict[str, str] = {}
        for role in ("identity", "behaviour", "instructions", "long_memory"):
            for item in getattr(self, role):
                _relative_inside(item, f"workspace.{role}")
                if item in seen:
                    raise ValueError(f"{item} is listed under both {seen[item]} and {role}")
                seen[item] = role
        _relative_inside(self.daily_logs, "workspace.daily_logs")
        return self


class MemoryOwner(_Frozen):
    tenant: str = Field(default="default", min_length=1, max_length=80)
    user: str | None = Field(default=None, min_length=1, max_length=80)


def _default_sources() -> list[Literal["user", "assistant", "tool"]]:
    return ["user"]


class AgentMemory(_Frozen):
    settings: MemorySettings = Field(
        default_factory=lambda: MemorySettings(
            min_confidence=0.6, filter_entity=True, time_aware=True, deduplicate=True, top_k=3
        )
    )
    allowed_keys: list[str] = Field(default_factory=lambda: list(PUBLISHED_ALLOWED_KEYS), min_length=1)
    # Facts stated by the user are trusted; tool output and quoted text are not, by default.
    allowed_sources: list[Literal["user", "assistant", "tool"]] = Field(
        default_factory=_default_sources, min_length=1
    )
    store: str = ".metaeng/facts.jsonl"
    markdown_view: str | None = None
    owner: MemoryOwner = Field(default_factory=MemoryOwner)
    # A fact may start at most this many days after the turn that states it; a model
    # writing `valid_from: 9999-12-31` would otherwise make every later update "out of order".
    max_future_days: int = Field(default=1, ge=0, le=36_500)

    @field_validator("store", "markdown_view")
    @classmethod
    def _store_inside(cls, value: str | None) -> str | None:
        return None if value is None else _relative_inside(value, "memory path")


class AgentConfig(_Frozen):
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


class IntervalOverrides(_Frozen):
    """Replace the cadence preset's intervals, in seconds (tests, demos, unusual hosts).

    The daily deep-pass caps and the budgets still come from the preset and `budget`,
    so a short interval never raises what a day may cost.
    """

    transcripts: float | None = Field(default=None, ge=1, le=30 * 86400)  # distillation + skill learning
    memory_consolidation: float | None = Field(default=None, ge=1, le=30 * 86400)
    maintenance: float | None = Field(default=None, ge=1, le=30 * 86400)  # library, workspace, instructions


class ServiceSettings(_Frozen):
    """How `metaeng-daemon run` schedules, watches transcripts and stops (SPEC §7)."""

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


class DeploymentConfig(_Frozen):
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
    agents: dict[str, AgentConfig] = Field(min_length=1)

    @field_validator("agents")
    @classmethod
    def _agent_names(cls, value: dict[str, AgentConfig]) -> dict[str, AgentConfig]:
        for name in value:
            if not AGENT_NAME.match(name):
                raise ValueError(
                    f"agent name {name!r} must be lowercase letters, digits, '-' or '_' (at most 63)"
                )
        return value
