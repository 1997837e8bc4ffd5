"""The library pass's memory: groups the deep model judged distinct, so they are not asked again.

`.metaeng/skill-library.json` (tracked, so `undo` reverts it with the run) maps a group
fingerprint — the hashes of its members' contents — to the names and the date. A group
whose members change gets a new fingerprint and is looked at again.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from daemon.changeset import FileWrite
from daemon.errors import CorruptState, StateVersionError
from daemon.view import AgentView
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
    label = view.home / LIBRARY_STATE
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise CorruptState(label, f"not JSON: {exc}") from None
    if isinstance(data, dict) and isinstance(data.get("version"), int) and data["version"] > VERSION:
        raise StateVersionError(label, data["version"], VERSION)
    try:
        return LibraryState.model_validate(data)
    except ValidationError as exc:
        raise CorruptState(label, str(exc.errors()[0]["msg"])) from None


def state_write(state: LibraryState) -> FileWrite:
    body = json.dumps(state.model_dump(mode="json"), indent=1, sort_keys=True) + "\n"
    return FileWrite(path=LIBRARY_STATE, content=body.encode("utf-8"))
