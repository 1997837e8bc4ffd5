"""The agent home's own run lock: one writer per home, whichever deployment names it.

The per-agent run lock lives in a deployment's state folder, so two deployments (two
config files, two state folders) naming the same home would not see each other's. This
lock lives in the home itself (`.metaeng/lock`), which every deployment on the host
reaches by the home's real path. While held, the file names its holder (config, state
folder, pid, host, since), so a refused deployment can say who holds it; it is emptied
on release. A kernel `flock`: a holder that dies releases it.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import stat
import time
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from daemon.kernel.errors import AgentBusy, PathRefused
from daemon.kernel.paths import HOME_LOCK, META_DIR

POLL_SECONDS = 0.05


class HomeBusy(AgentBusy):
    """The home is held by another process, of this deployment or another (a scheduler retries)."""

    def __init__(self, agent: str, home: Path, ours: Path, holder: dict[str, object]) -> None:
        who = (
            f"config {holder.get('config', '?')} (state {holder.get('state_dir', '?')}, pid "
            f"{holder.get('pid', '?')} on {holder.get('host', '?')}, since {holder.get('since', '?')})"
            if holder
            else "another process (it did not say which deployment)"
        )
        super().__init__(
            agent,
            message=f"agent {agent!r} is busy: its home {home} is being written by {who}; this deployment's "
            f"config is {ours}. Deployments that share a home take turns; give each home one deployment.",
        )


@dataclass(frozen=True)
class Holder:
    config: Path
    state_dir: Path
    now: datetime

    def describe(self) -> dict[str, object]:
        return {
            "config": str(self.config),
            "state_dir": str(self.state_dir),
            "pid": os.getpid(),
            "host": socket.gethostname(),
            "since": self.now.isoformat(),
        }


class HomeLock:
    def __init__(self, agent: str, home: Path, holder: Holder) -> None:
        self.agent = agent
        self.home = home
        self.holder = holder
        self._fd: int | None = None

    def acquire(self, timeout: float, create: bool = True) -> None:
        """Take the lock, waiting up to `timeout` seconds; raise HomeBusy naming the holder.

        `create=False` (a dry run, which writes nothing): a home no run ever locked is left
        as it is, without a lock file or the daemon's folder, and not locked.
        Raises OSError if the lock file cannot be created (a read-only or full home).
        """
        meta = self.home / META_DIR
        try:
            if stat.S_ISLNK(os.lstat(meta).st_mode):
                raise PathRefused(META_DIR, "the daemon's folder in the home is a symlink; not followed")
        except FileNotFoundError:
            if not create:
                return
            meta.mkdir(mode=0o755)
        if not create and not os.path.lexists(self.home / HOME_LOCK):
            return
        fd = os.open(self.home / HOME_LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    other = _read_holder(fd)
                    os.close(fd)
                    raise HomeBusy(self.agent, self.home, self.holder.config, other) from None
                time.sleep(POLL_SECONDS)
        self._fd = fd
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, json.dumps(self.holder.describe()).encode(), 0)
        except OSError:
            pass  # naming the holder is a courtesy; a full home must not stop the run here

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.ftruncate(self._fd, 0)
        except OSError:
            pass
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None


def _read_holder(fd: int) -> dict[str, object]:
    try:
        raw = os.pread(fd, 4096, 0)
        value = json.loads(raw.decode("utf-8")) if raw.strip() else {}
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}
