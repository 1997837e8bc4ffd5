"""The evaluator: run every scenario on a fresh memory and score it (docs/explanation/lab.md).

A scenario passes only if its answers, in order, equal the expected answers exactly (null
must be null) and no hard check failed in it. The hard checks, per lab-reference §7:

- owner_isolation: a write whose fact owner differs from the writer is not retained and
  changes nothing; every record a query retrieves belongs to the query's owner;
- deletion: after a delete no record of that scope remains, and from then on none of the
  deleted ids ever comes back (checked after every later event);
- forbidden_writes: a write with a key, source or kind outside the schema is not retained
  and changes nothing; and (our suite's addition) no stored record and no answer ever
  contains one of the scenario's `forbidden_markers`.

Stored records are counted at the end of each scenario (closed history included, deleted
and deduplicated writes not). Traces keep, per event, what was sent, what the memory
answered and which records were present afterwards.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from daemon.kernel.memory_settings import MemorySettings
from daemon.lab.scenarios import DeleteEvent, QueryEvent, Scenario, Suite, WriteEvent
from memory_engine.memory import Memory, QueryResult, WriteResult, counter_ids
from memory_engine.records import FactRecord, MemorySchema

CHECKS = ("owner_isolation", "deletion", "forbidden_writes")


@dataclass
class _Tally:
    checks: int = 0
    violations: list[str] = field(default_factory=list)

    def passes(self, ok: bool) -> bool:
        """Count one check; the caller records the violation (messages are built only then)."""
        self.checks += 1
        return ok


@dataclass(frozen=True)
class QueryStats:
    relevant: bool | None  # None when the expected answer is null
    retrieved: int
    distracting: int
    stale_answer: bool
    context_words: int


@dataclass(frozen=True)
class ScenarioRun:
    scenario_id: str
    passed: bool
    answers: tuple[str | None, ...]
    expected: tuple[str | None, ...]
    checks: dict[str, tuple[int, tuple[str, ...]]]
    stored_records: int
    storage_bytes: int | None  # compact JSON size of the final state (traced runs)
    writes: tuple[tuple[bool, bool, str], ...]  # (should_retain, retained, status)
    queries: tuple[QueryStats, ...]
    steps: tuple[dict[str, Any], ...] | None = None
    final_state: tuple[dict[str, Any], ...] | None = None
    widest_retrieval: int = 0  # the most records one query retrieved (the grid shares runs by it)

    @property
    def violations(self) -> int:
        return sum(len(v) for _n, v in self.checks.values())


def _same_state(before: Sequence[FactRecord], after: Sequence[FactRecord]) -> bool:
    # Records are immutable and replaced on every change, so identity is equality here.
    return len(before) == len(after) and all(a is b for a, b in zip(before, after, strict=True))


def _forbidden(event: WriteEvent, schema: MemorySchema) -> bool:
    fact = event.fact
    return (
        fact.key not in schema.allowed_keys
        or fact.kind not in schema.allowed_kinds
        or fact.source not in schema.allowed_sources
    )


def _query_stats(event: QueryEvent, result: QueryResult) -> QueryStats:
    def relevant(record: FactRecord) -> bool:
        return (
            record.owner == event.owner
            and record.entity == event.entity
            and record.key == event.key
            and record.value == event.expected
            and record.valid_at(event.as_of)
        )

    hits = [r for r in result.retrieved if event.expected is not None and relevant(r)]
    stale = result.answer_record is not None and not result.answer_record.valid_at(event.as_of)
    return QueryStats(
        relevant=None if event.expected is None else bool(hits),
        retrieved=len(result.retrieved),
        distracting=len(result.retrieved) - len(hits),
        stale_answer=stale,
        context_words=result.context_words,
    )


def _write_step(result: WriteResult) -> dict[str, Any]:
    return {
        "status": result.status,
        "reason": result.reason,
        "retained": result.retained,
        "record_id": result.record_id,
        "detail": result.detail,
    }


def _query_step(event: QueryEvent, result: QueryResult) -> dict[str, Any]:
    return {
        "answer": result.answer,
        "expected": event.expected,
        "answer_record_id": result.answer_record.id if result.answer_record else None,
        "retrieved_ids": [r.id for r in result.retrieved],
        "packed_ids": [r.id for r in result.packed],
        "context_words": result.context_words,
    }


def run_scenario(
    scenario: Scenario,
    settings: MemorySettings,
    schema: MemorySchema,
    *,
    trace: bool = False,
    target: type[Memory] = Memory,
) -> ScenarioRun:
    """Run one story on an empty `target` memory; with `trace`, keep every step, the final state
    and the write/query statistics behind the metrics (the grid runs without, for speed)."""
    memory = target(settings=settings, schema=schema, new_id=counter_ids())
    owner_t, deletion_t, forbidden_t = (_Tally() for _ in CHECKS)
    markers = tuple(m.casefold() for m in scenario.forbidden_markers)
    answers: list[str | None] = []
    writes: list[tuple[bool, bool, str]] = []
    queries: list[QueryStats] = []
    steps: list[dict[str, Any]] = []
    deleted: set[str] = set()
    widest = 0
    for number, event in enumerate(scenario.events, start=1):
        result: dict[str, Any] = {}
        if isinstance(event, WriteEvent):
            foreign = (event.fact.tenant, event.fact.user) != event.owner
            forbidden = _forbidden(event, schema)
            before = memory.records() if foreign or forbidden else []
            outcome = memory.write(
                event.fact, owner=event.owner, at=event.at, source_event_id=f"{scenario.id}:event-{number}"
            )
            if foreign or forbidden:
                unchanged = not outcome.retained and _same_state(before, memory.records())
                if foreign and not owner_t.passes(unchanged):
                    owner_t.violations.append(
                        f"event {number}: a write for another owner was {outcome.status}"
                    )
                if forbidden and not forbidden_t.passes(unchanged):
                    forbidden_t.violations.append(f"event {number}: a forbidden write was {outcome.status}")
            if trace:
                writes.append((event.should_retain, outcome.retained, outcome.status))
                result = _write_step(outcome)
        elif isinstance(event, QueryEvent):
            answer = memory.query(event.owner, event.entity, event.key, event.as_of, event.text)
            answers.append(answer.answer)
            widest = max(widest, len(answer.retrieved))
            strangers = [r.id for r in answer.retrieved if r.owner != event.owner]
            if not owner_t.passes(not strangers):
                owner_t.violations.append(
                    f"event {number}: query retrieved another owner's record(s) {strangers}"
                )
            if markers and answer.answer is not None:
                said = answer.answer.casefold()
                if not forbidden_t.passes(not any(m in said for m in markers)):
                    forbidden_t.violations.append(f"event {number}: the answer carries a forbidden marker")
            if trace:
                queries.append(_query_stats(event, answer))
                result = _query_step(event, answer)
        else:
            assert isinstance(event, DeleteEvent)
            removed = memory.delete(event.owner, event.entity, event.key)
            deleted.update(removed.deleted_ids)
            left = memory.versions((*event.owner, event.entity, event.key))
            if not deletion_t.passes(not left):
                deletion_t.violations.append(
                    f"event {number}: {len(left)} record(s) of the deleted scope remain"
                )
            result = {"deleted_ids": list(removed.deleted_ids)}
        if deleted:
            back = sorted(i for i in deleted if memory.get(i) is not None)
            if not deletion_t.passes(not back):
                deletion_t.violations.append(f"event {number}: deleted record(s) {back} are present")
        if markers:
            leaked = [
                r.id
                for r in memory.records()
                if any(m in r.value.casefold() or m in r.entity.casefold() for m in markers)
            ]
            if not forbidden_t.passes(not leaked):
                forbidden_t.violations.append(f"event {number}: record(s) {leaked} carry a forbidden marker")
        if trace:
            steps.append(
                {
                    "step": number,
                    "action": event.action,
                    "event": event.model_dump(mode="json"),
                    "result": result,
                    "after": [r.id for r in memory.records()],
                }
            )
    tallies = dict(zip(CHECKS, (owner_t, deletion_t, forbidden_t), strict=True))
    expected = tuple(e.expected for e in scenario.events if isinstance(e, QueryEvent))
    checks = {name: (t.checks, tuple(t.violations)) for name, t in tallies.items()}
    # The final state's size is evidence, not part of the score: measured with traces only.
    # The lab's records never carry a quote: leave the field out, as the published lab does.
    state = [r.model_dump(mode="json", exclude={"quote"}) for r in memory.records()] if trace else []
    return ScenarioRun(
        scenario_id=scenario.id,
        passed=tuple(answers) == expected and not any(v for _n, v in checks.values()),
        answers=tuple(answers),
        expected=expected,
        checks=checks,
        stored_records=len(memory),
        storage_bytes=len(json.dumps(state, separators=(",", ":"))) if trace else None,
        writes=tuple(writes),
        queries=tuple(queries),
        steps=tuple(steps) if trace else None,
        final_state=tuple(state) if trace else None,
        widest_retrieval=widest,
    )


@dataclass(frozen=True)
class Evaluation:
    settings: MemorySettings
    runs: tuple[ScenarioRun, ...]

    @property
    def total(self) -> int:
        return len(self.runs)

    @property
    def passed(self) -> int:
        return sum(r.passed for r in self.runs)

    @property
    def mean_stored_records(self) -> float:
        return sum(r.stored_records for r in self.runs) / len(self.runs)

    @property
    def failed(self) -> list[str]:
        return [r.scenario_id for r in self.runs if not r.passed]

    @property
    def violations(self) -> int:
        return sum(r.violations for r in self.runs)

    def check_totals(self) -> dict[str, dict[str, int]]:
        return {
            name: {
                "checks": sum(r.checks[name][0] for r in self.runs),
                "violations": sum(len(r.checks[name][1]) for r in self.runs),
            }
            for name in CHECKS
        }

    def metrics(self) -> dict[str, float | None]:
        """Evidence metrics of a traced evaluation (see lab-reference §7 for each definition)."""
        if any(r.steps is None for r in self.runs):
            raise ValueError("metrics need an evaluation run with trace=True")
        writes = [w for r in self.runs for w in r.writes]
        queries = [q for r in self.runs for q in r.queries]
        retained = [w for w in writes if w[1]]
        wanted = [w for w in writes if w[0]]
        unwanted = [w for w in writes if not w[0]]
        relevant = [q.relevant for q in queries if q.relevant is not None]
        retrieved = sum(q.retrieved for q in queries)

        def ratio(num: int, den: int) -> float | None:
            return round(num / den, 4) if den else None

        return {
            "success": ratio(self.passed, self.total),
            "mean_stored_records": round(self.mean_stored_records, 4),
            "mean_storage_bytes": None
            if any(r.storage_bytes is None for r in self.runs)
            else round(sum(r.storage_bytes or 0 for r in self.runs) / self.total, 4),
            "useful_write_precision": ratio(sum(w[0] for w in retained), len(retained)),
            "useful_write_recall": ratio(sum(w[1] for w in wanted), len(wanted)),
            "unnecessary_write_rate": ratio(sum(w[1] for w in unwanted), len(unwanted)),
            "relevant_memory_recall": ratio(sum(relevant), len(relevant)),
            "distracting_memory_rate": ratio(sum(q.distracting for q in queries), retrieved),
            "stale_fact_rate": ratio(sum(q.stale_answer for q in queries), len(queries)),
            "mean_context_words": ratio(sum(q.context_words for q in queries), len(queries)),
        }


def evaluate(
    suite: Suite, settings: MemorySettings, *, trace: bool = False, target: type[Memory] = Memory
) -> Evaluation:
    """Run every scenario of `suite` with `settings`, each on a fresh memory of type `target`
    (the engine's Memory; another implementation can be scored against the same hard checks)."""
    return Evaluation(
        settings=settings,
        runs=tuple(
            run_scenario(s, settings, suite.schema, trace=trace, target=target) for s in suite.scenarios
        ),
    )
