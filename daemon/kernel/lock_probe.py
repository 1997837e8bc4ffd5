"""Is a lock file held? Asked without taking it and without importing filelock.

The run lock and the daemon's lock are filelock's exclusive `flock` on a file. A shared
`flock`, tried without waiting and released at once, fails exactly while an exclusive one is
held — by another process, or by this one (a flock belongs to an open file, so the console
inside `run` sees the daemon's own lock). Plain `fcntl`: `status` and the console's Run now
ask this, and a short command must not import filelock (and the logging it pulls in).
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def held(path: Path) -> bool:
    """True while some open file holds an exclusive lock on `path`; False when the file does
    not exist, is free, or cannot be opened (another user's: unknown is not held)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # closing the file releases a shared lock taken above
    return False
