"""The planned file changes of a skills pass, confined to what skills passes may write.

A skills pass writes only inside the learned library, the fork-base snapshots, the
skill quarantine, its own library state file and (under `autonomy: review`) the review
queue. Every planned write goes through `SkillEdits`, which refuses anything else —
managed and pack folders are outside the agent home and cannot even be named by a
relative path, and this check makes the rule explicit in our own code, before the
runner's `write_scope` check enforces it once more.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from daemon.kernel.changeset import Changeset, CursorAdvance, FileWrite, PassDetails
from daemon.kernel.errors import PathRefused
from daemon.kernel.managed import ManagedPaths
from daemon.kernel.paths import (
    FORK_BASES_DIR,
    META_DIR,
    REVIEW_DIR,
    SKILL_ARCHIVE_DIR,
    SKILL_CURATOR,
    SKILL_PINS,
)
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView, check_relative
from skills_engine.quarantine import QUARANTINE_DIR

LIBRARY_STATE = f"{META_DIR}/skill-library.json"


def write_scope(agent: AgentSettings) -> ManagedPaths:
    """Where skills passes may write, relative to the agent home."""
    return ManagedPaths(
        files=frozenset({LIBRARY_STATE, SKILL_CURATOR, SKILL_PINS}),
        dirs=frozenset({agent.skills.learned, FORK_BASES_DIR, QUARANTINE_DIR, SKILL_ARCHIVE_DIR, REVIEW_DIR}),
    )


class SkillEdits:
    """Accumulates writes and deletes; `view` shows the library with them applied."""

    def __init__(self, agent: AgentSettings, view: AgentView) -> None:
        self._scope = write_scope(agent)
        self._base = view
        self._changes: dict[str, bytes | None] = {}
        self._view: AgentView | None = view

    @property
    def view(self) -> AgentView:
        if self._view is None:
            self._view = self._base.layered(self._changes)
        return self._view

    def _check(self, path: str) -> str:
        path = check_relative(path)
        if not self._scope.covers(path):
            raise PathRefused(path, "skills passes write only the learned library and their own state")
        return path

    def write(self, path: str, content: bytes) -> None:
        self._changes[self._check(path)] = content
        self._view = None

    def delete(self, path: str) -> None:
        self._changes[self._check(path)] = None
        self._view = None

    def apply(self, writes: Iterable[FileWrite], deletes: Iterable[str] = ()) -> None:
        for path in deletes:
            self.delete(path)
        for item in writes:
            self.write(item.path, item.content)

    def __bool__(self) -> bool:
        return any(self._base.read_bytes(p) != c for p, c in self._changes.items())

    def changeset(
        self,
        pass_name: str,
        reason: str,
        report: Sequence[str],
        details: PassDetails,
        cursor_advances: Sequence[CursorAdvance] = (),
    ) -> Changeset:
        """`changes` if anything differs from the view the pass started from, else `nothing`."""
        real = {p: c for p, c in self._changes.items() if self._base.read_bytes(p) != c}
        return Changeset(
            pass_name=pass_name,
            status="changes" if real else "nothing",
            reason=reason,
            writes=tuple(FileWrite(path=p, content=c) for p, c in sorted(real.items()) if c is not None),
            deletes=tuple(sorted(p for p, c in real.items() if c is None)),
            cursor_advances=tuple(cursor_advances),
            report=tuple(report),
            details=details,
        )
