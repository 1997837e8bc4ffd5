"""One transcript source's read: its new turns, where its cursor goes, what was skipped.

Shared by the file reader (`daemon.transcripts.reader`) and the database reader
(`daemon.transcripts.sqlite_common`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from daemon.kernel.changeset import CursorAdvance
from daemon.transcripts.usage import SessionUsage
from daemon.transcripts.window import Turn


@dataclass(frozen=True)
class Held:
    """A transcript not consumed because its lines are not in the configured format."""

    file: str
    reason: str


@dataclass(frozen=True)
class FileRead:
    file: str
    turns: tuple[Turn, ...]
    advance: CursorAdvance | None
    warnings: tuple[str, ...]
    identity: tuple[int, int]
    origin: int  # the offset reading started from
    held: Held | None = None
    # The cursor's key when it is not the path (a session id, for files that move).
    key: str = ""
    # Lines and blocks each precision guard skipped (transcript_guards).
    skipped: Mapping[str, int] = field(default_factory=dict)
    # Where the cursor stops to leave out the turn given (SQLite sources); None: byte offsets.
    cut: Callable[[Turn], CursorAdvance | None] | None = None
    # A turn longer than the read window was cut at the window's end: it comes alone, and
    # is analysed even under the 4-turn rule (else a cut turn would never be analysed).
    window_cut: bool = False
    # Lines of each kind the adapter does not know (Skipped.unknown), read and not analysed.
    unknown: Mapping[str, int] = field(default_factory=dict)
    # What the agent used in what this read consumed, per session (`daemon.transcripts.usage`).
    usage: tuple[SessionUsage, ...] = ()
