"""`lab distill`: the distillation pass's requests, on every corpus session, to the configured model.

Per session (in file order), from a fresh memory: the turns go out in the pass's own
requests (`distill_score`), each written to the ledger *before* the call with the
sha256 of the exact request body; the answer is recorded raw with its sha256, tokens,
cost and latency; the proposed facts go through the pass's checks and write rules, and
every outcome is recorded. Then the figures are scored, the report written and the
folder sealed.

Model calls go through the deep tier (spend ledger, daily caps and budgets, one try, a
strict schema), charged as `lab`. On top, `budget_usd`: before each call, the deep
tier's reservation for that exact request must fit, or the run stops without calling.

Session statuses: `answered`, `invalid_response` (at least one answer broke the schema:
nothing from it is stored — the model's own failure, part of what is measured),
`stopped` (budget or provider failure part-way: not scored), `not_run`. A provider
error is recorded by its type name only and stops the run; nothing is made up in its place.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from daemon.kernel.errors import DaemonError, ModelResponseInvalid, ModelUnavailable
from daemon.kernel.json_contract import LedgerDocument
from daemon.kernel.settings import AgentSettings
from daemon.lab.campaign_record import costs
from daemon.lab.distill_corpus import Corpus, CorpusSession
from daemon.lab.distill_report import report
from daemon.lab.distill_score import (
    BENCH_AGENT,
    bench_agent,
    figures,
    first_turn,
    groups,
    session_now,
    settle,
    user_message,
)
from daemon.lab.experiment_ledger import Ledger
from daemon.lab.source_hashes import provenance
from daemon.model.deep_tier import CallRecord, DeepTier, build_request
from daemon.model.spend import BudgetExhausted, CapReached
from daemon.passes.turn_batches import TurnGroup, turn_room
from daemon.passes.turn_prompt import SYSTEM_PROMPT
from memory_engine.distillation import TASK, DistillationResponse, task_data

VERSION = 1
PURPOSE = "lab-distill"
MAX_BUDGET_USD = 2.0
PROMPT_FILE = "system_prompt.txt"
_REPO = Path(__file__).resolve().parents[2]
# What decides a figure besides the lab and the memory rules (which `provenance` hashes).
DISTILL_SOURCES = (
    "memory_engine/distillation.py",
    "memory_engine/fact_grounding.py",
    "memory_engine/factstore.py",
    "memory_engine/agent_memory.py",
    "daemon/passes/turn_batches.py",
    "daemon/passes/turn_input.py",
    "daemon/model/deep_tier.py",
    "daemon/transcripts/window.py",
    "daemon/transcripts/lines.py",
    "daemon/kernel/settings.py",
)


class DistillError(DaemonError):
    """A precision run cannot start (bad budget, no model)."""


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def distill_sources() -> dict[str, str]:
    return {rel: hashlib.sha256((_REPO / rel).read_bytes()).hexdigest() for rel in DISTILL_SOURCES}


@dataclass
class DistillResult:
    status: str
    stopped: str | None
    figures: LedgerDocument
    spent_usd: float
    calls: int


@dataclass
class _Session:
    entry: dict[str, Any]
    answers: list[tuple[TurnGroup, DistillationResponse | None]] = field(default_factory=list)
    stop: str | None = None

    def stopped(self, reason: str) -> _Session:
        self.stop = reason
        self.entry.update(status="stopped", reason=reason)
        return self


@dataclass
class DistillBench:
    ledger: Ledger
    corpus: Corpus
    deep: DeepTier
    budget_usd: float
    clock: Callable[[], datetime]
    timer: Callable[[], float] = time.monotonic
    created_at: str = ""

    def run(self) -> DistillResult:
        if not 0 < self.budget_usd <= MAX_BUDGET_USD:
            raise DistillError(f"--budget-usd must be > 0 and <= {MAX_BUDGET_USD:g}, got {self.budget_usd:g}")
        reason = self.deep.availability()
        if reason:
            raise DistillError(f"cannot run the precision benchmark: {reason}")
        self.created_at = self.clock().isoformat()
        for rel, data in sorted(self.corpus.files.items()):
            self.ledger.write(f"corpus/{rel}", data)
        self.ledger.write(PROMPT_FILE, SYSTEM_PROMPT.encode("utf-8"))
        agent = bench_agent(self.corpus.header.allowed_keys)
        sessions: list[dict[str, Any]] = []
        outcomes: dict[str, list[dict[str, Any]]] = {}
        stopped: str | None = None
        self._save(agent, "running", None, sessions, None)
        for cs in self.corpus.sessions:
            if stopped:
                sessions.append({"session": cs.id, "status": "not_run"})
                continue
            run = self._session(cs, agent)
            sessions.append(run.entry)
            if run.stop:
                stopped = run.stop
                continue
            outcomes[cs.id] = settle(cs, agent, run.answers)
            self.ledger.write_json(
                f"sessions/{cs.id}/outcomes.json",
                {"version": VERSION, "session": cs.id, "outcomes": outcomes[cs.id]},
            )
        scored_sessions = [s for s in sessions if s["session"] in outcomes]
        requests = sum(s["requests"] for s in scored_sessions)
        invalid = sum(s["invalid_responses"] for s in scored_sessions)
        scored = figures(self.corpus, outcomes, requests, invalid)
        self.ledger.write_json("results.json", {"version": VERSION, **scored})
        status = "completed_with_errors" if stopped else "completed"
        document = self._save(agent, status, stopped, sessions, scored)
        self.ledger.write("report.md", report(document, scored).encode("utf-8"))
        self.ledger.seal({**provenance(), "distillation_sources": distill_sources()}, self.clock())
        return DistillResult(status, stopped, scored, self.deep.spent_usd, len(self.deep.calls))

    def _session(self, cs: CorpusSession, agent: AgentSettings) -> _Session:
        now = session_now(cs)
        data = task_data(list(agent.memory.allowed_keys), now)
        room = turn_room(self.deep, TASK, data, DistillationResponse)  # as the pass sizes its requests
        planned = groups(cs, room)
        run = _Session({"session": cs.id, "status": "answered", "requests": 0, "invalid_responses": 0})
        for number, group in enumerate(planned, start=1):
            folder = f"sessions/{cs.id}/request-{number:02d}"
            user = user_message(group, agent, now)
            estimate = self.deep.estimate_usd(SYSTEM_PROMPT, user, DistillationResponse)
            spent = self.deep.spent_usd
            if spent + estimate > self.budget_usd:
                return run.stopped(
                    f"budget_exhausted: {spent:.6f} USD charged or reserved + {estimate:.6f} USD "
                    f"reservation > --budget-usd {self.budget_usd:g}; no call made"
                )
            assert self.deep.model is not None
            _messages, _format, body = build_request(self.deep.model, SYSTEM_PROMPT, user, DistillationResponse)
            first = first_turn(cs, group)
            self.ledger.write_json(
                f"{folder}/request.json",
                {
                    "version": VERSION,
                    "session": cs.id,
                    "request": number,
                    "turns": [first, first + len(group.turns) - 1],
                    "room": room,
                    "estimate_usd": round(estimate, 8),
                    "request_sha256": sha256(body),
                    "user": user,
                },
            )
            before = len(self.deep.calls)
            started = self.timer()
            run.entry["requests"] = number
            try:
                answer = self.deep.call(PURPOSE, SYSTEM_PROMPT, user, DistillationResponse)
            except ModelResponseInvalid as exc:
                self._response(folder, {"status": "invalid_response", "error": str(exc)}, before, started)
                run.entry.update(status="invalid_response", invalid_responses=run.entry["invalid_responses"] + 1)
                run.answers.append((group, None))
                continue
            except (BudgetExhausted, CapReached) as exc:
                return run.stopped(f"budget_exhausted: the spend ledger refused the call: {exc}")
            except ModelUnavailable as exc:
                if len(self.deep.calls) == before:
                    return run.stopped(f"model_unavailable: {exc}")
                error_type = type(exc.__cause__ or exc).__name__
                self._response(folder, {"status": "provider_error", "error_type": error_type}, before, started)
                return run.stopped(f"provider_error: {error_type}")
            self._response(
                folder,
                {"status": "ok", "raw": answer.raw, "response_sha256": sha256(answer.raw)},
                before,
                started,
            )
            run.answers.append((group, answer.value))
        return run

    def _call_after(self, before: int) -> CallRecord | None:
        return self.deep.calls[-1] if len(self.deep.calls) > before else None

    def _response(self, folder: str, body: dict[str, Any], before: int, started: float) -> None:
        call = self._call_after(before)
        extra = {"prompt_sha256": call.prompt_sha256} if call else {}
        self.ledger.write_json(
            f"{folder}/response.json",
            {"version": VERSION, **body, **extra, **costs(call), "latency_s": round(self.timer() - started, 3)},
        )

    def _save(
        self,
        agent: AgentSettings,
        status: str,
        stopped: str | None,
        sessions: list[dict[str, Any]],
        scored: dict[str, Any] | None,
    ) -> dict[str, Any]:
        model = self.deep.model
        assert model is not None
        document = {
            "version": VERSION,
            "kind": "distill",
            "created_at": self.created_at,
            "status": status,
            "stopped": stopped,
            "corpus": {
                "name": self.corpus.name,
                "sha256": self.corpus.sha256,
                "folder": "corpus",
                "sessions": len(self.corpus.sessions),
                "files": self.corpus.file_hashes(),
            },
            "model": {"name": model.model, "base_url": model.base_url, "settings": model.model_dump(mode="json")},
            "prompt": {"file": PROMPT_FILE, "sha256": sha256(SYSTEM_PROMPT)},
            "settings": {
                "agent": BENCH_AGENT,
                "owner": list(agent.owner),
                "memory": agent.memory.model_dump(mode="json"),
            },
            "budget_usd": self.budget_usd,
            "spend": {"charged_or_reserved_usd": round(self.deep.spent_usd, 8), "calls": len(self.deep.calls)},
            "sessions": sessions,
            "figures": None if scored is None else {k: v for k, v in scored.items() if k != "by_session"},
        }
        self.ledger.write_json("ledger.json", document, replace=True)
        return document
