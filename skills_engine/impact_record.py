"""`<state>/agents/<agent>/impact-skills.json`: what the last `impact` found of the agent's
learned skills — per skill, how many times the corrections linked to it were said again after
it was opened — for the curator, which never computes impact itself (reading every session is
too slow for a pass; docs/explanation/impact.md#acted-on).

Written by `impact` (without `--since`: the whole history) atomically; read by the curator,
which ignores a record older than `skills.curator.impact_max_age_days`. A state file, not a
tracked one: `undo` leaves it as it is. It lives with the skills engine, which reads it;
`daemon.doors.impact_learned` builds it from the impact report.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from daemon.kernel import atomic
from daemon.kernel.statefile import read_versioned

VERSION = 1


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class SkillImpact(_Frozen):
    """One learned skill: its items, when it was first opened after it was learned, and how
    many times they were said again after that."""

    items: int
    delivered_at: str | None = None
    recurrences_after_delivery: int


class ImpactSkills(_Frozen):
    version: int = VERSION
    computed_at: str  # UTC ISO 8601
    skills: dict[str, SkillImpact] = {}

    def recurring(self, now: datetime, max_age_days: int) -> dict[str, int]:
        """Skill → recurrences after it was opened; empty when the record is older than `max_age_days`."""
        computed = datetime.fromisoformat(self.computed_at.replace("Z", "+00:00"))
        if now - computed > timedelta(days=max_age_days):
            return {}
        return {name: s.recurrences_after_delivery for name, s in self.skills.items()}


def load(path: Path) -> ImpactSkills | None:
    """The record at `path`, None if there is none. Raises CorruptState or StateVersionError."""
    return read_versioned(path, ImpactSkills, VERSION)


def write(path: Path, state: ImpactSkills) -> None:
    """Replace the record at `path` atomically. Raises OSError."""
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, json.dumps(state.model_dump(mode="json"), indent=1, ensure_ascii=False) + "\n")
