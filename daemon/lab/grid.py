"""The exhaustive settings grid (docs/explanation/lab.md, lab-reference §9).

Thresholds come from the suite itself: the sorted distinct confidences of writes whose
fact has kind `fact`. A threshold admits scores >= t, so each value t stands for every
threshold in (previous value, t]: one per interval covers every distinct write behaviour.
Enumeration order: threshold ascending, then filter_entity, time_aware, deduplicate
(False before True), then top_k 1..8. Every configuration is scored on every scenario (runs
that must be identical are shared: `SharedRuns`); results are ranked by the selection rule
(a stable sort: exact ties keep enumeration order).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from daemon.kernel.memory_settings import BASELINE, TOP_K_MAX, TOP_K_MIN, MemorySettings
from daemon.lab.evaluator import Evaluation, ScenarioRun, run_scenario
from daemon.lab.scenarios import Suite, WriteEvent
from daemon.lab.selection import rank_key

if TYPE_CHECKING:  # a type name only: `lab grid` does not import the JSON document models
    from daemon.kernel.json_contract import LedgerDocument


@dataclass(frozen=True)
class Threshold:
    min_confidence: float
    stores_confidence_above: float | None  # the interval (above, min_confidence]


@dataclass(frozen=True)
class GridResult:
    settings: MemorySettings
    passed: int
    total: int
    mean_stored_records: float
    violations: int
    failed: tuple[str, ...]

    def as_json(self) -> LedgerDocument:
        return {
            "settings": self.settings.model_dump(),
            "passed": self.passed,
            "total": self.total,
            "mean_stored_records": round(self.mean_stored_records, 4),
            "violations": self.violations,
            "failed": list(self.failed),
        }


@dataclass(frozen=True)
class Grid:
    suite_name: str
    suite_sha256: str
    thresholds: tuple[Threshold, ...]
    results: tuple[GridResult, ...]  # ranked
    baseline: GridResult

    @property
    def best(self) -> GridResult | None:
        """The first configuration by the selection rule that fails no hard check."""
        first = self.results[0] if self.results else None
        return first if first is not None and first.violations == 0 else None

    def as_json(self) -> LedgerDocument:
        best = self.best
        return {
            "version": 1,
            "suite": {"sha256": self.suite_sha256},
            "scenarios": self.baseline.total,
            "configurations": len(self.results),
            "thresholds": [
                {"min_confidence": t.min_confidence, "stores_confidence_above": t.stores_confidence_above}
                for t in self.thresholds
            ],
            "results": [r.as_json() for r in self.results],
            "best": best.as_json() if best else None,
            "baseline": self.baseline.as_json(),
        }


def threshold_classes(suite: Suite) -> tuple[Threshold, ...]:
    values = suite.confidences()
    return tuple(Threshold(value, values[i - 1] if i else None) for i, value in enumerate(values))


def configurations(thresholds: tuple[Threshold, ...]) -> list[MemorySettings]:
    return [
        MemorySettings(
            min_confidence=t.min_confidence,
            filter_entity=fe,
            time_aware=ta,
            deduplicate=dd,
            top_k=k,
        )
        for t in thresholds
        for fe, ta, dd in itertools.product((False, True), repeat=3)
        for k in range(TOP_K_MIN, TOP_K_MAX + 1)
    ]


class SharedRuns:
    """Scenario runs shared by the configurations that must behave alike on a story.

    A grid runs each story under 384 configurations, but most of them cannot tell apart:
    - min_confidence acts only through `confidence < min_confidence` on each write (row 5 of
      memory_engine.memory's decision list), so two thresholds that admit the same writes of
      a story give the same run of it;
    - top_k only cuts each query's ranked eligible records (heapq.nlargest), so once top_k
      is at least the widest retrieval of the story's run at TOP_K_MAX, a larger one
      changes nothing.
    So each story runs once per (admitted writes, filter_entity, time_aware, deduplicate) at
    TOP_K_MAX, and again only for a top_k below that run's widest retrieval. Runs are
    untraced: a traced run's write details quote the threshold.
    tests/daemon/lab/test_grid_shared_runs.py checks the result against running every
    configuration on every story.
    """

    def __init__(self, suite: Suite) -> None:
        self.suite = suite
        self._confidences = [
            tuple(e.fact.confidence for e in s.events if isinstance(e, WriteEvent)) for s in suite.scenarios
        ]
        self._admitted: dict[tuple[int, float], tuple[bool, ...]] = {}
        self._runs: dict[tuple[object, ...], ScenarioRun] = {}

    def _new(self, key: tuple[object, ...], index: int, settings: MemorySettings) -> ScenarioRun:
        run = self._runs[key] = run_scenario(self.suite.scenarios[index], settings, self.suite.schema)
        return run

    def run(self, index: int, settings: MemorySettings) -> ScenarioRun:
        """The run of story `index` under `settings`, shared where it must be the same."""
        t = settings.min_confidence
        admitted = self._admitted.get((index, t))
        if admitted is None:
            admitted = self._admitted[index, t] = tuple(not c < t for c in self._confidences[index])
        alike = (index, admitted, settings.filter_entity, settings.time_aware, settings.deduplicate)
        widest = self._runs.get(alike) or self._new(
            alike, index, settings.model_copy(update={"top_k": TOP_K_MAX})
        )
        if settings.top_k >= widest.widest_retrieval:
            return widest
        key = (*alike, settings.top_k)
        return self._runs.get(key) or self._new(key, index, settings)

    def evaluate(self, settings: MemorySettings) -> Evaluation:
        """`evaluator.evaluate(suite, settings)`, from the shared runs."""
        return Evaluation(
            settings=settings, runs=tuple(self.run(i, settings) for i in range(len(self.suite.scenarios)))
        )


def score(suite: Suite, settings: MemorySettings, shared: SharedRuns | None = None) -> GridResult:
    evaluation = (shared or SharedRuns(suite)).evaluate(settings)
    return GridResult(
        settings=settings,
        passed=evaluation.passed,
        total=evaluation.total,
        mean_stored_records=evaluation.mean_stored_records,
        violations=evaluation.violations,
        failed=tuple(evaluation.failed),
    )


def run_grid(suite: Suite, progress: Callable[[int, int], None] | None = None) -> Grid:
    """Evaluate every configuration of the grid on `suite` and rank the results."""
    thresholds = threshold_classes(suite)
    configs = configurations(thresholds)
    shared = SharedRuns(suite)
    results = []
    for index, settings in enumerate(configs):
        results.append(score(suite, settings, shared))
        if progress:
            progress(index + 1, len(configs))
    ranked = sorted(results, key=rank_key)
    return Grid(
        suite_name=suite.name,
        suite_sha256=suite.sha256,
        thresholds=thresholds,
        results=tuple(ranked),
        baseline=score(suite, BASELINE, shared),
    )


@dataclass(frozen=True)
class GroupRow:
    """Configurations that differ only in top_k and score the same."""

    first: GridResult
    top_ks: tuple[int, ...]
    stores_confidence_above: float | None

    @property
    def top_k_label(self) -> str:
        ks = self.top_ks
        if len(ks) > 1 and list(ks) == list(range(ks[0], ks[-1] + 1)):
            return f"{ks[0]}-{ks[-1]}"
        return ",".join(str(k) for k in ks)


def grouped(grid: Grid) -> list[GroupRow]:
    """Ranked rows, each folding the top_k values that give an identical result."""
    above = {t.min_confidence: t.stores_confidence_above for t in grid.thresholds}
    groups: dict[tuple[object, ...], list[GridResult]] = {}
    for result in grid.results:
        s = result.settings
        outcome = (result.passed, round(result.mean_stored_records, 4), result.violations)
        groups.setdefault(
            (s.min_confidence, s.filter_entity, s.time_aware, s.deduplicate, *outcome), []
        ).append(result)
    rows = [
        GroupRow(
            members[0],
            tuple(sorted(m.settings.top_k for m in members)),
            above.get(members[0].settings.min_confidence),
        )
        for members in groups.values()
    ]
    return rows
