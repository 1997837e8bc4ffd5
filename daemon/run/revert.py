"""Undo a run as a new run: a per-file three-way revert computed from the store.

For each file the run changed: base = what the run wrote, ours = what the store holds
now, theirs = what was there before the run. Unchanged since → the old content comes
back; changed since on other lines → `git merge-file` merges; changed on the same lines
(or a file added/removed by the run and changed since, or a binary changed since) → the
undo is refused, naming the files and the later commits that touched them, and nothing
changes. The result is applied by the same commit protocol as any run, so an undo is
itself undoable. Cursors never move back. Runs, their files and who undid them come from
the run index (`daemon.run.store_index`): no command here walks the history.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.kernel.changeset import Changeset, FileWrite
from daemon.kernel.errors import UndoRefused, UnknownRun
from daemon.kernel.textmerge import merge_text
from daemon.run.applier import Submission, commit_run
from daemon.run.apply import new_run_id
from daemon.run.history_squash import baseline_of, squash_note
from daemon.run.session import AgentSession, agent_session, has_store, read_session
from daemon.run.store import CommitInfo, StoreSession
from daemon.run.store_index import IndexedCommit, RunIndex, synced_index
from daemon.run.undo_effects import ProposalEffects, proposal_effects


@dataclass(frozen=True)
class RunCommit:
    info: CommitInfo
    files_changed: int
    undone_by: str | None
    seq: int = 0  # position in the store's first-parent history (the run index's)

    @property
    def run_id(self) -> str:
        return self.info.trailers["Run-Id"]

    @property
    def kind(self) -> str:
        return self.info.trailers.get("Kind", "run")

    @property
    def status(self) -> str:
        if self.undone_by:
            return f"undone by {self.undone_by}"
        if self.kind == "undo":
            return f"undo of {self.info.trailers.get('Undoes', '?')}"
        return "applied"


def _run_commit(index: RunIndex, entry: IndexedCommit) -> RunCommit:
    run_id = entry.info.trailers["Run-Id"]
    return RunCommit(entry.info, entry.files_changed, index.undone_by(run_id), entry.seq)


def run_commits(index: RunIndex, limit: int | None = None) -> list[RunCommit]:
    """Runs in the store, newest first, with who undid them (an undone undo restores)."""
    return [_run_commit(index, entry) for entry in index.runs(limit)]


def _unknown(index: RunIndex, run_id: str, agent: str | None = None) -> UnknownRun:
    """The error for a run the index lacks, saying so if retention squashed older runs."""
    baseline = baseline_of(index.root())
    return UnknownRun(run_id, agent, squash_note(baseline) if baseline else None)


def find_run(index: RunIndex, run_id: str) -> RunCommit:
    entry = index.find(run_id)
    if entry is None:
        raise _unknown(index, run_id)
    return _run_commit(index, entry)


@contextmanager
def session_index(session: AgentSession) -> Iterator[RunIndex]:
    """The run index of the session's store, current with its HEAD."""
    with synced_index(session.store, session.state.run_index) as index:
        yield index


def _binary(data: bytes | None) -> bool:
    return data is not None and b"\x00" in data[:8192]


RecordMerge = Callable[[bytes | None, bytes | None, bytes | None], bytes | None]


def plan_undo(
    store: StoreSession, index: RunIndex, run_id: str, record_merges: Mapping[str, RecordMerge] | None = None
) -> tuple[RunCommit, dict[str, bytes | None]]:
    """The file changes that revert `run_id`; raises UndoRefused naming conflicting files.

    `record_merges` maps files made of records (the fact store) to a record-level
    three-way merge, used instead of the line merge: two unrelated facts on adjacent
    lines are not "the same lines".
    """
    run = find_run(index, run_id)
    if run.undone_by:
        raise UndoRefused(run_id, f"it was already undone by run {run.undone_by}")
    sha, parent = run.info.sha, run.info.parent
    changes: dict[str, bytes | None] = {}
    conflicts: list[str] = []
    paths = [change.path for change in index.files(run.seq)]
    revs = [sha, "HEAD", *([parent] if parent else [])]
    read = store.blobs((rev, path) for path in paths for rev in revs)
    for path in paths:
        base = read[sha, path]
        theirs = read[parent, path] if parent else None
        ours = read["HEAD", path]
        if ours == base:
            result = theirs
        elif ours == theirs:
            continue
        elif record_merges and path in record_merges:
            merged_records = record_merges[path](ours, base, theirs)
            if merged_records is None:
                conflicts.append(path)
                continue
            result = merged_records or None if theirs is None else merged_records
        elif None in (ours, base, theirs) or any(_binary(x) for x in (ours, base, theirs)):
            conflicts.append(path)
            continue
        else:
            assert ours is not None and base is not None and theirs is not None
            merged, conflict_count = merge_text(ours, base, theirs)
            if conflict_count:
                conflicts.append(path)
                continue
            result = merged
        if result != ours:
            changes[path] = result
    if conflicts:
        raise UndoRefused(
            run_id, f"later changes ({_since(index, run.seq, conflicts)}) touch the same lines in", conflicts
        )
    if not changes:
        raise UndoRefused(run_id, "its changes are no longer present; nothing to revert")
    return run, changes


