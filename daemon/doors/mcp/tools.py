"""What the MCP tools answer: the same library calls as `memory query|list` and `skills list`.

Facts come from the agent's query index (daemon/wiring/fact_lookup.py), skills through
AgentView; every function returns plain JSON data;
none writes anything. Facts are always filtered to the agent's owner (tenant, user), so
one agent's server never answers with another owner's records kept in a shared store.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from daemon.kernel.errors import DaemonError
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.wiring import fact_lookup
from memory_engine.records import FactRecord, canonical_date
from skills_engine.inventory import load_inventory

SEARCH_LIMIT = 20
MAX_TEXT = 500


def _record(record: FactRecord) -> dict[str, Any]:
    return record.model_dump(mode="json")


def _day(value: str | None, today: date) -> str:
    if not value:
        return today.isoformat()
    try:
        return canonical_date(value)
    except ValueError as exc:
        raise DaemonError(f"as_of: {exc}") from None


def memory_query(
    state_dir: Path, agent: AgentSettings, entity: str, key: str, as_of: str | None, today: date
) -> dict[str, Any]:
    """The value of (entity, key) on `as_of` and its record, as `memory query --json` prints it."""
    day = _day(as_of, today)
    result = fact_lookup.answer(state_dir, agent, entity, key, day, f"{entity} {key}")
    record = result.answer_record
    return {"as_of": day, "value": result.answer, "record": None if record is None else _record(record)}


def memory_search(state_dir: Path, agent: AgentSettings, text: str, today: date) -> dict[str, Any]:
    """Current facts whose entity, key or value holds every word of `text` (newest first)."""
    words = text[:MAX_TEXT].lower().split()
    if not words:
        raise DaemonError("text: give at least one word to search for")
    day = today.isoformat()
    found = fact_lookup.search(state_dir, agent, words, day)
    found.sort(key=lambda r: (r.valid_from, r.id), reverse=True)
    return {
        "as_of": day,
        "records": [_record(r) for r in found[:SEARCH_LIMIT]],
        "more": len(found) > SEARCH_LIMIT,
    }


def memory_history(state_dir: Path, agent: AgentSettings, entity: str, key: str) -> dict[str, Any]:
    """Every stored version of (entity, key), oldest first, closed ones included."""
    versions = fact_lookup.history(state_dir, agent, entity, key)
    return {"entity": entity, "key": key, "records": [_record(r) for r in versions]}


def skills_list(agent: AgentSettings) -> dict[str, Any]:
    """Every skill the agent can use, as `skills list --json` lists them, with its description."""
    inventory = load_inventory(agent, AgentView(agent.home))
    return {
        "skills": [
            {
                "name": s.name,
                "description": s.doc.description,
                "source": s.source,
                "status": s.status,
                "machine_written": s.machine_written,
            }
            for s in inventory.skills
        ]
    }


def skill_get(agent: AgentSettings, name: str) -> dict[str, Any]:
    """The skill `name` in use (the learned one where it shadows an original), with its body."""
    inventory = load_inventory(agent, AgentView(agent.home))
    matches = [s for s in inventory.skills if s.name == name]
    active = next((s for s in matches if s.status in ("active", "drifted")), None)
    if active is None:
        known = ", ".join(sorted({s.name for s in inventory.skills})) or "none"
        raise DaemonError(f"no skill named {name!r} in use by agent {agent.name} (skills: {known})")
    return {
        "name": active.name,
        "description": active.doc.description,
        "source": active.source,
        "body": active.doc.body.strip() + "\n",
    }
