"""The fact store file: one JSON record per line, a plain diffable file in the agent home.

Lines are sorted by (tenant, user, entity, key, valid_from, id) so that facts about
different things land on different lines: a later run rarely touches the lines of an
earlier one, which keeps `undo` of an old distillation mergeable. Ids are derived from
the fact and the turn it came from, so re-running an interrupted distillation produces
the same ids (idempotent) and no counter line changes on every write.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from daemon.kernel.errors import CorruptState, StateVersionError
from daemon.kernel.memory_settings import MemorySettings
from memory_engine.markdown_text import facts_view
from memory_engine.memory import IdFactory, Memory
from memory_engine.records import SCHEMA_VERSION, FactProposal, FactRecord, MemorySchema

# The markdown view caps what it shows of each record (the store keeps it whole).
VIEW_NAME_CHARS = 80
VIEW_VALUE_CHARS = 200


def parse(text: str, label: str) -> list[FactRecord]:
    """Records of a fact-store file; raises CorruptState naming the line at fault."""
    return [record for _number, record in parse_numbered(text, label)]


def parse_numbered(text: str, label: str) -> list[tuple[int, FactRecord]]:
    """(line number, record) of each record of a fact-store file; CorruptState names the line at fault."""
    records: list[tuple[int, FactRecord]] = []
    seen: set[str] = set()
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        record = parse_line(line, number, label)
        if record.id in seen:
            raise CorruptState(Path(label), f"line {number}: duplicate record id {record.id!r}")
        seen.add(record.id)
        records.append((number, record))
    return records


def parse_line(line: str | bytes, number: int, label: str) -> FactRecord:
    """The record on line `number` of a fact-store file; CorruptState (StateVersionError) names the line."""
    try:
        raw = json.loads(line)
    except ValueError as exc:
        raise CorruptState(Path(label), f"line {number}: not JSON ({exc})") from None
    if isinstance(raw, dict) and isinstance(raw.get("schema_version"), int) and raw["schema_version"] > SCHEMA_VERSION:
        raise StateVersionError(Path(f"{label}:{number}"), raw["schema_version"], SCHEMA_VERSION)
    try:
        return FactRecord.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        raise CorruptState(Path(label), f"line {number}: {loc}: {err['msg']}") from None


def sort_key(record: FactRecord) -> tuple[str, str, str, str, str, str]:
    return (record.tenant, record.user, record.entity, record.key, record.valid_from, record.id)


def record_line(record: FactRecord) -> str:
    """The record as one line of a fact-store file (no newline)."""
    data = record.model_dump(mode="json")
    if data["quote"] is None:
        del data["quote"]  # stores written before quotes were kept stay byte for byte
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def render(records: Iterable[FactRecord]) -> bytes:
    lines = [record_line(r) for r in sorted(records, key=sort_key)]
    return ("\n".join(lines) + "\n").encode("utf-8") if lines else b""


def derived_ids(existing: Iterable[str]) -> IdFactory:
    """Ids from the fact and its source turn: `f-<12 hex>`; never an id already present."""
    return ids_avoiding(set(existing))


def ids_avoiding(taken: set[str]) -> IdFactory:
    """`derived_ids` over a live set: ids added to `taken` later are avoided too."""

    def make(proposal: FactProposal, event: str) -> str:
        material = "\x1f".join(
            (
                proposal.tenant,
                proposal.user,
                proposal.entity,
                proposal.key,
                proposal.value,
                proposal.valid_from,
                event,
            )
        )
        digest = hashlib.sha256(material.encode("utf-8")).hexdigest()
        candidate = f"f-{digest[:12]}"
        suffix = 1
        while candidate in taken:
            suffix += 1
            candidate = f"f-{digest[:12]}-{suffix}"
        taken.add(candidate)
        return candidate

    return make


def load(content: bytes | None, label: str, settings: MemorySettings, schema: MemorySchema) -> Memory:
    """A Memory holding the records of `content` (None or empty = empty store)."""
    try:
        text = (content or b"").decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorruptState(Path(label), f"not UTF-8 at byte {exc.start}") from None
    records = parse(text, label)
    return Memory.from_records(records, settings, schema, derived_ids(r.id for r in records))


def render_markdown(records: Iterable[FactRecord], as_of: str, unseen: int = 0) -> bytes:
    """The facts view of `records` on `as_of`: current facts, newest first, bounded.

    Each line names its entity and key and holds the value as inert text; see
    `markdown_text.facts_view` (and `unseen` there).
    """
    return facts_view(records, as_of, unseen=unseen)


def merge3(ours: bytes | None, base: bytes | None, theirs: bytes | None) -> bytes | None:
    """Three-way merge of fact-store files record by record (by id); None on a true conflict.

    A line-level merge would call two unrelated facts that happen to sit on adjacent
    lines a conflict; records have ids, so merge those: a record changed on one side only
    takes that side; changed identically on both takes it; changed differently is a
    conflict. Returns the rendered file (empty store → b"").
    """
    try:
        sides = [
            {r.id: r for r in parse((data or b"").decode("utf-8"), "merge")} for data in (ours, base, theirs)
        ]
    except (CorruptState, StateVersionError, UnicodeDecodeError):
        return None
    mine, common, other = sides
    merged: list[FactRecord] = []
    for record_id in {*mine, *common, *other}:
        o, b, t = mine.get(record_id), common.get(record_id), other.get(record_id)
        if o == b:
            chosen = t
        elif t == b or o == t:
            chosen = o
        else:
            return None
        if chosen is not None:
            merged.append(chosen)
    return render(merged)
