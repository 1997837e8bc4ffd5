"""A stored fact-store line, as tests and benchmarks seed a store with it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any


def stored_fact(**overrides: Any) -> dict[str, Any]:
    """One record of `.metaeng/facts.jsonl` (schema version 1); override any field."""
    record: dict[str, Any] = {
        "tenant": "default",
        "user": "ada",
        "entity": "user",
        "key": "city",
        "value": "Berlin",
        "confidence": 0.9,
        "source": "user",
        "valid_from": "2026-11-02",
        "schema_version": 1,
        "memory_type": "fact",
        "id": "f-first",
        "source_event_id": "t@0",
        "observed_at": "2026-11-02",
        "valid_to": None,
        "supersedes_memory_id": None,
    }
    return {**record, **overrides}


def write_store(home: Path, *records: dict[str, Any]) -> Path:
    """Write `records` as the agent's fact store (default location) and return its path."""
    store = home / ".metaeng" / "facts.jsonl"
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text("".join(json.dumps(r) + "\n" for r in records))
    return store


def store_text(home: Path, store: str = ".metaeng/facts.jsonl") -> str:
    """Every line of the agent's fact store: a single-file store, then each shard in path order."""
    parts = []
    single = home / store
    if single.is_file():
        parts.append(single.read_text())
    shards = home / (store + ".d")
    if shards.is_dir():
        parts += [p.read_text() for p in sorted(shards.glob("*/*/*.jsonl"))]
    return "".join(parts)


def store_records(home: Path, store: str = ".metaeng/facts.jsonl") -> list[dict[str, Any]]:
    """The records of the agent's fact store (single file and shards), as dicts."""
    return [json.loads(line) for line in store_text(home, store).splitlines() if line.strip()]


def shard_of(entity: str = "user", key: str = "city", user: str = "ada", tenant: str = "default") -> str:
    """The shard file (relative to the home) holding (tenant, user, entity, key) in the default store."""
    from memory_engine.fact_shards import shard_path

    return shard_path(".metaeng/facts.jsonl", (tenant, user, entity, key))
