"""The store's git, made hermetic, and what its commits say.

Git runs with a fixed identity, no hooks, no signing, no system or global config and no
inherited `GIT_*`: the store's behaviour never depends on the machine's or the home's git
setup. Run commits end with `Key: value` trailers (`Run-Id`, `Agent`, `Passes`, …).
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from daemon.kernel.errors import StoreError

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


# sha, parents, commit date (strict ISO), then the raw message: NUL-separated.
COMMIT_FORMAT = "%H%x00%P%x00%cI%x00%B"



def parse_commit(record: str) -> CommitInfo:
    """One COMMIT_FORMAT record."""
    sha, parents, date, message = record.split("\0", 3)
    subject, _, body = message.partition("\n")
    return CommitInfo(
        sha=sha,
        parent=parents.split()[0] if parents.strip() else None,
        committed_at=datetime.fromisoformat(date),
        subject=subject,
        body=body.strip(),
        trailers=parse_trailers(message),
    )


def parse_commits_with_files(tokens: list[str]) -> Iterator[tuple[CommitInfo, list[FileChange]]]:
    """Parse `git log -z --name-status` with COMMIT_FORMAT records each opened by the byte 0x1E.

    Read token by token: a status is always followed by its path, so a path may hold any
    byte but NUL (even 0x1E or a newline) without being mistaken for a new record.
    """
    at = 0
    while at < len(tokens):
        token = tokens[at]
        if not token.startswith("\x1e"):
            at += 1  # the empty tail after the last NUL
            continue
        if at + 3 >= len(tokens):
            raise StoreError(f"unexpected end of git log output after commit {token[1:]!r}")
        sha, parents, date, message = token[1:], tokens[at + 1], tokens[at + 2], tokens[at + 3]
        at += 4
        files: list[FileChange] = []
        while at < len(tokens) and not tokens[at].startswith("\x1e"):
            status = tokens[at].lstrip("\n")
            if not status:
                at += 1
                continue
            if at + 1 >= len(tokens):
                raise StoreError(f"unexpected end of git log output in commit {sha}")
            files.append(FileChange(status[0], tokens[at + 1]))
            at += 2
        raw = "\0".join(
            (sha, parents, date, message.encode("utf-8", "surrogateescape").decode("utf-8", "replace"))
        )
        yield parse_commit(raw), files


def git_mode(st: os.stat_result) -> str:
    """The index mode git records for a regular file with this stat."""
    return "100755" if st.st_mode & stat.S_IXUSR else "100644"


def read_regular(path: Path) -> tuple[bytes, str] | None:
    """The bytes and git mode of `path` if it is a regular file now (never through a symlink,
    never blocking on a FIFO put in its place), None if it is gone or something else."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(handle.fileno())
        return (handle.read(), git_mode(st)) if stat.S_ISREG(st.st_mode) else None
