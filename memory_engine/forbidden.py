"""The agent's forbidden keys: facts a person asked never to be learned again.

`.metaeng/forbidden-keys.json` in the home (a tracked file: the run that adds a key is
in the store like any other). Distillation drops a proposed fact with a forbidden key
before it is written, reported or logged as refused — its value never reaches a file —
and leaves the key out of what it asks the model for.
"""

from __future__ import annotations

import json

from pydantic import BaseModel, ConfigDict

from daemon.kernel.changeset import FileWrite
from daemon.kernel.paths import META_DIR
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView

FORBIDDEN_FILE = f"{META_DIR}/forbidden-keys.json"
VERSION = 1


class ForbiddenKeys(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    keys: tuple[str, ...] = ()


def forbidden_keys(view: AgentView) -> frozenset[str]:
    """The forbidden keys in `view` (none if the file is absent); CorruptState if unreadable."""
    raw = view.read_bytes(FORBIDDEN_FILE)
    if raw is None:
        return frozenset()
    return frozenset(parse_versioned(raw, view.home / FORBIDDEN_FILE, ForbiddenKeys, VERSION).keys)


def with_key(view: AgentView, key: str) -> FileWrite | None:
    """The forbidden-keys file with `key` added, None if it is there already."""
    keys = forbidden_keys(view)
    if key in keys:
        return None
    body = ForbiddenKeys(keys=tuple(sorted(keys | {key}))).model_dump(mode="json")
    return FileWrite(path=FORBIDDEN_FILE, content=(json.dumps(body, indent=1) + "\n").encode("utf-8"))
