"""Run-history retention: fold the runs older than the kept window into one baseline commit.

`retention.history_days` / `retention.history_runs` say which runs stay: the commits from
HEAD back to the oldest one still young enough, and within the newest N runs (`_cut`).
Everything older is squashed: the newest commit that is not kept becomes a parentless
**baseline** commit holding exactly the files that commit had (so the oldest kept run
still undoes against the same parent tree), and every kept commit is replayed on top of
it with its message, trailers, tree and run id unchanged (`daemon.run.history_rewrite`,
with `Rewrite.since` = the baseline's parent); the run log forgets the squashed runs too
(`trim_run_log`). The squashed runs are gone for good: for an id the store lacks, `show`
and `undo` say that older runs were squashed (`squash_note`).

The baseline's trailers say what it holds: `Kind: baseline`, `Squashed-Runs` (all runs
folded so far, earlier baselines included), `Squashed-Through` (the newest run id folded)
and `Squashed-At`.
"""

from __future__ import annotations

import json
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from daemon.kernel import atomic
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
    run_ids: frozenset[str] = frozenset()  # the runs folded by this squash

    @property
    def parent(self) -> str | None:
        return self.cutoff.parent


def _is_baseline(info: CommitInfo) -> bool:
    return info.trailers.get("Kind") == BASELINE_KIND


def _cut(commits: list[CommitInfo], keep_days: int | None, keep_runs: int | None, now: datetime) -> int:
    """Index (newest first) of the newest commit to fold; len(commits) when all are kept.

    Days: everything older than the oldest commit still young enough is folded, so one
    commit stamped by a clock that was behind does not take the younger runs before it
    along. A commit stamped after `now` counts as young: either its clock was ahead, or
    the clock now is behind, and the two cannot be told apart; a squash cannot be undone,
    so it keeps (retention waits) rather than fold runs that may be minutes old. Runs: the
    (N+1)th newest run and all before it. A commit stays only if both keep it.
    """
    cut = len(commits)
    if keep_days is not None:
        since = now - timedelta(days=keep_days)
        young = [i for i, info in enumerate(commits) if since <= info.committed_at]
        cut = min(cut, young[-1] + 1 if young else 0)
    if keep_runs is not None:
        seen = 0
        for i, info in enumerate(commits):
            seen += 1 if info.run_id else 0
            if seen > keep_runs:
                cut = min(cut, i)
                break
    return cut


def plan_squash(
    history: Iterable[CommitInfo], *, keep_days: int | None, keep_runs: int | None, now: datetime
) -> SquashPlan | None:
    """The squash due now over `history` (newest first, first-parent), or None.

    None when every commit is kept, or when the commits left out hold no run that is not
    already in a baseline (nothing new to fold).
    """
    if keep_days is None and keep_runs is None:
        return None
    commits = list(history)
    cut = _cut(commits, keep_days, keep_runs, now)
    if cut >= len(commits):
        return None
    cutoff = commits[cut]
    squashed, earlier, through = 0, 0, ""
    for info in commits[cut:]:
        if info.run_id:
            squashed += 1
            through = through or info.run_id
        elif _is_baseline(info):
            earlier += int(info.trailers.get("Squashed-Runs", "0") or 0)
            through = through or info.trailers.get("Squashed-Through", "").strip("-")
    if squashed == 0:
        return None
    kept_runs = sum(1 for info in commits[:cut] if info.run_id)
    folded = frozenset(info.run_id for info in commits[cut:] if info.run_id)
    return SquashPlan(cutoff, squashed, squashed + earlier, through, kept_runs, folded)


def trim_run_log(run_log: Path, plan: SquashPlan) -> int:
    """Drop the run log's entries of the runs `plan` folded, and of the runs that committed
    nothing before its cutoff (their history is gone too); return how many went.

    The log is rewritten whole, atomically (the caller holds the run lock, so no run
    appends meanwhile); a line that is not a JSON object is kept as it is.
    """
    if not run_log.exists():
        return 0
    before = plan.cutoff.committed_at
    kept: list[str] = []
    dropped = 0
    with run_log.open(encoding="utf-8", errors="surrogateescape") as lines:
        for line in lines:
            try:
                entry = json.loads(line)
            except ValueError:
                entry = None
            if isinstance(entry, dict) and _folded(entry, plan.run_ids, before):
                dropped += 1
            else:
                kept.append(line if line.endswith("\n") else line + "\n")
    if dropped:
        mode = stat.S_IMODE(run_log.stat().st_mode)
        atomic.write_bytes(run_log, "".join(kept).encode("utf-8", "surrogateescape"), mode=mode)
    return dropped


def _folded(entry: dict[str, object], run_ids: frozenset[str], before: datetime) -> bool:
    run_id = entry.get("run_id")
    if isinstance(run_id, str):
        return run_id in run_ids
    started = entry.get("started_at")
    try:
        return isinstance(started, str) and datetime.fromisoformat(started) <= before
    except (ValueError, TypeError):  # not a time, or one without a zone
        return False


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
        keeps_files=True,
    )


def baseline_of(root: CommitInfo | None) -> CommitInfo | None:
    """`root` if it is a retention baseline (the first commit of a squashed store)."""
    return root if root is not None and _is_baseline(root) else None


def squash_note(baseline: CommitInfo) -> str:
    """What an unknown run id's error adds when the store was squashed (never a guess
    that this id was one of them: ids are not kept, and clocks go backwards)."""
    day = baseline.trailers.get("Squashed-At", "").split("T")[0] or "an earlier day"
    through = baseline.trailers.get("Squashed-Through", "").strip("-")
    count = baseline.trailers.get("Squashed-Runs", "?")
    upto = f" up to {through}" if through else ""
    return (
        f"{count} older run(s){upto} were squashed into the store's baseline by the run-history retention "
        f"on {day}; if it was one of them it can no longer be shown or undone"
    )
