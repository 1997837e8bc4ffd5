"""Cheap questions about an agent's transcripts, asked before waking or running a job.

The byte offsets in the cursor file are the truth; file-system events only say "look".
`has_new_input` costs one `stat` per transcript, so an idle cycle over a thousand agents
costs no git, no model and no run. `pending_turns` reads the new bytes and counts the
complete turns, which decides whether an early wake is worth a run.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from datetime import datetime

from daemon.kernel.paths import AgentState
from daemon.kernel.settings import AgentSettings
from daemon.transcripts import cursors
from daemon.transcripts.files import list_transcripts, resolve_inside, source_of
from daemon.transcripts.reader import read_new_turns


def has_new_input(agent: AgentSettings, state: AgentState, consumers: Sequence[str]) -> bool:
    """True if a run of these consumers could read something (or must recover a run).

    Any transcript whose size or identity differs from a consumer's cursor counts, as
    does a transcript a consumer has never read, and an interrupted run's journal.
    """
    if state.journal.exists():
        return True
    cursor_file = cursors.load(state.cursors)
    files, _warnings = list_transcripts(source_of(agent))
    for rel in files:
        try:
            st = os.lstat(resolve_inside(agent.transcript_root, rel))
        except OSError:
            continue
        for consumer in consumers:
            cursor = cursors.for_consumer(cursor_file, consumer).get(rel)
            if cursor is None:
                if st.st_size > 0:
                    return True
                continue
            if cursor.offset != st.st_size or (cursor.dev, cursor.ino) != (st.st_dev, st.st_ino):
                return True
    return False


def pending_turns(agent: AgentSettings, state: AgentState, consumer: str, now: datetime) -> int:
    """Complete turns waiting for `consumer` (bounded by the transcript read limits)."""
    cursor_file = cursors.load(state.cursors)
    batch = read_new_turns(source_of(agent), cursors.for_consumer(cursor_file, consumer), consumer, now)
    return len(batch.turns)
