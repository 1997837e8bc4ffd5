"""Planned file content kept on disk instead of in memory, for plans too big to hold.

A pass that plans thousands of files at once (the migration of a single-file fact store
into its shards) spools each file's bytes into a private folder and puts a
`SpooledContent` in its `FileWrite`: the changeset, the view of later passes and the
applier then carry a path and two hashes per file, and read the bytes one file at a time
when they need them. The folder is removed when the last content spooled in it is
garbage-collected (or at exit); a crash leaves a folder named `SPOOL_PREFIX…`, which the
next run of the agent removes (`remove_stale`).
"""

from __future__ import annotations

import hashlib
import os
import weakref
from pathlib import Path

SPOOL_PREFIX = "spool-"


class SpoolFolder:
    """A private folder of spooled files, removed with the last object referring to it."""

    def __init__(self, parent: Path | None) -> None:
        # Imported here: every command that loads the changeset model pays for this module.
        import shutil
        import tempfile

        if parent is not None:
            parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.path = Path(tempfile.mkdtemp(prefix=SPOOL_PREFIX, dir=parent))
        self._count = 0
        self._remove = weakref.finalize(self, shutil.rmtree, self.path, True)

    def put(self, data: bytes) -> SpooledContent:
        """Spool `data` into a new file of this folder; raises OSError (the folder stays whole)."""
        self._count += 1
        file = self.path / f"{self._count:06d}"
        with open(file, "xb") as out:
            out.write(data)
        return SpooledContent(self, file, data)

    def remove(self) -> None:
        self._remove()


class SpooledContent:
    """The bytes of one planned file, on disk: their size, sha256 and git blob id are known."""

    __slots__ = ("_folder", "blob_id", "file", "sha256", "size")

    def __init__(self, folder: SpoolFolder, file: Path, data: bytes) -> None:
        self._folder = folder  # keeps the folder (and this file) alive while planned
        self.file = file
        self.size = len(data)
        self.sha256 = hashlib.sha256(data).hexdigest()
        self.blob_id = hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()

    def read(self) -> bytes:
        """The bytes; OSError if the spool folder was removed under the run."""
        return self.file.read_bytes()

    def __eq__(self, other: object) -> bool:
        if isinstance(other, SpooledContent):
            return self.sha256 == other.sha256
        if isinstance(other, bytes):
            return self.size == len(other) and self.sha256 == hashlib.sha256(other).hexdigest()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.sha256)

    def __repr__(self) -> str:
        return f"SpooledContent({self.size} bytes, sha256 {self.sha256[:12]})"


Content = bytes | SpooledContent


def resolved(content: Content) -> bytes:
    """The bytes of planned content, read from its spool file if it was spooled."""
    return content if isinstance(content, bytes) else content.read()


def remove_stale(folder: Path) -> None:
    """Remove the spool folders a killed process left in `folder` (call with the run lock held)."""
    import shutil

    try:
        entries = list(os.scandir(folder))
    except (FileNotFoundError, NotADirectoryError):
        return
    for entry in entries:
        if entry.name.startswith(SPOOL_PREFIX) and entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
