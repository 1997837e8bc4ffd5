"""What one read of an agent's transcripts found: per file its turns, cursor advance and
what was skipped, plus the sessions set aside as another project's (docs/explanation/transcripts.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from daemon.kernel.changeset import CursorAdvance
from daemon.transcripts import guards
from daemon.transcripts.binding import SetAside
from daemon.transcripts.files import resolve_inside
from daemon.transcripts.reads import FileRead, Held
from daemon.transcripts.resume import cursor_at
from daemon.transcripts.usage import SessionUsage
from daemon.transcripts.window import Turn


@dataclass(frozen=True)
class TurnBatch:
    consumer: str
    files: tuple[FileRead, ...]
    listing_warnings: tuple[str, ...] = ()
    # Sessions of another project or profile, never read (`daemon.transcripts.binding`).
    set_aside: tuple[SetAside, ...] = ()

    @property
    def turns(self) -> tuple[Turn, ...]:
        return tuple(t for f in self.files for t in f.turns)

    @property
    def advances(self) -> tuple[CursorAdvance, ...]:
        return tuple(f.advance for f in self.files if f.advance is not None)

    @property
    def usage(self) -> tuple[SessionUsage, ...]:
        """What the agent used in what this read consumed, per session (`daemon.transcripts.usage`)."""
        return tuple(u for f in self.files for u in f.usage)

    @property
    def skipped(self) -> dict[str, int]:
        """How many lines or blocks each precision guard skipped, over every file."""
        return guards.merged(f.skipped for f in self.files)

    @property
    def unknown(self) -> dict[str, int]:
        """How many lines of each kind the adapter does not know were read, over every file."""
        return guards.merged(f.unknown for f in self.files)

    @property
    def warnings(self) -> tuple[str, ...]:
        """Every file's warnings, then what the precision guards skipped (in the run report)."""
        skipped = guards.summary(self.skipped)
        note = (f"skipped by precision guards: {skipped}",) if skipped else ()
        return self.listing_warnings + tuple(w for f in self.files for w in f.warnings) + note

    @property
    def window_cut(self) -> bool:
        """Whether a turn longer than the read window was cut (it is analysed even alone)."""
        return any(f.window_cut and f.turns for f in self.files)

    @property
    def held(self) -> tuple[Held, ...]:
        return tuple(f.held for f in self.files if f.held is not None)

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
            if read.cut is not None:
                advance = read.cut(read.turns[left])
            else:
                advance = _advance_to(self.consumer, read, read.turns[left].start, root)
            kept.append(replace(read, turns=read.turns[:left], advance=advance))
            left = 0
        return TurnBatch(self.consumer, tuple(kept), self.listing_warnings, self.set_aside)


def _advance_to(consumer: str, read: FileRead, offset: int, root: Path) -> CursorAdvance | None:
    if offset == read.origin and read.advance is None:
        return None
    cursor = cursor_at(resolve_inside(root, read.file), offset, read.identity)
    return CursorAdvance(consumer=consumer, file=read.key or read.file, cursor=cursor)


def kinds_summary(counts: dict[str, int], limit: int = 0) -> str:
    """`3 last-prompt, 1 system:turn_duration` (most first), the first `limit` kinds if set, or ""."""
    items = sorted(((n, kind) for kind, n in counts.items() if n), key=lambda item: (-item[0], item[1]))
    shown = items[:limit] if limit else items
    more = f", {len(items) - len(shown)} more kind(s)" if len(shown) < len(items) else ""
    return ", ".join(f"{n} {kind}" for n, kind in shown) + more
