"""The store's git, made hermetic, and what its commits say.

Git runs with a fixed identity, no hooks, no signing, no system or global config and no
inherited `GIT_*`: the store's behaviour never depends on the machine's or the home's git
setup. Run commits end with `Key: value` trailers (`Run-Id`, `Agent`, `Passes`, …).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

IDENTITY_NAME = "metaeng-daemon"
IDENTITY_EMAIL = "metaeng-daemon@localhost"
TRAILER = re.compile(r"^([A-Za-z][A-Za-z0-9-]*): (.*)$")
HERMETIC_CONFIG = {
    "core.bare": "false",
    "core.hooksPath": "/dev/null",
    "core.fsync": "all",
    "core.autocrlf": "false",
    "core.quotePath": "false",
    "core.symlinks": "true",
    # The home's own ignore and attribute files never change what is recorded: files are
    # hashed with --no-filters and added by path, so these only keep plain `git status` quiet.
    "core.excludesFile": os.devnull,
    "core.attributesFile": os.devnull,
    "commit.gpgSign": "false",
    "tag.gpgSign": "false",
    "user.name": IDENTITY_NAME,
    "user.email": IDENTITY_EMAIL,
    "gc.autoDetach": "false",
    # Never a gc or maintenance in the foreground of a run: the daemon packs the store
    # itself, on a schedule, under the run lock (daemon.run.store_maintenance).
    "gc.auto": "0",
    "maintenance.auto": "false",
    # Raised whenever this table changes, so stores made by an older version get it at open.
    "metaeng.hermeticVersion": "2",
}


@dataclass(frozen=True)
class CommitInfo:
    sha: str
    parent: str | None
    committed_at: datetime
    subject: str
    body: str
    trailers: Mapping[str, str]

    @property
    def run_id(self) -> str | None:
        return self.trailers.get("Run-Id")

    @property
    def report(self) -> str:
        """The commit body without its trailer block: what the run reported."""
        lines = self.body.rstrip().splitlines()
        while lines and (not lines[-1].strip() or lines[-1].split(":", 1)[0] in self.trailers):
            lines.pop()
        return "\n".join(lines)


@dataclass(frozen=True)
class FileChange:
    status: str  # A, M, D (renames are disabled)
    path: str


def hermetic_env(git_dir: Path, home: Path, now: datetime | None) -> dict[str, str]:
    env = {
        "GIT_DIR": str(git_dir),
        "GIT_WORK_TREE": str(home),
        "GIT_INDEX_FILE": str(git_dir / "index"),
        "GIT_OBJECT_DIRECTORY": str(git_dir / "objects"),
        "GIT_ALTERNATE_OBJECT_DIRECTORIES": "",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "GIT_CONFIG_COUNT": "0",
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_ATTR_NOSYSTEM": "1",
        "GIT_AUTHOR_NAME": IDENTITY_NAME,
        "GIT_AUTHOR_EMAIL": IDENTITY_EMAIL,
        "GIT_COMMITTER_NAME": IDENTITY_NAME,
        "GIT_COMMITTER_EMAIL": IDENTITY_EMAIL,
        "LC_ALL": "C",
    }
    if now is not None:
        stamp = now.isoformat()
        env["GIT_AUTHOR_DATE"] = stamp
        env["GIT_COMMITTER_DATE"] = stamp
    return env


def parse_trailers(message: str) -> dict[str, str]:
    """Trailers are the `Key: value` lines of the message's last paragraph."""
    paragraphs = message.strip().split("\n\n")
    found: dict[str, str] = {}
    for line in paragraphs[-1].splitlines():
        match = TRAILER.match(line.strip())
        if not match:
            return {}
        found[match.group(1)] = match.group(2)
    return found
