"""What the workspace consolidation reports: `once --json` fields, report lines, summary."""

from __future__ import annotations

from collections.abc import Iterable

from daemon.kernel.changeset import PassDetails
from daemon.kernel.json_contract import Document, Omittable
from workspace.consolidate_rewrite import RequestOutcome, Rewrite
from workspace.loss_check import Finding, LossReport

MAX_LISTED_UNITS = 10


class UnitFinding(Document):
    """A unit the loss check found lost (or added), where it was and why it counts."""

    file: str
    line: int
    kind: str
    text: str
    reason: str


class UnitMerge(Document):
    """Units the rewrite merged: `merged` now lives in `kept`."""

    merged: str
    kept: str
    similarity: float


class DailyLogs(Document):
    read: int
    notes_removed: int
    changed: list[str]


class RequestReport(Document):
    """One model request of the rewrite and what became of its answer."""

    request: int
    files: list[str]
    units: int
    bytes: int
    outcome: str  # applied | partly applied | unchanged | refused | rejected | failed
    operations: int
    reason: str


class CheckedDetails(PassDetails):
    """The workspace consolidation as the loss check saw it; alone when it rejected the
    whole rewrite (`rewrite: rejected`, nothing written)."""

    units_before: int
    units_after: int
    lost_units: list[UnitFinding]
    added_units: list[UnitFinding]
    merges: list[UnitMerge]
    rewrite: str  # applied | partly applied | proposed | waiting | unchanged | skipped | rejected
    daily_logs: DailyLogs
    problems: list[str]
    requests: list[RequestReport]
    requests_waiting: int
    units_waiting: int
    units_too_large: list[str]


class ConsolidatedDetails(CheckedDetails):
    """A consolidation that passed the loss check: what it wrote and what it proposed."""

    contradictions: int
    applied: list[str]
    proposals: list[str]
    waiting: Omittable[list[str]] = None  # proposals of an earlier run that still wait for review


def findings(found: Iterable[Finding]) -> list[UnitFinding]:
    return [UnitFinding(file=f.file, line=f.line, kind=f.kind, text=f.text, reason=f.reason) for f in found]


def checked(
    reports: Iterable[LossReport],
    lost: Iterable[Finding],
    added: Iterable[Finding],
    rewrite: Rewrite,
    daily_logs: DailyLogs,
    problems: list[str],
) -> CheckedDetails:
    """The details of a consolidation as checked: `reports` are the loss checks (role files,
    daily logs), `lost`/`added` every unit they and the rejected answers found."""
    reports = list(reports)
    return CheckedDetails(
        units_before=sum(r.units_before for r in reports),
        units_after=sum(r.units_after for r in reports),
        lost_units=findings(lost),
        added_units=findings(added),
        merges=[UnitMerge(merged=m.merged, kept=m.kept, similarity=m.similarity) for r in reports for m in r.merges],
        rewrite=rewrite.status,
        daily_logs=daily_logs,
        problems=problems,
        requests=[request_report(r) for r in rewrite.requests],
        requests_waiting=len(rewrite.waiting),
        units_waiting=sum(len(r.uids) for r in rewrite.waiting),
        units_too_large=list(rewrite.too_large),
    )


def request_report(r: RequestOutcome) -> RequestReport:
    return RequestReport(
        request=r.number,
        files=list(r.files),
        units=r.units,
        bytes=r.bytes,
        outcome=r.outcome,
        operations=r.operations,
        reason=r.reason,
    )


def request_lines(rewrite: Rewrite) -> list[str]:
    """What happened to each model request, when there were several or some did not count."""
    lines = []
    total = len(rewrite.requests) + len(rewrite.waiting)
    for r in rewrite.requests:
        if r.outcome in ("refused", "rejected", "failed", "partly applied") and (total > 1 or rewrite.status != "skipped"):
            lines.append(
                f"request {r.number} ({', '.join(r.files)}, {r.units} units) {r.outcome}: {r.reason}"
            )
    if rewrite.waiting:
        stopped = rewrite.requests[-1].outcome == "failed"
        why = (
            "the model became unavailable"
            if stopped
            else f"at most {rewrite.max_calls} model calls per pass (model.max_calls_per_pass)"
        )
        files = sorted({f for r in rewrite.waiting for f in r.files})
        lines.append(
            f"{len(rewrite.waiting)} request(s) ({sum(len(r.uids) for r in rewrite.waiting)} units of "
            f"{', '.join(files)}) wait for the next run: {why}"
        )
    if rewrite.too_large:
        listed = ", ".join(rewrite.too_large[:MAX_LISTED_UNITS])
        more = (
            f" and {len(rewrite.too_large) - MAX_LISTED_UNITS} more"
            if len(rewrite.too_large) > MAX_LISTED_UNITS
            else ""
        )
        lines.append(
            f"{len(rewrite.too_large)} unit(s) too large for one model request left as they are: {listed}{more}"
        )
    return lines


def summary(rewrite: Rewrite, details: ConsolidatedDetails, logs_changed: int) -> str:
    parts = [f"{details.units_before} units before, {details.units_after} after, none lost"]
    if rewrite.status == "skipped":
        parts.append(f"rewrite skipped: {rewrite.reason}")
    else:
        parts.append(f"rewrite {details.rewrite}")
    if rewrite.rejected:
        parts.append(f"{len(rewrite.rejected)} answer(s) rejected by the loss check")
    if rewrite.waiting:
        parts.append(f"{len(rewrite.waiting)} request(s) wait for the next run")
    if logs_changed:
        parts.append(f"{details.daily_logs.notes_removed} repeated daily-log note(s) removed")
    if details.proposals:
        parts.append(f"{len(details.proposals)} proposal(s) for review")
    return "; ".join(parts)
