"""The settings an agent runs with, as the kernel and the engines see them.

The configuration file (`daemon/config`) is parsed into these frozen models and resolved
into one `AgentSettings` per agent; everything below the configuration layer — the pass
protocol, transcripts, the model client, the engines — takes these types and never the
configuration file itself. Field names are the YAML keys.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from daemon.kernel.memory_settings import MemorySettings
from daemon.kernel.name_patterns import NamePattern
from daemon.kernel.runtime_files import default_view

PassName = Literal[
    "distillation",
    "skill_learning",
    "memory_consolidation",
    "library_maintenance",
    "workspace_consolidation",
    "instruction_review",
]


# Execution order inside one run: facts first, then skills on the same turns (docs/explanation/skills.md),
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
# What a coding agent's sessions teach: about the project ("we test with `pytest -q`") and
# the person at the keyboard (editor, os, shell, timezone, language).
CODING_ALLOWED_KEYS = (
    "test_command", "build_command", "lint_command", "package_manager", "deploy_command", "staging_url",
    "code_style", "editor", "os", "shell", "timezone", "language",
)
KEY_PRESETS: dict[str, tuple[str, ...]] = {"chat": PUBLISHED_ALLOWED_KEYS, "coding": CODING_ALLOWED_KEYS}
# The preset an agent gets when its config names no keys: by the runtime that writes its sessions.
RUNTIME_KEY_PRESET = {"claude-code": "coding", "codex": "coding"}


def key_preset_for(fmt: str) -> str:
    return RUNTIME_KEY_PRESET.get(fmt, "chat")


class Frozen(BaseModel):
    # No inf or nan: YAML spells them .inf and .nan, and `--json` outputs would not be JSON.
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)


def inside_home(value: str, what: str) -> str:
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


class ModelSettings(Frozen):
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
    # USD per million prompt tokens the server reports as cached (`usage.prompt_tokens_details
    # .cached_tokens`, a prefix it had already processed); unset: priced as other input.
    cached_input_price: float | None = Field(default=None, ge=0)
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


# An OpenClaw agent id or a Hermes profile name (`transcripts.profiles`): one folder name.
RUNTIME_PROFILE = NamePattern(
    "agent or profile id",
    re.compile(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,127}"),
    "1-128 letters, digits, '.', '_' or '-', not starting with '.' or '-'",
    "main",
)


class TranscriptSettings(Frozen):
    # The folder the glob is relative to: absolute, `~`, or relative to the config file's
    # folder; unset = the agent home. Agent runtimes often keep transcripts elsewhere.
    root: str | None = None
    glob: str = "transcripts/**/*.jsonl"
    # Which runtime wrote the transcripts (docs/reference/transcript-formats.md): `jsonl` is
    # the daemon's own format; the others read a runtime's session files or database as is.
    format: Literal["jsonl", "claude-code", "codex", "openclaw", "hermes"] = "jsonl"
    # Claude Code subagent files (`agent-*.jsonl`, `<session>/subagents/`) and Codex subagent
    # sessions are skipped unless this is on.
    subagents: bool = False
    # A runtime's store holds every project's sessions: besides the agent home, the project
    # folders (absolute) whose Codex and Claude Code sessions are this agent's
    # (docs/reference/transcript-formats.md, "Whose sessions").
    projects: list[str] = Field(default_factory=list)
    # The OpenClaw agent ids and Hermes profile names whose sessions are this agent's.
    profiles: list[str] = Field(default_factory=list)
    turn_idle_seconds: int = Field(default=300, ge=0)
    max_read_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    max_line_bytes: int = Field(default=1024 * 1024, ge=256)

    @field_validator("glob")
    @classmethod
    def _glob_inside(cls, value: str) -> str:
        return inside_home(value, "transcripts.glob")

    @field_validator("projects")
    @classmethod
    def _projects_absolute(cls, value: list[str]) -> list[str]:
        for item in value:
            if not item.startswith("/") or "\x00" in item:
                raise ValueError(f"{item!r} is not an absolute path (a session's cwd is one)")
        return [item.rstrip("/") or "/" for item in value]

    @field_validator("profiles")
    @classmethod
    def _profiles_named(cls, value: list[str]) -> list[str]:
        for item in value:
            if not RUNTIME_PROFILE.accepts(item):
                raise ValueError(RUNTIME_PROFILE.refusal(item))
        return value

    @field_validator("root")
    @classmethod
    def _root_named(cls, value: str | None) -> str | None:
        if value is not None and (not value.strip() or "\x00" in value):
            raise ValueError("transcripts.root must be a non-empty path")
        return value


class CuratorSettings(Frozen):
    """When a learned skill nobody uses goes stale, then to the archive (skills_engine/lifecycle.py).

    Both a count of the agent's sessions and a number of days must have passed since the
    skill's last use (or since it was learned, if never used): a quiet agent does not lose
    skills to the calendar, a busy one not within a day.
    """

    enabled: bool = True
    stale_after_sessions: int = Field(default=20, ge=1)
    stale_after_days: int = Field(default=30, ge=0)
    archive_after_sessions: int = Field(default=60, ge=1)
    archive_after_days: int = Field(default=90, ge=0)
    # A run that would archive more than this share of the learned library asks first.
    consent_share: float = Field(default=0.10, gt=0, le=1)
    # A learned skill whose corrections were said again this many times after it was opened
    # (what the last `impact` found) is stale, however often it is used; 0: never.
    impact_stale_recurrences: int = Field(default=2, ge=0)
    # What `impact` found is ignored once older than this many days.
    impact_max_age_days: int = Field(default=14, ge=1)

    @model_validator(mode="after")
    def _archive_after_stale(self) -> CuratorSettings:
        if self.archive_after_sessions < self.stale_after_sessions or self.archive_after_days < self.stale_after_days:
            raise ValueError("archive_after_sessions/days must be at least stale_after_sessions/days: a skill is stale before it is archived")
        return self


class SkillSources(Frozen):
    # Folders holding skill folders; relative paths resolve against the config file.
    managed: list[str] = Field(default_factory=list)
    packs: list[str] = Field(default_factory=list)
    # The learned library, relative to the agent home: the only place skills are written.
    learned: str = "skills"
    curator: CuratorSettings = Field(default_factory=CuratorSettings)

    @field_validator("learned")
    @classmethod
    def _learned_inside(cls, value: str) -> str:
        return inside_home(value, "skills.learned")


class WorkspaceRoles(Frozen):
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
                inside_home(item, f"workspace.{role}")
                if item in seen:
                    raise ValueError(f"{item} is listed under both {seen[item]} and {role}")
                seen[item] = role
        inside_home(self.daily_logs, "workspace.daily_logs")
        return self


# Written into every fact record, which refuses a control character or a line break
# (memory_engine.records): refused here, where the config names the key, not fact by fact.
OWNER_NAME = NamePattern(
    "memory owner",
    re.compile(r"[^\x00-\x1f\x7f-\x9f\u2028\u2029]{1,80}"),
    "1-80 characters, no control character or line break",
    "default",
)
# A fact's key is shown too, so the characters that reorder or hide text are refused with them.
MEMORY_KEY = NamePattern(
    "memory key",
    re.compile(
        r"[^\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u200b\u2060\ufeff]{1,256}"
    ),
    "1-256 characters, no control character, line break or invisible character",
    "city",
)


class MemoryOwner(Frozen):
    tenant: str = Field(default="default", min_length=1, max_length=80)
    user: str | None = Field(default=None, min_length=1, max_length=80)

    @field_validator("tenant", "user")
    @classmethod
    def _owner_named(cls, value: str | None) -> str | None:
        if value is not None and not OWNER_NAME.accepts(value):
            raise ValueError(OWNER_NAME.refusal(value))
        return value


def _default_sources() -> list[Literal["user", "assistant", "tool"]]:
    return ["user"]


class AgentMemory(Frozen):
    settings: MemorySettings = Field(
        default_factory=lambda: MemorySettings(
            min_confidence=0.6, filter_entity=True, time_aware=True, deduplicate=True, top_k=3
        )
    )
    # A list of keys, or a preset's name (`chat`, `coding`); unset: the runtime's preset
    # (`coding` for claude-code and codex, else `chat`), chosen by `with_view_for`.
    allowed_keys: list[str] = Field(default_factory=lambda: list(PUBLISHED_ALLOWED_KEYS), min_length=1)
    # Facts stated by the user are trusted; tool output and quoted text are not, by default.
    allowed_sources: list[Literal["user", "assistant", "tool"]] = Field(
        default_factory=_default_sources, min_length=1
    )
    store: str = ".metaeng/facts.jsonl"
    # The facts view: unset = the runtime's default path (daemon.kernel.runtime_files), a
    # path relative to the home, or false for none.
    markdown_view: str | Literal[False] | None = None
    owner: MemoryOwner = Field(default_factory=MemoryOwner)
    # A fact may start at most this many days after the turn that states it; a model
    # writing `valid_from: 9999-12-31` would otherwise make every later update "out of order".
    max_future_days: int = Field(default=1, ge=0, le=36_500)

    @field_validator("allowed_keys", mode="before")
    @classmethod
    def _preset(cls, value: object) -> object:
        if isinstance(value, str):
            if value not in KEY_PRESETS:
                raise ValueError(f"{value!r} is not a key preset ({', '.join(KEY_PRESETS)}); give a preset or a list of keys")
            return list(KEY_PRESETS[value])
        return value

    @field_validator("allowed_keys")
    @classmethod
    def _keys_named(cls, value: list[str]) -> list[str]:
        for key in value:
            if not MEMORY_KEY.accepts(key):
                raise ValueError(MEMORY_KEY.refusal(key))
        return value

    @field_validator("store", "markdown_view")
    @classmethod
    def _store_inside(cls, value: str | Literal[False] | None) -> str | Literal[False] | None:
        return value if value is None or value is False else inside_home(value, "memory path")

    def with_view_for(self, fmt: str) -> AgentMemory:
        """This memory section for runtime `fmt`: `markdown_view` the runtime's default if unset,
        None if false; `allowed_keys` the runtime's preset if unset."""
        view = default_view(fmt) if self.markdown_view is None else (self.markdown_view or None)
        update: dict[str, object] = {"markdown_view": view}
        if "allowed_keys" not in self.model_fields_set:
            update["allowed_keys"] = list(KEY_PRESETS[key_preset_for(fmt)])
        return self.model_copy(update=update)


