"""The one applier: every run — scheduled, `once`, a person's action (review approval,
forget, a lab adoption, a skill restore) and `undo` — reaches the disk through here.

It checks every path a changeset touches (the pass's own write scope if it has one, the
managed paths, no symlink or `..` on the way), waits on the memory lock the same time for
every run (`hold_memory_lock`), builds the commit message and trailers, commits through
the journal protocol (`daemon.run.apply`) and appends the run to the run log.

The planned changesets become one run commit. A person may have edited managed files while the passes planned (a model call
takes minutes): their edits are committed first, as external edits, then the run's
writes land only on files that still hold what the passes read (`daemon.run.apply` checks
each against the run's planning base). A pass whose file changed is dropped — `skipped`,
its turns kept — with every later pass that read or wrote what it planned; the rest is
tried again. Each round drops at least one pass, so the loop ends.
"""

from __future__ import annotations

import difflib
import json
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

import structlog
from filelock import FileLock, Timeout

from daemon.kernel import atomic
from daemon.kernel.changeset import Changeset, CursorAdvance, PassDetails, PassStatus
from daemon.kernel.errors import ChangedDuringRun, PathRefused, StoreError
from daemon.kernel.managed import ManagedPaths
from daemon.kernel.review_queue import proposal_targets
from daemon.kernel.spool import Content, resolved
from daemon.kernel.view import AgentView, ReadLog, confined
from daemon.run.after_commit import derived_notes
from daemon.run.apply import ApplyFailed, apply_run, describe_os_error
from daemon.run.crashpoints import crashpoint
from daemon.run.session import AgentSession, commit_external_edits
from daemon.run.shared_lines import lay_out, reporters
from daemon.run.store_index import synced_index

# One wait on the memory lock for every run that needs it (a consolidation may hold it).
MEMORY_LOCK_WAIT_SECONDS = 600.0

log = structlog.get_logger("metaeng.runner")


@dataclass(frozen=True)
class PassResult:
    name: str
    status: PassStatus
    reason: str
    files: tuple[str, ...] = ()
    report: tuple[str, ...] = ()
    details: PassDetails | None = None


def _preview(home_view: AgentView, changes: Mapping[str, Content | None]) -> str:
    chunks: list[str] = []
    for path, planned in sorted(changes.items()):
        old = home_view.read_bytes(path)
        new = None if planned is None else resolved(planned)
        if old == new:
            continue
        try:
            old_text = (old or b"").decode("utf-8").splitlines(keepends=True)
            new_text = (new or b"").decode("utf-8").splitlines(keepends=True)
        except UnicodeDecodeError:
            chunks.append(f"binary file {path}: {len(old or b'')} → {len(new or b'')} bytes\n")
            continue
        label_old = f"a/{path}" if old is not None else "/dev/null"
        label_new = f"b/{path}" if new is not None else "/dev/null"
        chunks.append("".join(difflib.unified_diff(old_text, new_text, label_old, label_new)))
    return "".join(chunks)


@dataclass(frozen=True)
class Submission:
    """What one run asks the applier to commit.

    `scopes`: a pass's own write scope, by pass name (every path is checked against the
    managed paths anyway); `kind`: the `Kind` trailer of a person's action or an undo
    (none for pass runs, whose commits carry their cost instead); `reads`: what each pass
    read, so a pass built on a dropped one is dropped too.
    """

    planned: tuple[Changeset, ...]
    reads: Mapping[str, ReadLog] = field(default_factory=dict)
    scopes: Mapping[str, ManagedPaths] = field(default_factory=dict)
    kind: str | None = None
    trailers: Mapping[str, str] = field(default_factory=dict)
    cost_usd: float = 0.0
    model_calls: int = 0
    subject: str | None = None  # the commit subject's words (default: the kind, or the passes)


