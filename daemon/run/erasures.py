"""Erasure records: who purged what and when — never the value, only a salted hash of it.

`state/agents/<a>/erasures.jsonl`, one versioned JSON line per purge, appended durably.
The salt (`erasure-salt`, 32 random bytes, mode 0600) is the agent's own: the same value
hashes the same within an agent, so a person can check "was X purged?" by hashing it,
but a hash cannot be matched across agents or against a list of common values elsewhere.
"""

from __future__ import annotations

import json
import os
import secrets
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from daemon.kernel import atomic
from daemon.kernel.errors import CorruptState, StateVersionError
from daemon.kernel.paths import AgentState
from daemon.text.erasure import value_hash

VERSION = 1


class ErasureRecord(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    v: int = VERSION
    at: str
    requested_by: str
    kind: Literal["purge", "retention"]
    entity: str
    key: str
    value_hashes: tuple[str, ...]
    run_id: str | None
    commits_rewritten: bool


def records_path(state: AgentState) -> Path:
    return state.root / "erasures.jsonl"


def salt_path(state: AgentState) -> Path:
    return state.root / "erasure-salt"


def salt(state: AgentState) -> bytes:
    """The agent's salt, made on first use."""
    path = salt_path(state)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        atomic.write_bytes(path, secrets.token_bytes(32), mode=0o600)
        return path.read_bytes()


def hashes(state: AgentState, values: set[str]) -> tuple[str, ...]:
    key = salt(state)
    return tuple(sorted(value_hash(key, v) for v in values))


def append(state: AgentState, record: ErasureRecord) -> None:
    atomic.append_line(records_path(state), record.model_dump_json())
    os.chmod(records_path(state), 0o600)


def read_all(state: AgentState) -> list[ErasureRecord]:
    """Every erasure record, oldest first; CorruptState/StateVersionError naming the line at fault."""
    path = records_path(state)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
            if isinstance(raw, dict) and isinstance(raw.get("v"), int) and raw["v"] > VERSION:
                raise StateVersionError(path, raw["v"], VERSION)
            found.append(ErasureRecord.model_validate(raw))
        except (ValueError, ValidationError) as exc:
            raise CorruptState(path, f"line {number}: {str(exc).splitlines()[0]}") from None
    return found
