"""Where the daemon keeps its own state (never inside an agent home)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

# Paths inside an agent home that the daemon itself owns (tracked by the store).
META_DIR = ".metaeng"
REVIEW_DIR = f"{META_DIR}/review"
FORK_BASES_DIR = f"{META_DIR}/fork-bases"
# The curator's (skills_engine/archive.py, skills_engine/curator.py): learned skills moved
# out of the library, the skills a person pinned, the curator's own record.
SKILL_ARCHIVE_DIR = f"{META_DIR}/skill-archive"
SKILL_PINS = f"{META_DIR}/skill-pins.json"
SKILL_CURATOR = f"{META_DIR}/skill-curator.json"
ADOPTED_SETTINGS = f"{META_DIR}/memory-settings.json"
# The home's own run lock: every deployment on the host that names this home finds it
# here, whatever its state folder. Never tracked by the store.
HOME_LOCK = f"{META_DIR}/lock"


@dataclass(frozen=True)
class AgentState:
    root: Path

    @property
    def git_dir(self) -> Path:
        return self.root / "store.git"

    @property
    def run_lock(self) -> Path:
        return self.root / "run.lock"

    @property
    def memory_lock(self) -> Path:
        return self.root / "memory.lock"

    @property
    def cursors(self) -> Path:
        return self.root / "cursors.json"

    @property
    def journal(self) -> Path:
        return self.root / "inflight.json"

    @property
    def breaker(self) -> Path:
        return self.root / "breaker.json"

    @property
    def run_log(self) -> Path:
        return self.root / "runs.jsonl"

    @property
    def run_index(self) -> Path:
        return self.root / "run-index.sqlite3"

    @property
    def maintenance(self) -> Path:
        return self.root / "maintenance.json"

    @property
    def usage(self) -> Path:
        """What the agent used, read from its transcripts (`daemon.transcripts.usage_record`)."""
        return self.root / "usage.json"

    @property
    def impact_headline(self) -> Path:
        """The figures the last `impact` computed (`daemon.doors.impact_headline`; `status` reads them)."""
        return self.root / "impact.json"

    @property
    def impact_skills(self) -> Path:
        """What `impact` found of the learned skills: corrections said again after they were
        opened (`skills_engine.impact_record`; the curator reads it)."""
        return self.root / "impact-skills.json"

    @property
    def impact_flags(self) -> Path:
        """The flagged impact items a notification was sent for (`daemon.doors.impact_flags`)."""
        return self.root / "impact-flags.json"

    @property
    def mcp_answers(self) -> Path:
        """What the MCP server gave the agent, one line per answer (`daemon.doors.mcp_answers`)."""
        return self.root / "mcp-answers.jsonl"

    @property
    def fact_index(self) -> Path:
        """The fact store's query index (SQLite, derived from the shards; safe to delete)."""
        return self.root / "facts-index.sqlite3"

    @property
    def delivery_index(self) -> Path:
        """What the delivery hook reads: current facts and skills, searchable (SQLite,
        derived from the store and the skill folders; safe to delete)."""
        return self.root / "delivery.sqlite3"

    @property
    def scratch(self) -> Path:
        return self.root / "scratch"


@dataclass(frozen=True)
class StateLayout:
    root: Path

    def agent(self, name: str) -> AgentState:
        return AgentState(self.root / "agents" / name)

    @property
    def spend_dir(self) -> Path:
        return self.root / "spend"

    @property
    def spend_lock(self) -> Path:
        return self.root / "spend.lock"

    @property
    def daemon_lock(self) -> Path:
        return self.root / "daemon.lock"
