"""The proposer campaign: an LLM proposes settings, Python validates and evaluates them.

An experiment runs N campaigns, each with a fresh history, from the same start
configuration. Each iteration: build the context (parent, feedback on everything tested,
earlier iterations, the parent's evidence), check the campaign budget against the deep
tier's own reservation for this exact request (no call if it does not fit), call the
model once through the deep tier (which reserves and settles the spend ledger and
enforces daily caps and budgets), validate the decision record, evaluate a valid
proposal, and keep it as the next parent only if the selection rule accepts it.

Everything goes into the ledger folder as it happens: request before the call, response,
validation, candidate, evaluation with traces, comparison and parent choice, costs.

Iteration statuses: evaluated, invalid_proposal (the campaign continues), agent_stopped,
budget_exhausted, provider_error, evaluation_error. A provider error records only the
error's type name (never its message, which may echo a request or a key), keeps the
reservation, ends the campaign and the experiment; nothing is ever made up in its place.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

import structlog

from daemon.kernel.errors import ModelResponseInvalid, ModelUnavailable
from daemon.kernel.json_contract import LedgerDocument
from daemon.kernel.memory_settings import MemorySettings
from daemon.lab import evidence as evidence_files
from daemon.lab import proposer
from daemon.lab.campaign_record import (
    ERROR_ENDINGS,
    VERSION,
    CampaignError,
    CampaignPlan,
    ExperimentResult,
    Selected,
    costs,
    experiment_document,
    invalid_entry,
)
from daemon.lab.evaluator import Evaluation, evaluate
from daemon.lab.experiment_ledger import Ledger
from daemon.lab.ledger_report import campaign_report
from daemon.lab.scenarios import Suite
from daemon.lab.selection import compare, rank_key
from daemon.lab.source_hashes import provenance
from daemon.model.deep_tier import CallRecord, DeepTier
from daemon.model.spend import BudgetExhausted, CapReached

log = structlog.get_logger("metaeng.lab")
PURPOSE = "lab-proposer"


@dataclass
class _Parent:
    id: str
    folder: str
    settings: MemorySettings
    evaluation: Evaluation


@dataclass
class Experiment:
    ledger: Ledger
    suite: Suite
    deep: DeepTier
    plan: CampaignPlan
    clock: Callable[[], datetime]
    timer: Callable[[], float] = time.monotonic
    campaigns: list[LedgerDocument] = field(default_factory=list)
    status: str = "running"
    created_at: str = ""
    start: Evaluation = field(init=False)
    _halt: bool = False

    def run(self) -> ExperimentResult:
        self.plan.check()
        reason = self.deep.availability()
        if reason:
            raise CampaignError(f"cannot run a campaign: {reason}")
        self.created_at = self.clock().isoformat()
        self.ledger.write("scenarios.json", self.suite.raw)
        self.start = evaluate(self.suite, self.plan.start, trace=True)
        self._save()
        finals: list[tuple[int, _Parent]] = []
        for index in range(1, self.plan.campaigns + 1):
            if self._halt:
                self.campaigns.append({"campaign": index, "status": "not_started", "iterations": []})
                continue
            finals.append((index, self._campaign(index)))
        errors = any(c["status"] in ERROR_ENDINGS for c in self.campaigns)
        self.status = "completed_with_errors" if errors else "completed"
        selected = self._select(finals)
        self._save(selected)
        self.ledger.write("report.md", campaign_report(self._document(selected)).encode("utf-8"))
        self.ledger.seal(provenance(), self.clock())
        return ExperimentResult(
            self.status, self.campaigns, selected, self.deep.spent_usd, len(self.deep.calls)
        )

    # -- one campaign ----------------------------------------------------------------------
    def _campaign(self, index: int) -> _Parent:
        base = f"campaign-{index:02d}"
        evidence_files.write(self.ledger, f"{base}/baseline", self.start, self.suite)
        parent = _Parent(self.plan.start_label, f"{base}/baseline", self.plan.start, self.start)
        record: dict[str, Any] = {"campaign": index, "status": "running", "iterations": []}
        self.campaigns.append(record)
        tested = [proposer.tested_entry(parent.id, parent.settings, parent.evaluation, "retain_baseline")]
        previous: list[dict[str, Any]] = []
        for number in range(1, self.plan.iterations + 1):
            step = self._iteration(base, number, parent, tested, previous)
            record["iterations"].append(step.summary)
            log.info(
                "lab.iteration",
                campaign=index,
                iteration=number,
                status=step.summary["status"],
                cost_usd=step.summary.get("cost_usd"),
                selected=step.summary.get("selected"),
            )
            self._save()
            if step.next_parent is not None:
                parent = step.next_parent
            if step.ends:
                record["status"] = step.summary["status"] if step.ends is True else step.ends
                break
        else:
            record["status"] = "iteration_limit"
        record["final_parent"] = {
            "id": parent.id,
            "folder": parent.folder,
            "settings": parent.settings.model_dump(),
            "passed": parent.evaluation.passed,
            "total": parent.evaluation.total,
            "mean_stored_records": round(parent.evaluation.mean_stored_records, 4),
        }
        self._save()
        return parent

    def _iteration(
        self,
        base: str,
        number: int,
        parent: _Parent,
        tested: list[dict[str, Any]],
        previous: list[dict[str, Any]],
    ) -> _Step:
        folder = f"{base}/iteration-{number:02d}"
        assert self.deep.model is not None
        items = proposer.evidence(parent.evaluation, self.deep.model.max_input_bytes // 2)
        ctx = proposer.context(
            parent_id=parent.id,
            parent_settings=parent.settings,
            tested=tested,
            previous=previous,
            evidence_items=items,
        )
        user_text = json.dumps(ctx, ensure_ascii=False)
        estimate = self.deep.estimate_usd(proposer.SYSTEM_PROMPT, user_text, proposer.MemorySettingsDecision)
        spent = self.deep.spent_usd
        summary: dict[str, Any] = {"iteration": number, "folder": folder, "estimate_usd": round(estimate, 8)}
        if spent + estimate > self.plan.budget_usd:
            summary.update(
                status="budget_exhausted",
                reason=(
                    f"campaign budget: {spent:.6f} USD charged or reserved + {estimate:.6f} USD "
                    f"reservation > {self.plan.budget_usd:g} USD; no call made"
                ),
            )
            return _Step(summary, ends=True)
        self.ledger.write_json(
            f"{folder}/request.json",
            {
                "version": VERSION,
                "purpose": PURPOSE,
                "prompt_version": proposer.PROMPT_VERSION,
                "model": self.deep.model.model,
                "response_schema": proposer.MemorySettingsDecision.__name__,
                "estimate_usd": round(estimate, 8),
                "system": proposer.SYSTEM_PROMPT,
                "context": ctx,
            },
        )
        calls_before = len(self.deep.calls)
        started = self.timer()
        try:
            answer = self.deep.call(
                PURPOSE, proposer.SYSTEM_PROMPT, user_text, proposer.MemorySettingsDecision
            )
        except ModelResponseInvalid as exc:
            call = self._call_after(calls_before)
            self._response(folder, {"status": "invalid_response", "error": str(exc)}, call, started)
            rejection = f"the response is not a valid decision record: {exc}"
            previous.append(invalid_entry(number, None, rejection))
            summary.update(
                costs(call), status="invalid_proposal", reason=rejection[: proposer.REJECTION_CHARS]
            )
            return _Step(summary)
        except (BudgetExhausted, CapReached) as exc:
            summary.update(status="budget_exhausted", reason=f"spend ledger refused the call: {exc}")
            return _Step(summary, ends=True)
        except ModelUnavailable as exc:
            call = self._call_after(calls_before)
            if call is None:
                summary.update(status="model_unavailable", reason=str(exc))
                self._halt = True
                return _Step(summary, ends=True)
            error_type = type(exc.__cause__ or exc).__name__
            self._response(folder, {"status": "provider_error", "error_type": error_type}, call, started)
            summary.update(costs(call), status="provider_error", error_type=error_type)
            self._halt = True
            return _Step(summary, ends=True)
        call = answer.record
        self._response(folder, {"status": "ok", "raw": answer.raw}, call, started)
        summary.update(costs(call))
        ends: bool | str = False
        if call.cost_usd is None:
            ends = "usage_unavailable"
            summary["usage"] = "missing: the reservation is kept as the cost"
        try:
            verdict = proposer.validate(
                answer.value,
                known=proposer.references(items),
                parent=parent.settings,
                tested=[MemorySettings.model_validate(t["config"]) for t in tested],
            )
        except proposer.ProposalRejected as exc:
            self.ledger.write_json(
                f"{folder}/validation.json", {"version": VERSION, "ok": False, "error": str(exc)}
            )
            previous.append(invalid_entry(number, answer.raw, str(exc)))
            summary.update(status="invalid_proposal", reason=str(exc)[: proposer.REJECTION_CHARS])
            return _Step(summary, ends=ends)
        self.ledger.write_json(
            f"{folder}/validation.json",
            {
                "version": VERSION,
                "ok": True,
                "error": None,
                "action": verdict.action,
                "patch": verdict.patch,
                "candidate": verdict.candidate.model_dump() if verdict.candidate else None,
            },
        )
        if verdict.action == "stop":
            summary.update(status="agent_stopped", hypothesis=answer.value.hypothesis)
            return _Step(summary, ends=True)
        assert verdict.candidate is not None
        return self._evaluate(folder, number, parent, verdict, answer.value, tested, previous, summary, ends)

    def _evaluate(
        self,
        folder: str,
        number: int,
        parent: _Parent,
        verdict: proposer.Verdict,
        decision: proposer.MemorySettingsDecision,
        tested: list[dict[str, Any]],
        previous: list[dict[str, Any]],
        summary: dict[str, Any],
        ends: bool | str,
    ) -> _Step:
        assert verdict.candidate is not None and self.deep.model is not None
        candidate_id = f"agent-{number:02d}"
        self.ledger.write_json(
            f"{folder}/candidate.json",
            {
                "version": VERSION,
                "id": candidate_id,
                "parent_id": parent.id,
                "settings": verdict.candidate.model_dump(),
                "patch": verdict.patch,
                "hypothesis": decision.hypothesis,
                "predicted_effect": decision.predicted_effect,
                "proposer": {
                    "kind": "llm",
                    "model": self.deep.model.model,
                    "prompt_version": proposer.PROMPT_VERSION,
                },
            },
        )
        try:
            result = evaluate(self.suite, verdict.candidate, trace=True)
            evidence_files.write(self.ledger, f"{folder}/evaluation", result, self.suite)
        except Exception as exc:  # recorded and ends the campaign; never treated as a score
            summary.update(status="evaluation_error", error=f"{type(exc).__name__}: {exc}")
            self._halt = True
            return _Step(summary, ends=True)
        comparison = compare(result, parent.evaluation)
        selected = comparison.recommendation == "recommend_accept"
        self.ledger.write_json(
            f"{folder}/result.json",
            {
                "version": VERSION,
                "candidate_id": candidate_id,
                "candidate_evaluation": f"{folder}/evaluation",
                "parent_id": parent.id,
                "parent_evaluation": parent.folder,
                "comparison": comparison.as_json(),
                "selected": selected,
                "next_parent_id": candidate_id if selected else parent.id,
            },
        )
        entry = proposer.tested_entry(candidate_id, verdict.candidate, result, comparison.recommendation)
        tested.append(entry)
        previous.append(
            {
                "iteration": number,
                "status": "evaluated",
                "proposal": decision.model_dump(),
                "feedback": {**entry, "comparison_with_parent": comparison.as_json()},
                "selected": selected,
            }
        )
        summary.update(
            status="evaluated",
            candidate_id=candidate_id,
            patch=verdict.patch,
            passed=result.passed,
            mean_stored_records=round(result.mean_stored_records, 4),
            recommendation=comparison.recommendation,
            selected=selected,
            reason=comparison.reason,
        )
        nxt = _Parent(candidate_id, f"{folder}/evaluation", verdict.candidate, result) if selected else None
        return _Step(summary, next_parent=nxt, ends=ends)

    # -- helpers ---------------------------------------------------------------------------
    def _call_after(self, before: int) -> CallRecord | None:
        return self.deep.calls[-1] if len(self.deep.calls) > before else None

    def _response(self, folder: str, body: dict[str, Any], call: CallRecord | None, started: float) -> None:
        self.ledger.write_json(
            f"{folder}/response.json",
            {"version": VERSION, **body, **costs(call), "latency_s": round(self.timer() - started, 3)},
        )

    def _select(self, finals: list[tuple[int, _Parent]]) -> Selected | None:
        improved = [(i, p) for i, p in finals if p.id != self.plan.start_label]
        if not improved:
            return None
        index, best = min(improved, key=lambda item: rank_key(item[1].evaluation))
        comparison = compare(best.evaluation, self.start)
        if comparison.recommendation != "recommend_accept":
            return None
        return Selected(index, best.id, best.folder, best.settings, best.evaluation, comparison.reason)

    def _document(self, selected: Selected | None = None) -> dict[str, Any]:
        return experiment_document(
            created_at=self.created_at,
            status=self.status,
            suite=self.suite,
            deep=self.deep,
            plan=self.plan,
            start=self.start,
            campaigns=self.campaigns,
            selected=selected,
        )

    def _save(self, selected: Selected | None = None) -> None:
        self.ledger.write_json("ledger.json", self._document(selected), replace=True)


@dataclass
class _Step:
    summary: dict[str, Any]
    next_parent: _Parent | None = None
    ends: bool | str = False
