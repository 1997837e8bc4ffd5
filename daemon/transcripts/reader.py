"""Reading transcripts by byte offset into turns (docs/explanation/transcripts.md).

Transcripts are append-only JSON Lines: `{"role": "user"|"assistant"|"tool"|"system",
"content": ..., "ts": ...}` per line, and optionally `{"type": "session_end"}` when a
session closes. A turn is a user message and everything up to the next user message.

Rules kept here:
- only complete lines are read; a half-written last line waits — unless it is longer than
  the whole read window: it is skipped, looked through for its end one window per pass (the
  cursor, `skipping_from` set, marks how far), with a warning naming the file, its offset
  and, once it ends, its size. So no pass reads more than `max_read_bytes` of a file;
- the cursor never splits a turn: it stops at the start of the first turn that is not
  complete yet; the trailing turn of a file is complete once the file has been idle for
  `turn_idle_seconds` or a `session_end` line follows it. Two exceptions, so that no input
  stalls a transcript forever: a turn longer than the whole read window (`max_read_bytes`)
  is cut at the window's last complete line, and `TurnBatch.limited` cuts a first turn
  that alone is heavier than the model may be sent at a message boundary; the rest is read
  next time as a turn of its own;
- where reading starts again — the cursor's offset, a re-synchronised offset after an
  in-place rewrite, or the start of a replaced file — is `daemon.transcripts.resume`;
- malformed lines (`daemon.transcripts.lines`: bad JSON, invalid UTF-8, nesting past 32
  levels, a lone surrogate, unknown role; or over `max_line_bytes`) are skipped with a
  warning naming the file, the offset and why;
- a file in another format is held, not consumed: when at least HOLD_MIN_LINES of the
  complete lines in the window, and at least HOLD_SHARE of them, are malformed, the read
  yields no turns, its cursor does not move, and one warning names the file and the
  format expected. Once the file or the config is fixed, reading resumes from the cursor.

Which files are read, relative to the agent's transcript root, is `daemon.transcripts.files`:
never through a symlink out of the root, never a managed path of the agent.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime
from pathlib import Path

from daemon.kernel.changeset import Cursor, CursorAdvance
from daemon.kernel.settings import TranscriptSettings
from daemon.transcripts import guards
from daemon.transcripts.batch import TurnBatch
from daemon.transcripts.binding import SetAside, set_aside
from daemon.transcripts.files import (
    OutsideRoot,
    TranscriptSource,
    list_transcripts,
    open_transcript,
    resolve_inside,
)
from daemon.transcripts.formats import LineFormat, is_database, line_format
from daemon.transcripts.reads import FileRead, Held
from daemon.transcripts.resume import cursor_at, start_of
from daemon.transcripts.usage import (
    FIRST_LINE_BYTES,
    SessionUsage,
    UsageProbe,
    line_fingerprint,
    session_usage,
)
from daemon.transcripts.window import Scan, Turn, scan_window

__all__ = [
    "MIN_NEW_TURNS",
    "FileRead",
    "Held",
    "Turn",
    "TurnBatch",
    "pending_turns",
    "read_file",
    "read_new_turns",
]

MIN_NEW_TURNS = 4
HOLD_MIN_LINES = 5
HOLD_SHARE = 0.9


def _looked_through(rel: str, line: int, end: int) -> str:
    return (
        f"{rel}: skipping the line at offset {line}: longer than the read window (max_read_bytes), "
        f"no end in its first {end - line} bytes; looking on from offset {end} next pass"
    )


def _held(
    rel: str, lines: int, malformed: int, agent: str, settings: TranscriptSettings, fmt: LineFormat
) -> Held | None:
    if malformed < HOLD_MIN_LINES or malformed < HOLD_SHARE * lines:
        return None
    key = f"agents.{agent}.transcripts.format" if agent else "transcripts.format"
    return Held(
        rel,
        f"{malformed} of {lines} lines read are not in the configured format ({key}: {settings.format}, "
        f"{fmt.expected}); not consumed, its cursor kept until the file or the config is fixed",
    )


def read_file(
    root: Path,
    rel: str,
    prior: Cursor | None,
    consumer: str,
    settings: TranscriptSettings,
    now: datetime,
    agent: str = "",
    probe: UsageProbe | None = None,
) -> FileRead:
    """Read the new complete turns of the transcript `rel` (relative to `root`) after its cursor.

    Lines are read in `settings.format` (a runtime's own format counts what its precision
    guards skip) and, with a `probe`, looked through for what the agent used: the uses in
    the lines the read consumes are its `usage`. Raises OutsideRoot if the file is a
    symlink or resolves outside `root` (nothing is read).
    """
    fmt = line_format(settings.format)
    key = fmt.cursor_key(rel)
    path = resolve_inside(root, rel)
    st = os.lstat(path)
    identity = (st.st_dev, st.st_ino)
    whole = fmt.skip_file(path, rel, settings.subagents)
    if whole is not None:
        # Skipped whole: its cursor goes to the end so it is counted once, not every run.
        moved = prior is None or (prior.offset, prior.dev, prior.ino) != (st.st_size, *identity)
        to_end = CursorAdvance(consumer=consumer, file=key, cursor=cursor_at(path, st.st_size, identity))
        counted = {whole: 1} if prior is None else {}
        return FileRead(rel, (), to_end if moved else None, (), identity, 0, key=key, skipped=counted)
    start = start_of(path, rel, prior, st, settings.max_read_bytes)
    origin = offset = start.offset
    warnings = [start.warning] if start.warning else []
    # Inside an overlong line being skipped, unless the cursor was reset or relocated.
    skipping = prior.skipping_from if prior is not None and not start.moved else None

    def advance(stop: int, skipping_from: int | None = None) -> CursorAdvance | None:
        if stop == origin and not start.moved:
            return None
        cursor = cursor_at(path, stop, identity, skipping_from)
        return CursorAdvance(consumer=consumer, file=key, cursor=cursor)

    available = st.st_size - offset
    if available <= 0:
        return FileRead(rel, (), advance(offset, skipping), tuple(warnings), identity, origin, key=key)
    with open_transcript(path) as fh:
        fh.seek(offset)
        window = fh.read(min(available, settings.max_read_bytes))
    if skipping is not None:
        newline = window.find(b"\n")
        if newline < 0:
            end = offset + len(window)
            warnings.append(_looked_through(rel, skipping, end))
            return FileRead(rel, (), advance(end, skipping), tuple(warnings), identity, origin, key=key)
        # The overlong line ends in this window: skipped whole, the rest of the window is read.
        offset += newline + 1
        window = window[newline + 1 :]
        warnings.append(
            f"{rel}: skipped a line at offset {skipping}: {offset - skipping} bytes, "
            "longer than the read window (max_read_bytes)"
        )
    parse = fmt.parser(rel, settings.subagents)
    scan = scan_window(rel, window, offset, settings.max_line_bytes, parse, probe)
    held = _held(rel, scan.lines, scan.malformed, agent, settings, fmt)
    if held is not None:
        return FileRead(
            rel, (), None, (*warnings, f"{rel}: held, not read: {held.reason}"), identity, origin, held, key
        )
    warnings.extend(scan.warnings)
    full_window = len(window) == settings.max_read_bytes and offset + len(window) < st.st_size
    consumed_end = scan.consumed_end
    if scan.partial and consumed_end == offset and full_window:
        # One line longer than the whole read window: it is skipped. Looking for its end at
        # once could read the whole file (an unfinished line of gigabytes, every pass); the
        # cursor moves into the line instead, and the next pass looks on from there.
        end = offset + len(window)
        warnings.append(_looked_through(rel, offset, end))
        return FileRead(rel, (), advance(end, offset), tuple(warnings), identity, origin, key=key)
    turns = list(scan.turns)
    stop = consumed_end
    window_cut = False
    if scan.open_turn:
        # A half-written last line may belong to the open turn: it waits, and so does the turn.
        reached_eof = offset + len(window) >= st.st_size and not scan.partial
        idle = (now.timestamp() - st.st_mtime) >= settings.turn_idle_seconds
        if scan.session_ended or (reached_eof and idle):
            turns.append(Turn(rel, scan.open_start, consumed_end, tuple(scan.open_turn)))
        elif not turns and scan.open_start == offset and full_window:
            # The turn fills the whole window and can never complete inside one: cut it here.
            turns.append(Turn(rel, scan.open_start, consumed_end, tuple(scan.open_turn)))
            window_cut = True
            warnings.append(
                f"{rel}: the turn at offset {offset} is longer than the read window (max_read_bytes); "
                f"cut at offset {consumed_end}, the rest is read as a turn of its own"
            )
        else:
            stop = scan.open_start
    skipped = dict(scan.skipped)
    if fmt.runtime:
        turns = guards.without_heartbeats(turns, skipped)
    usage = _usage(path, key, window if offset == 0 else None, stop, scan, turns) if probe is not None else ()
    return FileRead(
        rel,
        tuple(turns),
        advance(stop),
        tuple(warnings),
        identity,
        origin,
        None,
        key,
        skipped,
        window_cut=window_cut,
        unknown=scan.unknown,
        usage=usage,
    )


def _usage(
    path: Path, key: str, head: bytes | None, stop: int, scan: Scan, turns: list[Turn]
) -> tuple[SessionUsage, ...]:
    """What the agent used in the lines this read consumed (`head`: the file's first bytes, if read)."""
    if not scan.found and not turns:
        return ()
    if head is None:
        with open_transcript(path) as fh:
            head = fh.read(FIRST_LINE_BYTES)
    first = head[: head.find(b"\n") + 1] if b"\n" in head[:FIRST_LINE_BYTES] else head
    return session_usage(key, line_fingerprint(first), stop, scan.found, turns)


def read_new_turns(
    source: TranscriptSource, cursors: Mapping[str, Cursor], consumer: str, now: datetime
) -> TurnBatch:
    """Every transcript's new complete turns for `consumer` (files as `list_transcripts` finds them).

    A session of another project or profile is set aside unread (`daemon.transcripts.binding`).
    """
    files, warnings = list_transcripts(source)
    reads: list[FileRead] = []
    aside: list[SetAside] = []
    fmt = line_format(source.settings.format)
    keys: set[str] = set()
    for rel in files:
        try:
            other = set_aside(source, rel)
            if other is not None:
                aside.append(other)
                continue
            if is_database(source.settings.format, rel):
                # Imported here: a source of line files never loads sqlite3 and the database readers.
                from daemon.transcripts.databases import read_database

                reads.extend(read_database(source, rel, cursors, consumer, now))
                continue
            key = fmt.cursor_key(rel)
            if key in keys:
                warnings.append(f"{rel}: another file of the same session ({key}) was read; not read twice")
                continue
            keys.add(key)
            reads.append(
                read_file(
                    source.root, rel, cursors.get(key), consumer, source.settings, now, source.agent, source.probe
                )
            )
        except OutsideRoot as exc:
            warnings.append(str(exc))
        except OSError as exc:
            warnings.append(f"{rel}: unreadable transcript: {exc.strerror or exc}")
    return TurnBatch(consumer, tuple(reads), tuple(warnings), tuple(aside))


def pending_turns(source: TranscriptSource, cursors: Mapping[str, Cursor], now: datetime) -> int:
    """How many complete turns wait for a consumer."""
    return len(read_new_turns(source, cursors, "status", now).turns)


def read_turn_at(source: TranscriptSource, rel: str, start: int, end: int) -> Turn | None:
    """The turn of `rel` that spans bytes [start, end), read again (a person asked to retry it).

    None if the file is gone, outside its root, not this agent's (`daemon.transcripts.binding`),
    shorter than `end` now, or those bytes no longer hold a turn that starts at `start` (the
    file was replaced or rewritten).
    """
    try:
        if set_aside(source, rel) is not None:
            return None
        path = resolve_inside(source.root, rel)
        with open_transcript(path) as fh:
            fh.seek(start)
            window = fh.read(max(end - start, 0))
    except OSError:
        return None
    if len(window) != end - start or not window.endswith(b"\n"):
        return None
    parse = line_format(source.settings.format).parser(rel, source.settings.subagents)
    scan = scan_window(rel, window, start, source.settings.max_line_bytes, parse)
    turns = [
        *scan.turns,
        *([Turn(rel, scan.open_start, end, tuple(scan.open_turn))] if scan.open_turn else []),
    ]
    return turns[0] if len(turns) == 1 and turns[0].start == start else None
