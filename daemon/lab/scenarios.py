"""Scenario files: complete stories of write / query / delete events, each from empty memory.

One format reads both our own suite and the published lab's suite. A file holds either a
list of scenarios or an object with a `scenarios` list (plus optional `version`, `name`,
`description`, `source` and `schema`). A scenario has an `id`, a `role` (search,
evaluation, adversarial), a `family`, a `title`, a `description`, optional `labels`,
optional `forbidden_markers` (strings that must never be stored or answered: a hard
check), and 1–64 `events`, at least one of them a query.

Events, as the published lab writes them:
- write:  at, tenant, user (the authenticated writer), should_retain (a label for the
          useful-write metrics only), fact (a full fact proposal: owner, entity, key,
          value, confidence, valid_from, source, kind);
- query:  at, tenant, user, entity, key, as_of, text, expected (a string, or null when
          "no answer" is the right answer);
- delete: at, tenant, user, entity, key.

Every fact must be a well-formed proposal: a typo in a date is an authoring error named
with its file, scenario and event, never silently a rejected write. Whether the memory
*stores* it (key, source, kind, owner, threshold) is the engine's decision.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from daemon.kernel.errors import DaemonError
from daemon.kernel.name_patterns import NamePattern
from memory_engine.records import PUBLISHED_SCHEMA, FactProposal, MemorySchema, canonical_date

SUITE_VERSION = 1
MAX_SCENARIOS = 5000
MAX_EVENTS = 64
BUILTIN_PREFIX = "builtin:"
BUILTIN_SUITES = {
    "metaeng": "metaeng-suite.json",
    "published": "published-lab-scenarios.json",
}
SCENARIO_ID = NamePattern(
    "scenario id",
    re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}"),
    "1-64 letters, digits, '.', '_' or '-', starting with a letter or digit",
    "city-1",
)
Owner = Field(min_length=1, max_length=80)
Name = Field(min_length=1, max_length=80)


class ScenarioError(DaemonError):
    """A scenario file is unreadable or invalid; the message names file, scenario and event."""


class _Event(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    at: str
    tenant: str = Owner
    user: str = Owner

    @field_validator("at")
    @classmethod
    def _at(cls, value: str) -> str:
        return canonical_date(value)

    @property
    def owner(self) -> tuple[str, str]:
        return (self.tenant, self.user)


class WriteEvent(_Event):
    action: Literal["write"]
    should_retain: bool
    fact: FactProposal


class QueryEvent(_Event):
    action: Literal["query"]
    entity: str = Name
    key: str = Name
    as_of: str
    text: str = Field(min_length=1, max_length=256)
    expected: str | None

    @field_validator("as_of")
    @classmethod
    def _as_of(cls, value: str) -> str:
        return canonical_date(value)


class DeleteEvent(_Event):
    action: Literal["delete"]
    entity: str = Name
    key: str = Name


Event = WriteEvent | QueryEvent | DeleteEvent
EVENT_MODELS: dict[str, type[WriteEvent] | type[QueryEvent] | type[DeleteEvent]] = {
    "write": WriteEvent,
    "query": QueryEvent,
    "delete": DeleteEvent,
}


class _Header(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str
    role: Literal["search", "evaluation", "adversarial"] = "evaluation"
    family: str = Field(default="", max_length=80)
    title: str = Field(default="", max_length=200)
    description: str = Field(default="", max_length=2000)
    labels: tuple[str, ...] = ()
    forbidden_markers: tuple[str, ...] = ()

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not SCENARIO_ID.accepts(value):
            raise ValueError(SCENARIO_ID.refusal(value))
        return value

    @field_validator("forbidden_markers")
    @classmethod
    def _markers(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        if any(not m or len(m) > 256 for m in value):
            raise ValueError("each marker must be a string of 1-256 characters")
        return value


@dataclass(frozen=True)
class Scenario:
    id: str
    role: str
    family: str
    title: str
    description: str
    labels: tuple[str, ...]
    forbidden_markers: tuple[str, ...]
    events: tuple[Event, ...]


@dataclass(frozen=True)
class Suite:
    """A loaded, validated suite; `raw` is the file's exact bytes (copied into ledgers)."""

    label: str
    name: str
    sha256: str
    schema: MemorySchema
    scenarios: tuple[Scenario, ...]
    raw: bytes

    def confidences(self) -> list[float]:
        """Sorted distinct confidences of writes whose fact has kind `fact` (grid thresholds)."""
        found = {
            e.fact.confidence
            for s in self.scenarios
            for e in s.events
            if isinstance(e, WriteEvent) and e.fact.kind == "fact"
        }
        return sorted(found)


