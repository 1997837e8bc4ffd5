"""What the workspace consolidation reports: `once --json` fields, report lines, summary."""

from __future__ import annotations

from typing import Any

from workspace.consolidate_rewrite import Rewrite
from workspace.loss_check import LossReport, findings_as_dicts

MAX_LISTED_UNITS = 10


def combined(*reports: LossReport) -> dict[str, Any]:
    return {
        "units_before": sum(r.units_before for r in reports),
        "units_after": sum(r.units_after for r in reports),
        "lost_units": [f for r in reports for f in findings_as_dicts(r.lost)],
        "added_units": [f for r in reports for f in findings_as_dicts(r.added)],
        "merges": [
            {"merged": m.merged, "kept": m.kept, "similarity": m.similarity}
            for r in reports
            for m in r.merges
        ],
    }


def requests(rewrite: Rewrite) -> dict[str, Any]:
    return {
        "requests": [r.as_dict() for r in rewrite.requests],
        "requests_waiting": len(rewrite.waiting),
        "units_waiting": sum(len(r.uids) for r in rewrite.waiting),
        "units_too_large": list(rewrite.too_large),
    }


def request_lines(rewrite: Rewrite) -> list[str]:
    """What happened to each model request, when there were several or some did not count."""
    lines = []
    total = len(rewrite.requests) + len(rewrite.waiting)
    for r in rewrite.requests:
        if r.outcome in ("refused", "rejected", "failed") and (total > 1 or rewrite.status != "skipped"):
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


def summary(rewrite: Rewrite, details: dict[str, Any], logs_changed: int) -> str:
    parts = [f"{details['units_before']} units before, {details['units_after']} after, none lost"]
    if rewrite.status == "skipped":
        parts.append(f"rewrite skipped: {rewrite.reason}")
    else:
        parts.append(f"rewrite {details['rewrite']}")
    if rewrite.rejected:
        parts.append(f"{len(rewrite.rejected)} answer(s) rejected by the loss check")
    if rewrite.waiting:
        parts.append(f"{len(rewrite.waiting)} request(s) wait for the next run")
    if logs_changed:
        parts.append(f"{details['daily_logs']['notes_removed']} repeated daily-log note(s) removed")
    if details["proposals"]:
        parts.append(f"{len(details['proposals'])} proposal(s) for review")
    return "; ".join(parts)
