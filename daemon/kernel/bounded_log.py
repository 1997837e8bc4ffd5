"""An append-only log file kept small: past `max_bytes` it moves to `<name>.1` (the one
before is dropped), then the line is added in one `O_APPEND` write, so lines of processes
writing at once never interleave. The standard library only: the prompt hook writes one."""

from __future__ import annotations

import os


def append(path: str | os.PathLike[str], data: bytes, max_bytes: int) -> None:
    """Add `data` (one or more whole lines) to the log at `path`. Raises OSError."""
    try:
        if os.path.getsize(path) >= max_bytes:
            os.replace(path, f"{os.fspath(path)}.1")
    except FileNotFoundError:
        pass
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)
