"""Commit what the passes of one run planned: drop what a person changed meanwhile, apply the rest.

The runner plans every pass first; this module turns the planned changesets into one run
commit. A person may have edited managed files while the passes planned (a model call
takes minutes): their edits are committed first, as external edits, then the run's
writes land only on files that still hold what the passes read (`daemon.run.apply` checks
each against the run's planning base). A pass whose file changed is dropped — `skipped`,
its turns kept — with every later pass that read or wrote what it planned; the rest is
tried again. Each round drops at least one pass, so the loop ends.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import structlog

from daemon.kernel.changeset import Changeset, CursorAdvance, PassStatus
from daemon.kernel.deep_tier import DeepTier
from daemon.kernel.errors import ChangedDuringRun, StoreError
from daemon.kernel.view import AgentView, ReadLog
from daemon.run.apply import ApplyFailed, apply_run, describe_os_error
from daemon.run.session import AgentSession, commit_external_edits

log = structlog.get_logger("metaeng.runner")


@dataclass(frozen=True)
class PassResult:
    name: str
    status: PassStatus
    reason: str
    files: tuple[str, ...] = ()
    report: tuple[str, ...] = ()
    details: Mapping[str, Any] = field(default_factory=dict)


def _preview(home_view: AgentView, changes: Mapping[str, bytes | None]) -> str:
    chunks: list[str] = []
    for path, new in sorted(changes.items()):
        old = home_view.read_bytes(path)
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
class Outcome:
    run_id: str | None
    passes: tuple[PassResult, ...]
    files: tuple[str, ...]
    notes: tuple[str, ...]
    preview: str = ""
    error: str | None = None


def _overlay(planned: Sequence[Changeset]) -> dict[str, bytes | None]:
    """The merged file changes of the passes that ran to a verdict, later passes on top."""
    changes: dict[str, bytes | None] = {}
    for cs in planned:
        if cs.status in ("changes", "nothing"):
            changes.update({w.path: w.content for w in cs.writes})
            changes.update(dict.fromkeys(cs.deletes))
    return changes


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
        touched = set(cs.touched)
        hit = sorted(touched & set(changed))
        if hit:
            reason = "; ".join(f"changed during the run: {path} — {changed[path]}" for path in hit)
            result[index] = cs.model_copy(update={"status": "skipped", "reason": f"{reason}; turns kept for the next cycle"})
            dropped.append((cs.pass_name, touched))
            continue
        log_ = reads.get(cs.pass_name)
        for name, paths in dropped:
            if touched & paths or (log_ is not None and any(log_.saw(path) for path in paths)):
                result[index] = cs.model_copy(
                    update={
                        "status": "skipped",
                        "reason": f"it built on changes of {name}, which were dropped; turns kept for the next cycle",
                    }
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
    planned: list[Changeset],
    reads: Mapping[str, ReadLog],
    now: datetime,
    run_id: str,
    dry_run: bool,
    deep: DeepTier,
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
                message=_message(session.agent.name, run_id, planned),
                trailers={"Cost-USD": f"{deep.spent_usd:.6f}", "Model-Calls": str(len(deep.calls))},
                now=now,
                base=session.base,
                keep_dirs=session.managed.dirs,
            )
        except ChangedDuringRun as exc:
            log.warning("run.changed_during_run", agent=session.agent.name, run_id=run_id, files=sorted(exc.changed))
            planned = _drop(planned, exc.changed, reads)
            continue
        except ApplyFailed as exc:
            return _failed(planned, str(exc), notes)
        written = set(applied.files)
        results = tuple(_result(cs, tuple(p for p in cs.touched if p in written)) for cs in planned)
        return Outcome(run_id if applied.sha else None, results, tuple(applied.files), tuple(notes))
    return _failed(planned, f"run {run_id}: files kept changing during the run; nothing applied", notes)


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


def _message(agent: str, run_id: str, planned: Sequence[Changeset]) -> str:
    changing = [cs.pass_name for cs in planned if cs.status == "changes"] or ["cursors"]
    lines = [f"run {run_id}: {', '.join(changing)} ({agent})", ""]
    for cs in planned:
        lines.append(f"[{cs.pass_name}] {cs.status}: {cs.reason}".rstrip(": "))
        lines.extend(f"  {line}" for line in cs.report)
    return "\n".join(lines)
