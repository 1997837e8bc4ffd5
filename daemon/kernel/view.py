"""A read-only view of an agent home, with the changes earlier passes of the run planned.

Passes never read or write the disk directly for managed files: they read through a
view, so a pass later in a run sees what an earlier pass planned, and one commit holds
them all. Paths are confined here: relative, no `..`, no NUL, and never through a
symlink (a symlink inside the home could point anywhere).

A view may carry a `ReadLog`: the runner gives each pass one, so that if an earlier
pass's changes are dropped at apply time (a person edited its file meanwhile), every
later pass that read them is dropped too. A file the daemon cannot read looks absent and
is noted in the log; the runner then refuses any write to it.
"""

from __future__ import annotations

import io
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from daemon.kernel.changeset import Changeset
from daemon.kernel.errors import PathRefused
from daemon.kernel.regular_files import NotRegular, open_regular, read_regular
from daemon.kernel.spool import Content, resolved

MAX_PATH_LENGTH = 1024


def check_relative(rel: str) -> str:
    """Return the normalised relative path or raise PathRefused saying why."""
    if not isinstance(rel, str) or not rel:
        raise PathRefused(str(rel), "empty path")
    if "\x00" in rel:
        raise PathRefused(rel.replace("\x00", "\\0"), "NUL byte in path")
    if len(rel) > MAX_PATH_LENGTH:
        raise PathRefused(rel[:80] + "…", f"path longer than {MAX_PATH_LENGTH} characters")
    if rel.startswith("/") or rel.startswith("\\"):
        raise PathRefused(rel, "absolute path")
    parts = rel.split("/")
    if ".." in parts or "." in parts or "\\" in rel:
        raise PathRefused(rel, "path must not contain '..', '.' or backslashes")
    # plain string work, not PurePosixPath: every read of every pass comes through here
    return "/".join(p for p in parts if p)


def confined(home: Path, rel: str) -> Path:
    """The absolute path of `rel` under `home`, refusing any symlink on the way."""
    rel = check_relative(rel)
    current = os.fspath(home)
    parts = rel.split("/")
    for depth, part in enumerate(parts, 1):
        current = os.path.join(current, part)
        try:
            mode = os.lstat(current).st_mode
        except (FileNotFoundError, NotADirectoryError):  # absent, or a file where a folder was
            break
        if stat.S_ISLNK(mode):
            raise PathRefused(rel, f"{'/'.join(parts[:depth])} is a symlink")
    return home / rel


def _regular_files(root: str, rel_root: str, depth: int | None = None) -> Iterator[tuple[str, str]]:
    """(absolute path, relative path) of the regular files under the folder `root` (`rel_root`
    from home), at most `depth` folders down: a folder's files by name, then its subfolders by
    name, each whole; no symlink is followed or listed, and a folder that cannot be listed is
    passed over. Read from the directory entries (no stat of each file, no Path objects: a
    curator run walks the library and the archive many times), with a stack of folders, not
    recursion (a tree thousands of folders deep)."""
    pending = [(root, rel_root, 1)]  # a folder, its path from home, how deep it is (1: `root`)
    while pending:
        folder, rel, level = pending.pop()
        # a folder made a symlink since its parent was listed is not entered (os.walk's check)
        if (depth is not None and level > depth) or (level > 1 and os.path.islink(folder)):
            continue
        try:
            with os.scandir(folder) as listing:
                entries = sorted(listing, key=lambda e: e.name)
        except OSError:
            continue
        folders = []
        for entry in entries:
            if entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                folders.append(entry)
            elif entry.is_file(follow_symlinks=False):
                yield entry.path, f"{rel}/{entry.name}"
        pending.extend((e.path, f"{rel}/{e.name}", level + 1) for e in reversed(folders))


def _still_regular(path: str) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


@dataclass
class ReadLog:
    """What one pass read through its view: files, folder prefixes, and unreadable files."""

    files: set[str] = field(default_factory=set)
    folders: set[str] = field(default_factory=set)
    unreadable: dict[str, str] = field(default_factory=dict)

    def saw(self, path: str) -> bool:
        """True if the pass read `path`, or walked a folder holding it."""
        return path in self.files or any(path.startswith(folder + "/") for folder in self.folders)


