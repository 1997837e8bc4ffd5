"""Quarantine: a fork failing the preservation guard is moved out of the learned library.

Moving the copy (files and sidecar) to `.metaeng/skill-quarantine/<name>/` is what makes
it stop shadowing for every reader of the learned library — the daemon and the agent's
own platform alike — so the original serves again. The folder holds:

    skill/...          the copy's files, byte for byte
    provenance.json    its sidecar, unchanged
    quarantine.json    the record: rule, detail, when, which run

It is planned as ordinary writes and deletes, so a quarantine is a run with a report and
`undo` puts the copy back. (A copy that still fails the guard is quarantined again by the
next run: to keep a shorter copy on purpose, restore it and delete its sidecar — it is
then hand-written, and hand-written skills are never quarantined.)
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from daemon.kernel.changeset import FileWrite
from daemon.kernel.errors import CorruptState, StateVersionError
from daemon.kernel.paths import META_DIR
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView
from skills_engine.preservation_guard import GuardFailure
from skills_engine.provenance import sidecar_path

QUARANTINE_DIR = f"{META_DIR}/skill-quarantine"
VERSION = 1


class QuarantineRecord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built when first read

    version: int = VERSION
    name: str
    rule: str
    detail: str
    rules: list[str]
    quarantined_at: str
    run_id: str | None
    moved_from: str


@dataclass(frozen=True)
class Quarantined:
    record: QuarantineRecord
    rel: str  # folder of the quarantined copy's files, relative to the agent home
    files: Mapping[str, bytes]


def folder(name: str) -> str:
    return f"{QUARANTINE_DIR}/{name}"


def plan_move(
    learned: str,
    name: str,
    files: Mapping[str, bytes],
    sidecar: bytes | None,
    failures: Sequence[GuardFailure],
    now: datetime,
    run_id: str | None,
    stale: Sequence[str] = (),
) -> tuple[list[FileWrite], list[str], QuarantineRecord]:
    """Writes and deletes that move one failing copy into quarantine (`stale` = old files there)."""
    target = folder(name)
    record = QuarantineRecord(
        name=name,
        rule=failures[0].rule,
        detail="; ".join(f.detail for f in failures),
        rules=[f.rule for f in failures],
        quarantined_at=now.isoformat(),
        run_id=run_id,
        moved_from=f"{learned}/{name}",
    )
    body = json.dumps(record.model_dump(mode="json"), indent=1) + "\n"
    writes, deletes = move_out(learned, name, files, sidecar, target, ("quarantine.json", body.encode("utf-8")), stale)
    return writes, deletes, record


def move_out(
    learned: str,
    name: str,
    files: Mapping[str, bytes],
    sidecar: bytes | None,
    target: str,
    record: tuple[str, bytes],
    stale: Sequence[str] = (),
) -> tuple[list[FileWrite], list[str]]:
    """The writes and deletes that move the learned skill `name` (its `files` and `sidecar`)
    to `target` as `skill/…`, `provenance.json` and the record file; `stale`: files already
    under `target` (an older move of the name), deleted unless written again. Shared by
    the quarantine and the archive (skills_engine/archive.py)."""
    writes = [FileWrite(path=f"{target}/skill/{rel}", content=data) for rel, data in sorted(files.items())]
    if sidecar is not None:
        writes.append(FileWrite(path=f"{target}/provenance.json", content=sidecar))
    writes.append(FileWrite(path=f"{target}/{record[0]}", content=record[1]))
    new_paths = {w.path for w in writes}
    deletes = [f"{learned}/{name}/{rel}" for rel in sorted(files)]
    if sidecar is not None:
        deletes.append(sidecar_path(learned, name))
    deletes += [p for p in stale if p not in new_paths]
    return writes, deletes


def _parse(raw: bytes, label: Path) -> QuarantineRecord:
    return parse_versioned(raw, label, QuarantineRecord, VERSION)


def read_all(view: AgentView) -> tuple[list[Quarantined], list[str]]:
    """Every quarantined copy in the agent home, and problems with unreadable records."""
    grouped: dict[str, dict[str, bytes]] = {}
    records: dict[str, bytes] = {}
    for rel in view.walk(QUARANTINE_DIR):
        inner = rel[len(QUARANTINE_DIR) + 1 :]
        name, _, rest = inner.partition("/")
        data = view.read_bytes(rel)
        if data is None or not rest:
            continue
        if rest == "quarantine.json":
            records[name] = data
        elif rest.startswith("skill/"):
            grouped.setdefault(name, {})[rest[len("skill/") :]] = data
    found: list[Quarantined] = []
    problems: list[str] = []
    for name, raw in sorted(records.items()):
        label = view.home / folder(name) / "quarantine.json"
        try:
            record = _parse(raw, label)
        except (CorruptState, StateVersionError) as exc:
            problems.append(str(exc))
            continue
        found.append(Quarantined(record, f"{folder(name)}/skill", grouped.get(name, {})))
    return found, problems


def existing_paths(view: AgentView, name: str) -> list[str]:
    """Files already under the quarantine folder of `name` (an older quarantine of the same name)."""
    return list(view.walk(folder(name)))