@dataclass(frozen=True)
class Effective:
    """One effective setting and the place it came from."""

    key: str
    value: object
    origin: str


@dataclass(frozen=True)
class AgentSettings:
    name: str
    home: Path
    enabled: bool
    autonomy: str
    cadence: str
    deep_cap: int
    instruction_hold: bool
    budget_usd: float
    passes: Mapping[str, bool]
    transcripts: TranscriptSettings
    skills: SkillSources
    managed_skill_dirs: tuple[Path, ...]
    pack_skill_dirs: tuple[Path, ...]
    workspace: WorkspaceRoles
    memory: AgentMemory
    # `transcripts.root` resolved; None = the agent home.
    explicit_transcript_root: Path | None = None
    origins: tuple[Effective, ...] = field(default=(), compare=False)

    @property
    def transcript_root(self) -> Path:
        """The folder the transcript glob is relative to (cursor keys and turn refs too)."""
        return self.explicit_transcript_root or self.home

    @property
    def owner(self) -> tuple[str, str]:
        """(tenant, user) that owns this agent's facts; set by the daemon, never the model."""
        return (self.memory.owner.tenant, self.memory.owner.user or self.name)

    def enabled_passes(self) -> list[str]:
        return [name for name in PASS_ORDER if self.passes.get(name, False)]
