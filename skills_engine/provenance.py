"""The provenance sidecar: who wrote a learned skill, and for a fork, its recorded starting state.

The sidecar is `<learned>/<name>.provenance.json`, beside the skill folder (never in the
frontmatter). Its presence with `machine_written: true` is what makes a learned skill
machine-written; a skill without one is hand-written. A person who wants to own a
machine-written skill deletes its sidecar (or sets `machine_written: false`): from then
on the guard leaves it alone and the library pass never merges it away.

For a fork it records the original's per-file hashes, the copy's per-file hashes and
sizes, the original `SKILL.md` headings, which copy files had path references rewritten
and how, and where the untouched merge base lives (`.metaeng/fork-bases/<name>/`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from daemon.kernel.changeset import FileWrite
from daemon.kernel.paths import FORK_BASES_DIR
from daemon.kernel.statefile import parse_versioned
from skills_engine.folders import is_text, sha256

VERSION = 1
SUFFIX = ".provenance.json"


class _Model(BaseModel):
    # Validators built on first use: a short command (`status`) imports these and builds few.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class FileFact(_Model):
    sha256: str
    size: int = Field(ge=0)
    text: bool


class Event(_Model):
    at: str
    run_id: str | None
    action: str  # created | forked | updated | merged-upstream | merged-duplicates
    cites: list[str] = Field(default_factory=list)
    note: str = ""


class Rewrite(_Model):
    """Occurrences of `old` (the original folder's path) were replaced by `new` in text files."""

    old: str
    new: str


class Provenance(_Model):
    version: int = VERSION
    name: str
    kind: Literal["fork", "created", "merged"]
    machine_written: bool = True
    created_at: str
    # fork only -----------------------------------------------------------------------
    source_kind: Literal["managed", "pack"] | None = None
    origin: str | None = None
    source_files: dict[str, FileFact] = Field(default_factory=dict)
    copy_files: dict[str, FileFact] = Field(default_factory=dict)
    headings: list[str] = Field(default_factory=list)
    rewritten: list[str] = Field(default_factory=list)
    rewrites: list[Rewrite] = Field(default_factory=list)
    skipped: list[str] = Field(default_factory=list)
    base: str | None = None
    synced_at: str | None = None
    # any kind ------------------------------------------------------------------------
    merged_from: list[str] = Field(default_factory=list)
    as_is: str | None = None
    history: list[Event] = Field(default_factory=list)

    @property
    def is_fork(self) -> bool:
        return self.kind == "fork"

    def with_event(self, event: Event) -> Provenance:
        return self.model_copy(update={"history": [*self.history, event]})


def sidecar_path(learned: str, name: str) -> str:
    return f"{learned}/{name}{SUFFIX}"


def base_dir(name: str) -> str:
    return f"{FORK_BASES_DIR}/{name}"


def facts(files: Mapping[str, bytes]) -> dict[str, FileFact]:
    return {
        rel: FileFact(sha256=sha256(data), size=len(data), text=is_text(data))
        for rel, data in sorted(files.items())
    }


def hashes(files: Mapping[str, bytes]) -> dict[str, str]:
    return {rel: sha256(data) for rel, data in files.items()}


def sidecar_write(learned: str, record: Provenance) -> FileWrite:
    body = json.dumps(record.model_dump(mode="json"), indent=1, sort_keys=False, ensure_ascii=False) + "\n"
    return FileWrite(path=sidecar_path(learned, record.name), content=body.encode("utf-8"))


def parse(raw: bytes, label: Path) -> Provenance:
    """Parse a sidecar; raise CorruptState (naming it) or StateVersionError for a newer version."""
    return parse_versioned(raw, label, Provenance, VERSION)
