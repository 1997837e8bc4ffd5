"""The fact memory's write, query and delete rules (docs/explanation/fact-memory.md), on the pure engine."""

from __future__ import annotations

from typing import Any

import pytest

from daemon.kernel.memory_settings import MemorySettings
from memory_engine.memory import Memory
from memory_engine.records import PUBLISHED_SCHEMA, FactRecord

ADA = ("north", "ada")
BEN = ("north", "ben")


def fact(
    value: str, valid_from: str = "2026-01-01", *, owner: tuple[str, str] = ADA, **extra: Any
) -> dict[str, Any]:
    body = {
        "tenant": owner[0],
        "user": owner[1],
        "entity": "home",
        "key": "city",
        "value": value,
        "confidence": 0.9,
        "valid_from": valid_from,
        "source": "user",
        "kind": "fact",
    }
    body.update(extra)
    return body


def memory(**settings: Any) -> Memory:
    return Memory(settings=MemorySettings(**settings), schema=PUBLISHED_SCHEMA)


def write(
    mem: Memory,
    body: dict[str, Any],
    at: str = "2026-01-01",
    owner: tuple[str, str] = ADA,
    event: str = "s:event-1",
):
    return mem.write(body, owner=owner, at=at, source_event_id=event)


def test_fact_below_min_confidence_is_not_stored() -> None:
    mem = memory(min_confidence=0.7)
    result = write(mem, fact("Berlin", confidence=0.6))
    assert (result.status, result.reason, result.retained) == ("abstained", "below_threshold", False)
    assert mem.records() == []


def test_fact_at_threshold_is_stored() -> None:
    mem = memory(min_confidence=0.6)
    assert write(mem, fact("Berlin", confidence=0.6)).status == "stored"


def test_new_value_closes_previous_version_and_links_to_it() -> None:
    mem = memory()
    first = write(mem, fact("Berlin", "2026-01-01"))
    second = write(mem, fact("Paris", "2026-01-10"), at="2026-01-03", event="s:event-2")
    old, new = mem.get(first.record_id or ""), mem.get(second.record_id or "")
    assert old is not None and new is not None
    assert old.valid_to == "2026-01-10"
    assert new.valid_to is None
    assert new.supersedes_memory_id == old.id
    assert new.observed_at == "2026-01-03"


def test_different_value_same_effective_date_is_rejected_as_conflict() -> None:
    mem = memory()
    write(mem, fact("Berlin", "2026-01-05"))
    before = mem.records()
    result = write(mem, fact("Paris", "2026-01-05"), event="s:event-2")
    assert (result.status, result.reason) == ("rejected", "same_date_conflict")
    assert mem.records() == before


def test_same_value_same_date_reuses_the_record_even_without_dedup() -> None:
    mem = memory(deduplicate=False)
    first = write(mem, fact("Berlin", "2026-01-05"))
    again = write(mem, fact("Berlin", "2026-01-05"), event="s:event-2")
    assert (again.status, again.reason, again.retained) == ("deduplicated", "same_effective_fact", True)
    assert again.record_id == first.record_id
    assert len(mem.records()) == 1


def test_update_with_earlier_effective_date_is_rejected() -> None:
    mem = memory()
    write(mem, fact("Paris", "2026-01-10"))
    result = write(mem, fact("Berlin", "2026-01-01"), event="s:event-2")
    assert (result.status, result.reason) == ("rejected", "out_of_order_update")
    assert [r.value for r in mem.records()] == ["Paris"]


def test_deduplicate_reuses_active_value_confirmed_later() -> None:
    with_dedup = memory(deduplicate=True)
    without = memory(deduplicate=False)
    for mem in (with_dedup, without):
        write(mem, fact("Berlin", "2026-01-01"))
        write(mem, fact("Berlin", "2026-01-08"), event="s:event-2")
    assert len(with_dedup.records()) == 1
    assert with_dedup.records()[0].valid_from == "2026-01-01"
    assert len(without.records()) == 2


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"key": "password"}, "invalid_schema"),
        ({"source": "tool"}, "invalid_schema"),
        ({"kind": "instruction"}, "prohibited_write"),
        ({"valid_from": "2026-02-30"}, "invalid_schema"),
        ({"valid_from": "20260101"}, "invalid_schema"),
        ({"confidence": True}, "invalid_schema"),
        ({"unexpected": "field"}, "invalid_schema"),
    ],
)
def test_forbidden_or_invalid_writes_are_never_stored(change: dict[str, Any], reason: str) -> None:
    mem = memory(min_confidence=0.0)
    result = write(mem, fact("Berlin", **change))
    assert (result.status, result.reason, result.retained) == ("rejected", reason, False)
    assert mem.records() == []


