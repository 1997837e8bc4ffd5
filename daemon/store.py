"""The git-backed store of one agent: the one door for git.

Git dir in the daemon's state folder, work tree = the agent home (the etckeeper /
bare-repo-dotfiles pattern), so an agent home that is itself a git checkout is left
alone. Git is hermetic: fixed identity, no hooks, no signing, no system or global config,
`core.fsync=all`. GitPython's `Repo` keeps `git cat-file` processes alive and leaks them
in long-running processes, so a session opens it per run and closes it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import git

from daemon import atomic
from daemon.errors import StoreError
from daemon.managed import ManagedPaths

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
    "commit.gpgSign": "false",
    "tag.gpgSign": "false",
    "user.name": IDENTITY_NAME,
    "user.email": IDENTITY_EMAIL,
    "gc.autoDetach": "false",
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


@dataclass(frozen=True)
class FileChange:
    status: str  # A, M, D (renames are disabled)
    path: str


def _hermetic_env(git_dir: Path, home: Path, now: datetime | None) -> dict[str, str]:
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


class StoreSession:
    """An open store; only valid inside `open_store`."""

    def __init__(self, repo: git.Repo, cmd: git.Git, git_dir: Path, home: Path, scratch: Path) -> None:
        self._repo = repo
        self._git = cmd
        self.git_dir = git_dir
        self.home = home
        self._scratch = scratch

    def _run(self, *args: str, ok_codes: Sequence[int] = (0,)) -> tuple[int, bytes]:
        try:
            status, out, err = self._git.execute(
                ["git", *args],
                with_extended_output=True,
                with_exceptions=False,
                stdout_as_string=False,
                strip_newline_in_stdout=False,
            )
        except git.GitCommandNotFound as exc:
            raise StoreError(f"git is not installed or not on PATH: {exc}") from exc
        if status not in ok_codes:
            message = err.decode("utf-8", "replace") if isinstance(err, bytes) else str(err)
            raise StoreError(
                f"git {args[0]} failed in store {self.git_dir} (exit {status}): {message.strip()}"
            )
        return status, out if isinstance(out, bytes) else str(out).encode()

    def text(self, *args: str) -> str:
        return self._run(*args)[1].decode("utf-8", "replace")

    # -- reading ---------------------------------------------------------------------------
    def head(self) -> str | None:
        """HEAD's commit, None before the first commit; StoreError if it points to a missing object."""
        status, out = self._run("rev-parse", "-q", "--verify", "HEAD^{commit}", ok_codes=(0, 1))
        if status == 0:
            return out.decode().strip()
        status, out = self._run("rev-parse", "-q", "--verify", "HEAD", ok_codes=(0, 1))
        if status == 0:
            raise StoreError(
                f"store {self.git_dir} is corrupted: HEAD points to commit {out.decode().strip()}, which is "
                f"missing; inspect it with `git --git-dir={self.git_dir} fsck`, then restore the store from a "
                "backup or move it aside (the agent home is not touched; a new history starts)"
            )
        return None

    def commit_info(self, rev: str) -> CommitInfo:
        try:
            commit = self._repo.commit(rev)
        except (git.BadName, ValueError) as exc:
            raise StoreError(f"no commit {rev!r} in store {self.git_dir}") from exc
        message = commit.message if isinstance(commit.message, str) else commit.message.decode()
        subject, _, body = message.partition("\n")
        return CommitInfo(
            sha=commit.hexsha,
            parent=commit.parents[0].hexsha if commit.parents else None,
            committed_at=commit.committed_datetime,
            subject=subject,
            body=body.strip(),
            trailers=parse_trailers(message),
        )

    def history(self, limit: int | None = None) -> Iterator[CommitInfo]:
        """Commits from HEAD backwards (first-parent)."""
        if self.head() is None:
            return
        for commit in self._repo.iter_commits("HEAD", first_parent=True, max_count=limit):
            yield self.commit_info(commit.hexsha)

    def blob(self, rev: str, path: str) -> bytes | None:
        """The content of `path` at `rev`, or None if it does not exist there."""
        status, out = self._run("cat-file", "blob", f"{rev}:{path}", ok_codes=(0, 128))
        return out if status == 0 else None

    def changed_files(self, rev: str) -> list[FileChange]:
        out = self._run(
            "diff-tree", "--root", "--no-commit-id", "--no-renames", "-r", "--name-status", "-z", rev
        )[1]
        parts = out.decode("utf-8", "surrogateescape").split("\0")
        changes = []
        for status, path in zip(parts[0::2], parts[1::2], strict=False):
            if status:
                changes.append(FileChange(status[0], path))
        return changes

    def show(self, rev: str) -> str:
        return self.text("show", "--no-color", "--no-renames", "--stat", "--patch", "--format=fuller", rev)

    def staged_paths(self) -> list[FileChange]:
        out = self._run("diff", "--cached", "--no-renames", "--name-status", "-z")[1]
        parts = out.decode("utf-8", "surrogateescape").split("\0")
        return [FileChange(s[0], p) for s, p in zip(parts[0::2], parts[1::2], strict=False) if s]

    def dirty_paths(self) -> list[str]:
        """Managed paths that differ from HEAD in the work tree (tracked or new)."""
        out = self._run("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")[1]
        entries = out.decode("utf-8", "surrogateescape").split("\0")
        return [e[3:] for e in entries if len(e) > 3]

    # -- writing ---------------------------------------------------------------------------
    def stage_all(self) -> list[FileChange]:
        """Stage every change under the managed paths; return what is staged."""
        self._run("add", "-A", "--", ".")
        return self.staged_paths()

    def stage_paths(self, paths: Sequence[str]) -> None:
        """Stage exactly `paths` (written or deleted), nothing a person edits meanwhile."""
        self._scratch.mkdir(parents=True, exist_ok=True)
        spec = self._scratch / "pathspec"
        spec.write_bytes(b"".join(f":(literal){p}".encode() + b"\0" for p in paths))
        try:
            self._run("add", "-A", f"--pathspec-from-file={spec}", "--pathspec-file-nul")
        finally:
            spec.unlink(missing_ok=True)

    def commit(self, message: str, trailers: Mapping[str, str], allow_empty: bool = False) -> str:
        body = message.rstrip() + "\n\n" + "\n".join(f"{k}: {v}" for k, v in trailers.items()) + "\n"
        self._scratch.mkdir(parents=True, exist_ok=True)
        message_file = self._scratch / "commit-message"
        message_file.write_text(body, encoding="utf-8")
        args = ["commit", "-q", "--no-verify", "--cleanup=verbatim", "-F", str(message_file)]
        if allow_empty:
            args.append("--allow-empty")
        try:
            self._run(*args)
        finally:
            message_file.unlink(missing_ok=True)
        head = self.head()
        if head is None:
            raise StoreError(f"commit did not create HEAD in {self.git_dir}")
        return head

    def reset_index(self) -> None:
        if self.head() is not None:
            self._run("reset", "-q")
        else:
            self._run("rm", "-r", "-q", "--cached", "--ignore-unmatch", ".")

    def merge_file(self, ours: bytes, base: bytes, theirs: bytes) -> tuple[bytes, int]:
        """Line-level three-way merge (git merge-file); returns (text, number of conflicts)."""
        self._scratch.mkdir(parents=True, exist_ok=True)
        paths: list[str] = []
        for label, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = self._scratch / f"merge-{label}"
            path.write_bytes(data)
            paths.append(str(path))
        try:
            status, out = self._run(
                "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", *paths, ok_codes=range(0, 128)
            )
        finally:
            for name in paths:
                Path(name).unlink(missing_ok=True)
        return out, status

    def fsck(self) -> str:
        return self.text("fsck", "--no-progress", "--strict")


