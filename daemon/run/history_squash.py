"""Run-history retention: fold the runs older than the kept window into one baseline commit.

`retention.history_days` / `retention.history_runs` say which runs stay: walking back from
HEAD, a commit is kept while it is younger than the days and within the newest N runs.
Everything older is squashed: the newest commit that is not kept becomes a parentless
**baseline** commit holding exactly the files that commit had (so the oldest kept run
still undoes against the same parent tree), and every kept commit is replayed on top of
it with its message, trailers and run id unchanged (`daemon.run.history_rewrite`, with
`Rewrite.since` = the baseline's parent). The squashed runs are gone for good: `show` and
`undo` name the baseline when asked for one of them.

The baseline's trailers say what it holds: `Kind: baseline`, `Squashed-Runs` (all runs
folded so far, earlier baselines included), `Squashed-Through` (the newest run id folded)
and `Squashed-At`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta

from daemon.run.history_rewrite import Rewrite
from daemon.run.store_git import CommitInfo

BASELINE_KIND = "baseline"


@dataclass(frozen=True)
class SquashPlan:
    """What a squash would do to one store (computed from its history; changes nothing)."""

    cutoff: CommitInfo  # the newest commit folded in: it becomes the baseline
    squashed_runs: int  # runs folded by this squash
    total_runs: int  # runs the baseline will stand for (earlier baselines included)
    through: str  # the newest run id folded ("" if none had one)
    kept_runs: int

    @property
    def parent(self) -> str | None:
        return self.cutoff.parent


def _is_baseline(info: CommitInfo) -> bool:
    return info.trailers.get("Kind") == BASELINE_KIND


def plan_squash(
    history: Iterable[CommitInfo], *, keep_days: int | None, keep_runs: int | None, now: datetime
) -> SquashPlan | None:
    """The squash due now over `history` (newest first, first-parent), or None.

    None when every commit is kept, or when the only commit left out is already a baseline
    (nothing new to fold).
    """
    if keep_days is None and keep_runs is None:
        return None
    since = None if keep_days is None else now - timedelta(days=keep_days)
    kept_runs = 0
    commits = iter(history)
    for info in commits:
        runs_with_it = kept_runs + (1 if info.run_id else 0)
        too_old = since is not None and info.committed_at < since
        too_many = keep_runs is not None and runs_with_it > keep_runs
        if too_old or too_many:
            cutoff = info
            break
        kept_runs = runs_with_it
    else:
        return None
    squashed, earlier, through = 0, 0, ""
    for info in (cutoff, *commits):
        if info.run_id:
            squashed += 1
            through = through or info.run_id
        elif _is_baseline(info):
            earlier += int(info.trailers.get("Squashed-Runs", "0") or 0)
            through = through or info.trailers.get("Squashed-Through", "").strip("-")
    if _is_baseline(cutoff) and cutoff.parent is None:
        return None
    return SquashPlan(cutoff, squashed, squashed + earlier, through, kept_runs)


def baseline_message(plan: SquashPlan, now: datetime) -> bytes:
    lines = [
        f"baseline: {plan.total_runs} earlier run(s) squashed by retention",
        "",
        "The store's history before this commit was folded into it by the run-history",
        "retention; its files are the ones those runs left. Squashed runs cannot be shown",
        "or undone any more.",
        "",
        f"Kind: {BASELINE_KIND}",
        f"Squashed-Runs: {plan.total_runs}",
        f"Squashed-Through: {plan.through or '-'}",  # a trailer cannot be empty
        f"Squashed-At: {now.isoformat()}",
    ]
    return ("\n".join(lines) + "\n").encode("utf-8")


def squash_rewrite(plan: SquashPlan, now: datetime) -> Rewrite:
    """The history rewrite that applies `plan` (blobs untouched)."""
    baseline = baseline_message(plan, now)

    def message(oid: str, text: bytes) -> bytes:
        return baseline if oid == plan.cutoff.sha else text

    return Rewrite(
        blob=lambda data: data,
        message=message,
        reason=f"retention squash of {plan.squashed_runs} run(s) into a baseline",
        since=plan.parent,
    )


def squashed_into(baseline: CommitInfo | None, run_id: str) -> bool:
    """Whether `run_id` is one of the runs `baseline` folded (run ids sort by time)."""
    if baseline is None or not _is_baseline(baseline):
        return False
    through = baseline.trailers.get("Squashed-Through", "").strip("-")
    return bool(through) and run_id <= through
