"""A deployment whose skills stand at every place of the curator's lifecycle (status, console,
notifications): real folders, a real usage record, a real archive folder.

Agent `ada`, 65 sessions read (40 on 2026-06-02, 25 on 2026-09-01), judged at the end of
November 2026 with the default thresholds (stale: 20 sessions and 30 days; archive: 60 and 90):

| skill          | learned    | used        | place                          |
| -------------- | ---------- | ----------- | ------------------------------ |
| `old-report`   | 2026-06-01 | never       | due for the archive            |
| `quiet-lookup` | 2026-08-01 | never       | stale (25 sessions, 111+ days) |
| `fresh-idea`   | 2026-10-01 | never       | active (no session since)      |
| `busy`         | 2026-06-01 | 2026-11-19  | active                         |
| `pinned-old`   | 2026-06-01 | never       | pinned                         |
| `by-hand`      | (a person) | never       | kept                           |
| `gone-skill`   | —          | —           | archived                       |
"""

from __future__ import annotations

import json
from pathlib import Path

from skills_engine.archive import ArchiveRecord
from skills_engine.provenance import Provenance, sidecar_write
from tests.skills_engine.builders import make_skill, skill_md, skills_config

LEARNED = {
    "old-report": "2026-06-01T10:00:00+00:00",
    "quiet-lookup": "2026-08-01T10:00:00+00:00",
    "fresh-idea": "2026-10-01T10:00:00+00:00",
    "busy": "2026-06-01T10:00:00+00:00",
    "pinned-old": "2026-06-01T10:00:00+00:00",
}
ARCHIVED = "gone-skill"


def learned(home: Path, name: str, created_at: str | None) -> None:
    """A learned skill; with `created_at`, the daemon's (a provenance sidecar), else a person's."""
    make_skill(home / "skills", name, skill_md(name, description=f"Handle {name.replace('-', ' ')}. Use when asked."))
    if created_at is not None:
        write = sidecar_write("skills", Provenance(name=name, kind="created", created_at=created_at))
        (home / write.path).write_bytes(write.content)


def usage_record(root: Path) -> None:
    """65 sessions read; `busy` last opened on 2026-11-19, in the last session read."""
    busy = {"count": 3, "sessions": 2, "first": "2026-06-03T09:00:00+00:00", "last": "2026-11-19T09:00:00+00:00",
            "last_session": "s", "last_turn": "t@0", "mark": 65}
    record = {"version": 1, "sessions_seen": 65, "sessions_by_day": {"2026-06-02": 40, "2026-09-01": 25},
              "skills": {"busy": busy}, "facts_view": {}, "hook_context": {}, "sources": {}}
    path = root / "state" / "agents" / "ada" / "usage.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record))


def archived(home: Path, name: str = ARCHIVED) -> Path:
    """`name` in the archive as the curator leaves it: its files, its sidecar and its record."""
    folder = home / ".metaeng" / "skill-archive" / name
    make_skill(folder, "skill", skill_md(name, description="Archived long ago. Use when asked."))
    write = sidecar_write("skills", Provenance(name=name, kind="created", created_at="2026-01-01T00:00:00+00:00"))
    (folder / "provenance.json").write_bytes(write.content)
    record = ArchiveRecord(
        name=name, why="never used since it was learned: 70 session(s) and 120 day(s) since", uses=0, last_use=None,
        sessions_since=70, days_since=120, archived_at="2026-10-01T00:00:00+00:00", run_id=None,
        moved_from=f"skills/{name}",
    )
    (folder / "archive.json").write_text(record.model_dump_json())
    return folder


def curated_library(root: Path) -> Path:
    """The deployment of the module docstring; returns its config."""
    config = skills_config(root, None)
    home = root / "ada"
    for name, created_at in LEARNED.items():
        learned(home, name, created_at)
    learned(home, "by-hand", None)
    archived(home)
    pins = {"version": 1, "pinned": {"pinned-old": {"at": "2026-11-01T00:00:00+00:00"}}}
    (home / ".metaeng" / "skill-pins.json").write_text(json.dumps(pins))
    usage_record(root)
    return config
