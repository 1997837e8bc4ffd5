"""The bytes of one read window → turns: pure, no files (docs/explanation/transcripts.md).

A window holds whole lines from a line start (the cursor) on; its last line may be
half-written. A turn is a user message and everything up to the next user message; the
scan keeps the turn still open at the end of the window apart, for the reader to decide
whether it is complete (`daemon.transcripts.reader`). Malformed lines are skipped, each with a
warning naming the file, the offset and why, and counted, so the reader can tell a file
in another format from a few bad lines.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Protocol

from daemon.transcripts.lines import SESSION_END, Malformed, Message, Parsed, Skipped, parse_line
from daemon.transcripts.usage_signals import Signal

LineParser = Callable[[bytes, int], Parsed]


class LineProbe(Protocol):
    """Finds what the agent used in raw lines (`daemon.transcripts.usage.UsageProbe`)."""

    def marks(self, data: bytes) -> list[int]:
        """Where in `data` a line that may hold a use is (ascending offsets); no other line holds one."""
        ...

    def line(self, raw: bytes) -> tuple[Signal, ...]:
        """The uses the line `raw` shows."""
        ...


@dataclass(frozen=True)
class Turn:
    file: str
    start: int
    end: int
    messages: tuple[Message, ...]

    @property
    def ref(self) -> str:
        """Stable reference to this turn: `<file relative to the transcript root>@<byte offset>`."""
        return f"{self.file}@{self.start}"

    @property
    def ts(self) -> str | None:
        return next((m.ts for m in self.messages if m.ts), None)


@dataclass(frozen=True)
class Found:
    """Uses one line or row shows, where it is (byte offset, row id or seq) and the turn holding it."""

    position: int
    turn: str
    signals: tuple[Signal, ...]


@dataclass
class Scan:
    """What one window held. `open_turn` is the turn still open at its end (maybe complete)."""

    file: str
    turns: list[Turn] = field(default_factory=list)
    open_turn: list[Message] = field(default_factory=list)
    open_start: int = 0
    session_ended: bool = False
    consumed_end: int = 0  # end of the last complete line looked at
    partial: bool = False  # the window ends inside a line
    lines: int = 0  # non-blank complete lines judged on their format
    malformed: int = 0
    warnings: list[str] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)  # precision guard → lines or blocks
    unknown: dict[str, int] = field(default_factory=dict)  # kind of line the adapter does not know → lines
    found: list[Found] = field(default_factory=list)  # usage signals, in order

    def count(self, rule: str, times: int = 1) -> None:
        self.skipped[rule] = self.skipped.get(rule, 0) + times

    def skip(self, skipped: Skipped) -> None:
        """Count a line that is not analysed: under its guard, or its kind if the adapter does not know it."""
        if skipped.rule is not None:
            self.count(skipped.rule)
        if skipped.unknown is not None:
            self.unknown[skipped.unknown] = self.unknown.get(skipped.unknown, 0) + 1

    def add(self, message: Message) -> None:
        for rule in message.guarded:
            self.count(rule)
        last = self.open_turn[-1] if self.open_turn else None
        if message.part_of and last is not None and last.part_of == message.part_of:
            # One API message written over several lines: one message, its parts joined.
            joined = "\n".join(t for t in (last.content, message.content) if t)
            self.open_turn[-1] = replace(last, content=joined, tools=last.tools + message.tools)
            return
        if message.role == "user" and self.open_turn:
            self.turns.append(Turn(self.file, self.open_start, message.offset, tuple(self.open_turn)))
            self.open_turn = []
        if not self.open_turn:
            self.open_start = message.offset
            self.session_ended = False
        self.open_turn.append(message)

    def notice(self, position: int, signals: tuple[Signal, ...]) -> None:
        """Keep the uses the line or row at `position` shows, with the turn holding it (once it is read)."""
        if signals:
            turn = self.open_start if self.open_turn else position
            self.found.append(Found(position, f"{self.file}@{turn}", signals))


def scan_window(
    rel: str,
    window: bytes,
    offset: int,
    max_line_bytes: int,
    parse: LineParser = parse_line,
    probe: LineProbe | None = None,
) -> Scan:
    """The turns in `window`, the bytes of `rel` from `offset` on (a line start), lines read by `parse`
    and, when given, looked through by `probe` for uses (`Scan.found`)."""
    scan = Scan(rel, open_start=offset, consumed_end=offset)
    marks = probe.marks(window) if probe is not None else []
    next_mark = 0
    position = 0
    while position < len(window):
        newline = window.find(b"\n", position)
        if newline < 0:
            scan.partial = True
            break
        line_start = offset + position
        raw = window[position:newline]
        marked = False
        while next_mark < len(marks) and marks[next_mark] < newline:
            marked = marked or marks[next_mark] >= position
            next_mark += 1
        position = newline + 1
        scan.consumed_end = offset + position
        if len(raw) > max_line_bytes:
            scan.warnings.append(
                f"{rel}: skipped a line at offset {line_start}: {len(raw)} bytes, over max_line_bytes"
            )
            continue
        if not raw.strip():
            continue
        scan.lines += 1
        parsed = parse(raw, line_start)
        if isinstance(parsed, Skipped):
            scan.skip(parsed)
        elif isinstance(parsed, Malformed):
            scan.malformed += 1
            scan.warnings.append(f"{rel}: skipped a malformed line at offset {line_start}: {parsed.reason}")
        elif parsed == SESSION_END:
            scan.session_ended = True
        elif isinstance(parsed, Message):
            scan.add(parsed)
        if marked and probe is not None:
            scan.notice(line_start, probe.line(raw))
    return scan
