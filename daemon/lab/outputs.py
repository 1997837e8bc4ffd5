"""Grid and person-supplied evaluations, and their ledger folders.

`lab evaluate` scores a configuration a person supplies (a JSON object of the five
settings; missing ones take the baseline value and are reported) against a parent (the
baseline unless another candidate file is given), with the same selection rule and into
the same ledger format as the campaign.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from daemon.kernel.errors import DaemonError
from daemon.kernel.memory_settings import BASELINE, SETTING_NAMES, MemorySettings
from daemon.lab.evaluator import Evaluation, evaluate
from daemon.lab.grid import Grid, grouped
from daemon.lab.ledger_report import evaluate_report, grid_report
from daemon.lab.scenarios import Suite
from daemon.lab.selection import Comparison, compare

# The ledger, the evidence writer and the source hashes are imported by the functions that
# write a ledger folder: `lab grid` without --output prints its table without them.
if TYPE_CHECKING:
    from daemon.lab.experiment_ledger import Ledger

VERSION = 1


class CandidateError(DaemonError):
    """A candidate settings file is unreadable or invalid."""


@dataclass(frozen=True)
class Candidate:
    label: str
    raw: bytes
    settings: MemorySettings
    defaults: tuple[str, ...]  # settings the file left out (baseline values used)


def load_candidate(path: Path) -> Candidate:
    """Read a settings object (or `{"settings": {...}}`, as `lab grid --json` prints it)."""
    try:
        raw = path.read_bytes()
        data = json.loads(raw.decode("utf-8"))
    except OSError as exc:
        raise CandidateError(f"cannot read candidate file {path}: {exc.strerror or exc}") from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise CandidateError(f"{path}: not a JSON document ({exc})") from None
    if isinstance(data, dict) and isinstance(data.get("settings"), dict):
        data = data["settings"]
    if not isinstance(data, dict):
        raise CandidateError(f"{path}: expected a JSON object of settings ({', '.join(SETTING_NAMES)})")
    unknown = sorted(set(data) - set(SETTING_NAMES))
    if unknown:
        raise CandidateError(
            f"{path}: unknown setting(s) {', '.join(unknown)}; the lab may change only {', '.join(SETTING_NAMES)}"
        )
    try:
        settings = MemorySettings.model_validate({**BASELINE.model_dump(), **data})
    except ValidationError as exc:
        err = exc.errors()[0]
        raise CandidateError(f"{path}: {'.'.join(str(p) for p in err['loc'])}: {err['msg']}") from None
    return Candidate(str(path), raw, settings, tuple(n for n in SETTING_NAMES if n not in data))


def grid_rows(grid: Grid) -> list[list[str]]:
    """The ranked, top_k-folded table rows of a grid."""
    rank = {id(r): i for i, r in enumerate(grid.results, start=1)}
    rows = []
    for row in grouped(grid):
        s = row.first.settings
        above = "—" if row.stores_confidence_above is None else f"> {row.stores_confidence_above:g}"
        rows.append(
            [
                str(rank[id(row.first)]),
                f"{s.min_confidence:g}",
                above,
                "yes" if s.filter_entity else "no",
                "yes" if s.time_aware else "no",
                "yes" if s.deduplicate else "no",
                row.top_k_label,
                f"{row.first.passed}/{row.first.total}"
                + ("" if not row.first.violations else " (violations)"),
                f"{row.first.mean_stored_records:.2f}",
            ]
        )
    return rows


def write_grid(ledger: Ledger, suite: Suite, grid: Grid, seconds: float, now: datetime) -> None:
    from daemon.lab import evidence
    from daemon.lab.source_hashes import provenance

    doc = grid.as_json()
    ledger.write("scenarios.json", suite.raw)
    ledger.write_json("grid.json", doc)
    best = grid.best
    if best is not None:
        evidence.write(ledger, "best", evaluate(suite, best.settings, trace=True), suite)
    ledger.write_json(
        "ledger.json",
        {
            "version": VERSION,
            "kind": "grid",
            "created_at": now.isoformat(),
            "suite": {"name": suite.name, "sha256": suite.sha256, "file": "scenarios.json"},
            "configurations": len(grid.results),
            "wall_seconds": round(seconds, 4),
            "best": doc["best"],
        },
    )
    named = {**doc, "suite": {"name": suite.name, "sha256": suite.sha256}}
    ledger.write("report.md", grid_report(named, grid_rows(grid)).encode("utf-8"))
    ledger.seal(provenance(), now)


@dataclass(frozen=True)
class EvaluateOutcome:
    evaluation: Evaluation
    parent: Evaluation
    comparison: Comparison


def evaluate_candidate(suite: Suite, candidate: Candidate, parent: MemorySettings) -> EvaluateOutcome:
    result = evaluate(suite, candidate.settings, trace=True)
    base = evaluate(suite, parent, trace=True)
    return EvaluateOutcome(result, base, compare(result, base))


def write_evaluate(
    ledger: Ledger,
    suite: Suite,
    candidate: Candidate,
    parent_label: str,
    outcome: EvaluateOutcome,
    now: datetime,
) -> None:
    from daemon.lab import evidence
    from daemon.lab.source_hashes import provenance

    ledger.write("scenarios.json", suite.raw)
    ledger.write("candidate.json", candidate.raw)
    evidence.write(ledger, "evaluation", outcome.evaluation, suite)
    evidence.write(ledger, "parent", outcome.parent, suite)
    ledger.write_json(
        "result.json",
        {
            "version": VERSION,
            "candidate_id": "candidate",
            "candidate_evaluation": "evaluation",
            "parent_id": parent_label,
            "parent_evaluation": "parent",
            "comparison": outcome.comparison.as_json(),
            "selected": outcome.comparison.recommendation == "recommend_accept",
            "next_parent_id": "candidate"
            if outcome.comparison.recommendation == "recommend_accept"
            else parent_label,
        },
    )
    doc: dict[str, Any] = {
        "version": VERSION,
        "kind": "evaluate",
        "created_at": now.isoformat(),
        "candidate_file": candidate.label,
        "defaults_used": list(candidate.defaults),
        "parent_label": parent_label,
        "suite": {"name": suite.name, "sha256": suite.sha256, "file": "scenarios.json"},
        "evaluation": evidence.summary(outcome.evaluation, suite),
        "parent": evidence.summary(outcome.parent, suite),
        "comparison": outcome.comparison.as_json(),
    }
    ledger.write_json("ledger.json", doc)
    ledger.write("report.md", evaluate_report(doc).encode("utf-8"))
    ledger.seal(provenance(), now)
