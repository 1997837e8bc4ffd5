"""What is on disk under an agent's managed paths, found without following any symlink.

The store records exactly these files (and the runner reports the rest), so the walk is
on every run's path: `os.scandir` entries carry their type, so a home of 10,000 managed
files costs one `access` call per file and no `stat`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from daemon.kernel.atomic import TMP_MARKER
from daemon.kernel.paths import HOME_LOCK

# Never recorded: a nested repository's own git folder (its files are recorded as plain
# files, never as a submodule), the home lock, and half-written temp files.
NEVER = ".git"


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


def _recordable(rel: str, name: str) -> bool:
    return rel != HOME_LOCK and TMP_MARKER not in name


class _Walk:
    def __init__(self, home: Path) -> None:
        self.home = str(home)
        self.files: set[str] = set()
        self.unreadable: list[tuple[str, str]] = []
        self.skipped: list[str] = []

    def file(self, rel: str) -> None:
        full = os.path.join(self.home, rel)
        try:
            st = os.lstat(full)
        except FileNotFoundError:
            return
        except OSError as exc:
            self.unreadable.append((rel, exc.strerror or str(exc)))
            return
        if os.path.islink(full):
            self.skipped.append(f"{rel} (symlink, not followed)")
        elif not _regular(st.st_mode):
            self.skipped.append(f"{rel} (not a regular file)")
        elif not os.access(full, os.R_OK):
            self.unreadable.append((rel, "Permission denied"))
        elif _recordable(rel, rel.rsplit("/", 1)[-1]):
            self.files.add(rel)

    def folder(self, rel_dir: str) -> None:
        pending = [rel_dir]
        while pending:
            rel = pending.pop()
            full = os.path.join(self.home, rel)
            try:
                entries = list(os.scandir(full))
            except FileNotFoundError:
                continue
            except OSError as exc:
                self.unreadable.append((rel, exc.strerror or str(exc)))
                continue
            for entry in entries:
                name = entry.name
                if name.lower() == NEVER:
                    continue
                child = f"{rel}/{name}"
                if entry.is_symlink():
                    self.skipped.append(f"{child} (symlink, not followed)")
                elif entry.is_dir(follow_symlinks=False):
                    pending.append(child)
                elif not entry.is_file(follow_symlinks=False):
                    self.skipped.append(f"{child} (not a regular file)")
                elif not os.access(entry.path, os.R_OK):
                    self.unreadable.append((child, "Permission denied"))
                elif _recordable(child, name):
                    self.files.add(child)

    def through_symlink(self, rel: str) -> bool:
        """True (and noted) if `rel` or one of its folders is a symlink."""
        current = self.home
        for part in rel.split("/"):
            current = os.path.join(current, part)
            if os.path.islink(current):
                self.skipped.append(f"{os.path.relpath(current, self.home)} (symlink, not followed)")
                return True
        return False


def _regular(mode: int) -> bool:
    return (mode & 0o170000) == 0o100000


def scan_home(home: Path, files: Iterable[str], dirs: Iterable[str]) -> HomeScan:
    """The managed `files` and everything under the managed `dirs` of `home`, as it is now."""
    walk = _Walk(home)
    for rel in sorted(files):
        if not walk.through_symlink(rel.rsplit("/", 1)[0] if "/" in rel else ""):
            walk.file(rel)
    for rel_dir in sorted(dirs):
        if not walk.through_symlink(rel_dir):
            walk.folder(rel_dir)
    return HomeScan(
        frozenset(walk.files), tuple(sorted(walk.unreadable)), tuple(sorted(walk.skipped))
    )
