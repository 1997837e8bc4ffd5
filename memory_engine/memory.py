"""The schema-guided fact memory: write, query and delete rules, in memory, no I/O.

Write decision list (first match wins; docs/explanation/fact-memory.md and lab-reference §4):

| # | condition                                                   | result                               |
|---|-------------------------------------------------------------|--------------------------------------|
| 1 | proposal/record invalid, key or source outside the schema   | rejected `invalid_schema`            |
| 2 | fact owner differs from the writer's owner                  | rejected `owner_mismatch`            |
| 3 | kind outside the schema                                     | rejected `prohibited_write`          |
| 4 | valid_from more than max_future_days after the write's date | rejected `future_valid_from`         |
| 5 | confidence < min_confidence                                 | abstained `below_threshold`          |
| 6 | valid_from earlier than the active record's                 | rejected `out_of_order_update`       |
| 7 | same valid_from as the active record, different value       | rejected `same_date_conflict`        |
| 8 | same valid_from, same value                                 | deduplicated `same_effective_fact`   |
| 9 | `deduplicate` on and same value as the active record        | deduplicated `same_active_value`     |
| 10| otherwise: close the active record(s), append, link         | stored `admitted`                    |

Row 1 includes the proposal's own bounds (`records.FactProposal`): text without control
characters, dates in 1900..2200. Row 4 keeps a fact dated far ahead (`9999-12-31`) from
becoming the active record that every later update would be "out of order" against.

A rejected write changes nothing, not even the id counter. Queries never return another
owner's records, in every configuration. Delete removes every version of one
(owner, entity, key).
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Literal, TypeVar

from pydantic import ValidationError

from daemon.kernel.memory_settings import MemorySettings
from memory_engine.records import FactProposal, FactRecord, MemorySchema, bounded_date, bounded_quote

CONTEXT_WORD_BUDGET = 64
Owner = tuple[str, str]
Scope = tuple[str, str, str, str]
K = TypeVar("K")
IdFactory = Callable[[FactProposal, str], str]


@dataclass(frozen=True)
class WriteResult:
    status: Literal["stored", "deduplicated", "abstained", "rejected", "held"]
    reason: str
    retained: bool
    record_id: str | None = None
    detail: str = ""


@dataclass(frozen=True)
class QueryResult:
    answer: str | None
    answer_record: FactRecord | None
    retrieved: tuple[FactRecord, ...]
    packed: tuple[FactRecord, ...]
    context_words: int


@dataclass(frozen=True)
class DeleteResult:
    deleted_ids: tuple[str, ...]


def counter_ids() -> IdFactory:
    """`m001`, `m002`, ... one counter per memory; ids are never reused."""
    state = {"next": 1}

    def make(_proposal: FactProposal, _event: str) -> str:
        value = f"m{state['next']:03d}"
        state["next"] += 1
        return value

    return make


def _tokens(text: str) -> set[str]:
    return set(text.lower().split())


@dataclass
class Memory:
    settings: MemorySettings
    schema: MemorySchema
    new_id: IdFactory = field(default_factory=counter_ids)
    _records: dict[str, FactRecord] = field(default_factory=dict)
    _by_scope: dict[Scope, list[str]] = field(default_factory=dict)
    _by_owner: dict[Owner, list[str]] = field(default_factory=dict)
    _by_owner_entity: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)

    @classmethod
    def from_records(
        cls, records: Iterable[FactRecord], settings: MemorySettings, schema: MemorySchema, new_id: IdFactory
    ) -> Memory:
        memory = cls(settings=settings, schema=schema, new_id=new_id)
        for record in records:
            memory._add(record)
        return memory

    # -- state -----------------------------------------------------------------------------
    def records(self) -> list[FactRecord]:
        return list(self._records.values())

    def absorb(self, records: Iterable[FactRecord]) -> None:
        """Add stored records read later (a shard loaded on demand); ValueError on a duplicate id."""
        for record in records:
            self._add(record)

    def __len__(self) -> int:
        return len(self._records)

    def get(self, record_id: str) -> FactRecord | None:
        return self._records.get(record_id)

    def _add(self, record: FactRecord) -> None:
        if record.id in self._records:
            raise ValueError(f"duplicate record id {record.id!r}")
        self._records[record.id] = record
        self._by_scope.setdefault(record.scope, []).append(record.id)
        self._by_owner.setdefault(record.owner, []).append(record.id)
        self._by_owner_entity.setdefault((record.tenant, record.user, record.entity), []).append(record.id)

    def _remove(self, record: FactRecord) -> None:
        del self._records[record.id]
        _unindex(self._by_scope, record.scope, record.id)
        _unindex(self._by_owner, record.owner, record.id)
        _unindex(self._by_owner_entity, (record.tenant, record.user, record.entity), record.id)

    def versions(self, scope: Scope) -> list[FactRecord]:
        return [self._records[i] for i in self._by_scope.get(scope, [])]

    def active(self, scope: Scope) -> list[FactRecord]:
        return [r for r in self.versions(scope) if r.valid_to is None]

    # -- write -----------------------------------------------------------------------------
    def write(
        self, fact: object, *, owner: Owner, at: str, source_event_id: str, quote: str | None = None
    ) -> WriteResult:
        """Apply the decision list to one proposed fact written by `owner` on day `at`.

        `quote`: the words the fact rests on, kept with the record (bounded, one line).
        """
        try:
            proposal = fact if isinstance(fact, FactProposal) else FactProposal.model_validate(fact)
            bounded_date(at)
            if not source_event_id:
                raise ValueError("source_event_id is empty")
        except (ValidationError, ValueError) as exc:
            return WriteResult("rejected", "invalid_schema", False, detail=_first_error(exc))
        if proposal.source not in self.schema.allowed_sources:
            return WriteResult(
                "rejected", "invalid_schema", False, detail=f"source {proposal.source!r} is not allowed"
            )
        if proposal.key not in self.schema.allowed_keys:
            return WriteResult(
                "rejected", "invalid_schema", False, detail=f"key {proposal.key!r} is not in the schema"
            )
        if (proposal.tenant, proposal.user) != owner:
            return WriteResult(
                "rejected", "owner_mismatch", False, detail="fact owner differs from the writer"
            )
        if proposal.kind not in self.schema.allowed_kinds:
            return WriteResult(
                "rejected", "prohibited_write", False, detail=f"kind {proposal.kind!r} is not allowed"
            )
        ahead = self.schema.max_future_days
        if ahead is not None and date.fromisoformat(proposal.valid_from) > _plus_days(at, ahead):
            return WriteResult(
                "rejected",
                "future_valid_from",
                False,
                detail=(
                    f"valid_from {proposal.valid_from} is more than {ahead} day(s) after the date it "
                    f"was stated, {at} (memory.max_future_days: {ahead})"
                ),
            )
        if proposal.confidence < self.settings.min_confidence:
            return WriteResult(
                "abstained",
                "below_threshold",
                False,
                detail=f"confidence {proposal.confidence:g} < min_confidence {self.settings.min_confidence:g}",
            )
        scope: Scope = (proposal.tenant, proposal.user, proposal.entity, proposal.key)
        active = self.active(scope)
        last = active[-1] if active else None
        if last is not None:
            if proposal.valid_from < last.valid_from:
                return WriteResult(
                    "rejected",
                    "out_of_order_update",
                    False,
                    detail=f"valid_from {proposal.valid_from} is before the active record's {last.valid_from}",
                )
            if proposal.valid_from == last.valid_from:
                if proposal.value != last.value:
                    return WriteResult(
                        "rejected",
                        "same_date_conflict",
                        False,
                        detail=f"{last.value!r} is already valid from {last.valid_from}",
                    )
                return WriteResult("deduplicated", "same_effective_fact", True, record_id=last.id)
            if self.settings.deduplicate and proposal.value == last.value:
                return WriteResult("deduplicated", "same_active_value", True, record_id=last.id)
        try:
            record = FactRecord(
                tenant=proposal.tenant,
                user=proposal.user,
                entity=proposal.entity,
                key=proposal.key,
                value=proposal.value,
                confidence=proposal.confidence,
                source=proposal.source,
                valid_from=proposal.valid_from,
                id=self.new_id(proposal, source_event_id),
                source_event_id=source_event_id,
                observed_at=at,
                supersedes_memory_id=last.id if last else None,
                quote=bounded_quote(quote) if quote else None,
            )
            closed = [r.model_copy(update={"valid_to": proposal.valid_from}) for r in active]
            for item in closed:
                FactRecord.model_validate(item.model_dump())
        except (ValidationError, ValueError) as exc:
            return WriteResult("rejected", "invalid_schema", False, detail=_first_error(exc))
        for item in closed:
            self._records[item.id] = item
        self._add(record)
        return WriteResult("stored", "admitted", True, record_id=record.id)

    # -- delete ----------------------------------------------------------------------------
    def delete(self, owner: Owner, entity: str, key: str) -> DeleteResult:
        """Remove every version of (owner, entity, key); other keys stay."""
        doomed = self.versions((*owner, entity, key))
        for record in doomed:
            self._remove(record)
        return DeleteResult(tuple(r.id for r in doomed))

    # -- query -----------------------------------------------------------------------------
    def query(self, owner: Owner, entity: str, key: str, as_of: str, text: str) -> QueryResult:
        """Rank the owner's eligible records and answer with the first packed one of `key`."""
        if self.settings.filter_entity:
            ids = self._by_owner_entity.get((*owner, entity), [])
        else:
            ids = self._by_owner.get(owner, [])
        eligible: Iterable[FactRecord] = (self._records[i] for i in ids)
        if self.settings.time_aware:
            eligible = (r for r in eligible if r.valid_at(as_of))
        words = _tokens(text)

        def rank(record: FactRecord) -> tuple[int, str, str]:
            relevance = 4 * (record.key == key) + len(
                words & _tokens(f"{record.entity} {record.key} {record.value}")
            )
            return (relevance, record.observed_at, record.id)

        retrieved = tuple(heapq.nlargest(self.settings.top_k, eligible, key=rank))
        packed: list[FactRecord] = []
        used = 0
        for record in retrieved:
            cost = len(f"{record.entity} {record.key} {record.value}".split())
            if used + cost <= CONTEXT_WORD_BUDGET:
                packed.append(record)
                used += cost
        answer = next((r for r in packed if r.key == key), None)
        return QueryResult(
            answer=answer.value if answer else None,
            answer_record=answer,
            retrieved=retrieved,
            packed=tuple(packed),
            context_words=used,
        )


def _plus_days(day: str, days: int) -> date:
    """`day` + `days`, saturating at the last representable date."""
    start = date.fromisoformat(day)
    return date.max if days >= (date.max - start).days else start + timedelta(days=days)


def _unindex(index: dict[K, list[str]], key: K, record_id: str) -> None:
    ids = index[key]
    ids.remove(record_id)
    if not ids:
        del index[key]


def _first_error(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        loc = ".".join(str(p) for p in err["loc"])
        return f"{loc}: {err['msg']}" if loc else err["msg"]
    return str(exc)
