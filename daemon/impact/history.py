"""An agent's whole history as its transcripts hold it: every session's messages in order,
and what the agent used in them (read-only; docs/explanation/impact.md).

Read through the same adapters and reader as the passes (`daemon.transcripts.reader`,
whatever `transcripts.format` says), from the start of every session, window after window,
with cursors kept in memory: no cursor file is read or written, nothing on disk changes.
The usage probe of the agent (`source_of`) finds the deliveries in the same read: the facts
view read, the hook's context given, a skill opened (`daemon.transcripts.usage_signals`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property

from daemon.kernel.changeset import Cursor
from daemon.text.language import Language, detect
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import read_new_turns
from daemon.transcripts.usage import UsageEvent

CONSUMER = "impact"
SAMPLE_CHARS = 1000  # of a session's user text, to tell its language
# Windows read per session at most: a bound on one command's work, far beyond any real session
# (each window is `max_read_bytes`, 4 MiB by default).
MAX_WINDOWS = 10_000


@dataclass(frozen=True)
class Said:
    """One message of a session: its position (from 1, every role counted), role, text, time,
    the reference of the turn holding it (`<file>@<offset>`, what a fact cites) and the tools
    an assistant message called (the runtime adapter's summary)."""

    index: int
    role: str
    text: str
    ts: str | None
    turn_ref: str
    tools: tuple[str, ...] = ()


@dataclass(frozen=True)
class Session:
    id: str  # the transcript's path under the transcript root (a database's `<db>#<session>`)
    messages: tuple[Said, ...]

    @property
    def started(self) -> str | None:
        return next((m.ts for m in self.messages if m.ts), None)

    @cached_property
    def language(self) -> Language | None:
        """The language of the person's messages (told once, from their first SAMPLE_CHARS)."""
        return session_language(m.text for m in self.messages if m.role == "user")


@dataclass(frozen=True)
class History:
    sessions: tuple[Session, ...]
    deliveries: tuple[UsageEvent, ...]  # in the order read
    warnings: tuple[str, ...]


def session_language(texts: Iterable[str]) -> Language | None:
    """The language of a session's user messages, told from their first SAMPLE_CHARS."""
    sample = ""
    for text in texts:
        sample += " " + text
        if len(sample) >= SAMPLE_CHARS:
            break
    sample = sample[:SAMPLE_CHARS]
    return detect([sample]) if sample.strip() else None


def read_history(source: TranscriptSource, now: datetime) -> History:
    """Every complete turn of every session of `source`, and the uses the probe finds in them."""
    cursors: dict[str, Cursor] = {}
    said: dict[str, list[Said]] = defaultdict(list)
    deliveries: list[UsageEvent] = []
    warnings: list[str] = []
    for _ in range(MAX_WINDOWS):
        batch = read_new_turns(source, cursors, CONSUMER, now)
        warnings.extend(w for w in batch.warnings if w not in warnings)
        for turn in batch.turns:
            messages = said[turn.file]
            for message in turn.messages:
                messages.append(
                    Said(len(messages) + 1, message.role, message.content, message.ts, turn.ref, message.tools)
                )
        for usage in batch.usage:
            deliveries.extend(usage.events)
        advances = batch.advances
        if not advances or all(cursors.get(a.file) == a.cursor for a in advances):
            break
        for advance in advances:
            cursors[advance.file] = advance.cursor
    sessions = [Session(name, tuple(messages)) for name, messages in said.items()]
    sessions.sort(key=lambda s: (s.started or "", s.id))
    return History(tuple(sessions), tuple(deliveries), tuple(warnings))
