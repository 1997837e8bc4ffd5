"""What a campaign records: its plan and limits, the selection, and `ledger.json`."""

from __future__ import annotations

from dataclasses import dataclass

from daemon.kernel.errors import DaemonError
from daemon.kernel.json_contract import LedgerDocument
from daemon.kernel.memory_settings import MemorySettings
from daemon.lab import proposer
from daemon.lab.evaluator import Evaluation
from daemon.lab.scenarios import Suite
from daemon.model.deep_tier import CallRecord, DeepTier

VERSION = 1
LIMITS = {"campaigns": (1, 5), "iterations": (1, 4)}
MAX_BUDGET_USD = 2.0
ERROR_ENDINGS = {"provider_error", "usage_unavailable", "evaluation_error", "model_unavailable"}


class CampaignError(DaemonError):
    """A campaign cannot start (bad limits, no model)."""


@dataclass(frozen=True)
class CampaignPlan:
    campaigns: int
    iterations: int
    budget_usd: float
    start: MemorySettings
    start_label: str

    def check(self) -> None:
        for name, (low, high) in LIMITS.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise CampaignError(f"--{name} must be between {low} and {high}, got {value}")
        if not 0 < self.budget_usd <= MAX_BUDGET_USD:
            raise CampaignError(
                f"--budget-usd must be > 0 and <= {MAX_BUDGET_USD:g}, got {self.budget_usd:g}"
            )


@dataclass(frozen=True)
class Selected:
    campaign: int
    candidate_id: str
    folder: str
    settings: MemorySettings
    evaluation: Evaluation
    reason: str


@dataclass
class ExperimentResult:
    status: str
    campaigns: list[LedgerDocument]
    selected: Selected | None
    spent_usd: float
    calls: int


def experiment_document(
    *,
    created_at: str,
    status: str,
    suite: Suite,
    deep: DeepTier,
    plan: CampaignPlan,
    start: Evaluation,
    campaigns: list[LedgerDocument],
    selected: Selected | None,
) -> LedgerDocument:
    """The body of `ledger.json` (rewritten as the experiment progresses)."""
    model = deep.model
    assert model is not None
    return {
        "version": VERSION,
        "kind": "campaign",
        "created_at": created_at,
        "status": status,
        "suite": {
            "name": suite.name,
            "sha256": suite.sha256,
            "file": "scenarios.json",
            "scenarios": len(suite.scenarios),
        },
        "model": {
            "name": model.model,
            "base_url": model.base_url,
            "price_input_per_million": model.price_input_per_million,
            "price_output_per_million": model.price_output_per_million,
            "max_output_tokens": model.max_output_tokens,
        },
        "prompt_version": proposer.PROMPT_VERSION,
        "plan": {
            "campaigns": plan.campaigns,
            "iterations": plan.iterations,
            "budget_usd": plan.budget_usd,
            "start_label": plan.start_label,
            "start": plan.start.model_dump(),
        },
        "start": {
            "passed": start.passed,
            "total": start.total,
            "mean_stored_records": round(start.mean_stored_records, 4),
        },
        "spend": {
            "charged_or_reserved_usd": round(deep.spent_usd, 8),
            "calls": len(deep.calls),
        },
        "campaigns": campaigns,
        "selected": None
        if selected is None
        else {
            "campaign": selected.campaign,
            "candidate_id": selected.candidate_id,
            "evaluation": selected.folder,
            "settings": selected.settings.model_dump(),
            "passed": selected.evaluation.passed,
            "total": selected.evaluation.total,
            "mean_stored_records": round(selected.evaluation.mean_stored_records, 4),
            "reason": selected.reason,
        },
    }


def costs(call: CallRecord | None) -> LedgerDocument:
    if call is None:
        return {}
    return {
        "reserved_usd": round(call.reserved_usd, 8),
        "cost_usd": None if call.cost_usd is None else round(call.cost_usd, 8),
        "input_tokens": call.input_tokens,
        "output_tokens": call.output_tokens,
    }


def invalid_entry(number: int, raw: str | None, rejection: str) -> LedgerDocument:
    return {
        "iteration": number,
        "status": "invalid_proposal",
        "rejected_output": raw,
        "rejection": rejection[: proposer.REJECTION_CHARS],
    }
