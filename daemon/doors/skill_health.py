"""An agent's library health: its skills counted by their place in the curator's lifecycle.

Read from the same verdicts the curator acts on (`skills_engine.curator.standing`: the
inventory, the usage record, the pins, the restores, `skills.curator`'s thresholds), so `status`, the
console and the curator never disagree about a skill. Reads state only; nothing is written.
Shared by `status` (`AgentStatus.library`) and the console's Skills page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

from daemon.kernel.json_contract import Document
from daemon.kernel.paths import SKILL_ARCHIVE_DIR
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.transcripts.usage_record import UsageFile
from skills_engine.curator import curated, standing
from skills_engine.inventory import Inventory, Skill
from skills_engine.lifecycle import Verdict


class LibraryHealth(Document):
    """The agent's skills by their place (skills_engine/lifecycle.py), one count per name:
    `active`, `stale` (unused past `skills.curator.stale_after_*`), `due_for_archive` (past
    `archive_after_*`, moved by the next run or waiting for a person's consent), `pinned`,
    `kept` (never curated: a person's, a fork, a pack's or managed), `archived` (in
    `.metaeng/skill-archive`); `never_used`: the daemon's own learned skills never opened
    since they were created; `stale_skills`: the names of the stale and due ones; `held`: pack
    skills not served because a learned skill of their name is archived, until a person
    decides (`skills restore NAME` or `skills pin NAME`)."""

    curator_enabled: bool  # skills.curator.enabled
    active: int
    stale: int
    due_for_archive: int
    pinned: int
    kept: int
    archived: int
    never_used: int
    stale_skills: list[str]
    held: list[str]


def archived_names(view: AgentView) -> list[str]:
    """Names of the skills in the archive (a folder with its `archive.json`); reads no file."""
    depth = SKILL_ARCHIVE_DIR.count("/") + 2
    return sorted(
        rel.split("/")[depth - 1]
        for rel in view.walk(SKILL_ARCHIVE_DIR)
        if rel.endswith("/archive.json") and rel.count("/") == depth
    )


def places(
    agent: AgentSettings,
    view: AgentView,
    inventory: Inventory,
    usage: UsageFile,
    now: datetime,
    recurring: Mapping[str, int],
) -> list[tuple[Skill, Verdict]]:
    """Every skill of `inventory` with its verdict, as the curator sees it now
    (`skills_engine.curator.standing`: the pins and the restores read from `view`, what the
    last `impact` found from `recurring`, `curator.recurring_of`). Raises CorruptState or
    StateVersionError if the pins or the curator's record cannot be read."""
    return list(zip(inventory.skills, standing(agent, view, inventory, usage, now, recurring), strict=True))


def by_name(found: Sequence[tuple[Skill, Verdict]]) -> dict[str, tuple[Skill, Verdict]]:
    """One entry per name: the learned skill where it shadows an original of the same name."""
    named: dict[str, tuple[Skill, Verdict]] = {}
    for skill, place in found:
        if skill.name not in named or skill.source == "learned":
            named[skill.name] = (skill, place)
    return named


def health(
    agent: AgentSettings, found: Sequence[tuple[Skill, Verdict]], archived: Sequence[str]
) -> LibraryHealth:
    """The counts of `found` (from `places`) and the `archived` names."""
    named = by_name(found).values()
    states = [place.state for _skill, place in named]
    return LibraryHealth(
        curator_enabled=agent.skills.curator.enabled,
        active=states.count("active"),
        stale=states.count("stale"),
        due_for_archive=states.count("archive"),
        pinned=states.count("pinned"),
        kept=states.count("kept"),
        archived=len(archived),
        never_used=sum(1 for skill, place in named if curated(skill) and place.use.uses == 0),
        stale_skills=sorted(place.name for _skill, place in named if place.state in ("stale", "archive")),
        held=sorted(skill.name for skill, _place in found if skill.status == "held"),
    )


def library_health(
    agent: AgentSettings,
    view: AgentView,
    inventory: Inventory,
    usage: UsageFile,
    now: datetime,
    recurring: Mapping[str, int],
) -> LibraryHealth:
    """The agent's library health now (`recurring`: see `places`). Raises CorruptState or
    StateVersionError if the pins cannot be read."""
    return health(agent, places(agent, view, inventory, usage, now, recurring), archived_names(view))
