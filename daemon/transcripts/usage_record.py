"""The usage record: per agent, what it used and when, from the transcripts every run reads
(`<state_dir>/agents/<agent>/usage.json`; docs/explanation/skills.md#usage-signals).

Per skill (by name), and for the facts view and the hook's context, a tally: how many
times, in how many sessions, first and last time, and the session and turn of the last
time. The agent's sessions are counted as the usage scan first reads them, in the order
they began (`sessions_seen`, and how many began each day); a tally's `mark` is that count
when its last use was counted, so "sessions since the last use" is `sessions_seen - mark`
(a session resumed days later and using a skill then counts no session since).

Counting is idempotent. Per session (`sources`, keyed as `daemon.transcripts.usage`
says) the record keeps `through`, the first line or row it has not counted yet: an event
is counted only at or past it, then `through` moves to the end of what the read consumed.
Reading the same turn again, in another pass of the run or in a later run whose commit
never happened, counts nothing twice. A transcript replaced by another file (another
first line; another device and inode for a database) is counted from its start again.

Usage is an observation of the transcripts, not a change to the agent: the record is
state, not a tracked file, and `undo` leaves it as it is (undo never moves transcript
cursors back either). The runner records before it commits the run's cursors, and the
file is replaced atomically: a crash between the two only lets the next run read the same
turns, which count nothing twice. A session not read for SOURCE_DAYS days is forgotten
(`sessions_seen` keeps it): the file stays as large as the sessions in use, not as all
sessions ever.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from daemon.kernel import atomic, lazy_log
from daemon.kernel.statefile import read_versioned
from daemon.transcripts.usage import SessionUsage, UsageEvent
from daemon.transcripts.usage_signals import FACTS_VIEW_READ, HOOK_CONTEXT, SKILL_OPENED

log = lazy_log.get_logger("metaeng.usage")

VERSION = 1
SOURCE_DAYS = 90
# Distinct skill names kept: a transcript cannot grow the record without bound.
MAX_SKILLS = 10_000


class _Frozen(BaseModel):
    # Validators built on first use: a short command (`status`) imports these and builds few.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Tally(_Frozen):
    """How often something was used: `count` times in `sessions` sessions, `first` and `last`
    (UTC ISO 8601); the session and turn of the last time, and `mark`, how many sessions had
    been read when it was counted."""

    count: int = 0
    sessions: int = 0
    first: str | None = None
    last: str | None = None
    last_session: str | None = None
    last_turn: str | None = None
    mark: int = 0


class Source(_Frozen):
    """One session as the usage scan read it: how far it was counted (`through`, in the file
    of fingerprint `fp`), the day it was last read, and what was used in it."""

    through: int
    fp: str = ""
    seen: str
    skills: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()


class UsageFile(_Frozen):
    version: int = VERSION
    sessions_seen: int = 0
    sessions_by_day: dict[str, int] = {}
    skills: dict[str, Tally] = {}
    facts_view: Tally = Tally()
    hook_context: Tally = Tally()
    sources: dict[str, Source] = {}

    def skill(self, *names: str) -> Tally:
        """The tally of the first of `names` used (a skill's name, then its folder's), else an empty one."""
        return next((self.skills[n] for n in names if n in self.skills), Tally())

    def sessions_since(self, tally: Tally) -> int | None:
        """Sessions first read since `tally`'s last use was counted; None if never used."""
        return max(self.sessions_seen - tally.mark, 0) if tally.count else None


def load(path: Path) -> UsageFile:
    """The usage record at `path`; an empty one if there is none yet. Raises CorruptState or
    StateVersionError for a file this daemon cannot read."""
    return read_versioned(path, UsageFile, VERSION) or UsageFile()


def _stamp(when: datetime) -> str:
    return when.astimezone(UTC).isoformat(timespec="seconds")


def _counted(tally: Tally, event: UsageEvent, when: str, mark: int, new_session: bool) -> Tally:
    update: dict[str, object] = {"count": tally.count + 1, "sessions": tally.sessions + int(new_session)}
    if tally.first is None or when < tally.first:
        update["first"] = when
    if tally.last is None or when >= tally.last:
        update.update(last=when, last_session=event.session, last_turn=event.turn, mark=mark)
    return tally.model_copy(update=update)


def merged(state: UsageFile, reads: Sequence[SessionUsage], now: datetime) -> tuple[UsageFile, int]:
    """`state` with the uses of `reads` counted once each (see the module docstring), and how many were new.

    An event without a time of its own is dated `now`.
    """
    fallback, today = _stamp(now), now.astimezone(UTC).date().isoformat()
    sources = dict(state.sources)
    skills = dict(state.skills)
    tallies = {FACTS_VIEW_READ: state.facts_view, HOOK_CONTEXT: state.hook_context}
    by_day = dict(state.sessions_by_day)
    seen, counted, dropped = state.sessions_seen, 0, 0
    # Sessions seen for the first time are numbered in the order they began.
    for read in sorted(reads, key=lambda r: r.first_ts or fallback):
        source = sources.get(read.source)
        if source is None:
            seen += 1
            day = (read.first_ts or fallback)[:10]
            by_day[day] = by_day.get(day, 0) + 1
            source = Source(through=0, fp=read.fingerprint, seen=today)
        elif source.fp != read.fingerprint:
            source = source.model_copy(update={"through": 0, "fp": read.fingerprint})
        used, kinds = set(source.skills), set(source.kinds)
        for event in read.events:
            if event.position < source.through:
                continue
            when = event.ts or fallback
            if event.kind == SKILL_OPENED and event.skill is not None:
                if event.skill not in skills and len(skills) >= MAX_SKILLS:
                    dropped += 1
                    continue
                skills[event.skill] = _counted(
                    skills.get(event.skill, Tally()), event, when, seen, event.skill not in used
                )
                used.add(event.skill)
            elif event.kind in tallies:
                tallies[event.kind] = _counted(
                    tallies[event.kind], event, when, seen, event.kind not in kinds
                )
                kinds.add(event.kind)
            else:
                continue
            counted += 1
        sources[read.source] = source.model_copy(
            update={
                "through": max(source.through, read.end),
                "seen": today,
                "skills": tuple(sorted(used)),
                "kinds": tuple(sorted(kinds)),
            }
        )
    if dropped:
        log.warning("usage.skills_dropped", skills=dropped, kept=MAX_SKILLS)
    cutoff = (now.astimezone(UTC).date() - timedelta(days=SOURCE_DAYS)).isoformat()
    kept = {key: source for key, source in sources.items() if source.seen >= cutoff}
    new = UsageFile(
        sessions_seen=seen,
        sessions_by_day=by_day,
        skills=skills,
        facts_view=tallies[FACTS_VIEW_READ],
        hook_context=tallies[HOOK_CONTEXT],
        sources=kept,
    )
    return new, counted


def dumps(state: UsageFile) -> str:
    """The record as written: one line of JSON, defaults left out (but the version)."""
    data = state.model_dump(mode="json", exclude_defaults=True)
    return json.dumps({"version": VERSION, **data}, ensure_ascii=False, separators=(",", ":")) + "\n"


def record(path: Path, reads: Sequence[SessionUsage], now: datetime) -> int:
    """Count the uses of `reads` into the record at `path` (written atomically if it changed);
    how many were new. Raises OSError, CorruptState or StateVersionError."""
    if not reads:
        return 0
    state = load(path)
    new, counted = merged(state, reads, now)
    if new != state:
        atomic.write_text(path, dumps(new))
    return counted