def test_missing_source_event_is_rejected() -> None:
    mem = memory()
    result = mem.write(fact("Berlin"), owner=ADA, at="2026-01-01", source_event_id="")
    assert result.reason == "invalid_schema"


def test_write_for_another_owner_is_rejected() -> None:
    mem = memory()
    result = write(mem, fact("Berlin", owner=BEN), owner=ADA)
    assert (result.status, result.reason) == ("rejected", "owner_mismatch")
    assert mem.records() == []


def test_rejected_write_does_not_consume_an_id() -> None:
    mem = memory()
    write(mem, fact("Berlin", key="password"))
    stored = write(mem, fact("Berlin"))
    assert stored.record_id == "m001"


@pytest.mark.parametrize("filter_entity", [False, True])
@pytest.mark.parametrize("time_aware", [False, True])
def test_queries_never_return_another_owners_facts(filter_entity: bool, time_aware: bool) -> None:
    mem = memory(filter_entity=filter_entity, time_aware=time_aware, top_k=8)
    write(mem, fact("Berlin"))
    write(mem, fact("Oslo", owner=BEN), owner=BEN, event="s:event-2")
    ada = mem.query(ADA, "home", "city", "2026-01-02", "home city")
    ben = mem.query(BEN, "home", "city", "2026-01-02", "home city")
    assert ada.answer == "Berlin" and all(r.owner == ADA for r in ada.retrieved)
    assert ben.answer == "Oslo" and all(r.owner == BEN for r in ben.retrieved)
    assert mem.query(("south", "ada"), "home", "city", "2026-01-02", "home city").answer is None


def test_time_aware_query_answers_history_and_future_moves() -> None:
    mem = memory(time_aware=True, filter_entity=True)
    write(mem, fact("Berlin", "2026-01-01"))
    write(mem, fact("Paris", "2026-01-10"), at="2026-01-03", event="s:event-2")
    assert mem.query(ADA, "home", "city", "2026-01-05", "city").answer == "Berlin"
    assert mem.query(ADA, "home", "city", "2026-01-10", "city").answer == "Paris"
    # without time awareness the later-recorded Paris wins even before it is valid
    naive = memory()
    write(naive, fact("Berlin", "2026-01-01"))
    write(naive, fact("Paris", "2026-01-10"), at="2026-01-03", event="s:event-2")
    assert naive.query(ADA, "home", "city", "2026-01-05", "city").answer == "Paris"


def test_filter_entity_keeps_only_the_asked_entity() -> None:
    mem = memory(filter_entity=True)
    write(mem, fact("Berlin"))
    write(mem, fact("Paris", entity="work"), at="2026-01-02", event="s:event-2")
    assert mem.query(ADA, "home", "city", "2026-01-03", "home city").answer == "Berlin"
    loose = memory()
    write(loose, fact("Berlin"))
    write(loose, fact("Paris", entity="work"), at="2026-01-02", event="s:event-2")
    assert loose.query(ADA, "home", "city", "2026-01-03", "city").answer == "Paris"


def test_top_k_bounds_what_is_retrieved() -> None:
    mem = memory(top_k=2)
    for day in range(1, 6):
        write(mem, fact(f"City{day}", entity=f"e{day}"), at=f"2026-01-0{day}", event=f"s:event-{day}")
    assert len(mem.query(ADA, "e1", "city", "2026-01-09", "city").retrieved) == 2


def test_delete_removes_every_version_and_only_that_scope() -> None:
    mem = memory()
    write(mem, fact("Berlin", "2026-01-01"))
    write(mem, fact("Paris", "2026-01-10"), event="s:event-2")
    write(mem, fact("German", key="language"), event="s:event-3")
    deleted = mem.delete(ADA, "home", "city")
    assert len(deleted.deleted_ids) == 2
    assert [r.key for r in mem.records()] == ["language"]
    assert mem.query(ADA, "home", "city", "2026-01-11", "city").answer is None
    # ids are never reused after a delete
    assert write(mem, fact("Rome", "2026-02-01"), event="s:event-4").record_id == "m004"


def test_record_with_empty_interval_is_invalid() -> None:
    with pytest.raises(ValueError, match="empty validity interval"):
        FactRecord(
            tenant="north",
            user="ada",
            entity="home",
            key="city",
            value="Berlin",
            confidence=0.9,
            source="user",
            valid_from="2026-01-05",
            id="m001",
            source_event_id="e",
            observed_at="2026-01-01",
            valid_to="2026-01-05",
        )
