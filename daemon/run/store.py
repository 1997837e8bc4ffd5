"""The git-backed store of one agent: the one door for git.

Git dir in the daemon's state folder, work tree = the agent home (the etckeeper /
bare-repo-dotfiles pattern), so an agent home that is itself a git checkout is left
alone. Git is hermetic: fixed identity, no hooks, no signing, no system or global config,
`core.fsync=all`, and an environment of its own — every inherited `GIT_*` variable is
left out of the copy each git process gets (`GIT_CONFIG_PARAMETERS`, `GIT_NAMESPACE`,
`GIT_DIR` … would otherwise reach into the store), without touching the daemon's own
environment. Git runs as a plain subprocess, one process per operation: no long-lived
`cat-file` processes to leak in a daemon.
"""

from __future__ import annotations

import bisect
import hashlib
import os
import stat
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path

from daemon.kernel import atomic, redact
from daemon.kernel.errors import StoreError
from daemon.kernel.managed import HomeScan, ManagedPaths
from daemon.run.store_git import (
    COMMIT_FORMAT,
    CommitInfo,
    FileChange,
    git_mode,
    parse_commit,
    parse_commits_with_files,
    read_regular,
)

__all__ = ["CommitInfo", "FileChange", "StoreSession", "blob_id"]


def blob_id(data: bytes | None) -> str | None:
    """Git's object id of `data` as a blob (None for an absent file), computed without git."""
    if data is None:
        return None
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


