"""Forget a fact on a person's request: delete every version of (owner, entity, key)."""

from __future__ import annotations

from daemon.kernel.changeset import Changeset, nothing
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from memory_engine.agent_memory import load_memory, store_writes


def plan_forget(agent: AgentSettings, view: AgentView, entity: str, key: str, today: str) -> Changeset:
    memory = load_memory(agent, view)
    result = memory.delete(agent.owner, entity, key)
    if not result.deleted_ids:
        return nothing("forget", f"nothing stored for {entity}.{key}")
    return Changeset(
        pass_name="forget",
        status="changes",
        reason=f"forgot {entity}.{key}: {len(result.deleted_ids)} version(s) deleted",
        writes=store_writes(agent, memory, today),
        report=tuple(f"deleted {record_id}" for record_id in result.deleted_ids),
        details={"deleted_ids": list(result.deleted_ids)},
    )
