"""Forget a fact on a person's request: delete every version of (owner, entity, key)."""

from __future__ import annotations

from pathlib import Path

from daemon.kernel.changeset import Changeset, PassDetails, nothing
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from memory_engine.agent_memory import open_edit


class Forgotten(PassDetails):
    """The record ids a forget deleted (`memory forget --json` prints them)."""

    deleted_ids: list[str]


def plan_forget(
    agent: AgentSettings, view: AgentView, entity: str, key: str, today: str, index_path: Path | None = None
) -> Changeset:
    """Delete every version of (owner, entity, key): one shard read and rewritten (and the
    facts view, from `index_path` when given: see `FactStoreEdit._facts_view`)."""
    edit = open_edit(agent, view, index_path)
    edit.load_scope((*agent.owner, entity, key))
    result = edit.memory.delete(agent.owner, entity, key)
    if not result.deleted_ids:
        return nothing("forget", f"nothing stored for {entity}.{key}")
    writes, deletes = edit.changes(today)
    return Changeset(
        pass_name="forget",
        status="changes",
        reason=f"forgot {entity}.{key}: {len(result.deleted_ids)} version(s) deleted",
        writes=writes,
        deletes=deletes,
        report=tuple(f"deleted {record_id}" for record_id in result.deleted_ids),
        details=Forgotten(deleted_ids=list(result.deleted_ids)),
    )