@contextmanager
def hold_memory_lock(session: AgentSession, lock: FileLock | None = None) -> Iterator[bool]:
    """Hold the agent's memory lock, waiting MEMORY_LOCK_WAIT_SECONDS; yields False if it stayed taken.

    Pass `lock` to reuse one lock object across a run (FileLock is re-entrant per object).
    """
    held = lock or FileLock(str(session.state.memory_lock))
    try:
        held.acquire(timeout=MEMORY_LOCK_WAIT_SECONDS)
    except Timeout:
        yield False
        return
    try:
        yield True
    finally:
        held.release()


def checked(session: AgentSession, changeset: Changeset, scope: ManagedPaths | None) -> Changeset:
    """`changeset`, or the same pass `failed` if it touches a path it may not write."""
    if not changeset.has_file_changes() or changeset.status not in ("changes", "nothing"):
        return changeset
    try:
        for path in changeset.touched:
            if scope is not None and not scope.covers(path):
                raise PathRefused(path, f"outside what pass {changeset.pass_name} may write")
            if not session.managed.covers(path):
                raise PathRefused(path, "not a path the daemon manages")
            try:
                confined(session.agent.home, path)
            except PathRefused as exc:
                if session.store.tree_blobs(session.base, [path])[path] is None:
                    raise
                # A regular file when the run began: a person put a symlink there meanwhile.
                return _dropped(changeset, f"changed during the run: {path} — {exc.reason}; their version is kept")
    except PathRefused as exc:
        return Changeset(
            pass_name=changeset.pass_name,
            status="failed",
            reason=str(exc),
            report=changeset.report,
            details=changeset.details,
        )
    return changeset


@dataclass(frozen=True)
class Outcome:
    run_id: str | None
    passes: tuple[PassResult, ...]
    files: tuple[str, ...]
    notes: tuple[str, ...]
    preview: str = ""
    error: str | None = None


def _overlay(planned: Sequence[Changeset]) -> dict[str, Content | None]:
    """The merged file changes of the passes that ran to a verdict, later passes on top."""
    changes: dict[str, Content | None] = {}
    for cs in planned:
        if cs.status in ("changes", "nothing"):
            changes.update({w.path: w.data for w in cs.writes})
            changes.update(dict.fromkeys(cs.deletes))
    return changes


def _dropped(cs: Changeset, reason: str) -> Changeset:
    # Its report and details describe writes and proposals that will not be made.
    return cs.model_copy(update={"status": "skipped", "reason": reason, "report": (), "details": None})


def _drop(
    planned: list[Changeset], changed: Mapping[str, str], reads: Mapping[str, ReadLog]
) -> list[Changeset]:
    """`planned` with every pass that wrote a changed file skipped, and every later pass
    that wrote or read what a skipped pass planned (it built on it), skipped too."""
    result = list(planned)
    dropped: list[tuple[str, set[str]]] = []
    for index, cs in enumerate(result):
        if cs.status not in ("changes", "nothing"):
            continue
        touched = set(cs.touched) | proposal_targets(cs)
        hit = sorted(touched & set(changed))
        if hit:
            reason = "; ".join(f"changed during the run: {path} — {changed[path]}" for path in hit)
            result[index] = _dropped(cs, f"{reason}; turns kept for the next cycle")
            dropped.append((cs.pass_name, touched))
            continue
        log_ = reads.get(cs.pass_name)
        for name, paths in dropped:
            if touched & paths or (log_ is not None and any(log_.saw(path) for path in paths)):
                result[index] = _dropped(
                    cs, f"it built on changes of {name}, which were dropped; turns kept for the next cycle"
                )
                dropped.append((cs.pass_name, touched))
                break
    if result == planned:
        # The changed files belong to no pass (cannot happen by construction); never loop.
        return [
            cs.model_copy(update={"status": "skipped", "reason": f"changed during the run: {', '.join(changed)}"})
            if cs.status == "changes"
            else cs
            for cs in planned
        ]
    return result


