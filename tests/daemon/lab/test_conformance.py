"""Conformance with the published lab (docs/explanation/lab.md, lab-reference §12): real evaluations of the
published 20-story suite (an in-repo copy, `builtin:published`) must give the published figures."""

from __future__ import annotations

import pytest

from daemon.kernel.memory_settings import BASELINE, MemorySettings
from daemon.lab.evaluator import evaluate
from daemon.lab.grid import run_grid
from daemon.lab.scenarios import Suite, load_suite

BOTH = {"filter_entity": True, "time_aware": True}


@pytest.fixture(scope="module")
def published() -> Suite:
    return load_suite("builtin:published")


def score(suite: Suite, **settings: object) -> tuple[int, float]:
    evaluation = evaluate(suite, MemorySettings.model_validate({**BASELINE.model_dump(), **settings}))
    return evaluation.passed, round(evaluation.mean_stored_records, 4)


def test_published_suite_copy_is_byte_identical_to_the_original_data_file(published: Suite) -> None:
    import hashlib
    import json

    doc = json.loads(published.raw)
    original = json.dumps(doc["scenarios"], indent=2, ensure_ascii=False) + "\n"
    assert hashlib.sha256(original.encode()).hexdigest() == doc["source"]["original_file_sha256"]


def test_campaign_steps_reproduce_the_published_figures(published: Suite) -> None:
    assert BASELINE.top_k == 3
    assert score(published) == (13, 1.7)
    assert score(published, **BOTH) == (19, 1.7)
    assert score(published, **BOTH, deduplicate=True) == (19, 1.6)
    assert score(published, **BOTH, deduplicate=True, min_confidence=0.6) == (20, 1.65)


def test_single_change_table_matches_the_published_grid_report(published: Suite) -> None:
    assert score(published, filter_entity=True) == (16, 1.7)
    assert score(published, time_aware=True) == (16, 1.7)
    assert score(published, deduplicate=True) == (13, 1.6)
    assert score(published, min_confidence=0.6) == (14, 1.75)


def test_baseline_fails_exactly_the_seven_published_scenarios_with_the_published_metrics(
    published: Suite,
) -> None:
    evaluation = evaluate(published, BASELINE, trace=True)
    assert evaluation.failed == [
        "entity-grounding",
        "historical-address",
        "future-move",
        "distractor-retrieval",
        "selective-deletion",
        "useful-low-confidence",
        "history-boundary",
    ]
    assert evaluation.check_totals() == {
        "owner_isolation": {"checks": 28, "violations": 0},
        "deletion": {"checks": 11, "violations": 0},
        "forbidden_writes": {"checks": 2, "violations": 0},
    }
    metrics = evaluation.metrics()
    assert metrics["mean_storage_bytes"] == 532.55
    assert metrics["relevant_memory_recall"] == 0.9048
    assert metrics["distracting_memory_rate"] == 0.4865
    assert metrics["stale_fact_rate"] == 0.1481
    assert metrics["mean_context_words"] == 4.1111
    run = {r.scenario_id: r for r in evaluation.runs}
    assert run["selective-deletion"].answers == ("Oslo", "German", "Oslo", "Oslo")
    assert run["future-move"].answers == ("Paris", "Paris")


def test_broad_writes_admit_unwanted_facts_and_fail_four_stories(published: Suite) -> None:
    evaluation = evaluate(published, MemorySettings(min_confidence=0.2, **BOTH), trace=True)
    assert evaluation.passed == 16
    assert evaluation.failed == [
        "unnecessary-write",
        "uncertain-conflict",
        "uncertain-timezone",
        "clean-abstention",
    ]
    assert evaluation.metrics()["useful_write_recall"] == 1.0
    assert evaluate(published, MemorySettings(**BOTH), trace=True).metrics()["useful_write_recall"] == 0.9737


@pytest.mark.slow
def test_grid_has_384_configurations_and_exactly_16_pass_all_with_both_filters_and_threshold_06(
    published: Suite,
) -> None:
    grid = run_grid(published)
    assert [t.min_confidence for t in grid.thresholds] == [0.25, 0.3, 0.4, 0.6, 0.95, 1.0]
    assert [t.stores_confidence_above for t in grid.thresholds] == [None, 0.25, 0.3, 0.4, 0.6, 0.95]
    assert len(grid.results) == 384
    perfect = [r for r in grid.results if r.passed == 20]
    assert len(perfect) == 16
    assert all(r.settings.filter_entity and r.settings.time_aware for r in perfect)
    assert all(0.4 < r.settings.min_confidence <= 0.6 for r in perfect)
    assert sorted({(r.settings.deduplicate, r.mean_stored_records) for r in perfect}) == [
        (False, 1.75),
        (True, 1.65),
    ]
    assert all(r.violations == 0 for r in grid.results)
    by_flags: dict[tuple[object, ...], set[tuple[int, float]]] = {}
    for r in grid.results:
        s = r.settings
        by_flags.setdefault((s.min_confidence, s.filter_entity, s.time_aware, s.deduplicate), set()).add(
            (r.passed, r.mean_stored_records)
        )
    assert all(len(outcomes) == 1 for outcomes in by_flags.values()), "top_k never matters here"
    assert {r.passed for r in grid.results if r.settings.min_confidence == 1.0} == {2}
    best = grid.best
    assert best is not None
    assert best.settings.model_dump() == {
        "min_confidence": 0.6,
        "filter_entity": True,
        "time_aware": True,
        "deduplicate": True,
        "top_k": 1,
    }
    assert (best.passed, best.mean_stored_records) == (20, 1.65)
    assert (grid.baseline.passed, grid.baseline.mean_stored_records) == (13, 1.7)
