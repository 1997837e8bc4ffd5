"""The commit protocol of a run (SPEC §3): journal, atomic writes, one commit, then cursors.

    journal ─► write files (temp + rename) ─► stage exactly those paths ─► commit (the
    commit point: the ref update) ─► advance cursors ─► clear journal

A crash before the commit leaves a journal that recovery uses to roll back; a crash
after it leaves a journal whose run id is HEAD's, and recovery finishes the cursors. An
error during apply (disk full, read-only home, git failure) rolls back at once.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from daemon import atomic, cursors, journal
from daemon.changeset import CursorAdvance
from daemon.crashpoints import crashpoint
from daemon.errors import DaemonError, StoreError
from daemon.paths import AgentState
from daemon.store import StoreSession
from daemon.view import confined


class ApplyFailed(DaemonError):
    def __init__(self, run_id: str, cause: BaseException) -> None:
        detail = f"{type(cause).__name__}: {cause}" if not isinstance(cause, DaemonError) else str(cause)
        super().__init__(f"run {run_id} could not be applied and was rolled back, nothing changed — {detail}")


@dataclass(frozen=True)
class Applied:
    run_id: str
    sha: str | None
    files: list[str]


def new_run_id(now: datetime) -> str:
    """Sortable and unique: UTC time of the run plus random hex."""
    return f"{now.strftime('%Y%m%dT%H%M%SZ')}-{secrets.token_hex(3)}"


def _current(home: Path, rel: str) -> bytes | None:
    path = confined(home, rel)
    try:
        return path.read_bytes() if path.is_file() and not path.is_symlink() else None
    except FileNotFoundError:
        return None


def _prune_empty_parents(home: Path, rel: str, keep: Iterable[str]) -> None:
    keep_set = {home / k for k in keep}
    folder = (home / rel).parent
    while folder != home and home in folder.parents and folder not in keep_set:
        try:
            folder.rmdir()
        except OSError:
            return
        folder = folder.parent


def write_changes(home: Path, entries: Sequence[tuple[str, bytes | None]], keep_dirs: Iterable[str]) -> None:
    """Write or delete each path atomically (the only place run content reaches disk)."""
    keep = list(keep_dirs)
    for index, (rel, content) in enumerate(entries):
        target = confined(home, rel)
        if content is None:
            atomic.delete(target)
            _prune_empty_parents(home, rel, keep)
        else:
            atomic.write_bytes(target, content)
        if index == 0:
            crashpoint("mid_write")


def rollback(session: StoreSession, record: journal.Journal) -> list[str]:
    """Undo what an uncommitted run wrote; leave alone any file someone changed since."""
    notes: list[str] = []
    home = session.home
    for entry in record.files:
        current = _current(home, entry.path)
        now_hash = journal.digest(current)
        if now_hash == entry.before:
            continue
        if now_hash != entry.after:
            notes.append(f"{entry.path}: changed by someone else during the interrupted run; left as it is")
            continue
        before = session.blob("HEAD", entry.path) if record.head else None
        if journal.digest(before) != entry.before:
            notes.append(f"{entry.path}: its pre-run content is not in the store; left as it is")
            continue
        write_changes(home, [(entry.path, before)], keep_dirs=())
    for folder in {(home / e.path).parent for e in record.files}:
        atomic.remove_stale_temps(folder)
    session.reset_index()
    return notes


def apply_run(
    session: StoreSession,
    state: AgentState,
    *,
    agent: str,
    run_id: str,
    passes: Sequence[str],
    changes: Mapping[str, bytes | None],
    cursor_advances: Sequence[CursorAdvance],
    message: str,
    trailers: Mapping[str, str],
    now: datetime,
    keep_dirs: Iterable[str] = (),
) -> Applied:
    """Apply one run's file changes as one commit, then advance cursors; all or nothing."""
    home = session.home
    entries: list[journal.JournalEntry] = []
    ordered: list[tuple[str, bytes | None]] = []
    for rel, content in sorted(changes.items()):
        before = _current(home, rel)
        if before == content:
            continue
        entries.append(
            journal.JournalEntry(path=rel, before=journal.digest(before), after=journal.digest(content))
        )
        ordered.append((rel, content))
    if not entries:
        cursors.advance(state.cursors, cursor_advances)
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
    journal.save(state.journal, record)
    crashpoint("after_journal")
    try:
        write_changes(home, ordered, keep_dirs)
        crashpoint("after_write")
        session.stage_paths([rel for rel, _ in ordered])
        crashpoint("after_stage")
        sha = session.commit(
            message, {"Run-Id": run_id, "Agent": agent, "Passes": ",".join(passes), **trailers}
        )
    except (OSError, StoreError, DaemonError) as exc:
        rollback(session, record)
        journal.clear(state.journal)
        raise ApplyFailed(run_id, exc) from exc
    crashpoint("after_commit")
    cursors.advance(state.cursors, cursor_advances)
    crashpoint("after_cursors")
    journal.clear(state.journal)
    return Applied(run_id, sha, [rel for rel, _ in ordered])


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