@dataclass(frozen=True)
class AgentView:
    home: Path
    # Planned content by path (None: deleted); a spooled file is read when asked for.
    overlay: Mapping[str, Content | None] = field(default_factory=dict)
    log: ReadLog | None = field(default=None, compare=False)

    def read_bytes(self, rel: str) -> bytes | None:
        """Content of `rel` (with planned changes), or None if absent, not a regular file or unreadable."""
        rel = check_relative(rel)
        if self.log is not None:
            self.log.files.add(rel)
        if rel in self.overlay:
            planned = self.overlay[rel]
            return None if planned is None else resolved(planned)
        path = confined(self.home, rel)
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):
                return None
            # Opened as a regular file only: a named pipe or a symlink swapped in since the
            # lstat is refused, never waited on or followed.
            return read_regular(path)
        except (FileNotFoundError, NotRegular):
            return None
        except PermissionError as exc:
            self.note_unreadable(rel, exc.strerror or str(exc))
            return None

    def open_bytes(self, rel: str) -> BinaryIO | None:
        """`rel` (with planned changes) opened for reading, to stream a file too big to hold;
        None where `read_bytes` gives None. The caller closes it."""
        rel = check_relative(rel)
        if rel in self.overlay:
            content = self.read_bytes(rel)
            return None if content is None else io.BytesIO(content)
        if self.log is not None:
            self.log.files.add(rel)
        try:
            return open_regular(confined(self.home, rel))
        except (FileNotFoundError, NotADirectoryError, NotRegular):
            return None
        except PermissionError as exc:
            self.note_unreadable(rel, exc.strerror or str(exc))
            return None

    def note_unreadable(self, rel: str, reason: str) -> None:
        if self.log is not None:
            self.log.unreadable[rel] = reason

    def note_folder(self, rel_dir: str) -> None:
        """Record that the pass read everything under `rel_dir` (for code that walks it itself)."""
        if self.log is not None:
            self.log.folders.add(check_relative(rel_dir))

    def read_text(self, rel: str) -> str | None:
        data = self.read_bytes(rel)
        return None if data is None else data.decode("utf-8", "replace")

    def exists(self, rel: str) -> bool:
        return self.read_bytes(rel) is not None

    def walk(self, rel_dir: str, depth: int | None = None) -> Iterator[str]:
        """Regular files under `rel_dir` (relative to home), planned changes included; no
        symlinks. With `depth`, only those at most that many folders down (1: its own files)."""
        rel_dir = check_relative(rel_dir)
        self.note_folder(rel_dir)
        root = confined(self.home, rel_dir)
        seen: set[str] = set()
        if root.is_dir() and not root.is_symlink():
            for full, rel in _regular_files(str(root), rel_dir, depth):
                seen.add(rel)
                if rel not in self.overlay and not os.access(full, os.R_OK):
                    if _still_regular(full):  # not gone or replaced since its folder was listed
                        self.note_unreadable(rel, "Permission denied")
                    continue
                if self.overlay.get(rel, b"") is not None:
                    yield rel
        for rel, content in sorted(self.overlay.items()):
            under = content is not None and rel not in seen and rel.startswith(rel_dir + "/")
            if under and (depth is None or rel.count("/") - rel_dir.count("/") <= depth):
                yield rel

    def layered(self, changes: Mapping[str, Content | None]) -> AgentView:
        """This view with `changes` planned on top (same read log)."""
        return AgentView(self.home, {**self.overlay, **changes}, self.log)

    def with_changes(self, changeset: Changeset) -> AgentView:
        changes: dict[str, Content | None] = {w.path: w.data for w in changeset.writes}
        changes.update(dict.fromkeys(changeset.deletes))
        return self.layered(changes)

    def tracked(self, log: ReadLog) -> AgentView:
        """The same view, recording reads into `log`."""
        return AgentView(self.home, self.overlay, log)