def _since(index: RunIndex, seq: int, paths: list[str]) -> str:
    """The later commits that touched `paths`, named: `run X, external edits 1a2b3c4d5e`."""
    later = index.touched_after(seq, paths)
    names = list(dict.fromkeys(entry.label for path in paths for entry in later.get(path, ())))
    if not names:
        return "a run or a person"
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return f"a run or a person: {shown}"


@dataclass(frozen=True)
class UndoResult:
    agent: str
    undone_run_id: str
    run_id: str | None  # None: a dry run, nothing applied
    files: list[str]
    proposals: ProposalEffects = field(default_factory=ProposalEffects)


def locate_run(deployment: Deployment, run_id: str) -> str:
    """The agent whose store holds `run_id`."""
    notes: list[str] = []
    for name in deployment.agents:
        if not has_store(deployment, name):
            continue
        with read_session(deployment, name) as session, session_index(session) as index:
            if index.find(run_id) is not None:
                return name
            if (baseline := baseline_of(index.root())) is not None:
                notes.append(f"agent {name}: {squash_note(baseline)}")
    raise UnknownRun(run_id, note="; ".join(notes) or None)


def undo_run(
    deployment: Deployment,
    agent: str,
    run_id: str,
    now: datetime,
    lock_timeout: float,
    record_merges: Mapping[str, RecordMerge] | None = None,
) -> UndoResult:
    """Revert `run_id` as a new run; raises UndoRefused (nothing changed) on conflicts.

    `record_merges`: files made of records and the record-level merge for each (the
    composition root, `daemon/wiring`, hands in the fact store's).
    """
    with agent_session(deployment, agent, now, lock_timeout) as session:
        with session_index(session) as index:
            run, changes = plan_undo(session.store, index, run_id, record_merges)
        effects = proposal_effects(changes, lambda path: session.store.blob("HEAD", path))
        undo_id = new_run_id(now)
        changeset = Changeset(
            pass_name="undo",
            status="changes",
            reason=(
                f"Reverts run {run_id} ({run.info.trailers.get('Passes', '')}). "
                "Transcript cursors stay where they are."
            ),
            writes=tuple(FileWrite(path=p, content=c) for p, c in sorted(changes.items()) if c is not None),
            deletes=tuple(sorted(p for p, c in changes.items() if c is None)),
        )
        submission = Submission(
            (changeset,), kind="undo", trailers={"Undoes": run_id}, subject=f"undo of {run_id}"
        )
        outcome = commit_run(session, submission, now=now, run_id=undo_id)
    (result,) = outcome.passes
    if outcome.error is not None:
        raise UndoRefused(run_id, outcome.error)
    if result.status == "skipped":  # a person changed a file while the undo ran
        raise UndoRefused(run_id, f"{result.reason}; run it again")
    if result.status == "failed":
        raise UndoRefused(run_id, result.reason)
    return UndoResult(agent, run_id, undo_id, list(outcome.files), effects)


def preview_undo(
    deployment: Deployment, agent: str, run_id: str, record_merges: Mapping[str, RecordMerge] | None = None
) -> UndoResult:
    """What undoing `run_id` would change — the files it restores, the proposals it withdraws —
    without a lock or a commit; raises UndoRefused as the undo would."""
    with read_session(deployment, agent) as session, session_index(session) as index:
        _run, changes = plan_undo(session.store, index, run_id, record_merges)
        effects = proposal_effects(changes, lambda path: session.store.blob("HEAD", path))
    return UndoResult(agent, run_id, None, sorted(changes), effects)
