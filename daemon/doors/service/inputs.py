"""Cheap questions about an agent's transcripts, asked before waking or running a job.

The byte offsets in the cursor file are the truth; file-system events only say "look".
`has_new_input` costs one `stat` per transcript (and, for a file no cursor knows, the look
that tells whether it is another project's session: a Codex rollout's first lines), so an
idle cycle over a thousand agents costs no git, no model and no run. `pending_turns` reads the new bytes and counts the
complete turns, which decides whether an early wake is worth a run.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime

from daemon.kernel.paths import AgentState
from daemon.kernel.settings import AgentSettings
from daemon.transcripts import cursors
from daemon.transcripts.binding import set_aside
from daemon.transcripts.files import TranscriptSource, list_transcripts, resolve_inside, source_of
from daemon.transcripts.formats import line_format
from daemon.transcripts.reader import read_new_turns


def has_new_input(agent: AgentSettings, state: AgentState, consumers: Sequence[str]) -> bool:
    """True if a run of these consumers could read something (or must recover a run).

    Any transcript whose size or identity differs from a consumer's cursor counts, as
    does a transcript a consumer has never read — unless it is a session of another
    project or profile, which is never read (`daemon.transcripts.binding`) — and an
    interrupted run's journal.
    """
    if state.journal.exists():
        return True
    cursor_file = cursors.load(state.cursors)
    source = source_of(agent)
    key_of = line_format(agent.transcripts.format).cursor_key
    files, _warnings = list_transcripts(source)
    for rel in files:
        try:
            st = os.lstat(resolve_inside(agent.transcript_root, rel))
        except OSError:
            continue
        for consumer in consumers:
            cursor = cursors.for_consumer(cursor_file, consumer).get(key_of(rel))
            if cursor is None:
                if st.st_size > 0 and not _set_aside(source, rel):
                    return True
                continue
            if cursor.offset != st.st_size or (cursor.dev, cursor.ino) != (st.st_dev, st.st_ino):
                return True
    return False


def _set_aside(source: TranscriptSource, rel: str) -> bool:
    try:
        return set_aside(source, rel) is not None
    except OSError:
        return False  # unreadable now: the run says why


def pending_turns(agent: AgentSettings, state: AgentState, consumer: str, now: datetime) -> int:
    """Complete turns waiting for `consumer` (bounded by the transcript read limits)."""
    cursor_file = cursors.load(state.cursors)
    batch = read_new_turns(source_of(agent), cursors.for_consumer(cursor_file, consumer), consumer, now)
    return len(batch.turns)
