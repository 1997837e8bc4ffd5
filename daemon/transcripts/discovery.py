"""Which agent runtimes have sessions on this machine, project by project (`init`).

Read-only, and only the places each runtime documents:

- Claude Code: `$CLAUDE_CONFIG_DIR/projects` (default `~/.claude/projects`), one folder per
  project; the folder a session ran in is the `cwd` its lines record.
- Codex: `$CODEX_HOME/sessions` (default `~/.codex/sessions`), rollouts of every project,
  grouped here by the `cwd` of their `session_meta` (or first `turn_context`).
- OpenClaw: `$OPENCLAW_STATE_DIR` (default `~/.openclaw`) `agents/<id>/` (`sessions/*.jsonl`,
  or the `agent/openclaw-agent.sqlite` of newer releases), one entry per agent; its home is
  the agent's own workspace (daemon.transcripts.openclaw_workspaces).
- Hermes: `$HERMES_HOME` (default `~/.hermes`) `state.db`, and `profiles/<name>/state.db`.

A session file that cannot be read is counted and skipped, never fatal: `init` must work
on a machine with half-written sessions.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from daemon.transcripts import claude_code, codex, openclaw_workspaces


@dataclass
class Found:
    """One runtime's sessions of one project (or agent, or profile)."""

    runtime: str  # a `transcripts.format`
    project: str  # the folder the sessions ran in, or the runtime agent's/profile's name
    home: Path  # what the agent's home would be: the project, or the runtime's workspace
    root: Path  # `transcripts.root`
    glob: str  # `transcripts.glob`
    sessions: int = 0
    last: datetime | None = None
    unreadable: int = 0
    projects: list[str] = field(default_factory=list)  # `transcripts.projects`

    def seen(self, path: Path) -> None:
        self.sessions += 1
        try:
            when = datetime.fromtimestamp(path.stat().st_mtime, UTC)
        except OSError:
            return
        if self.last is None or when > self.last:
            self.last = when


def _home(env: Mapping[str, str]) -> Path:
    return Path(env.get("HOME") or os.path.expanduser("~"))


def claude_code_projects(env: Mapping[str, str]) -> list[Found]:
    base = Path(env["CLAUDE_CONFIG_DIR"]) if env.get("CLAUDE_CONFIG_DIR") else _home(env) / ".claude"
    projects = base / "projects"
    found: list[Found] = []
    if not projects.is_dir():
        return found
    for folder in sorted(p for p in projects.iterdir() if p.is_dir()):
        sessions = sorted(
            (p for p in folder.glob("*.jsonl") if claude_code.skip_file(p.name, subagents=False) is None),
            key=lambda p: p.stat().st_mtime if p.exists() else 0,
            reverse=True,
        )
        if not sessions:
            continue
        cwd, unreadable = None, 0
        for session in sessions:
            try:
                cwd = claude_code.session_cwd(session)
            except OSError:
                unreadable += 1
                continue
            if cwd:
                break
        if not cwd:
            continue  # the folder's name alone is lossy (every non-alphanumeric is "-")
        entry = Found("claude-code", cwd, Path(cwd), folder, "**/*.jsonl", unreadable=unreadable)
        for session in sessions:
            entry.seen(session)
        found.append(entry)
    return found


def codex_projects(env: Mapping[str, str]) -> list[Found]:
    base = Path(env["CODEX_HOME"]) if env.get("CODEX_HOME") else _home(env) / ".codex"
    sessions = base / "sessions"
    by_cwd: dict[str, Found] = {}
    unknown = 0
    if not sessions.is_dir():
        return []
    for rollout in sorted(sessions.glob("**/rollout-*.jsonl")):
        try:
            if codex.skip_file(rollout, subagents=False) is not None:
                continue
            cwd = codex.session_cwd(rollout)
        except OSError:
            unknown += 1
            continue
        if not cwd:
            unknown += 1
            continue
        entry = by_cwd.setdefault(cwd, Found("codex", cwd, Path(cwd), base, "sessions/**/rollout-*.jsonl"))
        entry.seen(rollout)
    for entry in by_cwd.values():
        entry.unreadable = unknown  # not attributable to a project: shown on each
    return sorted(by_cwd.values(), key=lambda f: f.project)


def openclaw_agents(env: Mapping[str, str]) -> list[Found]:
    base = Path(env["OPENCLAW_STATE_DIR"]) if env.get("OPENCLAW_STATE_DIR") else _home(env) / ".openclaw"
    agents = base / "agents"
    found: list[Found] = []
    if not agents.is_dir():
        return found
    for agent in sorted(p for p in agents.iterdir() if p.is_dir()):
        database = agent / "agent" / "openclaw-agent.sqlite"
        if database.is_file():
            entry = Found("openclaw", agent.name, base, agent, "agent/openclaw-agent.sqlite")
            entry.seen(database)
        else:
            files = sorted((agent / "sessions").glob("*.jsonl"))
            if not files:
                continue
            entry = Found("openclaw", agent.name, base, agent, "sessions/*.jsonl")
            for path in files:
                entry.seen(path)
        found.append(entry)
    homes = openclaw_workspaces.workspaces(base, _home(env), [entry.project for entry in found])
    for entry in found:
        entry.home = homes[entry.project]
    return found


def hermes_profiles(env: Mapping[str, str]) -> list[Found]:
    base = Path(env["HERMES_HOME"]) if env.get("HERMES_HOME") else _home(env) / ".hermes"
    found: list[Found] = []
    if (base / "state.db").is_file():
        entry = Found("hermes", "default", base, base, "state.db")
        entry.seen(base / "state.db")
        found.append(entry)
    profiles = base / "profiles"
    if profiles.is_dir():
        for profile in sorted(p for p in profiles.iterdir() if (p / "state.db").is_file()):
            entry = Found("hermes", profile.name, profile, base, f"profiles/{profile.name}/state.db")
            entry.seen(profile / "state.db")
            found.append(entry)
    return found


def discover(env: Mapping[str, str]) -> list[Found]:
    """Every runtime's projects on this machine, newest activity first within a runtime."""
    found: list[Found] = []
    for scan in (claude_code_projects, codex_projects, openclaw_agents, hermes_profiles):
        found += sorted(scan(env), key=lambda f: f.last or datetime.min.replace(tzinfo=UTC), reverse=True)
    return found
