"""What the MCP tools answer: the same library calls as `memory query|list|search` and `skills list`.

Facts come from the agent's query index (daemon/wiring/fact_lookup.py), skills through
AgentView; every function returns plain JSON data; none writes anything. Facts are
always filtered to the agent's owner (tenant, user), so one agent's server never answers
with another owner's records kept in a shared store. `given` says which facts and skill an
answer gave, for the answers' log (`daemon.doors.mcp_answers`). A fact is given as an agent uses
it — id, entity, key, value, valid_from, and valid_to and quote when it has them — without
the store's own fields (owner, schema version, provenance).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

from daemon.kernel.errors import DaemonError
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.wiring import fact_lookup
from memory_engine import fact_search
from memory_engine.records import FactRecord, canonical_date
from skills_engine.inventory import load_inventory

MAX_TEXT = 500  # characters of a search: a question, not a pasted document


def fact(record: FactRecord) -> dict[str, str]:
    """The fields of `record` an agent needs (see the module docstring)."""
    found = {
        "id": record.id,
        "entity": record.entity,
        "key": record.key,
        "value": record.value,
        "valid_from": record.valid_from,
    }
    if record.valid_to is not None:
        found["valid_to"] = record.valid_to
    if record.quote:
        found["quote"] = record.quote
    return found


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
    """The value of (entity, key) on `as_of` and the fact it comes from, as `memory query` answers."""
    day = _day(as_of, today)
    result = fact_lookup.answer(state_dir, agent, entity, key, day, f"{entity} {key}")
    record = result.answer_record
    return {"as_of": day, "value": result.answer, "fact": None if record is None else fact(record)}


def memory_search(
    state_dir: Path, agent: AgentSettings, text: str, limit: int, include_superseded: bool, today: date
) -> dict[str, Any]:
    """The facts best matching `text` (memory_engine/fact_search.py), current ones unless
    `include_superseded`, best first."""
    if len(text) > MAX_TEXT:
        raise DaemonError(f"text: at most {MAX_TEXT} characters, got {len(text)}")
    query = fact_search.read_query(text)
    day = None if include_superseded else today.isoformat()
    with fact_lookup.fact_index(state_dir, agent) as index:
        found = fact_search.search(index, agent.owner, query, day, limit)
    return {
        "as_of": day,
        "words": list(query.words),
        "facts": [fact(hit.record) for hit in found.hits],
        "more": found.more,
    }


def memory_entities(state_dir: Path, agent: AgentSettings, limit: int, offset: int, today: date) -> dict[str, Any]:
    """The entities with current facts, most facts first: how many keys and facts each has
    today, how many of its facts were superseded."""
    day = today.isoformat()
    with fact_lookup.fact_index(state_dir, agent) as index:
        tallies = index.tally(agent.owner, day)
    return {
        "as_of": day,
        "entities": [
            {"entity": t.name, "keys": t.keys, "facts": t.current, "superseded": t.superseded}
            for t in tallies[offset : offset + limit]
        ],
        "total": len(tallies),
        "more": offset + limit < len(tallies),
    }


def memory_keys(state_dir: Path, agent: AgentSettings, entity: str, today: date) -> dict[str, Any]:
    """The keys of `entity` with a current fact: how many facts each has today, how many superseded."""
    day = today.isoformat()
    with fact_lookup.fact_index(state_dir, agent) as index:
        tallies = index.tally(agent.owner, day, entity)
    if not tallies:
        raise DaemonError(f"no current fact about entity {entity!r} (memory_entities lists the entities)")
    return {
        "as_of": day,
        "entity": entity,
        "keys": [{"key": t.name, "facts": t.current, "superseded": t.superseded} for t in tallies],
    }


def memory_history(state_dir: Path, agent: AgentSettings, entity: str, key: str) -> dict[str, Any]:
    """Every stored version of (entity, key), oldest first, closed ones included."""
    versions = fact_lookup.history(state_dir, agent, entity, key)
    return {"entity": entity, "key": key, "facts": [fact(r) for r in versions]}


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


# The tools whose answers give facts (under `facts`, or `fact`) or a skill's instructions;
# `skills_list` gives names and descriptions only, as the runtime's own skill list does.
GIVING_FACTS = ("memory_search", "memory_query", "memory_history")
GIVING_SKILL = ("skill_get",)


def given(tool: str, answer: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The fact ids and skill names `tool`'s `answer` gave the agent (none for the other tools)."""
    if tool in GIVING_FACTS:
        facts = [*answer.get("facts", []), *([answer["fact"]] if answer.get("fact") else [])]
        return [str(f["id"]) for f in facts], []
    if tool in GIVING_SKILL:
        return [], [str(answer["name"])]
    return [], []
