"""`lab verify` of a campaign's claims: each chain of parents and the selection, rebuilt.

A campaign folder `campaign-NN/` starts from `baseline/` (the start configuration). Each
`iteration-NN/result.json` compares the iteration's `evaluation/` with the parent of the
moment, and an accepted candidate becomes the next parent. Walking the iterations in
order with the re-run evaluations and the selection rule gives each campaign's final
parent; the selection is then the best final parent by the rule (first campaign on a
tie), kept only if it beats the start — as `Experiment._select` chose it. The request,
validation, result and every `ledger.json` summary must agree with that walk.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from daemon.lab.evaluator import Evaluation
from daemon.lab.experiment_ledger import LedgerError, read_json
from daemon.lab.selection import compare, rank_key
from daemon.lab.verify_summary import Claims

CAMPAIGN = re.compile(r"campaign-(\d{2})")
ITERATION = re.compile(r"iteration-(\d{2})")


@dataclass(frozen=True)
class _Parent:
    id: str
    folder: str
    evaluation: Evaluation

    def final(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "folder": self.folder,
            "settings": self.evaluation.settings.model_dump(),
            "passed": self.evaluation.passed,
            "total": self.evaluation.total,
            "mean_stored_records": round(self.evaluation.mean_stored_records, 4),
        }


def _numbered(folder: Path, pattern: re.Pattern[str]) -> list[tuple[int, str]]:
    found = [(m, p.name) for p in folder.iterdir() if p.is_dir() and (m := pattern.fullmatch(p.name))]
    return sorted((int(m.group(1)), name) for m, name in found)


def _object(root: Path, rel: str) -> dict[str, Any] | None:
    """A JSON object the hash and re-run checks have already judged; None if absent or unreadable."""
    try:
        doc = read_json(root / rel) if (root / rel).is_file() else None
    except LedgerError:
        return None
    return doc if isinstance(doc, dict) else None


def _field(doc: dict[str, Any], key: str, kind: type) -> Any:
    """`doc[key]` if it is a `kind`, else an empty one (a malformed summary then differs)."""
    value = doc.get(key)
    return value if isinstance(value, kind) else kind()


def _records(doc: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """`ledger.json`'s campaign records by number (the last one wins on a duplicate)."""
    return {
        r["campaign"]: r
        for r in _field(doc, "campaigns", list)
        if isinstance(r, dict) and isinstance(r.get("campaign"), int)
    }


def _iteration(
    root: Path,
    folder: str,
    number: int,
    parent: _Parent,
    evaluations: dict[str, Evaluation],
    record: tuple[str, dict[str, Any]],
    claims: Claims,
) -> _Parent:
    """Check one iteration against the parent of the moment; return the parent after it."""
    request = _object(root, f"{folder}/request.json")
    if request is not None:
        context = _field(request, "context", dict)
        claims.differ(f"{folder}/request.json", "context.parent_id", context.get("parent_id"), parent.id)
        claims.differ(
            f"{folder}/request.json",
            "context.parent_config",
            context.get("parent_config"),
            parent.evaluation.settings.model_dump(),
        )
    result = _object(root, f"{folder}/result.json")
    candidate = evaluations.get(f"{folder}/evaluation")
    if result is None:
        if candidate is not None:
            claims.problems.append(f"{folder}/evaluation: evaluated, but the iteration has no result.json")
        return parent
    if candidate is None:
        claims.problems.append(f"{folder}/evaluation: no evaluation to re-run for its result.json")
        return parent
    candidate_id = f"agent-{number:02d}"
    comparison = compare(candidate, parent.evaluation)
    selected = comparison.recommendation == "recommend_accept"
    where = f"{folder}/result.json"
    claims.differ(where, "candidate_id", result.get("candidate_id"), candidate_id)
    claims.differ(where, "candidate_evaluation", result.get("candidate_evaluation"), f"{folder}/evaluation")
    claims.differ(where, "parent_id", result.get("parent_id"), parent.id)
    claims.differ(where, "parent_evaluation", result.get("parent_evaluation"), parent.folder)
    claims.differ(
        where, "next_parent_id", result.get("next_parent_id"), candidate_id if selected else parent.id
    )
    validation = _object(root, f"{folder}/validation.json")
    settings = candidate.settings.model_dump()
    evaluated = f"{folder}/evaluation"
    claims.differ(
        f"{folder}/validation.json", "candidate", (validation or {}).get("candidate"), settings, by=evaluated
    )
    proposed = _object(root, f"{folder}/candidate.json") or {}
    claims.differ(f"{folder}/candidate.json", "settings", proposed.get("settings"), settings, by=evaluated)
    label, campaign = record
    step = next(
        (
            s
            for s in _field(campaign, "iterations", list)
            if isinstance(s, dict) and s.get("iteration") == number
        ),
        {},
    )
    expected = {
        "status": "evaluated",
        "candidate_id": candidate_id,
        "passed": candidate.passed,
        "mean_stored_records": round(candidate.mean_stored_records, 4),
        "recommendation": comparison.recommendation,
        "selected": selected,
        "reason": comparison.reason,
    }
    recorded = {k: step.get(k) for k in expected}
    claims.differ("ledger.json", f"{label}.iterations[iteration={number}]", recorded, expected)
    return _Parent(candidate_id, f"{folder}/evaluation", candidate) if selected else parent


