"""Which paths of an agent home the daemon manages, and the git exclude rules that say so.

The store's work tree is the whole agent home, but it tracks only these paths: workspace
files, daily logs, the learned skill library, the daemon's own folder (facts, review
queue, fork bases). Transcripts and everything else stay untracked, so plain `git status`
on the store shows only what the daemon may change.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from daemon.atomic import TMP_MARKER
from daemon.config.resolve import AgentSettings
from daemon.paths import HOME_LOCK, META_DIR

# Never recorded: a nested repository's own git folder (its files are recorded as plain
# files, never as a submodule), the home lock, and half-written temp files.
_NEVER = frozenset({".git"})


@dataclass(frozen=True)
class HomeScan:
    """The managed files of a home as they are on disk now.

    `files`: regular files the daemon can read; `unreadable`: (path, reason) for files and
    folders it cannot (reported and left out of the run); `skipped`: symlinks and special
    files, never followed or recorded.
    """

    files: frozenset[str]
    unreadable: tuple[tuple[str, str], ...]
    skipped: tuple[str, ...]

    def blocked(self, rel: str) -> bool:
        """True if `rel` is, or lies inside, something unreadable (its state is unknown)."""
        return any(rel == p or rel.startswith(p + "/") for p, _ in self.unreadable)


def _recordable(rel: str) -> bool:
    return rel != HOME_LOCK and TMP_MARKER not in rel.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class ManagedPaths:
    files: frozenset[str]
    dirs: frozenset[str]

    def covers(self, rel: str) -> bool:
        """True if the relative path `rel` is inside the managed set."""
        if rel in self.files:
            return True
        return any(rel == d or rel.startswith(d + "/") for d in self.dirs)

    def exclude_rules(self) -> str:
        """A gitignore body that ignores everything except the managed paths."""
        tree: dict[str, object] = {}
        for entry in sorted(self.files | self.dirs):
            parts = entry.split("/")
            node = tree
            for part in parts[:-1]:
                child = node.setdefault(part, {})
                if child is True:
                    break
                node = child  # type: ignore[assignment]
            else:
                node[parts[-1]] = True
        lines = ["# written by metaeng-daemon: track only the paths it manages", "/*"]

        def emit(prefix: str, node: dict[str, object]) -> None:
            for name in sorted(node):
                child = node[name]
                if child is True:
                    suffix = "/" if f"{prefix}{name}" in self.dirs else ""
                    lines.append(f"!/{prefix}{name}{suffix}")
                else:
                    lines.append(f"!/{prefix}{name}/")
                    lines.append(f"/{prefix}{name}/*")
                    emit(f"{prefix}{name}/", child)  # type: ignore[arg-type]

        emit("", tree)
        lines.append(f"*{TMP_MARKER}*")
        lines.append(f"/{HOME_LOCK}")
        lines.append(".git")
        return "\n".join(lines) + "\n"

    def scan(self, home: Path) -> HomeScan:
        """Walk the managed paths under `home` without following any symlink."""
        files: set[str] = set()
        unreadable: list[tuple[str, str]] = []
        skipped: list[str] = []

        def consider(rel: str, full: str) -> None:
            try:
                mode = os.lstat(full).st_mode
            except FileNotFoundError:
                return
            except OSError as exc:
                unreadable.append((rel, exc.strerror or str(exc)))
                return
            if stat.S_ISLNK(mode):
                skipped.append(f"{rel} (symlink, not followed)")
            elif not stat.S_ISREG(mode):
                skipped.append(f"{rel} (not a regular file)")
            elif not os.access(full, os.R_OK):
                unreadable.append((rel, "Permission denied"))
            elif _recordable(rel):
                files.add(rel)

        for rel in sorted(self.files):
            if _through_symlink(home, rel, skipped):
                continue
            consider(rel, str(home / rel))
        for rel_dir in sorted(self.dirs):
            if _through_symlink(home, rel_dir, skipped):
                continue
            top = home / rel_dir
            if top.is_symlink():
                skipped.append(f"{rel_dir} (symlink, not followed)")
                continue
            if not top.is_dir():
                continue
            if not os.access(top, os.R_OK | os.X_OK):
                unreadable.append((rel_dir, "Permission denied"))
                continue

            def failed(exc: OSError) -> None:
                where = Path(exc.filename).relative_to(home).as_posix() if exc.filename else "?"
                unreadable.append((where, exc.strerror or str(exc)))

            for folder, dirs, names in os.walk(top, followlinks=False, onerror=failed):
                prefix = Path(folder).relative_to(home).as_posix()
                keep = []
                for name in sorted(dirs):
                    full = os.path.join(folder, name)
                    if name.lower() in _NEVER:
                        continue
                    if os.path.islink(full):
                        skipped.append(f"{prefix}/{name} (symlink, not followed)")
                    elif not os.access(full, os.R_OK | os.X_OK):
                        unreadable.append((f"{prefix}/{name}", "Permission denied"))
                    else:
                        keep.append(name)
                dirs[:] = keep
                for name in sorted(names):
                    if name.lower() in _NEVER:
                        continue
                    consider(f"{prefix}/{name}", os.path.join(folder, name))
        return HomeScan(frozenset(files), tuple(unreadable), tuple(skipped))


def _through_symlink(home: Path, rel: str, skipped: list[str]) -> bool:
    """True (and noted) if a component of `rel`, before its last, is a symlink."""
    current = home
    for part in rel.split("/")[:-1]:
        current = current / part
        if current.is_symlink():
            skipped.append(f"{current.relative_to(home).as_posix()} (symlink, not followed)")
            return True
    return False


def managed_paths(agent: AgentSettings) -> ManagedPaths:
    roles = agent.workspace
    files = {*roles.identity, *roles.behaviour, *roles.instructions, *roles.long_memory}
    dirs = {roles.daily_logs, agent.skills.learned, META_DIR}
    for extra in (agent.memory.store, agent.memory.markdown_view):
        if extra and not any(extra == d or extra.startswith(d + "/") for d in dirs):
            files.add(extra)
    # A file inside a managed folder is covered by the folder.
    files = {f for f in files if not any(f.startswith(d + "/") for d in dirs)}
    # A folder inside another managed folder is covered by the outer one.
    dirs = {d for d in dirs if not any(d != o and d.startswith(o + "/") for o in dirs)}
    return ManagedPaths(frozenset(files), frozenset(dirs))
