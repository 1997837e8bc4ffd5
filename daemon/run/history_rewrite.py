"""Rewrite an agent's store history, crash-safe: build beside, verify, swap, recover.

Used by purge (erase values from every commit) and retention (squash old runs). The new
history is one stream: `git fast-export` of the old store, each blob and message passed
through the caller's `Rewrite`, into `git fast-import` of a fresh store beside it
(`store.git.rewrite-new`). fast-import writes only the objects it is given, so nothing
purged reaches the new store at all; its reflogs are expired and it is repacked before
the swap all the same. Plain git plumbing through the store's door rather than
`git-filter-repo`: the store is bare with a foreign work tree and hermetic settings,
the transform is a few lines of Python, and one less dependency is one less thing to keep.

Protocol (each step a crash point, see `daemon.run.crashpoints`):

    build new beside ─► verify (git fsck; HEAD tree identical; every kept run id and its
    trailers present) ─► journal `rewrite.json` phase `verified` (the commit point)
    ─► rename store.git → store.git.rewrite-old ─► rename new → store.git
    ─► remove old ─► remove journal

Recovery (`recover_rewrite`, at the start of every locked session and before a read):
no journal → any half-built new store is removed, the old one stays; a journal → the
verified new store is put in place (whatever stands at store.git moves aside first) and
the old one removed. kill -9 at any step leaves the old store or the new one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO

from pydantic import BaseModel, ConfigDict

from daemon.kernel import atomic, lazy_log
from daemon.kernel.errors import StoreError
from daemon.kernel.paths import AgentState
from daemon.kernel.statefile import read_versioned
from daemon.run.crashpoints import crashpoint
from daemon.run.store import StoreSession
from daemon.run.store_git import parse_trailers
from daemon.run.store_open import open_store

VERSION = 1
log = lazy_log.get_logger("metaeng.history_rewrite")


@dataclass(frozen=True)
class Rewrite:
    """What to do to each blob and each commit message, and which history to keep."""

    blob: Callable[[bytes], bytes]
    message: Callable[[str, bytes], bytes]  # (the commit's old id, its message) → new message
    reason: str
    # None: every commit is kept. A commit id: it and its ancestors are left out, and the
    # oldest kept commit becomes a root holding all its files (how retention squashes).
    since: str | None = None
    # True when no blob changes (a squash): every kept commit must then keep its exact tree.
    keeps_files: bool = False


@dataclass(frozen=True)
class Rewritten:
    old_head: str
    new_head: str
    objects: int
    mapping: dict[str, str]  # old commit → new commit


class RewriteJournal(BaseModel):
    """`rewrite.json`: a verified new store waits beside the old one (never any value)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    phase: str = "verified"
    reason: str
    old_head: str
    new_head: str
    at: str


def new_dir(state: AgentState) -> Path:
    return state.git_dir.with_name(state.git_dir.name + ".rewrite-new")


def old_dir(state: AgentState) -> Path:
    return state.git_dir.with_name(state.git_dir.name + ".rewrite-old")


def journal_path(state: AgentState) -> Path:
    return state.root / "rewrite.json"


def pending(state: AgentState) -> bool:
    """Whether a rewrite was started here and not finished (recovery has work to do)."""
    return journal_path(state).exists() or new_dir(state).exists() or old_dir(state).exists()


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _pump(source: IO[bytes], sink: IO[bytes], rewrite: Rewrite) -> None:
    """Copy a fast-export stream to fast-import, rewriting every `data` payload.

    Payloads are length-prefixed (`data N`), so a value holding any byte is read exactly;
    everything but payloads passes through unchanged.
    """
    kind, oid = b"", ""
    while True:
        line = source.readline()
        if not line:
            return
        if line.startswith(b"data "):
            payload = source.read(int(line[5:].strip()))
            changed = rewrite.blob(payload) if kind == b"blob" else rewrite.message(oid, payload)
            sink.write(b"data %d\n" % len(changed) + changed)
            continue
        if line.startswith(b"original-oid "):
            oid = line[13:].strip().decode("ascii")
        if not line.startswith((b"mark ", b"original-oid ", b"author ", b"committer ", b"tagger ")):
            kind = line.split(b" ", 1)[0].strip()
        sink.write(line)