def _problem(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return f"{loc}: {err['msg']}" if loc else err["msg"]


def _event(raw: object, where: str) -> Event:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: an event must be a JSON object")
    action = raw.get("action")
    model = EVENT_MODELS.get(action) if isinstance(action, str) else None
    if model is None:
        raise ScenarioError(f"{where}: unknown action {action!r} (write, query or delete)")
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise ScenarioError(f"{where} ({action}): {_problem(exc)}") from None


def _scenario(raw: object, where: str) -> Scenario:
    if not isinstance(raw, dict):
        raise ScenarioError(f"{where}: a scenario must be a JSON object")
    body = {k: v for k, v in raw.items() if k != "events"}
    label = f"{where} (id {raw.get('id')!r})" if isinstance(raw.get("id"), str) else where
    try:
        header = _Header.model_validate(
            {**body, **{k: tuple(v) for k, v in body.items() if isinstance(v, list)}}
        )
    except ValidationError as exc:
        raise ScenarioError(f"{label}: {_problem(exc)}") from None
    events_raw = raw.get("events")
    if not isinstance(events_raw, list) or not 1 <= len(events_raw) <= MAX_EVENTS:
        raise ScenarioError(f"{label}: `events` must be a list of 1-{MAX_EVENTS} events")
    events = tuple(_event(e, f"{label} events[{i}]") for i, e in enumerate(events_raw))
    if not any(isinstance(e, QueryEvent) for e in events):
        raise ScenarioError(f"{label}: needs at least one query event (nothing would be checked)")
    return Scenario(events=events, **header.model_dump())


def _schema(raw: object, label: str) -> MemorySchema:
    if raw is None:
        return PUBLISHED_SCHEMA
    if not isinstance(raw, dict) or set(raw) - {"allowed_keys", "allowed_sources", "allowed_kinds"}:
        raise ScenarioError(
            f"{label}: `schema` must be an object with allowed_keys, allowed_sources, allowed_kinds"
        )
    values: dict[str, Any] = {}
    for key, items in raw.items():
        if not isinstance(items, list) or not items or not all(isinstance(i, str) and i for i in items):
            raise ScenarioError(f"{label}: schema.{key} must be a non-empty list of strings")
        values[key] = frozenset(items)
    return MemorySchema(**values)


def parse_suite(raw: bytes, label: str) -> Suite:
    """Validate a scenario file's bytes; raise ScenarioError naming the first problem."""
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise ScenarioError(f"{label}: not a JSON document ({exc})") from None
    header: dict[str, Any] = {}
    if isinstance(doc, dict):
        unknown = set(doc) - {"version", "name", "description", "source", "schema", "scenarios"}
        if unknown:
            raise ScenarioError(f"{label}: unknown top-level key(s) {', '.join(sorted(unknown))}")
        version = doc.get("version", SUITE_VERSION)
        if not isinstance(version, int) or isinstance(version, bool):
            raise ScenarioError(f"{label}: `version` must be an integer")
        if version > SUITE_VERSION:
            raise ScenarioError(
                f"{label}: suite version {version} is newer than this lab reads ({SUITE_VERSION}); "
                "upgrade metaeng-daemon"
            )
        header = doc
        items = doc.get("scenarios")
    else:
        items = doc
    if not isinstance(items, list) or not 1 <= len(items) <= MAX_SCENARIOS:
        raise ScenarioError(
            f"{label}: expected a list of 1-{MAX_SCENARIOS} scenarios, or an object with a `scenarios` list"
        )
    scenarios = tuple(_scenario(item, f"{label}: scenarios[{i}]") for i, item in enumerate(items))
    seen: set[str] = set()
    for scenario in scenarios:
        if scenario.id in seen:
            raise ScenarioError(f"{label}: scenario id {scenario.id!r} appears twice")
        seen.add(scenario.id)
    name = header.get("name")
    return Suite(
        label=label,
        name=name if isinstance(name, str) and name else Path(label).stem,
        sha256=hashlib.sha256(raw).hexdigest(),
        schema=_schema(header.get("schema"), label),
        scenarios=scenarios,
        raw=raw,
    )


def builtin_bytes(name: str) -> bytes:
    if name not in BUILTIN_SUITES:
        raise ScenarioError(
            f"unknown built-in suite {name!r} (built-in: {', '.join(BUILTIN_PREFIX + n for n in BUILTIN_SUITES)})"
        )
    return resources.files("memory_engine").joinpath("scenarios", BUILTIN_SUITES[name]).read_bytes()


def load_suite(location: str | Path) -> Suite:
    """A suite from a file path, or `builtin:metaeng` / `builtin:published`."""
    text = str(location)
    if text.startswith(BUILTIN_PREFIX):
        return parse_suite(builtin_bytes(text[len(BUILTIN_PREFIX) :]), text)
    path = Path(location)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ScenarioError(f"cannot read scenario file {path}: {exc.strerror or exc}") from None
    return parse_suite(raw, str(path))
