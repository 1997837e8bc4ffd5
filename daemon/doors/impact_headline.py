"""The impact headline: the figures the last impact computation found for an agent
(`<state_dir>/agents/<agent>/impact.json`), so `status` can show them without computing.

Computing impact reads every session of the agent's transcripts (tens of seconds on a long
history); `status` must stay fast, so it only ever reads this file. The file is written,
atomically, by whoever computes the report: `metaeng-daemon impact` and the console's Impact
page (`daemon.doors.impact_compute`). It holds the figures (`ImpactFigures`), when they were
computed, the `--since` day they were computed for, and how many sessions were read.

This module stays light — json and pydantic only, nothing of the impact computation — since
`status` imports it (tests/daemon/doors/cli/test_startup_imports.py).
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from daemon.impact.figures import ImpactFigures
from daemon.kernel import atomic
from daemon.kernel.paths import StateLayout
from daemon.kernel.statefile import read_versioned

VERSION = 1


class HeadlineFile(BaseModel):
    """What `impact.json` holds (version 1)."""

    # Validators built on first use: `status` imports this and may read no file.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    version: int = VERSION
    agent: str
    computed_at: str  # UTC ISO 8601
    since: str | None  # YYYY-MM-DD the figures were limited to, None for the whole history
    sessions_read: int
    figures: ImpactFigures


def headline_path(state_dir: Path, agent: str) -> Path:
    return StateLayout(state_dir).agent(agent).impact_headline


def write_headline(
    state_dir: Path, agent: str, figures: ImpactFigures, sessions_read: int, since: str | None, computed_at: datetime
) -> HeadlineFile:
    """Replace the agent's headline file with these figures (atomically); raises OSError
    (the file named) when it cannot be written."""
    headline = HeadlineFile(
        agent=agent,
        computed_at=computed_at.isoformat(),
        since=since,
        sessions_read=sessions_read,
        figures=figures,
    )
    atomic.write_text(headline_path(state_dir, agent), headline.model_dump_json(indent=2) + "\n")
    return headline


def read_headline(state_dir: Path, agent: str) -> HeadlineFile | None:
    """The agent's last computed headline, None if none was computed; raises CorruptState
    naming the file when it is unreadable, StateVersionError when a newer daemon wrote it."""
    return read_versioned(headline_path(state_dir, agent), HeadlineFile, VERSION)
