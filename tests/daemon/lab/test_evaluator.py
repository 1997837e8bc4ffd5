"""The evaluator's pass rule and hard checks, and the selection rule."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from daemon.kernel.memory_settings import BASELINE, MemorySettings
from daemon.lab.evaluator import evaluate
from daemon.lab.grid import GridResult, run_grid
from daemon.lab.scenarios import Suite, load_suite, parse_suite
from daemon.lab.selection import compare, rank_key
from memory_engine.memory import DeleteResult, Memory, QueryResult, WriteResult
from tests.daemon.lab.test_scenarios import story

GOOD = MemorySettings(min_confidence=0.65, filter_entity=True, time_aware=True, deduplicate=True, top_k=2)


class NeverDeletes(Memory):
    """A faulty target: delete reports nothing and removes nothing."""

    def delete(self, owner: tuple[str, str], entity: str, key: str) -> DeleteResult:
        return DeleteResult(())


class TrustsTheFact(Memory):
    """A faulty target: stores a fact under the owner the fact claims, not the writer."""

    def write(self, fact: object, *, owner: tuple[str, str], at: str, source_event_id: str) -> WriteResult:
        claimed = (getattr(fact, "tenant", owner[0]), getattr(fact, "user", owner[1]))
        return super().write(fact, owner=claimed, at=at, source_event_id=source_event_id)


class LeaksOthers(Memory):
    """A faulty target: retrieval also returns every other owner's records (answers unchanged)."""

    def query(self, owner: tuple[str, str], entity: str, key: str, as_of: str, text: str) -> QueryResult:
        result = super().query(owner, entity, key, as_of, text)
        others = tuple(r for r in self.records() if r.owner != owner)
        return replace(result, retrieved=result.retrieved + others)


def ours() -> Suite:
    return load_suite("builtin:metaeng")


def by_id(suite: Suite, target: type[Memory]) -> dict[str, Any]:
    return {r.scenario_id: r for r in evaluate(suite, GOOD, target=target).runs}


def test_our_suite_passes_completely_with_good_settings_and_exercises_every_write_rule() -> None:
    suite = ours()
    evaluation = evaluate(suite, GOOD, trace=True)
    assert evaluation.passed == len(suite.scenarios) and evaluation.violations == 0
    reasons = {
        step["result"]["reason"]
        for run in evaluation.runs
        for step in run.steps or ()
        if step["action"] == "write"
    }
    assert reasons >= {
        "admitted",
        "invalid_schema",
        "owner_mismatch",
        "prohibited_write",
        "below_threshold",
        "out_of_order_update",
        "same_date_conflict",
        "same_effective_fact",
        "same_active_value",
    }


def test_a_memory_that_does_not_delete_fails_the_deletion_check_even_when_answers_look_right() -> None:
    runs = by_id(ours(), NeverDeletes)
    run = runs["forget-is-per-user"]
    assert run.checks["deletion"][1], "violations recorded"
    assert not run.passed
    assert not runs["forget-then-retell"].passed


def test_a_memory_that_trusts_the_claimed_owner_fails_owner_isolation() -> None:
    run = by_id(ours(), TrustsTheFact)["spoofed-owner"]
    assert run.checks["owner_isolation"][1] == ("event 2: a write for another owner was stored",)
    assert not run.passed


def test_retrieving_another_owners_records_fails_even_if_the_answer_is_right() -> None:
    run = by_id(ours(), LeaksOthers)["tenant-wall"]
    assert run.answers == run.expected
    assert run.checks["owner_isolation"][1]
    assert not run.passed


def test_a_forbidden_marker_stored_through_an_allowed_key_fails_the_scenario() -> None:
    doc = story(forbidden_markers=["EXFIL"])
    doc["events"][0]["fact"]["value"] = "Berlin EXFIL"
    doc["events"][1]["expected"] = "Berlin EXFIL"
    run = evaluate(parse_suite(json.dumps([doc]).encode(), "m.json"), BASELINE).runs[0]
    assert run.answers == run.expected
    assert run.checks["forbidden_writes"][1][0].startswith(
        "event 1: record(s) ['m001'] carry a forbidden marker"
    )
    assert not run.passed


def test_selection_rule_accepts_more_passes_or_fewer_records_and_keeps_the_parent_on_a_tie() -> None:
    suite = load_suite("builtin:published")
    base = evaluate(suite, BASELINE)
    filters = evaluate(suite, MemorySettings(filter_entity=True, time_aware=True))
    dedup = evaluate(suite, MemorySettings(filter_entity=True, time_aware=True, deduplicate=True))
    up = compare(filters, base)
    assert up.recommendation == "recommend_accept" and up.delta_passed == 6 and len(up.wins) == 6
    assert compare(base, filters).recommendation == "recommend_reject"
    leaner = compare(dedup, filters)
    assert leaner.recommendation == "recommend_accept" and "fewer stored records" in leaner.reason
    tie = compare(filters, evaluate(suite, MemorySettings(filter_entity=True, time_aware=True, top_k=5)))
    assert tie.recommendation == "recommend_reject" and "parent kept" in tie.reason


def test_a_configuration_with_a_violation_ranks_last_and_is_never_best() -> None:
    clean = GridResult(BASELINE, 10, 20, 2.0, 0, ())
    cheating = GridResult(GOOD, 20, 20, 1.0, 1, ())
    assert sorted([cheating, clean], key=rank_key) == [clean, cheating]
    grid = run_grid(parse_suite(json.dumps([story()]).encode(), "tiny.json"))
    forged = replace(grid, results=(cheating, *grid.results))
    assert forged.best is None
    assert grid.best is not None and grid.best.passed == 1
