"""The library pass's memory: groups the deep model judged distinct, so they are not asked again.

`.metaeng/skill-library.json` (tracked, so `undo` reverts it with the run) maps a group
fingerprint — the hashes of its members' contents — to the names and the date. A group
whose members change gets a new fingerprint and is looked at again.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict, Field

from daemon.kernel.changeset import FileWrite
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView
from skills_engine.edits import LIBRARY_STATE

VERSION = 1


class DistinctGroup(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    names: list[str]
    at: str
    reason: str = ""


class LibraryState(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    distinct: dict[str, DistinctGroup] = Field(default_factory=dict)


def load(view: AgentView) -> LibraryState:
    raw = view.read_bytes(LIBRARY_STATE)
    if raw is None:
        return LibraryState()
    return parse_versioned(raw, view.home / LIBRARY_STATE, LibraryState, VERSION)


def state_write(state: LibraryState) -> FileWrite:
    body = json.dumps(state.model_dump(mode="json"), indent=1, sort_keys=True) + "\n"
    return FileWrite(path=LIBRARY_STATE, content=body.encode("utf-8"))
