"""The Memory page's reading: current facts by entity, each (entity, key)'s version chain, search."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

from daemon.kernel.settings import AgentSettings
from daemon.wiring import fact_lookup
from memory_engine.records import FactRecord

MAX_ENTITIES = 200


@dataclass(frozen=True)
class Chain:
    entity: str
    key: str
    versions: list[FactRecord]  # oldest first
    current: FactRecord | None  # valid on the page's day, if any


@dataclass(frozen=True)
class MemoryPage:
    entities: dict[str, list[Chain]]
    total_records: int
    shown_entities: int
    cut_entities: int


def _matches(record: FactRecord, words: list[str]) -> bool:
    text = " ".join((record.entity, record.key, record.value, record.quote or "", record.source_event_id)).lower()
    return all(word in text for word in words)


def memory_page(state_dir: Path, agent: AgentSettings, day: str, search: str = "") -> MemoryPage:
    """Facts of the agent's owner grouped by entity, filtered by every word of `search`.

    Read from the query index, never the whole store; with a search, only the records whose
    stored line holds every word are parsed.
    """
    words = search.lower().split()
    with fact_lookup.fact_index(state_dir, agent) as index:
        total = index.count(agent.owner)
        records = index.records(agent.owner, containing=fact_lookup.prefilter(words))
    chains: dict[tuple[str, str], list[FactRecord]] = defaultdict(list)
    for record in records:
        chains[(record.entity, record.key)].append(record)
    entities: dict[str, list[Chain]] = defaultdict(list)
    for (entity, key), versions in sorted(chains.items()):
        if words and not any(_matches(r, words) for r in versions):
            continue
        versions.sort(key=lambda r: (r.valid_from, r.observed_at, r.id))
        current = next((r for r in reversed(versions) if r.valid_at(day)), None)
        entities[entity].append(Chain(entity, key, versions, current))
    names = sorted(entities)
    shown = {name: entities[name] for name in names[:MAX_ENTITIES]}
    return MemoryPage(shown, total, len(shown), max(0, len(names) - MAX_ENTITIES))
