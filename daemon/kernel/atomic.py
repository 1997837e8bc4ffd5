"""The one door for file writes: temp file in the same folder, fsync, rename, fsync folder.

A reader sees the old content or the new content, never a mix; a crash leaves at most a
temp file named `*.metaeng-tmp-*`, which recovery removes.

As a backstop, the bytes pass through `daemon.kernel.redact` first: a registered secret that
slipped past every earlier check is written as `***` (and logged, by path), never as itself.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from daemon.kernel import faults, lazy_log, redact

TMP_MARKER = ".metaeng-tmp-"
log = lazy_log.get_logger("metaeng.atomic")


def _redacted(path: Path, data: bytes) -> bytes:
    clean = redact.redact_bytes(data)
    if clean != data:
        log.warning("secret.redacted", path=str(path), note="a registered secret was masked before writing")
    return clean


@contextmanager
def naming(path: Path) -> Iterator[None]:
    """Re-raise an OSError that does not say which file (a write or fsync) with `path` in it."""
    try:
        yield
    except OSError as exc:
        if exc.filename is None and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror or os.strerror(exc.errno), str(path)) from exc
        raise


def write_scratch(path: Path, data: bytes) -> None:
    """Write a throwaway file (git's input, a commit message): not atomic, but an OSError names `path`."""
    with naming(path):
        path.write_bytes(data)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_bytes(path: Path, data: bytes, mode: int | None = None) -> None:
    """Atomically replace `path` with `data` (redacted), creating parent folders as needed.

    Raises OSError (ENOSPC, EROFS, ...) unchanged; the target is then untouched and the
    temp file removed.
    """
    faults.check(path)
    data = _redacted(path, data)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{path.name}{TMP_MARKER}{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644 if mode is None else mode)
    try:
        with naming(path), os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            tmp.unlink()
        except FileNotFoundError:
            pass
        raise
    _fsync_dir(folder)


def write_text(path: Path, text: str, mode: int | None = None) -> None:
    write_bytes(path, text.encode("utf-8"), mode)


def delete(path: Path) -> None:
    """Remove a file (missing is fine) and fsync its folder."""
    faults.check(path)
    try:
        path.unlink()
    except FileNotFoundError:
        return
    _fsync_dir(path.parent)


def append_line(path: Path, line: str) -> None:
    """Append one line (redacted) durably (O_APPEND + fsync); used by append-only ledgers.

    All or nothing: a write cut short (a full disk) is truncated away, so a ledger never
    holds half a line; the OSError names `path`.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    data = _redacted(path, (line.rstrip("\n") + "\n").encode("utf-8"))
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
    try:
        start = os.fstat(fd).st_size
        with naming(path):
            try:
                written = 0
                while written < len(data):
                    written += os.write(fd, data[written:])
                os.fsync(fd)
            except OSError:
                try:
                    os.ftruncate(fd, start)
                except OSError:
                    pass  # readers skip a torn last line; nothing more can be done on this disk
                raise
    finally:
        os.close(fd)


def remove_stale_temps(folder: Path) -> list[Path]:
    """Delete temp files a crashed write left in `folder` (not recursive)."""
    removed: list[Path] = []
    if not folder.is_dir():
        return removed
    for entry in folder.iterdir():
        if TMP_MARKER in entry.name and entry.is_file():
            entry.unlink(missing_ok=True)
            removed.append(entry)
    return removed


class PreparedWrite:
    """A replacement written and synced beside its target, installed later by one rename.

    Lets a commit protocol allocate every byte before its commit point, so the step after
    it (a rename) cannot fail for lack of space.
    """

    def __init__(self, path: Path, data: bytes, mode: int | None = None) -> None:
        faults.check(path)
        data = _redacted(path, data)
        self.path = path
        folder = path.parent
        folder.mkdir(parents=True, exist_ok=True)
        self._tmp: Path | None = folder / f".{path.name}{TMP_MARKER}{secrets.token_hex(4)}"
        fd = os.open(self._tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644 if mode is None else mode)
        try:
            with naming(path), os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())
        except BaseException:
            self.discard()
            raise

    def install(self) -> None:
        """Rename into place and sync the folder."""
        if self._tmp is None:
            raise RuntimeError(f"prepared write of {self.path} was already installed or discarded")
        os.replace(self._tmp, self.path)
        self._tmp = None
        _fsync_dir(self.path.parent)

    def discard(self) -> None:
        if self._tmp is not None:
            self._tmp.unlink(missing_ok=True)
            self._tmp = None
