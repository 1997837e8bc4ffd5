"""An evaluation as ledger files, and its re-run for `lab verify`.

An evaluation folder holds `evaluation.json` (settings, score, hard-check totals,
metrics, per-scenario answers) and `traces/<scenario>.json` (every event sent, the
memory's result, the records present after it, and the final state). Nothing in them
depends on the clock or the machine, so re-running the same settings on the same suite
must reproduce them byte for byte; `reproduce` says where it does not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import ValidationError

from daemon.kernel.memory_settings import MemorySettings
from daemon.lab.evaluator import CHECKS, Evaluation, ScenarioRun, evaluate
from daemon.lab.experiment_ledger import Ledger, LedgerError, check_version, dumps, read_json
from daemon.lab.scenarios import Suite

EVALUATION = "evaluation.json"
VERSION = 1


def summary(evaluation: Evaluation, suite: Suite) -> dict[str, Any]:
    return {
        "version": VERSION,
        "settings": evaluation.settings.model_dump(),
        "suite": {"sha256": suite.sha256},
        "passed": evaluation.passed,
        "total": evaluation.total,
        "mean_stored_records": round(evaluation.mean_stored_records, 4),
        "failed": evaluation.failed,
        "violations": evaluation.violations,
        "checks": evaluation.check_totals(),
        "metrics": evaluation.metrics(),
        "scenarios": [
            {
                "id": run.scenario_id,
                "passed": run.passed,
                "answers": list(run.answers),
                "expected": list(run.expected),
                "stored_records": run.stored_records,
                "violations": [v for name in CHECKS for v in run.checks[name][1]],
            }
            for run in evaluation.runs
        ],
    }


def trace(run: ScenarioRun) -> dict[str, Any]:
    return {
        "version": VERSION,
        "scenario": run.scenario_id,
        "passed": run.passed,
        "answers": list(run.answers),
        "expected": list(run.expected),
        "checks": {name: {"checks": n, "violations": list(v)} for name, (n, v) in run.checks.items()},
        "stored_records": run.stored_records,
        "storage_bytes": run.storage_bytes,
        "steps": list(run.steps or ()),
        "final_state": list(run.final_state or ()),
    }


def files(evaluation: Evaluation, suite: Suite) -> dict[str, bytes]:
    """Relative path (inside the evaluation folder) → content."""
    out = {EVALUATION: dumps(summary(evaluation, suite))}
    for run in evaluation.runs:
        out[f"traces/{run.scenario_id}.json"] = dumps(trace(run))
    return out


def write(ledger: Ledger, folder: str, evaluation: Evaluation, suite: Suite) -> None:
    if evaluation.runs and evaluation.runs[0].steps is None:
        raise ValueError("an evaluation written to a ledger must be run with trace=True")
    for rel, data in files(evaluation, suite).items():
        ledger.write(f"{folder}/{rel}", data)


def recorded_settings(root: Path, folder: str) -> MemorySettings:
    data = read_json(root / folder / EVALUATION)
    try:
        check_version(data, root / folder / EVALUATION, VERSION)
    except LedgerError as exc:
        raise ValueError(str(exc)) from None
    try:
        return MemorySettings.model_validate(data.get("settings") if isinstance(data, dict) else None)
    except ValidationError as exc:
        raise ValueError(f"{folder}/{EVALUATION}: settings invalid: {exc.errors()[0]['msg']}") from None


def reproduce(root: Path, folder: str, suite: Suite) -> tuple[Evaluation | None, list[str]]:
    """Re-run the evaluation recorded in `folder`; return it and every mismatch found."""
    try:
        settings = recorded_settings(root, folder)
    except ValueError as exc:
        return None, [str(exc)]
    evaluation = evaluate(suite, settings, trace=True)
    problems = []
    expected = files(evaluation, suite)
    for rel, data in expected.items():
        path = root / folder / rel
        if not path.is_file():
            problems.append(f"{folder}/{rel}: missing")
        elif path.read_bytes() != data:
            problems.append(f"{folder}/{rel}: does not match a re-run of these settings on this suite")
    traces = root / folder / "traces"
    if traces.is_dir():
        for extra in sorted(p.name for p in traces.iterdir() if f"traces/{p.name}" not in expected):
            problems.append(f"{folder}/traces/{extra}: not a scenario of this suite")
    return evaluation, problems
