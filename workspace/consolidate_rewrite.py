"""The model's part of a workspace consolidation: requests, answers, applied operations.

The role files are cut into requests that fit (`consolidate_requests`); those not done yet
are sent in order, at most `model.max_calls_per_pass` per pass — the rest wait for the next run.
Each answer is a list of edit operations on the units of its own request, applied to the
original text by `unit_edits`. An answer whose operations cannot be applied (an unknown
unit id, a unit of another request, a path that is not a role file) is refused whole.
The answers are checked by the loss check together first, one pass over the files; when
that fails, each alone; an answer that fails alone keeps the operations that lose nothing,
taken in order, each checked with those kept before it (`partly applied`), and the ones it
drops are reported with the units they would have lost. The contradictions an answer
reports are kept whatever became of its operations (they are verified, then proposed, on
their own). The accepted operations are then applied together, and the pass runs the loss
check once more on the result before anything is written.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from daemon.kernel.errors import ModelResponseInvalid, ModelUnavailable
from daemon.passes.protocol import PassContext
from workspace import consolidate_model
from workspace.consolidate_model import ConsolidationResponse, Operation, ReportedContradiction
from workspace.consolidate_requests import Layout, Progress, Request, plan_layout, read_done
from workspace.loss_check import DeclaredMerge, LossReport, check
from workspace.numbered import Document, parse
from workspace.roles import Workspace
from workspace.unit_edits import Applied, EditRefused, apply

PURPOSE = "workspace_consolidation"


@dataclass(frozen=True)
class RequestOutcome:
    number: int
    files: tuple[str, ...]
    units: int
    bytes: int
    outcome: str  # applied | partly applied | unchanged | refused | rejected | failed
    operations: int = 0
    reason: str = ""


@dataclass(frozen=True)
class Rewrite:
    status: str  # skipped | unchanged | rewritten | rejected
    reason: str
    files: dict[str, str] = field(default_factory=dict)
    merges: tuple[DeclaredMerge, ...] = ()
    contradictions: tuple[ReportedContradiction, ...] = ()
    rejected: tuple[LossReport, ...] = ()  # one per answer the loss check rejected
    requests: tuple[RequestOutcome, ...] = ()
    waiting: tuple[Request, ...] = ()  # not sent this run: the call bound, or the model became unavailable
    too_large: tuple[str, ...] = ()
    progress: Progress | None = None  # set when an answer was used: record what it covered
    max_calls: int = 0  # the per-pass call bound this run had (model.max_calls_per_pass)


def _skipped(reason: str, layout: Layout | None = None) -> Rewrite:
    return Rewrite("skipped", reason, too_large=layout.too_large if layout else ())


def rewrite(context: PassContext, workspace: Workspace) -> Rewrite:
    """The role files as the model's accepted answers leave them, with what happened to each
    request; `skipped` (with the reason) when no model can be asked or nothing needs asking."""
    old = workspace.texts()
    if not old:
        return _skipped("no workspace files to consolidate")
    model = context.deep.model
    if model is None:
        return _skipped(context.deep.availability() or "no model configured")
    docs = {f.path: parse(f.path, f.text or "") for f in workspace.files}
    layout = plan_layout(workspace.files, docs, model)
    if layout.capacity <= 0:
        return _skipped(
            f"the request without any unit is {layout.fixed_bytes} bytes (instructions, schema, file list), "
            f"more than the model's max_input_bytes ({model.max_input_bytes})"
        )
    if not layout.requests:
        return _skipped("no units to consolidate", layout)
    done = read_done(context.view)
    todo = [r for r in layout.requests if not all(p.digest in done for p in r.pieces)]
    if not todo:
        return _skipped("role files unchanged since the last consolidation; no model call", layout)
    reason = context.deep.availability()
    if reason:
        return _skipped(reason, layout)

    model = context.deep.model
    assert model is not None
    outcomes, answered = _ask(context, old, docs, todo[: model.max_calls_per_pass])
    kept, rejected = _screen(old, docs, answered)
    used = {a.request.number: a for a in kept}
    for answer in answered:
        number = answer.request.number
        if number in rejected and number in used:
            verdict = "partly applied"
            why = (
                f"{len(answer.operations) - len(used[number].operations)} of {len(answer.operations)} "
                "operation(s) refused by the loss check"
            )
        elif number in rejected:
            verdict, why = "rejected", "rejected by the loss check"
        else:
            verdict, why = ("applied" if answer.changes else "unchanged"), ""
        outcomes.append(RequestOutcome(*_facts(answer.request), verdict, len(answer.operations), why))
    outcomes.sort(key=lambda o: o.number)
    covered = {(u.uid.rsplit("#", 1)[0], u.raw) for a in kept for u in a.request.units()}
    covered.update(placed for a in kept for placed in a.applied.placed)
    result = Rewrite(
        "skipped",
        outcomes[0].reason if outcomes else "no request sent",
        contradictions=tuple(c for a in answered for c in a.contradictions),
        rejected=tuple(rejected.values()),
        requests=tuple(outcomes),
        waiting=tuple(todo[len(outcomes) :]),
        max_calls=model.max_calls_per_pass,
        too_large=layout.too_large,
        progress=Progress(tuple(workspace.files), model, done, frozenset(covered)) if covered else None,
    )
    combined = apply(docs, [op for a in kept for op in a.operations])
    files = _changed(old, combined.texts)
    if files:
        return replace(result, status="rewritten", reason="", files=files, merges=combined.merges)
    if rejected:
        return replace(result, status="rejected", reason="rejected by the loss check")
    if covered:
        return replace(result, status="unchanged", reason="")
    return result


@dataclass(frozen=True)
class _Answered:
    request: Request
    operations: tuple[Operation, ...]
    applied: Applied  # its operations alone, on the original files
    changes: bool
    contradictions: tuple[ReportedContradiction, ...]


def _facts(request: Request) -> tuple[int, tuple[str, ...], int, int]:
    return request.number, tuple(request.files), len(request.uids), request.size


def _changed(old: Mapping[str, str], texts: Mapping[str, str]) -> dict[str, str]:
    return {p: t for p, t in texts.items() if old.get(p) != t and (p in old or t.strip())}


def _ask(
    context: PassContext, old: Mapping[str, str], docs: Mapping[str, Document], requests: Sequence[Request]
) -> tuple[list[RequestOutcome], list[_Answered]]:
    """Send `requests` in order; the outcomes of those that gave nothing usable, and the answers."""
    outcomes: list[RequestOutcome] = []
    answered: list[_Answered] = []
    for request in requests:
        try:
            answer = context.deep.call(
                PURPOSE, consolidate_model.SYSTEM_PROMPT, request.user, ConsolidationResponse
            )
        except ModelUnavailable as exc:
            outcomes.append(RequestOutcome(*_facts(request), "failed", reason=str(exc)))
            break  # no budget, cap or server: the rest waits for the next run
        except ModelResponseInvalid as exc:
            reason = f"model answer rejected — {exc}"
            outcomes.append(RequestOutcome(*_facts(request), "refused", reason=reason))
            continue
        operations = tuple(answer.value.operations)
        try:
            applied = apply(docs, operations, request.uids)
        except EditRefused as exc:
            detail = f"{PURPOSE}: operations refused, nothing of this answer used: {exc}"
            context.deep.answer_rejected(PURPOSE, detail)
            reason = f"model answer rejected — {detail}"
            outcomes.append(RequestOutcome(*_facts(request), "refused", len(operations), reason))
            continue
        changes = bool(_changed(old, applied.texts))
        answered.append(_Answered(request, operations, applied, changes, tuple(answer.value.contradictions)))
    return outcomes, answered


def _screen(
    old: Mapping[str, str], docs: Mapping[str, Document], answered: Sequence[_Answered]
) -> tuple[list[_Answered], dict[int, LossReport]]:
    """The answers kept, and the loss report of each answer rejected (by request number).

    All answers are checked together first (one pass over the files); only when that
    fails is each answer checked alone, to keep those that lose nothing.
    """
    changing = [a for a in answered if a.changes]
    if not changing:
        return list(answered), {}
    together = apply(docs, [op for a in changing for op in a.operations])
    report = check(old, {**old, **_changed(old, together.texts)}, together.merges)
    if report.ok:
        return list(answered), {}
    rejected: dict[int, LossReport] = {}
    salvaged: dict[int, _Answered] = {}
    for answer in changing:
        alone = (
            report
            if len(changing) == 1
            else check(old, {**old, **_changed(old, answer.applied.texts)}, answer.applied.merges)
        )
        if not alone.ok:
            rejected[answer.request.number] = alone
            if (part := _salvage(old, docs, answer)) is not None:
                salvaged[answer.request.number] = part
    kept = [salvaged.get(a.request.number, a) for a in answered if a.request.number not in rejected or a.request.number in salvaged]
    return kept, rejected


def _salvage(old: Mapping[str, str], docs: Mapping[str, Document], answer: _Answered) -> _Answered | None:
    """`answer` with only the operations that lose nothing — each, in order, checked with
    those kept before it — or None when none does."""
    kept: list[Operation] = []
    applied: Applied | None = None
    for operation in answer.operations:
        trial = [*kept, operation]
        try:
            result = apply(docs, trial, answer.request.uids)
        except EditRefused:
            continue
        if check(old, {**old, **_changed(old, result.texts)}, result.merges).ok:
            kept, applied = trial, result
    if applied is None or not _changed(old, applied.texts):
        return None
    return replace(answer, operations=tuple(kept), applied=applied, changes=True)
