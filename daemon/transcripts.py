"""Reading transcripts by byte offset into turns (SPEC §3.2).

Transcripts are append-only JSON Lines: `{"role": "user"|"assistant"|"tool"|"system",
"content": ..., "ts": ...}` per line, and optionally `{"type": "session_end"}` when a
session closes. A turn is a user message and everything up to the next user message.

Rules kept here:
- only complete lines are read; a half-written last line waits;
- the cursor never splits a turn: it stops at the start of the first turn that is not
  complete yet; the trailing turn of a file is complete once the file has been idle for
  `turn_idle_seconds` or a `session_end` line follows it;
- a file that shrank below the offset, has a new identity (device, inode) or a different
  head is read again from the start, with a warning;
- malformed lines (bad JSON, invalid UTF-8, unknown role, over `max_line_bytes`) are
  skipped with a warning naming the file and offset.

Which files are read, relative to the agent's transcript root, is `daemon.transcript_files`:
never through a symlink out of the root, never a managed path of the agent.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import BinaryIO

from daemon.changeset import Cursor, CursorAdvance
from daemon.config.models import TranscriptSettings
from daemon.transcript_files import OutsideRoot, TranscriptSource, list_transcripts, resolve_inside
from daemon.transcript_lines import Message, parse_line

MIN_NEW_TURNS = 4
HEAD_BYTES = 1024
SCAN_CHUNK = 1024 * 1024


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
class FileRead:
    file: str
    turns: tuple[Turn, ...]
    advance: CursorAdvance | None
    warnings: tuple[str, ...]
    identity: tuple[int, int]
    origin: int  # the offset reading started from


@dataclass(frozen=True)
class TurnBatch:
    consumer: str
    files: tuple[FileRead, ...]
    listing_warnings: tuple[str, ...] = ()

    @property
    def turns(self) -> tuple[Turn, ...]:
        return tuple(t for f in self.files for t in f.turns)

    @property
    def advances(self) -> tuple[CursorAdvance, ...]:
        return tuple(f.advance for f in self.files if f.advance is not None)

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.listing_warnings + tuple(w for f in self.files for w in f.warnings)

    def take(self, count: int, root: Path) -> TurnBatch:
        """The first `count` turns; each file's cursor stops at the start of its first turn left out.

        Files whose turns all fit keep their full advance (past trailing malformed lines
        and the like); a file none of whose turns fit keeps none of its turns, and its
        cursor stays where it was.
        """
        kept: list[FileRead] = []
        left = count
        for read in self.files:
            if left >= len(read.turns):
                kept.append(read)
                left -= len(read.turns)
                continue
            stop = read.turns[left].start
            advance = _advance_to(self.consumer, read, stop, root)
            kept.append(replace(read, turns=read.turns[:left], advance=advance))
            left = 0
        return TurnBatch(self.consumer, tuple(kept), self.listing_warnings)


def _open(path: Path) -> BinaryIO:
    """Open for reading; a symlink swapped in since `resolve_inside` checked the path fails (ELOOP)."""
    return os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW), "rb")


def _head_hash(path: Path, offset: int) -> str:
    with _open(path) as fh:
        return hashlib.sha256(fh.read(min(offset, HEAD_BYTES))).hexdigest()


def _advance_to(consumer: str, read: FileRead, offset: int, root: Path) -> CursorAdvance | None:
    if offset == read.origin and read.advance is None:
        return None
    dev, ino = read.identity
    cursor = Cursor(offset=offset, dev=dev, ino=ino, head=_head_hash(resolve_inside(root, read.file), offset))
    return CursorAdvance(consumer=consumer, file=read.file, cursor=cursor)


def _skip_long_line(path: Path, start: int, size: int) -> int | None:
    """Offset just past the newline ending the line that starts at `start`, or None."""
    with _open(path) as fh:
        fh.seek(start)
        position = start
        while position < size:
            chunk = fh.read(SCAN_CHUNK)
            if not chunk:
                return None
            index = chunk.find(b"\n")
            if index >= 0:
                return position + index + 1
            position += len(chunk)
    return None


def read_file(
    root: Path, rel: str, prior: Cursor | None, consumer: str, settings: TranscriptSettings, now: datetime
) -> FileRead:
    """Read the new complete turns of the transcript `rel` (relative to `root`) after its cursor.

    Raises OutsideRoot if the file is a symlink or resolves outside `root` (nothing is read).
    """
    path = resolve_inside(root, rel)
    st = os.lstat(path)
    identity = (st.st_dev, st.st_ino)
    warnings: list[str] = []
    offset = 0
    if prior is not None:
        if (prior.dev, prior.ino) != identity:
            warnings.append(
                f"{rel}: transcript was replaced (new file identity); reading it again from the start"
            )
        elif st.st_size < prior.offset:
            warnings.append(
                f"{rel}: transcript shrank below the cursor ({st.st_size} < {prior.offset} bytes); "
                "reading it again from the start"
            )
        elif _head_hash(path, prior.offset) != prior.head:
            warnings.append(
                f"{rel}: transcript was rewritten (its head changed); reading it again from the start"
            )
        else:
            offset = prior.offset
    origin = offset
    reset = prior is not None and offset == 0 and prior.offset != 0
    available = st.st_size - offset
    if available <= 0:
        advance = None
        if reset or (prior is not None and (prior.dev, prior.ino) != identity):
            advance = CursorAdvance(
                consumer=consumer,
                file=rel,
                cursor=Cursor(offset=0, dev=identity[0], ino=identity[1], head=_head_hash(path, 0)),
            )
        return FileRead(rel, (), advance, tuple(warnings), identity, origin)

    with _open(path) as fh:
        fh.seek(offset)
        window = fh.read(min(available, settings.max_read_bytes))

    turns: list[Turn] = []
    current: list[Message] = []
    current_start = offset
    session_ended = False
    position = 0
    consumed_end = offset  # end of the last complete line looked at
    while position < len(window):
        newline = window.find(b"\n", position)
        line_start = offset + position
        if newline < 0:
            if position == 0 and len(window) == settings.max_read_bytes:
                # One line longer than the whole read window: skip it once it is complete.
                end = _skip_long_line(path, line_start, st.st_size)
                if end is not None:
                    warnings.append(
                        f"{rel}: skipped a line at offset {line_start}: longer than the read window"
                    )
                    consumed_end = end
            break
        raw = window[position:newline]
        position = newline + 1
        consumed_end = offset + position
        if len(raw) > settings.max_line_bytes:
            warnings.append(
                f"{rel}: skipped a line at offset {line_start}: {len(raw)} bytes, over max_line_bytes"
            )
            continue
        if not raw.strip():
            continue
        parsed = parse_line(raw)
        if parsed is None:
            warnings.append(f"{rel}: skipped a malformed line at offset {line_start}")
            continue
        if parsed == "session_end":
            session_ended = True
            continue
        assert isinstance(parsed, Message)
        message = replace(parsed, offset=line_start)
        if message.role == "user" and current:
            turns.append(Turn(rel, current_start, line_start, tuple(current)))
            current = []
        if not current:
            current_start = line_start
            session_ended = False
        current.append(message)

    reached_eof = offset + len(window) >= st.st_size
    idle = (now.timestamp() - st.st_mtime) >= settings.turn_idle_seconds
    if current:
        if session_ended or (reached_eof and idle):
            turns.append(Turn(rel, current_start, consumed_end, tuple(current)))
            stop = consumed_end
        else:
            stop = current_start
    else:
        stop = consumed_end
    advance = None
    if stop != offset or reset:
        cursor = Cursor(offset=stop, dev=identity[0], ino=identity[1], head=_head_hash(path, stop))
        advance = CursorAdvance(consumer=consumer, file=rel, cursor=cursor)
    return FileRead(rel, tuple(turns), advance, tuple(warnings), identity, origin)


def read_new_turns(
    source: TranscriptSource, cursors: Mapping[str, Cursor], consumer: str, now: datetime
) -> TurnBatch:
    """Every transcript's new complete turns for `consumer` (files as `list_transcripts` finds them)."""
    files, warnings = list_transcripts(source)
    reads: list[FileRead] = []
    for rel in files:
        try:
            reads.append(read_file(source.root, rel, cursors.get(rel), consumer, source.settings, now))
        except OutsideRoot as exc:
            warnings.append(str(exc))
        except OSError as exc:
            warnings.append(f"{rel}: unreadable transcript: {exc.strerror or exc}")
    return TurnBatch(consumer, tuple(reads), tuple(warnings))


def pending_turns(source: TranscriptSource, cursors: Mapping[str, Cursor], now: datetime) -> int:
    """How many complete turns wait for a consumer (for `status`)."""
    return len(read_new_turns(source, cursors, "status", now).turns)
