"""The commit protocol of a run (docs/explanation/architecture.md): journal, atomic writes, one commit, then cursors.

    compare-and-swap check ─► cursor file prepared ─► journal ─► write files (temp +
    rename, each checked again just before) ─► stage exactly those paths ─► commit (the
    commit point: the ref update) ─► install cursors (a rename) ─► clear journal

A file is written only if it still holds the exact bytes the plan was made against
(its blob at the planning base, the commit the run started from): a person's edit made
while a pass waited for the model is never overwritten; `ChangedDuringRun` names it
and nothing of this run is written. A crash before the commit leaves a journal that
recovery uses to roll back; a crash after it leaves a journal whose run id is HEAD's,
and recovery finishes the cursors. An error during apply (disk full, read-only home,
git failure) rolls back at once; every byte the steps after the commit need is
allocated before it.

Content may be spooled on disk (`daemon.kernel.spool`, a migration's thousands of shards)
and files on disk may be big (the single-file fact store it deletes): both are hashed and
copied in chunks, one file at a time, so a run's memory does not grow with its files.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from daemon.kernel import atomic
from daemon.kernel.changeset import CursorAdvance
from daemon.kernel.errors import ChangedDuringRun, DaemonError, PathRefused, StoreError
from daemon.kernel.paths import AgentState
from daemon.kernel.regular_files import NotRegular, open_regular
from daemon.kernel.spool import Content, SpooledContent, resolved
from daemon.kernel.view import confined
from daemon.run import journal
from daemon.run.crashpoints import crashpoint
from daemon.run.store import StoreSession
from daemon.transcripts import cursors

_CHUNK = 1 << 20


def describe_os_error(exc: OSError) -> str:
    """One line naming the failure and the path: `No space left on device: /var/lib/…/x`."""
    what = exc.strerror or type(exc).__name__
    where = exc.filename if exc.filename is not None else ""
    return f"{what}: {where}" if where else what


class ApplyFailed(DaemonError):
    def __init__(self, run_id: str, cause: BaseException, left: Sequence[str] = ()) -> None:
        if isinstance(cause, OSError):
            detail = describe_os_error(cause)
        elif isinstance(cause, DaemonError):
            detail = str(cause)
        else:
            detail = f"{type(cause).__name__}: {cause}"
        outcome = (
            "was rolled back, nothing changed"
            if not left
            else "was rolled back except: " + "; ".join(left)
        )
        super().__init__(f"run {run_id} could not be applied and {outcome} — {detail}")


@dataclass(frozen=True)
class Applied:
    run_id: str
    sha: str | None
    files: list[str]


def new_run_id(now: datetime) -> str:
    """Sortable and unique: UTC time of the run plus random hex."""
    return f"{now.strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(3)}"


def _identity(home: Path, rel: str) -> tuple[str, str] | None:
    """(git blob id, sha256) of `rel` on disk, read in chunks; None if absent or not a regular file."""
    try:
        # Only a regular file, never through a symlink nor blocking on a named pipe put there.
        fh = open_regular(confined(home, rel))
    except (FileNotFoundError, NotADirectoryError, NotRegular):
        return None
    with fh:
        size = os.fstat(fh.fileno()).st_size
        blob, sha = hashlib.sha1(b"blob %d\0" % size), hashlib.sha256()
        while chunk := fh.read(_CHUNK):
            blob.update(chunk)
            sha.update(chunk)
    # A file that grew or shrank while read gets an id its header does not match: it
    # compares unequal to every blob, as a file being changed should.
    return blob.hexdigest(), sha.hexdigest()


def _blob(home: Path, rel: str) -> str | None:
    found = _identity(home, rel)
    return None if found is None else found[0]


def _digest(home: Path, rel: str) -> str | None:
    found = _identity(home, rel)
    return None if found is None else found[1]


def _content_digest(content: Content | None) -> str | None:
    return content.sha256 if isinstance(content, SpooledContent) else journal.digest(content)


def _differences(home: Path, expected: Mapping[str, str | None]) -> dict[str, str]:
    """Paths whose content on disk is not the expected blob (None = absent), with why."""
    changed: dict[str, str] = {}
    for rel, want in sorted(expected.items()):
        try:
            have = _blob(home, rel)
        except OSError as exc:
            changed[rel] = f"cannot read it: {exc.strerror or exc}; left out of this run"
            continue
        except PathRefused as exc:  # a symlink put in its place (or on its folder's) during the run
            changed[rel] = f"{exc.reason}; left as it is"
            continue
        if have != want:
            changed[rel] = "a person or another program changed it during the run; their version is kept"
    return changed


def _prune_empty_parents(home: Path, rel: str, keep: Iterable[str]) -> None:
    keep_set = {home / k for k in keep}
    folder = (home / rel).parent
    while folder != home and home in folder.parents and folder not in keep_set:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def write_changes(
    home: Path,
    entries: Sequence[tuple[str, Content | None]],
    keep_dirs: Iterable[str],
    expect: Mapping[str, str | None] | None = None,
) -> None:
    """Write or delete each path atomically (the only place run content reaches disk).

    With `expect` (path → blob id it must still hold), each file is checked again just
    before its write; a mismatch raises ChangedDuringRun, leaving that file alone.
    """
    keep = list(keep_dirs)
    for index, (rel, content) in enumerate(entries):
        if expect is not None and rel in expect:
            changed = _differences(home, {rel: expect[rel]})
            if changed:
                raise ChangedDuringRun(changed)
        target = confined(home, rel)
        if content is None:
            atomic.delete(target)
            _prune_empty_parents(home, rel, keep)
        else:
            atomic.write_bytes(target, resolved(content))  # a spooled file: one shard's bytes
        if index == 0:
            crashpoint("mid_write")
        if index == len(entries) // 2 and isinstance(content, SpooledContent):
            crashpoint("migration_half_written")


def rollback(session: StoreSession, record: journal.Journal) -> list[str]:
    """Undo what an uncommitted run wrote; leave alone any file someone changed since.

    Returns a note per file that is not back to its pre-run content, saying why.
    """
    notes: list[str] = []
    home = session.home
    for entry in record.files:
        try:
            now_hash = _digest(home, entry.path)
        except OSError as exc:
            notes.append(f"{entry.path}: cannot read it to roll it back ({describe_os_error(exc)})")
            continue
        if now_hash == entry.before:
            continue
        if now_hash != entry.after:
            notes.append(f"{entry.path}: changed by someone else during the interrupted run; left as it is")
            continue
        before = session.blob("HEAD", entry.path) if record.head else None
        if journal.digest(before) != entry.before:
            notes.append(f"{entry.path}: its pre-run content is not in the store; left as it is")
            continue
        try:
            write_changes(home, [(entry.path, before)], keep_dirs=())
        except OSError as exc:
            notes.append(f"{entry.path}: could not be restored ({describe_os_error(exc)})")
    for folder in {(home / e.path).parent for e in record.files}:
        try:
            atomic.remove_stale_temps(folder)
        except OSError:
            pass  # a temp file left here is removed by the next recovery
    try:
        session.reset_index()
    except (OSError, StoreError):
        pass  # the next run's external-edit step re-reads every managed file anyway
    return notes


def apply_run(
    session: StoreSession,
    state: AgentState,
    *,
    agent: str,
    run_id: str,
    passes: Sequence[str],
    changes: Mapping[str, Content | None],
    cursor_advances: Sequence[CursorAdvance],
    message: str,
    trailers: Mapping[str, str],
    now: datetime,
    base: str | None,
    keep_dirs: Iterable[str] = (),
    held: Iterable[str] = (),
) -> Applied:
    """Apply one run's file changes as one commit, then advance cursors; all or nothing.

    `base` is the commit the changes were planned against. Raises ChangedDuringRun
    (nothing written) if a file to write, or a `held` one (a proposal's target), no longer
    holds its content at `base`; ApplyFailed (rolled back) if a write, the commit or the
    state folder fails.
    """
    home = session.home
    expected = session.tree_blobs(base, {*changes, *held})
    changed = _differences(home, expected)
    if changed:
        raise ChangedDuringRun(changed)
    entries: list[journal.JournalEntry] = []
    ordered: list[tuple[str, Content | None]] = []
    for rel, content in sorted(changes.items()):
        before, after = _digest(home, rel), _content_digest(content)
        if before == after:
            continue
        entries.append(journal.JournalEntry(path=rel, before=before, after=after))
        ordered.append((rel, content))
    try:
        prepared = cursors.prepare(state.cursors, cursor_advances)
    except OSError as exc:
        raise ApplyFailed(run_id, exc) from exc
    if not entries:
        if prepared is not None:
            prepared.install()
        return Applied(run_id, None, [])

    record = journal.Journal(
        run_id=run_id,
        agent=agent,
        head=session.head(),
        started_at=now.isoformat(),
        passes=list(passes),
        files=entries,
        cursor_advances=list(cursor_advances),
    )
    try:
        journal.save(state.journal, record)
    except OSError as exc:
        if prepared is not None:
            prepared.discard()
        raise ApplyFailed(run_id, exc) from exc
    crashpoint("after_journal")
    try:
        write_changes(home, ordered, keep_dirs, expect=expected)
        crashpoint("after_write")
        session.stage_paths([rel for rel, _ in ordered])
        crashpoint("after_stage")
        sha = session.commit(
            message, {"Run-Id": run_id, "Agent": agent, "Passes": ",".join(passes), **trailers}
        )
    except ChangedDuringRun:
        _abandon(session, state, record, prepared)
        raise
    except (OSError, StoreError, DaemonError) as exc:
        left = _abandon(session, state, record, prepared)
        raise ApplyFailed(run_id, exc, left) from exc
    crashpoint("after_commit")
    if prepared is not None:
        prepared.install()
    crashpoint("after_cursors")
    journal.clear(state.journal)
    return Applied(run_id, sha, [rel for rel, _ in ordered])


def _abandon(
    session: StoreSession, state: AgentState, record: journal.Journal, prepared: atomic.PreparedWrite | None
) -> list[str]:
    """Roll back an uncommitted run at once; return the files that could not be restored."""
    if prepared is not None:
        prepared.discard()
    left = rollback(session, record)
    journal.clear(state.journal)
    return left


def finish_or_roll_back(session: StoreSession, state: AgentState) -> list[str]:
    """Recovery at start: complete a committed run's cursors or roll back an uncommitted one."""
    notes: list[str] = []
    lock = session.git_dir / "index.lock"
    if lock.exists():
        # We hold the agent's run lock, so no git of ours is running: the lock is stale.
        lock.unlink()
        notes.append("removed a stale git index.lock left by a killed process")
    record = journal.load(state.journal)
    if record is None:
        return notes
    head = session.head()
    committed = head is not None and session.commit_info(head).run_id == record.run_id
    if committed:
        cursors.advance(state.cursors, record.cursor_advances)
        notes.append(f"completed interrupted run {record.run_id}: it was committed; cursors advanced")
    else:
        notes.extend(rollback(session, record))
        notes.append(
            f"rolled back interrupted run {record.run_id}: it was not committed; its turns will be read again"
        )
    journal.clear(state.journal)
    return notes
