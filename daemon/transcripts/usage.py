"""Usage events of one read of the transcripts, and the probe that finds them (docs/explanation/skills.md#usage-signals).

The readers (`daemon.transcripts.reader` for lines, `hermes` and `openclaw_db` for rows)
hand the lines and rows they judge to the agent's probe. A line holding none of the
probe's markers (`SKILL.md`, `"Skill"`, `<skill>`, the facts view's file name, the hook's
mark …) cannot hold a use and is not parsed again: the reader finds the markers with one
byte search each over its whole window, so the probe costs little more than reading (see
benchmarks/bench_usage.py). What a probe finds is kept with where it is — the line's byte
offset, or the row's id or seq — and the turn holding it.

A read then says, per session, the events before the point its cursor may reach (what
it consumed) and that point, `SessionUsage.end`. The lines up to `end` never change, so a
later read of them finds the same events at the same places: the usage record
(`daemon.transcripts.usage_record`) counts an event only past what it has already counted
of that session, and reading a turn twice never counts it twice.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import PurePosixPath

from daemon.kernel.json_contract import RawJson
from daemon.transcripts.lines import Malformed, load_object
from daemon.transcripts.usage_signals import (
    DETECTORS,
    MARK,
    SKILL_BASE,
    SKILL_FILE,
    Signal,
    UsageKind,
    ViewPath,
    hermes,
    utc_stamp,
)
from daemon.transcripts.window import Found, Turn

# Bytes one of which every line holding a use contains (the view's file name is added).
MARKERS = (
    SKILL_FILE.encode(),
    b'"Skill"',
    b"<skill>",
    SKILL_BASE.encode(),
    b"skill_view",
    MARK[1:-1].encode(),
)
FIRST_LINE_BYTES = 4096
# The columns of a Hermes row a use can be in.
HERMES_COLUMNS = ("tool_calls", "api_content")


@dataclass(frozen=True)
class UsageEvent:
    """One use: its kind, the skill (skill_opened only), the session and turn, when, and where.

    `position` is the line's byte offset in its file (a row's id or seq in a database);
    `turn` the reference of the turn holding it, `<file>@<offset>`.
    """

    kind: UsageKind
    skill: str | None
    session: str
    turn: str
    ts: str | None
    position: int


@dataclass(frozen=True)
class SessionUsage:
    """What one read consumed of one session: its uses before `end`, the first position it did not consume.

    `source` is the session's key (a transcript's cursor key, `<db>#<session>` for a
    database); `fingerprint` tells one file under that key from another that replaced it
    (`line_fingerprint`, `database_fingerprint`); `first_ts` the earliest time this read saw in it.
    """

    source: str
    session: str
    fingerprint: str
    end: int
    events: tuple[UsageEvent, ...]
    first_ts: str | None


@dataclass(frozen=True)
class UsageProbe:
    """Finds the uses in an agent's transcript lines or rows, in its runtime's format (`transcripts.format`)."""

    format: str
    view: ViewPath | None = None

    @cached_property
    def markers(self) -> tuple[bytes, ...]:
        """Bytes one of which every line holding a use contains."""
        return (*MARKERS, self.view.name.encode()) if self.view is not None else MARKERS

    def marks(self, data: bytes) -> list[int]:
        """Where a marker begins in `data`, ascending: a reader looks only into the lines holding
        one (a search per marker over a whole window is several times cheaper than one per line)."""
        if self.format not in DETECTORS:
            return []
        found: list[int] = []
        for marker in self.markers:
            at = data.find(marker)
            while at >= 0:
                found.append(at)
                at = data.find(marker, at + len(marker))
        return sorted(found)

    def line(self, raw: bytes) -> tuple[Signal, ...]:
        """The uses one line shows (none for a line it cannot parse, or in a format with no detector)."""
        detect = DETECTORS.get(self.format)
        if detect is None or not any(marker in raw for marker in self.markers):
            return ()
        obj = load_object(raw)
        return () if isinstance(obj, Malformed) else tuple(detect(obj, self.view))

    def row(self, row: RawJson) -> tuple[Signal, ...]:
        """The uses one Hermes `messages` row shows."""
        text = "".join(v for c in HERMES_COLUMNS if isinstance(v := row.get(c), str)).encode(
            "utf-8", "replace"
        )
        if not any(marker in text for marker in self.markers):
            return ()
        return tuple(hermes(row, self.view))


def probe_for(fmt: str, view: str | bool | None) -> UsageProbe:
    """The probe for transcripts in `fmt`, the agent's facts view home-relative at `view` (None: no view)."""
    rel = str(PurePosixPath(view)) if isinstance(view, str) and view else None
    return UsageProbe(fmt, ViewPath(rel) if rel else None)


def session_of(source: str) -> str:
    """The session a source key names: a database's `<db>#<session>`, Codex's `codex-session:<uuid>`,
    else the transcript's file name without its suffix (Claude Code and OpenClaw name a file by its session)."""
    if "#" in source:
        return source.rsplit("#", 1)[1]
    if source.startswith("codex-session:"):
        return source.removeprefix("codex-session:")
    return PurePosixPath(source).stem


def session_usage(
    source: str, fingerprint: str, end: int, found: Sequence[Found], turns: Sequence[Turn]
) -> tuple[SessionUsage, ...]:
    """What a read consumed of the session `source`: its `turns`, and the uses `found` before `end`.

    Empty when the read consumed no turn and no use of it (nothing to count, no session seen).
    """
    session = session_of(source)
    events = tuple(
        UsageEvent(s.kind, s.skill, session, f.turn, s.ts, f.position)
        for f in found
        if f.position < end
        for s in f.signals
    )
    if not events and not turns:
        return ()
    # Turns come in the order they were written: the first one's time is the session's earliest.
    first = next((utc_stamp(t.ts) for t in turns if t.ts), None)
    stamps = [s for s in (first, *(e.ts for e in events)) if s]
    return (SessionUsage(source, session, fingerprint, end, events, min(stamps, default=None)),)


def line_fingerprint(first_line: bytes) -> str:
    """What tells a transcript from another file at the same path: a hash of its first line
    (at most FIRST_LINE_BYTES of it). A file only appended to keeps it, a copy or a move to
    another disk keeps it, a file put in its place (even on a reused inode) does not."""
    return "line:" + hashlib.sha256(first_line[:FIRST_LINE_BYTES]).hexdigest()[:16]


def database_fingerprint(identity: tuple[int, int]) -> str:
    """What tells a runtime's database from another at the same path: its device and inode."""
    return f"db:{identity[0]}:{identity[1]}"


@dataclass
class UsageLog:
    """Every session usage the passes of one run read; the runner records them before its commit."""

    reads: list[SessionUsage] = field(default_factory=list)

    def add(self, usage: Iterable[SessionUsage]) -> None:
        self.reads.extend(usage)
