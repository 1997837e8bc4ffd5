"""An agent's fact memory as the daemon sees it: schema, settings, store file, owner.

The settings come from the YAML file unless a person approved a lab proposal for this
agent: that approval writes `.metaeng/memory-settings.json` in the agent home (a tracked
file, so `undo` reverts the adoption like any other run).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel

from daemon.kernel.memory_settings import MemorySettings
from daemon.kernel.paths import ADOPTED_SETTINGS
from daemon.kernel.settings import AgentSettings
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView
from memory_engine import factstore
from memory_engine.fact_edit import FactStoreEdit, TakenIds
from memory_engine.fact_shards import shard_root
from memory_engine.memory import Memory
from memory_engine.records import MemorySchema

ADOPTED_VERSION = 1


def schema_for(agent: AgentSettings) -> MemorySchema:
    return MemorySchema(
        allowed_keys=frozenset(agent.memory.allowed_keys),
        allowed_sources=frozenset(agent.memory.allowed_sources),
        max_future_days=agent.memory.max_future_days,
    )


class AdoptedSettings(BaseModel):
    """`.metaeng/memory-settings.json`: the settings a person approved, and which proposal."""

    version: int = ADOPTED_VERSION
    proposal: str = "?"
    settings: MemorySettings


def settings_for(agent: AgentSettings, view: AgentView) -> tuple[MemorySettings, str]:
    """Effective memory settings and where they came from."""
    raw = view.read_bytes(ADOPTED_SETTINGS)
    if raw is None:
        return agent.memory.settings, "config"
    adopted = parse_versioned(raw, agent.home / ADOPTED_SETTINGS, AdoptedSettings, ADOPTED_VERSION)
    return adopted.settings, f"adopted proposal {adopted.proposal} ({ADOPTED_SETTINGS})"


def memory_files(agent: AgentSettings) -> set[str]:
    """The files a pass that rewrites the fact store writes: the single-file store (deleted
    when migrated) and the markdown view; the shards are under `memory_folders`."""
    files = {agent.memory.store}
    if agent.memory.markdown_view:
        files.add(agent.memory.markdown_view)
    return files


def memory_folders(agent: AgentSettings) -> set[str]:
    """The folders a pass that rewrites the fact store writes: the shard folder."""
    return {shard_root(agent.memory.store)}


def adopted_settings_file(settings: MemorySettings, proposal_id: str) -> bytes:
    body = AdoptedSettings(proposal=proposal_id, settings=settings).model_dump()
    return (json.dumps(body, indent=1, sort_keys=True) + "\n").encode("utf-8")


def open_edit(agent: AgentSettings, view: AgentView, index_path: Path | None = None) -> FactStoreEdit:
    """An edit of the agent's fact store over `view`, with its effective settings; nothing
    but a single-file store (to migrate) is read yet. `index_path`: the agent's fact index,
    so the facts view need not read every shard."""
    settings, _origin = settings_for(agent, view)
    taken = TakenIds()
    memory = Memory(settings=settings, schema=schema_for(agent), new_id=factstore.ids_avoiding(taken))
    return FactStoreEdit.open(agent, view, memory, taken, index_path)


def load_memory(agent: AgentSettings, view: AgentView) -> Memory:
    """The whole fact store in memory (every shard, and a single-file store not yet migrated)."""
    edit = open_edit(agent, view)
    edit.load_all()
    return edit.memory