def campaign_claims(root: Path, doc: dict[str, Any], evaluations: dict[str, Evaluation]) -> Claims:
    """Every campaign's chain of parents, its final parent, and the experiment's selection."""
    claims = Claims()
    plan = _field(doc, "plan", dict)
    start_label = plan.get("start_label")
    records = _records(doc)
    start: Evaluation | None = None
    finals: list[tuple[int, _Parent]] = []
    for index, name in _numbered(root, CAMPAIGN):
        baseline = evaluations.get(f"{name}/baseline")
        if baseline is None:
            claims.problems.append(f"{name}/baseline: no evaluation of the start configuration to re-run")
            continue
        claims.differ(
            "ledger.json",
            "plan.start",
            plan.get("start"),
            baseline.settings.model_dump(),
            by=f"{name}/baseline",
        )
        if start is None:
            start = baseline
        record = records.get(index)
        if record is None or record.get("status") == "not_started":
            claims.problems.append(f"ledger.json: campaigns has no record of the campaign in {name}/")
            record = {}
        parent = _Parent(str(start_label), f"{name}/baseline", baseline)
        for number, iteration in _numbered(root / name, ITERATION):
            parent = _iteration(
                root,
                f"{name}/{iteration}",
                number,
                parent,
                evaluations,
                (f"campaigns[campaign={index}]", record),
                claims,
            )
        claims.differ(
            "ledger.json",
            f"campaigns[campaign={index}].final_parent",
            record.get("final_parent"),
            parent.final(),
        )
        finals.append((index, parent))
    for index, record in sorted(records.items()):
        if record.get("status") != "not_started" and index not in {i for i, _ in finals}:
            claims.problems.append(
                f"ledger.json: campaign {index} is recorded as run but campaign-{index:02d}/ has no evidence"
            )
    if start is not None:
        summary = {
            "passed": start.passed,
            "total": start.total,
            "mean_stored_records": round(start.mean_stored_records, 4),
        }
        claims.differ("ledger.json", "start", doc.get("start"), summary)
    chosen = _select(finals, start)
    claims.differ("ledger.json", "selected", doc.get("selected"), _selected(*chosen) if chosen else None)
    if chosen is not None:
        claims.selection = chosen[1].evaluation.settings
    return claims


def _select(finals: list[tuple[int, _Parent]], start: Evaluation | None) -> tuple[int, _Parent, str] | None:
    """The best final parent that moved off the baseline, if it beats the start (else None)."""
    improved = [(i, p) for i, p in finals if not p.folder.endswith("/baseline")]
    if not improved or start is None:
        return None
    index, best = min(improved, key=lambda item: rank_key(item[1].evaluation))
    comparison = compare(best.evaluation, start)
    if comparison.recommendation != "recommend_accept":
        return None
    return index, best, comparison.reason


def _selected(index: int, best: _Parent, reason: str) -> dict[str, Any]:
    """`ledger.json`'s `selected`, as `campaign_record.experiment_document` writes it."""
    return {
        "campaign": index,
        "candidate_id": best.id,
        "evaluation": best.folder,
        "settings": best.evaluation.settings.model_dump(),
        "passed": best.evaluation.passed,
        "total": best.evaluation.total,
        "mean_stored_records": round(best.evaluation.mean_stored_records, 4),
        "reason": reason,
    }
