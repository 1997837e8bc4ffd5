"""Where reading a transcript starts again, given its stored cursor (docs/explanation/transcripts.md).

A cursor records the offset, the file's identity (device, inode), a hash of its first KiB
(`head`) and a hash of the up-to-64 bytes ending at the offset (`tail`; for a committed
cursor they end with a newline). On the next read:

- a new identity, or a changed head: the file was replaced or rewritten from the top;
  it is read again from the start, with a warning;
- same head, and the tail still matches at the offset: reading goes on from the offset;
- same head, tail changed (an earlier line rewritten in place, a redaction that made it
  shorter or longer, perhaps with turns appended since): the offset no longer marks where
  reading stopped. The reader looks for the old tail at every line start within
  `max_read_bytes` of the offset and goes on from the earliest match, with a warning.
  A line start ending with the old tail is where the analysed bytes ended, so what follows
  it is exactly the lines appended since: nothing is analysed twice, and no new line —
  above all no new user message — is skipped, however much shorter or longer the rewrite
  made the file. Sixty-four bytes are not always unique (a session's closing lines repeat
  in the next session appended): with several matches the reader cannot tell which one
  is the true end, and the earliest is the safe side — the true end is one of them, so
  lines may be analysed again but none is skipped, and the warning says so. Seeking from
  the old offset to the next line boundary would be simpler but drops the first new line
  whenever the rewrite shortened the file.
- the old tail is nowhere to be found (the last analysed lines were rewritten too) or the
  file shrank below the offset with a cursor that has no tail: read again from the start,
  with a warning. Analysing a turn twice is the lesser harm; dropping one is silent.

A cursor written before tails existed has none: it is trusted at its offset as before
(identity, size and head checks only), and the next advance writes one.

A cursor inside a line longer than the read window (`skipping_from` set) is checked the same
way; its tail holds no newline, so it matches no line start: if it changed, the file is read
again from the start.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from daemon.kernel.changeset import Cursor
from daemon.transcripts.files import open_transcript

HEAD_BYTES = 1024
TAIL_BYTES = 64


@dataclass(frozen=True)
class Start:
    """Where to read from; `moved` when the stored cursor must be rewritten even if nothing is read."""

    offset: int
    warning: str | None = None
    moved: bool = False


def hashes(path: Path, offset: int) -> tuple[str, str]:
    """`head` and `tail` of the file at `path` for a cursor at `offset` (one open)."""
    with open_transcript(path) as fh:
        head = hashlib.sha256(fh.read(min(offset, HEAD_BYTES))).hexdigest()
        start = max(0, offset - TAIL_BYTES)
        fh.seek(start)
        tail = hashlib.sha256(fh.read(offset - start)).hexdigest()
    return head, tail


def cursor_at(
    path: Path, offset: int, identity: tuple[int, int], skipping_from: int | None = None
) -> Cursor:
    """The cursor for `offset` in the file at `path` (identity as `os.lstat` gave it).

    `skipping_from`: `offset` is inside the overlong line starting there, being skipped.
    """
    head, tail = hashes(path, offset)
    return Cursor(
        offset=offset, dev=identity[0], ino=identity[1], head=head, tail=tail, skipping_from=skipping_from
    )


def relocate(path: Path, tail: str, offset: int, size: int, radius: int) -> list[int]:
    """Every line start within `radius` of `offset` whose preceding TAIL_BYTES hash to `tail`, ascending."""
    if offset < TAIL_BYTES:
        return []  # the whole prefix is the head: a changed tail there is a changed head
    low = max(TAIL_BYTES, offset - radius)
    high = min(size, offset + radius)
    if high < low:
        return []
    base = low - TAIL_BYTES
    with open_transcript(path) as fh:
        fh.seek(base)
        data = fh.read(high - base)
    found: list[int] = []
    index = data.find(b"\n", TAIL_BYTES - 1)
    while index >= 0:
        end = index + 1  # a line start, as an index into data
        if hashlib.sha256(data[end - TAIL_BYTES : end]).hexdigest() == tail:
            found.append(base + end)
        index = data.find(b"\n", end)
    return found


def start_of(path: Path, rel: str, prior: Cursor | None, st: os.stat_result, radius: int) -> Start:
    """Where to read `rel` (at `path`, as `st` describes it) from, given its stored cursor."""
    if prior is None:
        return Start(0)
    if (prior.dev, prior.ino) != (st.st_dev, st.st_ino):
        return Start(
            0, f"{rel}: transcript was replaced (new file identity); reading it again from the start", True
        )
    size = st.st_size
    head, tail = hashes(path, prior.offset)
    head_same = head == prior.head
    if head_same and size >= prior.offset and prior.tail in (None, tail):
        return Start(prior.offset)
    if head_same and prior.tail is not None:
        found = relocate(path, prior.tail, prior.offset, size, radius)
        if len(found) == 1:
            return Start(
                found[0],
                f"{rel}: transcript was rewritten before the cursor (the bytes before offset "
                f"{prior.offset} changed); the end of what was analysed is now at offset {found[0]}, "
                "reading on from there",
                True,
            )
        if found:
            return Start(
                found[0],
                f"{rel}: transcript was rewritten before the cursor (the bytes before offset "
                f"{prior.offset} changed); the end of what was analysed matches {len(found)} places "
                f"(offsets {', '.join(map(str, found))}), reading on from the earliest, so some turns "
                "may be analysed again",
                True,
            )
    if size < prior.offset:
        why = f"transcript shrank below the cursor ({size} < {prior.offset} bytes)"
    elif not head_same:
        why = "transcript was rewritten (its head changed)"
    else:
        why = "transcript was rewritten before the cursor and the end of what was analysed is not found"
    return Start(0, f"{rel}: {why}; reading it again from the start", True)
