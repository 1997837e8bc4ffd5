"""The grid shares scenario runs between configurations: it must score exactly as if it ran each one."""

from __future__ import annotations

import json
from typing import Any

from daemon.kernel.memory_settings import BASELINE
from daemon.lab.evaluator import evaluate
from daemon.lab.grid import SharedRuns, configurations, run_grid, threshold_classes
from daemon.lab.scenarios import Suite, load_suite, parse_suite

FAR_WORDS = "paris rome oslo lisbon vienna prague madrid dublin"


def _write(at: str, entity: str, key: str, value: str, confidence: float, user: str = "u") -> dict[str, Any]:
    return {
        "action": "write",
        "at": at,
        "tenant": "t",
        "user": user,
        "should_retain": True,
        "fact": {
            "tenant": "t",
            "user": user,
            "entity": entity,
            "key": key,
            "value": value,
            "confidence": confidence,
            "valid_from": at,
            "source": "user",
            "kind": "fact",
        },
    }


def _query(at: str, entity: str, key: str, text: str, expected: str | None) -> dict[str, Any]:
    return {
        "action": "query",
        "at": at,
        "tenant": "t",
        "user": "u",
        "entity": entity,
        "key": key,
        "as_of": at,
        "text": text,
        "expected": expected,
    }


def top_k_suite() -> Suite:
    """Stories where top_k, the threshold and both filters change the outcome: a record of
    another key whose words match the question outranks the answer, so top_k 1 misses it."""
    crowded = {
        "id": "crowded",
        "role": "search",
        "events": [
            _write("2026-01-01", "home", "city", "Berlin", 0.9),
            _write("2026-01-02", "home", "language", FAR_WORDS, 0.95),
            _write("2026-01-03", "office", "city", "Paris", 0.4),
            _write("2026-01-04", "home", "city", "Hamburg", 0.3),
            _query("2026-01-05", "home", "city", f"home city {FAR_WORDS}", "Hamburg"),
            _query("2026-01-05", "office", "city", "office city", "Paris"),
        ],
    }
    moved = {
        "id": "moved",
        "role": "evaluation",
        "events": [
            _write("2026-01-01", "home", "city", "Berlin", 0.95),
            _write("2026-01-10", "home", "city", "Oslo", 0.6),
            _write("2026-01-11", "home", "city", "Oslo", 0.6),
            _query("2026-01-05", "home", "city", "where is home", "Berlin"),
        ],
    }
    return parse_suite(json.dumps([crowded, moved]).encode(), "top-k.json")


def _assert_shared_equals_unshared(suite: Suite) -> None:
    shared = SharedRuns(suite)
    for settings in [*configurations(threshold_classes(suite)), BASELINE]:
        assert shared.evaluate(settings).runs == evaluate(suite, settings).runs, settings.describe()


def test_shared_runs_equal_running_every_configuration_where_top_k_and_threshold_matter() -> None:
    suite = top_k_suite()
    _assert_shared_equals_unshared(suite)
    failed = {r.settings.key(): r.failed for r in run_grid(suite).results}
    assert "crowded" in failed[(0.3, True, True, False, 1)]
    assert "crowded" not in failed[(0.3, True, True, False, 2)]
    assert "crowded" in failed[(0.4, True, True, False, 2)]
    assert "moved" in failed[(0.6, False, False, False, 8)]
    assert "moved" not in failed[(0.9, False, False, False, 8)]


def test_shared_runs_equal_running_every_configuration_on_the_published_suite() -> None:
    _assert_shared_equals_unshared(load_suite("builtin:published"))
