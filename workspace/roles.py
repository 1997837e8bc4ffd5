"""An agent's workspace files and their roles, read through the run's view.

Roles come from `AgentSettings.workspace` (defaults: IDENTITY.md identity, SOUL.md
behaviour, AGENTS.md and TOOLS.md instructions, USER.md and MEMORY.md long memory, daily
logs in `memory/YYYY-MM-DD.md`). A missing file is fine — it is simply not there yet. A
file that exists but cannot be used (not a regular file, a symlink, unreadable, not
UTF-8) is reported and left alone: the daemon never rewrites what it could not read.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from datetime import date
from typing import Literal

from daemon.kernel.errors import PathRefused
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView, confined
from workspace.daily_logs import select_window

Role = Literal["identity", "behaviour", "instructions", "long_memory", "daily_log"]
ROLES: tuple[Role, ...] = ("identity", "behaviour", "instructions", "long_memory")
ROLE_MEANING: dict[str, str] = {
    "identity": "who the agent is: name, role, where it works",
    "behaviour": "how the agent behaves: voice, tone, manners",
    "instructions": "what the agent is asked to do: tasks, rules, tools and procedures",
    "long_memory": "durable knowledge: facts about the user and people (user files), about the work (memory files)",
    "daily_log": "what happened on one day",
}


@dataclass(frozen=True)
class WorkspaceFile:
    path: str
    role: Role
    text: str | None  # None: the file does not exist yet


@dataclass(frozen=True)
class Workspace:
    files: tuple[WorkspaceFile, ...]
    problems: tuple[str, ...]

    def texts(self) -> dict[str, str]:
        """Existing files' text by path, in role order."""
        return {f.path: f.text for f in self.files if f.text is not None}

    def role_of(self, path: str) -> Role | None:
        return next((f.role for f in self.files if f.path == path), None)


def role_files(agent: AgentSettings) -> list[tuple[str, Role]]:
    roles = agent.workspace
    return [(path, role) for role in ROLES for path in getattr(roles, role)]


def instruction_files(agent: AgentSettings) -> list[str]:
    return list(agent.workspace.instructions)


def _read(view: AgentView, rel: str) -> tuple[str | None, str | None]:
    """(text, problem): text None and problem None means the file is absent."""
    try:
        data = view.read_bytes(rel)
        if data is None and rel not in view.overlay:
            try:
                mode = os.lstat(confined(view.home, rel)).st_mode
            except FileNotFoundError:
                return None, None
            if not stat.S_ISREG(mode):
                return None, f"{rel}: not a regular file; left alone"
    except PathRefused as exc:
        return None, f"{rel}: {exc}; left alone"
    except OSError as exc:
        return None, f"{rel}: unreadable ({exc.strerror or exc}); left alone"
    if data is None:
        return None, None
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError as exc:
        return None, f"{rel}: not UTF-8 text (byte {exc.start}); left alone"


def read_workspace(agent: AgentSettings, view: AgentView) -> Workspace:
    """The role files of `agent` as the view sees them, with the problems met."""
    files: list[WorkspaceFile] = []
    problems: list[str] = []
    for path, role in role_files(agent):
        text, problem = _read(view, path)
        if problem:
            problems.append(problem)
            continue
        files.append(WorkspaceFile(path, role, text))
    return Workspace(tuple(files), tuple(problems))


def read_daily_logs(agent: AgentSettings, view: AgentView, today: date) -> Workspace:
    """The daily logs in the consolidation window, oldest first."""
    roles = agent.workspace
    problems: list[str] = []
    try:
        listed = list(view.walk(roles.daily_logs))
    except PathRefused as exc:
        return Workspace((), (f"{roles.daily_logs}: {exc}; daily logs left alone",))
    files: list[WorkspaceFile] = []
    for path, _day in select_window(
        roles.daily_logs, listed, today, roles.daily_log_days, roles.daily_log_anchor
    ):
        text, problem = _read(view, path)
        if problem:
            problems.append(problem)
        elif text is not None:
            files.append(WorkspaceFile(path, "daily_log", text))
    return Workspace(tuple(files), tuple(problems))
