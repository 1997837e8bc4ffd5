"""`lab verify DIR`: recompute a ledger's hashes and re-run its deterministic parts.

1. Hashes: manifest present, no symlinks, no path escaping the folder, every listed file
   present with its sha256, no unlisted file.
2. Re-runs, against the suite copy in the ledger (`scenarios.json`):
   - every evaluation folder (`evaluation.json` + `traces/`) reproduces byte for byte;
   - every parent choice (`result.json`) follows from the two evaluations it names;
   - every validation verdict (`validation.json`) follows from the recorded response and
     the request it answered (evidence references, parent, tested configurations);
   - a grid (`grid.json`) reproduces byte for byte.
   A precision ledger (`lab distill`, kind `distill`) is re-checked by `distill_verify`
   instead: requests rebuilt from its corpus copy, answers re-scored, figures recomputed.
3. Claims: every summary in `ledger.json` that the re-runs determine (a grid's best, an
   evaluation's scores and comparison, a campaign's chains of parents and its selection)
   is rebuilt from them (`verify_summary`, `verify_campaign`) and must match. The rebuilt
   selection is the report's `selection`, the only one `lab propose --ledger` acts on.
Any mismatch is a problem; a ledger verifies only with none.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from daemon.kernel.json_contract import Document
from daemon.kernel.memory_settings import MemorySettings
from daemon.lab import evidence, proposer
from daemon.lab.distill_verify import verify_distill
from daemon.lab.evaluator import Evaluation
from daemon.lab.experiment_ledger import (
    LedgerError,
    check_manifest,
    check_version,
    dumps,
    load_manifest,
    read_json,
)
from daemon.lab.grid import Grid, run_grid
from daemon.lab.scenarios import ScenarioError, Suite, parse_suite
from daemon.lab.selection import compare
from daemon.lab.source_hashes import provenance
from daemon.lab.verify_campaign import campaign_claims
from daemon.lab.verify_summary import Claims, evaluate_claims, grid_claims

KINDS = ("grid", "evaluate", "campaign", "distill")


class VerifyDocument(Document):
    """What `lab verify --json` prints."""

    ledger: str
    kind: str
    ok: bool
    files: int
    evaluations_rerun: int
    decisions_rechecked: int
    validations_rechecked: int
    requests_rebuilt: int
    sessions_rescored: int
    problems: list[str]
    notes: list[str]


@dataclass
class VerifyReport:
    root: Path
    kind: str = "unknown"
    files: int = 0
    evaluations: int = 0
    decisions: int = 0
    validations: int = 0
    requests: int = 0
    sessions: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    selection: MemorySettings | None = None  # rebuilt from the re-runs; meaningful only when ok

    @property
    def ok(self) -> bool:
        return not self.problems

    def document(self) -> VerifyDocument:
        return VerifyDocument(
            ledger=str(self.root),
            kind=self.kind,
            ok=self.ok,
            files=self.files,
            evaluations_rerun=self.evaluations,
            decisions_rechecked=self.decisions,
            validations_rechecked=self.validations,
            requests_rebuilt=self.requests,
            sessions_rescored=self.sessions,
            problems=self.problems,
            notes=self.notes,
        )


def _folders_with(root: Path, name: str) -> list[str]:
    return sorted(p.parent.relative_to(root).as_posix() for p in root.rglob(name) if p.is_file())


def _rel(folder: str, name: str) -> str:
    return name if folder == "." else f"{folder}/{name}"


def _load(root: Path, folder: str, name: str, report: VerifyReport) -> dict[str, Any] | None:
    """A ledger JSON object, or None with the problem recorded (unreadable, not an object, newer)."""
    where = _rel(folder, name)
    try:
        doc = read_json(root / folder / name)
        check_version(doc, root / folder / name)
    except LedgerError as exc:
        report.problems.append(f"{where}: {exc}")
        return None
    if not isinstance(doc, dict):
        report.problems.append(f"{where}: expected a JSON object")
        return None
    return doc


def _decisions(root: Path, evaluations: dict[str, Evaluation], report: VerifyReport) -> None:
    for folder in _folders_with(root, "result.json"):
        doc = _load(root, folder, "result.json", report)
        where = _rel(folder, "result.json")
        if doc is None:
            continue
        cand = evaluations.get(str(doc.get("candidate_evaluation")))
        parent = evaluations.get(str(doc.get("parent_evaluation")))
        if cand is None or parent is None:
            report.problems.append(f"{where}: names an evaluation that is not in the ledger")
            continue
        comparison = compare(cand, parent).as_json()
        selected = comparison["recommendation"] == "recommend_accept"
        if doc.get("comparison") != comparison or doc.get("selected") != selected:
            report.problems.append(f"{where}: the recorded decision does not follow from the two evaluations")
        report.decisions += 1


def _validations(root: Path, report: VerifyReport) -> None:
    for folder in _folders_with(root, "validation.json"):
        recorded = _load(root, folder, "validation.json", report)
        request = _load(root, folder, "request.json", report)
        response = _load(root, folder, "response.json", report)
        where = _rel(folder, "validation.json")
        if recorded is None or request is None or response is None:
            continue
        try:
            ctx = request["context"]
            decision = proposer.MemorySettingsDecision.model_validate_json(response["raw"])
            tested = [MemorySettings.model_validate(t["config"]) for t in ctx["tested"]]
            parent = MemorySettings.model_validate(ctx["parent_config"])
        except (KeyError, TypeError, ValidationError, ValueError):
            report.problems.append(f"{where}: its request or response cannot be read back")
            continue
        try:
            verdict = proposer.validate(
                decision, known=proposer.references(ctx["evidence"]), parent=parent, tested=tested
            )
            again: dict[str, Any] = {
                "ok": True,
                "error": None,
                "action": verdict.action,
                "patch": verdict.patch,
                "candidate": verdict.candidate.model_dump() if verdict.candidate else None,
            }
        except proposer.ProposalRejected as exc:
            again = {"ok": False, "error": str(exc)}
        if {k: v for k, v in recorded.items() if k != "version"} != json.loads(dumps(again)):
            report.problems.append(f"{where}: re-validating the recorded response gives a different verdict")
        report.validations += 1


def _grid(root: Path, suite: Suite, kind: str, report: VerifyReport) -> Grid | None:
    """The re-run grid, if the ledger has one (a grid ledger must)."""
    path = root / "grid.json"
    if not path.is_file():
        if kind == "grid":
            report.problems.append("grid.json: missing; a grid ledger is checked against its re-run")
        return None
    grid = run_grid(suite)
    if path.read_bytes() != dumps(grid.as_json()):
        report.problems.append("grid.json: does not match a re-run of the grid on this suite")
    return grid


def _claims(
    root: Path, doc: dict[str, Any], suite: Suite, grid: Grid | None, evaluations: dict[str, Evaluation]
) -> Claims:
    kind = doc.get("kind")
    if kind == "grid":
        return grid_claims(doc, suite, grid, evaluations) if grid is not None else Claims()
    if kind == "evaluate":
        return evaluate_claims(root, doc, suite, evaluations)
    return campaign_claims(root, doc, evaluations)


def verify(root: Path) -> VerifyReport:
    """Check `root` completely; problems are collected, never raised one by one."""
    report = VerifyReport(root)
    report.problems.extend(check_manifest(root))
    manifest = load_manifest(root)
    report.files = len(manifest["files"])
    recorded = manifest.get("provenance", {}).get("source_sha256")
    if recorded and recorded != provenance()["source_sha256"]:
        report.notes.append("the engine or lab source changed since this ledger was sealed; re-runs decide")
    if not (root / "ledger.json").is_file():
        report.problems.append("ledger.json: missing; it says what kind of ledger this is")
        return report
    doc = _load(root, ".", "ledger.json", report)
    if doc is None:
        return report
    if doc.get("kind") not in KINDS:
        report.problems.append(
            f"ledger.json: kind is {doc.get('kind')!r}; expected one of {', '.join(KINDS)}"
        )
        return report
    report.kind = str(doc["kind"])
    if report.kind == "distill":
        check = verify_distill(root, doc)
        report.problems.extend(check.problems)
        report.notes.extend(check.notes)
        report.requests, report.sessions = check.requests, check.sessions
        return report
    try:
        suite = parse_suite((root / "scenarios.json").read_bytes(), str(root / "scenarios.json"))
    except (OSError, ScenarioError) as exc:
        report.problems.append(f"scenarios.json: cannot be loaded ({exc})")
        return report
    evaluations: dict[str, Evaluation] = {}
    for folder in _folders_with(root, evidence.EVALUATION):
        evaluation, problems = evidence.reproduce(root, folder, suite)
        report.problems.extend(problems)
        report.evaluations += 1
        if evaluation is not None:
            evaluations[folder] = evaluation
    _decisions(root, evaluations, report)
    _validations(root, report)
    claims = _claims(root, doc, suite, _grid(root, suite, report.kind, report), evaluations)
    report.problems.extend(claims.problems)
    report.selection = claims.selection
    return report
