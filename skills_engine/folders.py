"""Reading skill folders without ever following a symlink, and the file facts we keep.

Managed and pack folders live outside the agent home, so they are read here, directly,
read-only: every entry is `lstat`-ed, a symlink (to a file or a folder) is reported and
never followed (a link to `/etc/passwd` is neither read nor copied), and files are opened
with `O_NOFOLLOW` so a swap between the check and the open cannot sneak one in. Learned
skills are read through the run's `AgentView`, which applies the same rule.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from daemon.kernel.atomic import TMP_MARKER
from daemon.kernel.regular_files import read_regular
from daemon.kernel.spool import resolved
from daemon.kernel.view import AgentView, confined

MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_FILES = 1000
MAX_LIBRARY_FILES = 200_000
TEXT_PROBE = 8192


@dataclass(frozen=True)
class FolderRead:
    """Regular files of one skill folder (path inside the folder → bytes) and what was skipped."""

    files: Mapping[str, bytes]
    skipped: tuple[str, ...] = field(default=())


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def is_text(data: bytes) -> bool:
    """Text = valid UTF-8 without NUL bytes; anything else is copied byte for byte, never edited."""
    if b"\x00" in data[:TEXT_PROBE]:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _read_nofollow(path: str) -> bytes:
    # Never through a symlink, never blocking on a named pipe swapped in since the lstat.
    return read_regular(path, MAX_FILE_BYTES + 1)


def read_folder(root: Path, max_files: int = MAX_FILES) -> FolderRead:
    """Every regular file under `root`; symlinks, special and oversized files are skipped and named.

    Raises OSError if `root` itself cannot be listed.
    """
    files: dict[str, bytes] = {}
    skipped: list[str] = []
    top = str(root)
    if stat.S_ISLNK(os.lstat(top).st_mode):
        return FolderRead({}, ("(the folder itself is a symlink; not followed)",))
    # os.walk names each folder below `top` as os.path.join(top, …): its path from `top` is a
    # slice (os.path.relpath, which normalises both, cost more than the reading)
    start = len(os.path.join(top, ""))
    for folder, dirs, names in os.walk(top, followlinks=False, onerror=_raise):
        prefix = "" if folder == top else folder[start:].replace(os.sep, "/") + "/"
        keep = []
        for name in sorted(dirs):
            if stat.S_ISLNK(os.lstat(os.path.join(folder, name)).st_mode):
                skipped.append(f"{prefix}{name} (symlink, not followed)")
            else:
                keep.append(name)
        dirs[:] = keep
        for name in sorted(names):
            if TMP_MARKER in name:
                continue
            full = os.path.join(folder, name)
            rel = prefix + name
            mode = os.lstat(full).st_mode
            if stat.S_ISLNK(mode):
                skipped.append(f"{rel} (symlink, not followed)")
                continue
            if not stat.S_ISREG(mode):
                skipped.append(f"{rel} (not a regular file)")
                continue
            if len(files) >= max_files:
                skipped.append(f"{rel} (more than {max_files} files)")
                continue
            try:
                data = _read_nofollow(full)
            except OSError as exc:
                skipped.append(f"{rel} (unreadable: {exc.strerror or exc})")
                continue
            if len(data) > MAX_FILE_BYTES:
                skipped.append(f"{rel} (larger than {MAX_FILE_BYTES} bytes)")
                continue
            files[rel] = data
    return FolderRead(files, tuple(skipped))


def _raise(exc: OSError) -> None:
    raise exc


def list_skill_dirs(source: Path) -> tuple[list[Path], list[str]]:
    """Sub-folders of a source folder (each one skill) and warnings; symlinked ones are skipped.

    Raises OSError if `source` cannot be listed (missing, not a folder, no permission).
    """
    found: list[Path] = []
    warnings: list[str] = []
    for entry in sorted(os.scandir(source), key=lambda e: e.name):
        if entry.name.startswith("."):
            continue
        if entry.is_symlink():
            warnings.append(f"{source / entry.name}: skill folder is a symlink; not followed")
            continue
        if entry.is_dir(follow_symlinks=False):
            found.append(Path(entry.path))
    return found, warnings


def read_tree(view: AgentView, rel_dir: str) -> dict[str, bytes]:
    """Every regular file under `rel_dir` of the agent home as `view` shows it (planned changes
    applied), keyed by path relative to `rel_dir`.

    The same rules as `AgentView.walk` + `read_bytes` (no symlink anywhere on the way, only
    regular files), in one pass over the folder: a library of thousands of skills is read
    several times per pass. Raises PathRefused if `rel_dir` goes through a symlink.
    """
    view.note_folder(rel_dir)
    root = confined(view.home, rel_dir)
    files: dict[str, bytes] = {}
    if root.is_dir() and not root.is_symlink():
        files = dict(read_folder(root, MAX_LIBRARY_FILES).files)
    prefix = rel_dir + "/"
    for rel, content in view.overlay.items():
        if rel.startswith(prefix):
            if content is None:
                files.pop(rel[len(prefix) :], None)
            else:
                files[rel[len(prefix) :]] = resolved(content)
    return files
