"""Reading an agent's run log (`state/agents/<a>/runs.jsonl`, written by the runner) from the end.

The log grows by one line per run for the life of the deployment; the scheduler and
`status` only need its last entries, so it is read backwards in chunks, never whole.

Each entry (`v: 1`) holds `passes` (name → status) and, since stuck passes are reported,
`reasons` (name → reason, cut to 300 characters); entries written before have no
`reasons` and are still read. A pass is **stuck** when its last STUCK_RUNS recorded
outcomes — in the runs that included it — are all `failed` with the same reason, or
`skipped` because the model's answer was refused (rejected or tainted: it keeps its turns
and would be asked the same way forever): a run where it did anything else (applied,
nothing, any other skip, or an entry without reasons) ends the streak, so switching a
pass off or fixing its cause clears the report.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from daemon.kernel.errors import REJECTED_ANSWER, TAINTED_PLAN, StateVersionError
from daemon.kernel.json_contract import RawJson

VERSION = 1
STUCK_RUNS = 3
CHUNK_BYTES = 64 * 1024
MAX_SCAN_BYTES = 4 * 1024 * 1024


def _lines_backwards(path: Path, max_bytes: int) -> Iterator[bytes]:
    try:
        fh = path.open("rb")
    except FileNotFoundError:
        return
    with fh:
        position = fh.seek(0, 2)
        carry = b""
        scanned = 0
        while position > 0 and scanned < max_bytes:
            size = min(CHUNK_BYTES, position)
            position -= size
            fh.seek(position)
            block = fh.read(size) + carry
            scanned += size
            lines = block.split(b"\n")
            carry = lines[0]
            for line in reversed(lines[1:]):
                if line.strip():
                    yield line
        if position == 0 and carry.strip():
            yield carry


def entries_newest_first(path: Path, max_bytes: int = MAX_SCAN_BYTES) -> Iterator[RawJson]:
    """Run entries, newest first, from the last `max_bytes` of the log.

    A torn last line (a crash mid-append) is skipped; an entry of a newer version is refused.
    """
    for line in _lines_backwards(path, max_bytes):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        version = entry.get("v")
        if isinstance(version, int) and version > VERSION:
            raise StateVersionError(path, version, VERSION)
        yield entry


def last_run(path: Path) -> RawJson | None:
    return next(entries_newest_first(path), None)


def parse_time(value: object) -> datetime | None:
    if not isinstance(value, str):
        return None
    try:
        stamp = datetime.fromisoformat(value)
    except ValueError:
        return None
    return stamp if stamp.tzinfo else None


def last_started(path: Path, passes: Collection[str]) -> datetime | None:
    """Start time of the newest run that included any of `passes` (scheduled or manual)."""
    wanted = set(passes)
    for entry in entries_newest_first(path):
        ran = entry.get("passes")
        if isinstance(ran, dict) and wanted & set(ran):
            return parse_time(entry.get("started_at"))
    return None


def finished_at(entry: RawJson) -> str | None:
    """`finished_at` of an entry; entries written before it existed derive it from the duration."""
    if isinstance(entry.get("finished_at"), str):
        return str(entry["finished_at"])
    started = parse_time(entry.get("started_at"))
    duration = entry.get("duration_s")
    if started is None or not isinstance(duration, int | float):
        return None
    return (started + timedelta(seconds=float(duration))).isoformat()


@dataclass(frozen=True)
class Stuck:
    """A pass that failed the same way on its last `runs` runs, the first of them started `since`."""

    reason: str
    since: str | None
    runs: int


@dataclass
class _Streak:
    reason: str
    since: str | None
    runs: int = 1


def _started(entry: RawJson) -> str | None:
    value = entry.get("started_at")
    return value if isinstance(value, str) else None


def _failure(entry: RawJson, name: str) -> str | None:
    """The reason `name` failed in this run, or None if it did anything else (or the entry has no reasons)."""
    statuses, reasons = entry.get("passes"), entry.get("reasons")
    if not isinstance(statuses, dict) or not isinstance(reasons, dict):
        return None
    reason = reasons.get(name)
    if not isinstance(reason, str):
        return None
    refused = statuses.get(name) == "skipped" and reason.startswith((REJECTED_ANSWER, TAINTED_PLAN))
    return reason if statuses.get(name) == "failed" or refused else None


def stuck_passes(path: Path, names: Collection[str], runs: int = STUCK_RUNS) -> dict[str, Stuck]:
    """The passes among `names` whose last `runs` (or more) outcomes are the same failure.

    Reads backwards only until every pass's streak has ended (or the scan limit).
    """
    streaks: dict[str, _Streak] = {}
    counting = set(names)
    for entry in entries_newest_first(path):
        if not counting:
            break
        statuses = entry.get("passes")
        if not isinstance(statuses, dict):
            continue
        for name in counting & set(statuses):
            reason = _failure(entry, name)
            streak = streaks.get(name)
            if streak is not None and reason == streak.reason:
                streak.runs += 1
                streak.since = _started(entry)
            elif streak is None and reason is not None:
                streaks[name] = _Streak(reason, _started(entry))
            else:
                counting.discard(name)
    return {name: Stuck(s.reason, s.since, s.runs) for name, s in streaks.items() if s.runs >= runs}
