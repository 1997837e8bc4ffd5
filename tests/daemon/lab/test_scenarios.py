"""Scenario files: our suite, the published format, and clear errors for authoring mistakes."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from daemon.lab.scenarios import (
    QueryEvent,
    ScenarioError,
    WriteEvent,
    builtin_bytes,
    load_suite,
    parse_suite,
)
from tests.support.deploy import tree_snapshot

COVERAGE = {
    "update",
    "historical",
    "future-dated",
    "uncertainty",
    "duplicates",
    "distractor",
    "owner-separation",
    "deletion",
    "forbidden-write",
    "write-rules",
}


def story(**overrides: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "id": "one",
        "role": "search",
        "events": [
            {
                "action": "write",
                "at": "2026-01-01",
                "tenant": "t",
                "user": "u",
                "should_retain": True,
                "fact": {
                    "tenant": "t",
                    "user": "u",
                    "entity": "home",
                    "key": "city",
                    "value": "Berlin",
                    "confidence": 0.9,
                    "valid_from": "2026-01-01",
                    "source": "user",
                    "kind": "fact",
                },
            },
            {
                "action": "query",
                "at": "2026-01-02",
                "tenant": "t",
                "user": "u",
                "entity": "home",
                "key": "city",
                "as_of": "2026-01-02",
                "text": "city",
                "expected": "Berlin",
            },
        ],
    }
    base.update(overrides)
    return base


def test_our_suite_has_at_least_20_stories_covering_every_required_behaviour() -> None:
    suite = load_suite("builtin:metaeng")
    assert len(suite.scenarios) >= 20
    labels = {label for s in suite.scenarios for label in s.labels}
    assert labels >= COVERAGE
    assert any(s.forbidden_markers for s in suite.scenarios)
    assert {s.role for s in suite.scenarios} == {"search", "evaluation", "adversarial"}


def test_published_suite_loads_as_object_and_as_bare_list(tmp_path: Path) -> None:
    doc = json.loads(builtin_bytes("published"))
    as_object = load_suite("builtin:published")
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps(doc["scenarios"]), encoding="utf-8")
    as_list = load_suite(bare)
    assert [s.id for s in as_list.scenarios] == [s.id for s in as_object.scenarios]
    assert len(as_list.scenarios) == 20
    first = as_object.scenarios[0]
    assert isinstance(first.events[0], WriteEvent) and isinstance(first.events[1], QueryEvent)
    assert as_object.confidences() == [0.25, 0.3, 0.4, 0.6, 0.95, 1.0]


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda s: s["events"][0]["fact"].update(valid_from="2026-1-10"),
            "events[0] (write): fact.valid_from",
        ),
        (lambda s: s["events"][1].update(as_of="2026-02-30"), "events[1] (query): as_of"),
        (lambda s: s["events"][0].update(action="upsert"), "unknown action 'upsert'"),
        (lambda s: s["events"].pop(), "needs at least one query"),
        (lambda s: s["events"][0].update(should_retain="yes"), "should_retain"),
        (lambda s: s["events"][0]["fact"].update(confidence=True), "fact.confidence"),
        (lambda s: s["events"][1].update(extra=1), "extra"),
        (lambda s: s.update(role="judge"), "role"),
        (lambda s: s.update(id="bad id/../x"), "id"),
        (lambda s: s["events"][1].pop("expected"), "expected"),
    ],
)
def test_an_authoring_mistake_names_file_scenario_event_and_field(
    tmp_path: Path, mutate: Any, message: str
) -> None:
    doc = story()
    mutate(doc)
    path = tmp_path / "suite.json"
    path.write_text(json.dumps({"version": 1, "scenarios": [doc]}), encoding="utf-8")
    before = tree_snapshot(tmp_path)
    with pytest.raises(ScenarioError) as caught:
        load_suite(path)
    assert str(path) in str(caught.value)
    assert message in str(caught.value)
    assert tree_snapshot(tmp_path) == before


def test_duplicate_ids_newer_versions_and_unknown_keys_are_refused() -> None:
    one = story()
    with pytest.raises(ScenarioError, match="appears twice"):
        parse_suite(json.dumps([one, copy.deepcopy(one)]).encode(), "dup.json")
    with pytest.raises(ScenarioError, match="version 2 is newer"):
        parse_suite(json.dumps({"version": 2, "scenarios": [one]}).encode(), "new.json")
    with pytest.raises(ScenarioError, match="unknown top-level key"):
        parse_suite(json.dumps({"scenarios": [one], "scenario": []}).encode(), "typo.json")
    with pytest.raises(ScenarioError, match="not a JSON document"):
        parse_suite(b"{", "broken.json")
    with pytest.raises(ScenarioError, match="list of 1-5000 scenarios"):
        parse_suite(b"[]", "empty.json")
    with pytest.raises(ScenarioError, match="unknown built-in suite 'nope'"):
        load_suite("builtin:nope")
    with pytest.raises(ScenarioError, match="cannot read scenario file"):
        load_suite("/nonexistent/suite.json")


def test_a_suite_may_declare_its_own_schema() -> None:
    doc = {"scenarios": [story()], "schema": {"allowed_keys": ["city"], "allowed_sources": ["user", "tool"]}}
    suite = parse_suite(json.dumps(doc).encode(), "own.json")
    assert suite.schema.allowed_keys == frozenset({"city"})
    assert suite.schema.allowed_sources == frozenset({"user", "tool"})
    with pytest.raises(ScenarioError, match=r"schema\.allowed_keys must be a non-empty list"):
        parse_suite(json.dumps({"scenarios": [story()], "schema": {"allowed_keys": []}}).encode(), "bad.json")