def commit_run(
    session: AgentSession,
    submission: Submission,
    *,
    now: datetime,
    run_id: str,
    dry_run: bool = False,
    started: float | None = None,
) -> Outcome:
    """Check, apply as one commit and log what `submission` planned (see the module docstring).

    `started` (time.monotonic() at the start of the run) times the run-log entry.
    """
    began = time.monotonic() if started is None else started
    planned = [checked(session, cs, submission.scopes.get(cs.pass_name)) for cs in submission.planned]
    outcome = _commit(session, submission, planned, now, run_id, dry_run)
    if not dry_run:
        try:
            _log(session, submission, outcome, now, run_id, time.monotonic() - began)
        except OSError as exc:
            detail = describe_os_error(exc)
            log.warning("run.log_not_written", agent=session.agent.name, run_id=run_id, error=detail)
            outcome = replace(outcome, notes=(*outcome.notes, f"the run log was not written — {detail}"))
        outcome = _index(session, outcome, run_id)
        outcome = replace(outcome, notes=(*outcome.notes, *derived_notes(session, now)))
    return outcome


def _index(session: AgentSession, outcome: Outcome, run_id: str) -> Outcome:
    """Add the run's commit (and the external edits before it) to the run index.

    The index is derived from the store: if this fails or the process dies first, the
    next command that reads it finds it behind HEAD and catches up, so the run stands.
    """
    if outcome.run_id is not None:
        crashpoint("before_index")
    try:
        with synced_index(session.store, session.state.run_index):
            pass
    except (OSError, StoreError, sqlite3.Error) as exc:
        log.warning("run_index.not_updated", agent=session.agent.name, run_id=run_id, error=str(exc))
        return replace(outcome, notes=(*outcome.notes, f"the run index was not updated (rebuilt on next use) — {exc}"))
    return outcome


def _commit(
    session: AgentSession,
    submission: Submission,
    planned: list[Changeset],
    now: datetime,
    run_id: str,
    dry_run: bool,
) -> Outcome:
    notes: list[str] = []
    if session.first_import and session.external_commit:
        notes.append(f"first run: imported the managed files into the store ({session.external_commit[:10]})")
    elif session.external_commit:
        notes.append(f"committed external edits first ({session.external_commit[:10]})")
    if dry_run:
        changes = _overlay(planned)
        preview = _preview(AgentView(session.agent.home), changes)
        results = tuple(
            _result(cs.model_copy(update={"reason": f"dry run, nothing applied — {cs.reason}"}), cs.touched)
            if cs.status == "changes"
            else _result(cs, ())
            for cs in planned
        )
        return Outcome(None, results, tuple(sorted(changes)), tuple(notes), preview)
    for _round in range(len(planned) + 1):
        try:
            during, _scan = commit_external_edits(session.store, session.agent.name, first=False)
        except (OSError, StoreError) as exc:
            detail = describe_os_error(exc) if isinstance(exc, OSError) else str(exc)
            return _failed(planned, f"run {run_id} could not be applied, nothing changed — {detail}", notes)
        if during:
            notes.append(f"committed edits made during the run as external edits ({during[:10]})")
        advances: list[CursorAdvance] = [
            a for cs in planned if cs.status in ("changes", "nothing") for a in cs.cursor_advances
        ]
        try:
            applied = apply_run(
                session.store,
                session.state,
                agent=session.agent.name,
                run_id=run_id,
                passes=[cs.pass_name for cs in planned if cs.status == "changes"],
                changes=_overlay(planned),
                cursor_advances=advances,
                message=_message(session.agent.name, run_id, planned, submission.subject or submission.kind),
                trailers=_trailers(submission),
                now=now,
                base=session.base,
                keep_dirs=session.managed.dirs,
                held=_proposal_targets(planned),
            )
        except ChangedDuringRun as exc:
            log.warning("run.changed_during_run", agent=session.agent.name, run_id=run_id, files=sorted(exc.changed))
            planned = _drop(planned, exc.changed, submission.reads)
            continue
        except ApplyFailed as exc:
            return _failed(planned, str(exc), notes)
        written = set(applied.files)
        results = tuple(_result(cs, tuple(p for p in cs.touched if p in written)) for cs in planned)
        return Outcome(run_id if applied.sha else None, results, tuple(applied.files), tuple(notes))
    return _failed(planned, f"run {run_id}: files kept changing during the run; nothing applied", notes)