class StoreSession:
    """An open store; only valid inside `open_store`."""

    def __init__(
        self,
        env: Mapping[str, str],
        git_dir: Path,
        home: Path,
        scratch: Path,
        managed: ManagedPaths,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self._env = dict(env)
        self._clock = clock
        self.git_dir = git_dir
        self.home = home
        self._scratch = scratch
        self.managed = managed

    def _run(
        self,
        *args: str,
        ok_codes: Sequence[int] = (0,),
        stdin: bytes | None = None,
        env: Mapping[str, str] | None = None,
    ) -> tuple[int, bytes]:
        try:
            done = subprocess.run(
                ["git", *args],
                cwd=self.home,
                env={**self._env, **(env or {})},
                input=stdin,
                capture_output=True,
                check=False,
            )
        except FileNotFoundError as exc:
            raise StoreError(f"git is not installed or not on PATH: {exc}") from exc
        status, out, err = done.returncode, done.stdout, done.stderr
        if status not in ok_codes:
            message = err.decode("utf-8", "replace")
            raise StoreError(
                f"git {args[0]} failed in store {self.git_dir} (exit {status}): {message.strip()}"
            )
        return status, out

    def spawn(
        self, *args: str, stdin: int | None = None, stdout: int | None = None
    ) -> subprocess.Popen[bytes]:
        """Start `git ARGS` with the store's environment for a streaming caller (fast-export
        into fast-import); stderr goes to a pipe the caller reads when it waits."""
        try:
            return subprocess.Popen(
                ["git", *args],
                cwd=self.home,
                env=self._env,
                stdin=stdin,
                stdout=stdout,
                stderr=subprocess.PIPE,
            )
        except FileNotFoundError as exc:
            raise StoreError(f"git is not installed or not on PATH: {exc}") from exc

    def run_git(self, *args: str, ok_codes: Sequence[int] = (0,)) -> tuple[int, bytes]:
        """`git ARGS` in this store: (exit status, stdout); StoreError on any other status."""
        return self._run(*args, ok_codes=ok_codes)

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
        status, out = self._run("show", "-s", f"--format={COMMIT_FORMAT}", rev, "--", ok_codes=(0, 128))
        if status != 0:
            raise StoreError(f"no commit {rev!r} in store {self.git_dir}")
        return parse_commit(out.decode("utf-8", "replace"))

    def history(self, limit: int | None = None, since: str | None = None) -> Iterator[CommitInfo]:
        """Commits from HEAD backwards (first-parent), down to but not including `since`."""
        if self.head() is None:
            return
        count = [f"--max-count={limit}"] if limit is not None else []
        stop = [f"^{since}"] if since is not None else []
        out = self._run(
            "log", "--first-parent", *count, f"--format={COMMIT_FORMAT}%x1e", "HEAD", *stop, "--"
        )[1]
        for record in out.decode("utf-8", "replace").split("\x1e"):
            if record.strip():
                yield parse_commit(record.lstrip("\n"))

    def blob(self, rev: str, path: str) -> bytes | None:
        """The content of `path` at `rev`, or None if it does not exist there."""
        status, out = self._run("cat-file", "blob", f"{rev}:{path}", ok_codes=(0, 128))
        return out if status == 0 else None

    def blobs(self, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], bytes | None]:
        """`blob` of each (rev, path), read by one git process: an undo of a run that
        touched a thousand files would otherwise start three thousand."""
        keys = list(dict.fromkeys(wanted))
        found: dict[tuple[str, str], bytes | None] = {}
        asked = [(rev, path) for rev, path in keys if "\n" not in path]
        if asked:
            feed = "".join(f"{rev}:{path}\n" for rev, path in asked).encode("utf-8", "surrogateescape")
            out = self._run("cat-file", "--batch", stdin=feed)[1]
            at = 0
            for key in asked:
                end = out.index(b"\n", at)
                header = out[at:end].split(b" ")
                at = end + 1
                if len(header) == 3 and header[1] in (b"blob", b"tree", b"commit", b"tag"):
                    size = int(header[2])
                    found[key] = out[at : at + size] if header[1] == b"blob" else None
                    at += size + 1  # the content, then its newline
                else:  # "<name> missing" or "<name> ambiguous"
                    found[key] = None
        for rev, path in keys:
            if (rev, path) not in found:  # a path with a newline: the batch reads lines
                found[rev, path] = self.blob(rev, path)
        return found

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

    def commits_with_files(
        self, until: str, since: str | None = None
    ) -> Iterator[tuple[CommitInfo, list[FileChange]]]:
        """First-parent commits after `since` (all if None) up to `until`, oldest first, each
        with the files it changed — one git process for the whole range (the run index's feed)."""
        span = f"{since}..{until}" if since else until
        out = self._run(
            "log",
            "--first-parent",
            "--reverse",
            "--no-renames",
            "--name-status",
            "-z",
            f"--format=%x1e{COMMIT_FORMAT}%x00",
            span,
            "--",
        )[1]
        yield from parse_commits_with_files(out.decode("utf-8", "surrogateescape").split("\0"))

    def is_ancestor(self, older: str, newer: str) -> bool:
        """Whether commit `older` exists and is an ancestor of (or is) `newer`."""
        status, _ = self._run("merge-base", "--is-ancestor", older, newer, ok_codes=(0, 1, 128))
        return status == 0

    def show(self, rev: str) -> str:
        return self.text("show", "--no-color", "--no-renames", "--stat", "--patch", "--format=fuller", rev)

    def staged_paths(self) -> list[FileChange]:
        out = self._run("diff", "--cached", "--no-renames", "--name-status", "-z")[1]
        parts = out.decode("utf-8", "surrogateescape").split("\0")
        return [FileChange(s[0], p) for s, p in zip(parts[0::2], parts[1::2], strict=False) if s]

    def tree_blobs(self, rev: str | None, paths: Iterable[str]) -> dict[str, str | None]:
        """The blob id of each path at `rev` (None where absent, or for every path if rev is None)."""
        wanted = sorted(set(paths))
        found: dict[str, str | None] = dict.fromkeys(wanted)
        if rev is None or not wanted:
            return found
        simple = [p for p in wanted if "\n" not in p]
        if simple:
            out = self._run(
                "cat-file", "--batch-check", stdin="".join(f"{rev}:{p}\n" for p in simple).encode()
            )[1]
            for path, line in zip(simple, out.decode("utf-8", "surrogateescape").splitlines(), strict=True):
                fields = line.split(" ")
                if len(fields) == 3 and fields[1] == "blob":
                    found[path] = fields[0]
        for path in (p for p in wanted if "\n" in p):
            status, out = self._run("rev-parse", "-q", "--verify", f"{rev}:{path}", ok_codes=(0, 1, 128))
            found[path] = out.decode().strip() if status == 0 else None
        return found

    def _index(self) -> dict[str, str]:
        """Index entries: path → mode."""
        out = self._run("ls-files", "-s", "-z")[1].decode("utf-8", "surrogateescape")
        entries: dict[str, str] = {}
        for record in out.split("\0"):
            if record:
                meta, _, path = record.partition("\t")
                entries[path] = meta.split(" ")[0]
        return entries

    # -- writing ---------------------------------------------------------------------------
    def stage_all(self) -> tuple[list[FileChange], HomeScan]:
        """Stage every change under the managed paths; return what is staged and the scan.

        Files the daemon cannot read are left out (named in the scan), never staged as deleted.
        """
        scan = self.managed.scan(self.home)
        index = self._index()
        out = self._run("ls-files", "-z", "-m", "-d")[1].decode("utf-8", "surrogateescape")
        modified = {p for p in out.split("\0") if p}
        candidates = {p for p in scan.files if p not in index or p in modified}
        candidates |= {
            p for p in index if p not in scan.files and self.managed.covers(p) and not scan.blocked(p)
        }
        candidates |= {p for p, mode in index.items() if mode == "160000"}  # old submodule entries
        if candidates:
            self.stage_paths(sorted(candidates), index)
        return self.staged_paths(), scan

    def stage_paths(self, paths: Sequence[str], index: Mapping[str, str] | None = None) -> None:
        """Record exactly `paths` as they are on disk now, nothing a person edits elsewhere.

        Plumbing, not `git add`: bytes are hashed as they are (--no-filters), whatever the
        home's own `.gitignore` or `.gitattributes` say; a folder holding its own `.git` is
        never a submodule. A path that is absent, a symlink or not a regular file leaves the
        index. Raises StoreError or OSError (callers then roll back with `reset_index`).
        """
        index = self._index() if index is None else index
        present, ids = self._hashed(paths)
        keep = {p for p, _ in present}
        listed = sorted(index)
        remove = {p for p in paths if p in index and p not in keep}
        for rel in keep:
            # A file where the index has a folder, or a folder where it has a file (an old
            # gitlink, say): the older entries go first, or the index refuses the new one.
            parts = rel.split("/")
            remove.update(prefix for i in range(1, len(parts)) if (prefix := "/".join(parts[:i])) in index)
            at = bisect.bisect_left(listed, rel + "/")
            while at < len(listed) and listed[at].startswith(rel + "/"):
                remove.add(listed[at])
                at += 1
        if remove:
            null = "0" * 40
            body = "".join(f"0 {null}\t{p}\0" for p in sorted(remove)).encode("utf-8", "surrogateescape")
            self._run("update-index", "-z", "--index-info", stdin=body)
        if present:
            body = "".join(f"{mode} {ids[p]}\t{p}\0" for p, mode in present).encode(
                "utf-8", "surrogateescape"
            )
            self._run("update-index", "-z", "--index-info", stdin=body)

    def _hashed(self, paths: Sequence[str]) -> tuple[list[tuple[str, str]], dict[str, str]]:
        """The regular files among `paths` with their modes, and their blob ids.

        git reads the files itself, in one process. An editor that saves by renaming the old
        file away and writing a new one leaves a moment with no file; if one vanishes (or
        changes kind) between our look and git's read, git fails the whole batch: then each
        file is read here, once, and git is handed those bytes.
        """
        present: list[tuple[str, str]] = []
        for rel in paths:
            try:
                st = os.lstat(self.home / rel)
            except (FileNotFoundError, NotADirectoryError):
                continue
            if stat.S_ISREG(st.st_mode):
                present.append((rel, git_mode(st)))
        try:
            return present, (self._hash_files([p for p, _ in present]) if present else {})
        except StoreError:
            pass
        kept: list[tuple[str, str]] = []
        ids: dict[str, str] = {}
        for rel, _ in present:
            found = read_regular(self.home / rel)
            if found is not None:
                data, mode = found
                ids[rel] = self._run("hash-object", "-w", "--no-filters", "--stdin", stdin=data)[1].decode().strip()
                kept.append((rel, mode))
        return kept, ids

    def _hash_files(self, paths: Sequence[str]) -> dict[str, str]:
        """Write each file's bytes as a blob (no filters, no attributes); path → blob id."""
        ids: dict[str, str] = {}
        simple = [p for p in paths if "\n" not in p]
        if simple:
            feed = "".join(f"{p}\n" for p in simple).encode("utf-8", "surrogateescape")
            out = self._run("hash-object", "-w", "--no-filters", "--stdin-paths", stdin=feed)[1]
            ids.update(zip(simple, out.decode().split(), strict=True))
        for path in (p for p in paths if "\n" in p):
            ids[path] = self.text("hash-object", "-w", "--no-filters", "--", path).strip()
        return ids

    def commit(
        self,
        message: str,
        trailers: Mapping[str, str],
        allow_empty: bool = False,
        when: datetime | None = None,
    ) -> str:
        """Commit the index; `when` (default: the session's time) dates it: the moment it happened."""
        body = message.rstrip() + "\n\n" + "\n".join(f"{k}: {v}" for k, v in trailers.items()) + "\n"
        self._scratch.mkdir(parents=True, exist_ok=True)
        message_file = self._scratch / "commit-message"
        atomic.write_scratch(message_file, redact.redact(body).encode("utf-8"))
        args = ["commit", "-q", "--no-verify", "--cleanup=verbatim", "-F", str(message_file)]
        if allow_empty:
            args.append("--allow-empty")
        when = when or (self._clock() if self._clock is not None else None)
        stamp = (
            {"GIT_AUTHOR_DATE": when.isoformat(), "GIT_COMMITTER_DATE": when.isoformat()} if when else None
        )
        try:
            self._run(*args, env=stamp)
        finally:
            message_file.unlink(missing_ok=True)
        head = self.head()
        if head is None:
            raise StoreError(f"commit did not create HEAD in {self.git_dir}")
        return head

    def gc(self) -> None:
        """Pack loose objects and refs, drop unreachable objects older than git's grace period.

        Only under the run lock (daemon.run.store_maintenance): nothing else of ours runs git then.
        """
        self._run("gc", "--quiet")

    def reset_index(self) -> None:
        if self.head() is not None:
            self._run("reset", "-q")
        else:
            self._run("rm", "-r", "-q", "--cached", "--ignore-unmatch", ".")