def _stream(
    old: StoreSession, new: StoreSession, rewrite: Rewrite, scratch: Path, branch: str
) -> dict[str, str]:
    """Export `old` through `rewrite` into `new`; return old commit → new commit."""
    old_marks, new_marks = scratch / "export.marks", scratch / "import.marks"
    # Without --reference-excluded-parents, the oldest commit after `since` is exported
    # as a root carrying its whole tree: that is the squash.
    revisions = ["--all"] if rewrite.since is None else [f"^{rewrite.since}", branch or "HEAD"]
    exporter = old.spawn(
        "fast-export",
        *revisions,
        "--signed-tags=strip",
        "--tag-of-filtered-object=drop",
        "--reencode=yes",
        "--show-original-ids",
        "--use-done-feature",
        f"--export-marks={old_marks}",
        stdout=subprocess.PIPE,
    )
    importer = new.spawn(
        "fast-import", "--quiet", "--force", f"--export-marks={new_marks}", stdin=subprocess.PIPE
    )
    assert exporter.stdout is not None and importer.stdin is not None
    errors: dict[str, bytes] = {}
    drains = [
        threading.Thread(
            target=lambda name=name, proc=proc: errors.update(
                {name: proc.stderr.read() if proc.stderr else b""}
            )
        )
        for name, proc in (("export", exporter), ("import", importer))
    ]
    for drain in drains:
        drain.start()
    try:
        _pump(exporter.stdout, importer.stdin, rewrite)
    except BrokenPipeError:
        pass  # fast-import stopped early: its exit status and stderr say why
    finally:
        try:
            importer.stdin.close()
        except BrokenPipeError:
            pass
        exporter.stdout.close()
        exported, imported = exporter.wait(), importer.wait()
        for drain in drains:
            drain.join()
    if exported != 0 or imported != 0:
        detail = (errors.get("export", b"") + errors.get("import", b"")).decode("utf-8", "replace").strip()
        raise StoreError(
            f"history rewrite of {old.git_dir} failed (export {exported}, import {imported}): {detail}"
        )
    before = _marks(old_marks)
    after = _marks(new_marks)
    return {before[m]: after[m] for m in before if m in after}


def _marks(path: Path) -> dict[str, str]:
    marks: dict[str, str] = {}
    for line in path.read_text(encoding="ascii").splitlines():
        mark, _, sha = line.partition(" ")
        marks[mark] = sha.strip()
    return marks


def _runs(store: StoreSession) -> Iterator[tuple[str, dict[str, str]]]:
    for info in store.history():
        if info.run_id:
            yield info.run_id, dict(info.trailers)


def _verify(old: StoreSession, new: StoreSession, rewrite: Rewrite, old_head: str, new_head: str) -> None:
    """Raise StoreError unless the new store is sound and keeps what it must."""
    new.run_git("fsck", "--strict", "--no-progress", "--no-dangling")
    old_tree = old.text("rev-parse", f"{old_head}^{{tree}}").strip()
    new_tree = new.text("rev-parse", f"{new_head}^{{tree}}").strip()
    if old_tree != new_tree:
        raise StoreError(
            f"history rewrite of {old.git_dir} changed the current files (tree {old_tree} → {new_tree}); the old store is kept"
        )
    expected = []
    for info in old.history(since=rewrite.since):
        message = (info.subject + "\n\n" + info.body).encode("utf-8")
        trailers = parse_trailers(rewrite.message(info.sha, message).decode("utf-8", "replace"))
        if "Run-Id" in trailers:
            expected.append((trailers["Run-Id"], trailers))
    if rewrite.keeps_files:
        old_trees = old.text(
            "log",
            "--first-parent",
            "--format=%T",
            old_head,
            *([f"^{rewrite.since}"] if rewrite.since else []),
            "--",
        ).split()
        new_trees = new.text("log", "--first-parent", "--format=%T", new_head, "--").split()
        if old_trees != new_trees:
            raise StoreError(
                f"history rewrite of {old.git_dir} changed the files of a kept commit; the old store is kept"
            )
    kept = list(_runs(new))
    if kept != expected:
        missing = sorted({r for r, _ in expected} - {r for r, _ in kept})
        raise StoreError(
            f"history rewrite of {old.git_dir} lost or changed runs ({', '.join(missing[:5]) or 'trailers differ'}); "
            "the old store is kept"
        )


def _check_linear(store: StoreSession, since: str) -> None:
    """A squash replays one branch: refuse (nothing changed) a store the daemon did not
    make that way — merge commits after `since`, or refs beside the branch, would be
    re-parented or dropped."""
    merges = store.text("rev-list", "--merges", "--count", "HEAD", f"^{since}").strip()
    refs = store.text("for-each-ref", "--format=%(refname)").split()
    if merges != "0" or len(refs) > 1:
        raise StoreError(
            f"store {store.git_dir} has merge commits or more than one ref ({len(refs)} refs), which the daemon "
            "never makes: the run-history squash is refused, nothing changed"
        )