def _initialise(git_dir: Path, home: Path) -> None:
    git_dir.parent.mkdir(parents=True, exist_ok=True)
    repo = git.Repo.init(str(git_dir), bare=True, mkdir=True)
    repo.close()
    os.chmod(git_dir, 0o700)


@contextmanager
def open_store(
    git_dir: Path, home: Path, managed: ManagedPaths, scratch: Path, now: datetime | None = None
) -> Iterator[StoreSession]:
    """Open (creating if needed) the store; close every git process on exit."""
    fresh = not (git_dir / "HEAD").exists()
    if fresh:
        _initialise(git_dir, home)
    env = _hermetic_env(git_dir, home, now)
    cmd = git.Git(str(home))
    cmd.update_environment(**env)
    repo = git.Repo(str(git_dir))
    repo.git.update_environment(**env)
    session = StoreSession(repo, cmd, git_dir, home, scratch)
    try:
        config_path = git_dir / "config"
        current = config_path.read_text(encoding="utf-8") if config_path.exists() else ""
        if fresh or "hooksPath = /dev/null" not in current or f"worktree = {home}" not in current:
            for key, value in {**HERMETIC_CONFIG, "core.worktree": str(home)}.items():
                session._run("config", key, value)
        exclude = git_dir / "info" / "exclude"
        rules = managed.exclude_rules()
        if not exclude.exists() or exclude.read_text(encoding="utf-8") != rules:
            atomic.write_text(exclude, rules)
        yield session
    finally:
        repo.close()
        cmd.clear_cache()