def _proposal_targets(planned: Sequence[Changeset]) -> set[str]:
    return {t for cs in planned if cs.status in ("changes", "nothing") for t in proposal_targets(cs)}


def _trailers(submission: Submission) -> dict[str, str]:
    if submission.kind is not None:
        return {"Kind": submission.kind, **submission.trailers}
    cost = {"Cost-USD": f"{submission.cost_usd:.6f}", "Model-Calls": str(submission.model_calls)}
    return {**cost, **submission.trailers}


def outcome_of(passes: Sequence[PassResult], run_id: str | None, error: str | None) -> str:
    """A run's one-word outcome: failed, applied, skipped (every pass skipped) or nothing."""
    if error is not None or any(p.status == "failed" for p in passes):
        return "failed"
    if run_id:
        return "applied"
    if passes and all(p.status == "skipped" for p in passes):
        return "skipped"
    return "nothing"


def _log(
    session: AgentSession, submission: Submission, outcome: Outcome, now: datetime, run_id: str, seconds: float
) -> None:
    """Append the run to the agent's run log (`runs.jsonl`, read by `status` and the scheduler)."""
    entry = {
        "v": 1,
        "run_id": outcome.run_id,
        "attempted_run_id": run_id,
        "agent": session.agent.name,
        "kind": submission.kind or "passes",
        "started_at": now.isoformat(),
        "finished_at": (now + timedelta(seconds=seconds)).isoformat(),
        "duration_s": round(seconds, 3),
        "outcome": outcome_of(outcome.passes, outcome.run_id, outcome.error),
        "passes": {p.name: p.status for p in outcome.passes},
        # Added within v1 (readers of older lines do without): `status` reports a pass that
        # failed the same way run after run (daemon.doors.service.runlog.stuck_passes). 300
        # characters tell one failure from another without growing the log much.
        "reasons": {p.name: p.reason[:300] for p in outcome.passes},
        "files_changed": len(outcome.files),
        "cost_usd": round(submission.cost_usd, 6),
    }
    atomic.append_line(session.state.run_log, json.dumps(entry, sort_keys=True))


def _failed(planned: Sequence[Changeset], reason: str, notes: list[str]) -> Outcome:
    results = tuple(
        PassResult(cs.pass_name, "failed", reason, report=cs.report, details=cs.details)
        if cs.status in ("changes", "nothing")
        else _result(cs, ())
        for cs in planned
    )
    return Outcome(None, results, (), tuple(notes), error=reason)


def _result(cs: Changeset, files: Sequence[str]) -> PassResult:
    status: PassStatus
    if cs.status == "changes":
        status = "applied" if files else "nothing"
    else:
        status = cs.status
    return PassResult(cs.pass_name, status, cs.reason, tuple(files), cs.report, cs.details)


def _message(agent: str, run_id: str, planned: Sequence[Changeset], kind: str | None) -> str:
    changing = [cs.pass_name for cs in planned if cs.status == "changes"] or ["cursors"]
    lines = [f"run {run_id}: {kind or ', '.join(changing)} ({agent})", ""]
    layout = lay_out([(cs.pass_name, cs.report) for cs in planned])
    for cs in planned:
        lines.append(f"[{cs.pass_name}] {cs.status}: {cs.reason}".rstrip(": "))
        lines.extend(f"  {line}" for line in layout.own[cs.pass_name])
    for group in layout.shared:  # the same transcripts' warnings, said once
        lines.append(f"reported by {reporters(group.passes)}:")
        lines.extend(f"  {line}" for line in group.lines)
    return "\n".join(lines)
