"""The skill archive: where the curator moves a learned skill nobody uses — never a delete.

`.metaeng/skill-archive/<name>/`, inside the agent home where no runtime loads skills from:

    skill/...          the skill's files, byte for byte
    provenance.json    its provenance sidecar, unchanged
    archive.json       the record: why, its use when it was archived, when, which run

A move is planned as writes and deletes like any change, so archiving is a run (one
commit, `undo` puts every skill back) and `skills restore NAME` moves it back as another.
Pins (`.metaeng/skill-pins.json`) say which skills a person wants never moved.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict

from daemon.kernel.changeset import FileWrite
from daemon.kernel.errors import CorruptState, DaemonError, StateVersionError
from daemon.kernel.paths import SKILL_ARCHIVE_DIR, SKILL_PINS
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView
from skills_engine.lifecycle import Verdict
from skills_engine.provenance import sidecar_path
from skills_engine.quarantine import move_out

ARCHIVE_DIR = SKILL_ARCHIVE_DIR
PINS_FILE = SKILL_PINS
VERSION = 1


class _Model(BaseModel):
    # Validators built on first use: a short command (`status`) imports these and builds few.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class ArchiveRecord(_Model):
    version: int = VERSION
    name: str
    why: str
    uses: int
    last_use: str | None
    sessions_since: int
    days_since: int
    archived_at: str
    run_id: str | None
    moved_from: str


class Pin(_Model):
    at: str
    run_id: str | None = None


class Pins(_Model):
    version: int = VERSION
    pinned: dict[str, Pin] = {}


@dataclass(frozen=True)
class Archived:
    record: ArchiveRecord
    files: Mapping[str, bytes]  # the skill's files, relative to its folder
    sidecar: bytes | None


def folder(name: str) -> str:
    return f"{ARCHIVE_DIR}/{name}"


def skill_files(view: AgentView, learned: str, name: str) -> dict[str, bytes]:
    """Every file of the learned skill `name`, relative to its folder."""
    base = f"{learned}/{name}"
    found: dict[str, bytes] = {}
    for rel in view.walk(base):
        data = view.read_bytes(rel)
        if data is not None:
            found[rel[len(base) + 1 :]] = data
    return found


def plan_archive(
    view: AgentView, learned: str, verdict: Verdict, now: datetime, run_id: str | None
) -> tuple[list[FileWrite], list[str]]:
    """The writes and deletes that move the learned skill of `verdict` into the archive."""
    name = verdict.name
    files = skill_files(view, learned, name)
    sidecar = view.read_bytes(sidecar_path(learned, name))
    target = folder(name)
    record = ArchiveRecord(
        name=name,
        why=verdict.why,
        uses=verdict.use.uses,
        last_use=verdict.use.last,
        sessions_since=verdict.use.sessions_since,
        days_since=verdict.use.days_since,
        archived_at=now.isoformat(),
        run_id=run_id,
        moved_from=f"{learned}/{name}",
    )
    body = json.dumps(record.model_dump(mode="json"), indent=1) + "\n"
    # an older archive of the name is replaced whole
    writes, deletes = move_out(learned, name, files, sidecar, target, ("archive.json", body.encode("utf-8")), list(view.walk(target)))
    return writes, deletes


def read_archive(view: AgentView) -> tuple[dict[str, Archived], list[str]]:
    """Every archived skill by name, and problems with records that cannot be read."""
    return _read(view, lambda _name, _rest: True)


def recorded_names(view: AgentView) -> set[str]:
    """The names `read_archive` gives (those whose `archive.json` reads), reading only the
    records, not every archived file."""
    return set(_read(view, lambda _name, rest: rest == "archive.json")[0])


def _read(view: AgentView, wanted: Callable[[str, str], bool]) -> tuple[dict[str, Archived], list[str]]:
    """`read_archive`, reading only the files `wanted(name, path in its folder)` picks (the
    walk is whole either way: the same folder noted, the same unreadable files)."""
    grouped: dict[str, dict[str, bytes]] = {}
    records: dict[str, bytes] = {}
    sidecars: dict[str, bytes] = {}
    for rel in view.walk(ARCHIVE_DIR):
        name, _, rest = rel[len(ARCHIVE_DIR) + 1 :].partition("/")
        if not wanted(name, rest):
            continue
        data = view.read_bytes(rel)
        if data is None or not rest:
            continue
        if rest == "archive.json":
            records[name] = data
        elif rest == "provenance.json":
            sidecars[name] = data
        elif rest.startswith("skill/"):
            grouped.setdefault(name, {})[rest[len("skill/") :]] = data
    found: dict[str, Archived] = {}
    problems: list[str] = []
    for name, raw in sorted(records.items()):
        label = view.home / folder(name) / "archive.json"
        try:
            record = parse_versioned(raw, label, ArchiveRecord, VERSION)
        except (CorruptState, StateVersionError) as exc:
            problems.append(str(exc))
            continue
        found[name] = Archived(record, grouped.get(name, {}), sidecars.get(name))
    return found, problems


def plan_restore(view: AgentView, learned: str, name: str) -> tuple[list[FileWrite], list[str]]:
    """The writes and deletes that move the archived skill `name` back into the library.

    Raises DaemonError (nothing planned) if it is not archived, or the library holds a
    skill of that name now (learned again since: compare, then remove one by hand).
    """
    found = _read(view, lambda archived, _rest: archived == name)[0].get(name)
    if found is None:
        names = ", ".join(sorted(recorded_names(view))) or "none"
        raise DaemonError(f"no archived skill {name!r} (archived: {names})")
    if view.exists(f"{learned}/{name}/SKILL.md") or view.exists(sidecar_path(learned, name)):
        raise DaemonError(
            f"the library already holds a skill {name!r} ({learned}/{name}); restoring would overwrite it — "
            f"compare it with {folder(name)}/skill and remove one by hand first"
        )
    writes = [FileWrite(path=f"{learned}/{name}/{rel}", content=data) for rel, data in sorted(found.files.items())]
    if found.sidecar is not None:
        writes.append(FileWrite(path=sidecar_path(learned, name), content=found.sidecar))
    return writes, list(view.walk(folder(name)))


def read_pins(view: AgentView) -> Pins:
    raw = view.read_bytes(PINS_FILE)
    if raw is None:
        return Pins()
    return parse_versioned(raw, view.home / PINS_FILE, Pins, VERSION)


def pins_write(pins: Pins) -> FileWrite:
    body = json.dumps(pins.model_dump(mode="json"), indent=1, sort_keys=True) + "\n"
    return FileWrite(path=PINS_FILE, content=body.encode("utf-8"))