def build(store: StoreSession, state: AgentState, rewrite: Rewrite, now: datetime) -> Rewritten:
    """Build and verify the rewritten store beside `store`, then journal it (the commit point).

    The caller holds the agent's run lock. Raises StoreError (the new store removed, the
    old one untouched) if the rewrite or its verification fails.
    """
    old_head = store.head()
    if old_head is None:
        raise StoreError(f"store {store.git_dir} has no history to rewrite")
    if rewrite.since is not None:
        _check_linear(store, rewrite.since)
    target = new_dir(state)
    shutil.rmtree(target, ignore_errors=True)
    scratch = state.scratch / "rewrite"
    shutil.rmtree(scratch, ignore_errors=True)
    scratch.mkdir(parents=True)
    try:
        with open_store(target, store.home, store.managed, state.scratch, now) as new:
            branch = store.text("symbolic-ref", "-q", "HEAD").strip()
            mapping = _stream(store, new, rewrite, scratch, branch)
            if branch:
                new.run_git("symbolic-ref", "HEAD", branch)
            new_head = new.head()
            if new_head is None:
                raise StoreError(f"history rewrite of {store.git_dir} produced no HEAD")
            new.run_git("reflog", "expire", "--expire=now", "--all")
            new.run_git("gc", "--quiet", "--prune=now")
            new.run_git("reset", "-q")
            crashpoint("rewrite_built")
            _verify(store, new, rewrite, old_head, new_head)
        _fsync_tree(target)
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    journal = RewriteJournal(reason=rewrite.reason, old_head=old_head, new_head=new_head, at=now.isoformat())
    atomic.write_text(journal_path(state), journal.model_dump_json(indent=1) + "\n", mode=0o600)
    crashpoint("rewrite_verified")
    return Rewritten(old_head, new_head, len(mapping), mapping)


def _fsync_tree(root: Path) -> None:
    """Make every file and folder of the new store durable before it is swapped in."""
    for base, _dirs, files in os.walk(root):
        for name in files:
            fd = os.open(os.path.join(base, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(base))


def swap(state: AgentState) -> None:
    """Put the journaled new store in place and remove the old one; idempotent (recovery runs it)."""
    git_dir, new, old = state.git_dir, new_dir(state), old_dir(state)
    if new.exists():
        if git_dir.exists():
            if old.exists():
                shutil.rmtree(git_dir)  # a store opened meanwhile by mistake: never the kept old one
            else:
                os.rename(git_dir, old)
                _fsync_dir(state.root)
                crashpoint("rewrite_moved_old")
        os.rename(new, git_dir)
        _fsync_dir(state.root)
        crashpoint("rewrite_swapped")
    shutil.rmtree(old, ignore_errors=True)
    crashpoint("rewrite_old_removed")
    journal_path(state).unlink(missing_ok=True)
    _fsync_dir(state.root)


def recover_rewrite(state: AgentState) -> list[str]:
    """Finish or discard an interrupted rewrite (caller holds the run lock); notes for the run report."""
    if not pending(state):
        return []
    journal = read_versioned(journal_path(state), RewriteJournal, VERSION)
    if journal is None:
        shutil.rmtree(new_dir(state), ignore_errors=True)
        if old_dir(state).exists() and not (state.git_dir / "HEAD").exists():
            # Cannot happen by this module's order; keep the old store rather than lose it.
            shutil.rmtree(state.git_dir, ignore_errors=True)
            os.rename(old_dir(state), state.git_dir)
        shutil.rmtree(old_dir(state), ignore_errors=True)
        log.warning("rewrite.discarded", store=str(state.git_dir))
        return [
            "discarded an interrupted history rewrite before it was verified: the store is as it was; run it again"
        ]
    swap(state)
    log.info("rewrite.completed", store=str(state.git_dir), reason=journal.reason, head=journal.new_head)
    return [
        f"completed an interrupted history rewrite ({journal.reason}): the store now holds the rewritten history"
    ]


def rewrite_history(store: StoreSession, state: AgentState, rewrite: Rewrite, now: datetime) -> Rewritten:
    """Rewrite the history of the open `store` (its session ends with it: reopen after).

    The caller holds the agent's run lock and opened `store` on `state.git_dir`.
    """
    done = build(store, state, rewrite, now)
    swap(state)
    log.info("rewrite.done", store=str(state.git_dir), reason=rewrite.reason, objects=done.objects)
    return done
