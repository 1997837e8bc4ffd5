"""Workspace consolidation pass: tidy the role files and daily logs without losing a unit.

1. Daily logs in the window are de-duplicated deterministically (`daily_logs`).
2. The deep model rewrites the role files (merge reworded duplicates, group under
   headings, move content to the file it belongs in) and reports contradictions. Without
   a model (none configured, cap, budget) this step is skipped and step 1 still runs.
3. The loss check runs on both (`loss_check`); any lost or added unit rejects the whole
   pass: nothing is written, the report names every lost unit.
4. The regime (`regime`) splits what passed: lossless tidy-ups apply directly, changes to
   instruction files under the hold — or everything under `autonomy: review` — become
   proposals. If applying only the direct part would itself lose a unit (content moved
   into a held file), the whole rewrite becomes the proposal instead.
5. Verified contradictions become proposals (`contradictions`).

`once --json` shows `units_before`, `units_after`, `lost_units` (a list; non-empty means
the rewrite was rejected), `added_units`, and `rewrite` (applied, proposed, partly
applied, waiting, unchanged, skipped, rejected).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from daemon.changeset import Changeset, FileWrite
from daemon.config.resolve import AgentSettings
from daemon.errors import ModelResponseInvalid, ModelUnavailable
from daemon.managed import ManagedPaths
from daemon.passes import MemoryLockMode, PassContext
from daemon.paths import META_DIR, REVIEW_DIR
from daemon.view import AgentView
from workspace import consolidate_model, contradictions, regime
from workspace.consolidate_model import ConsolidationResponse, ReportedContradiction
from workspace.daily_logs import deduplicate
from workspace.loss_check import DeclaredMerge, Finding, LossReport, check, findings_as_dicts
from workspace.review_queue import (
    Proposal,
    known_fingerprints,
    make_change,
    new_proposal,
    proposal_write,
    waiting,
)
from workspace.roles import Workspace, read_daily_logs, read_workspace, role_files

PROMPT_OVERHEAD_BYTES = 6000
MAX_EVIDENCE = 50


STATE_FILE = f"{META_DIR}/workspace-consolidation.json"
STATE_VERSION = 1


@dataclass(frozen=True)
class Rewrite:
    status: str  # skipped | unchanged | rewritten
    reason: str
    files: dict[str, str] = field(default_factory=dict)
    merges: tuple[DeclaredMerge, ...] = ()
    contradictions: tuple[ReportedContradiction, ...] = ()
    asked: bool = False  # the model answered: remember what it saw, so it is not asked again


def _digest(texts: Mapping[str, str]) -> str:
    return hashlib.sha256(json.dumps(sorted(texts.items())).encode("utf-8")).hexdigest()


def _consolidated_digest(view: AgentView) -> str | None:
    """The role files' digest after the last consolidation the model answered, if any."""
    raw = view.read_bytes(STATE_FILE)
    if raw is None:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None  # unreadable: ask the model again, the next run rewrites the file
    if not isinstance(data, dict) or data.get("version") != STATE_VERSION:
        return None
    digest = data.get("role_files_sha256")
    return digest if isinstance(digest, str) else None


def _state_write(texts: Mapping[str, str]) -> FileWrite:
    body = {"version": STATE_VERSION, "role_files_sha256": _digest(texts)}
    return FileWrite(path=STATE_FILE, content=(json.dumps(body, indent=1) + "\n").encode("utf-8"))


def _rewrite(context: PassContext, workspace: Workspace) -> Rewrite:
    """Ask the deep model for the consolidated role files (skipped when it cannot be asked)."""
    if not workspace.texts():
        return Rewrite("skipped", "no workspace files to consolidate")
    if _consolidated_digest(context.view) == _digest(workspace.texts()):
        return Rewrite("skipped", "role files unchanged since the last consolidation; no model call")
    reason = context.deep.availability()
    if reason:
        return Rewrite("skipped", reason)
    model = context.deep.model
    assert model is not None
    body = consolidate_model.payload(workspace)
    if len(body.encode("utf-8")) > model.max_input_bytes - PROMPT_OVERHEAD_BYTES:
        return Rewrite(
            "skipped", f"workspace files exceed the model's max_input_bytes ({model.max_input_bytes})"
        )
    # A refused answer only skips the rewrite: the deterministic daily-log clean-up still runs.
    try:
        answer = context.deep.call(
            "workspace_consolidation", consolidate_model.SYSTEM_PROMPT, body, ConsolidationResponse
        )
    except ModelUnavailable as exc:
        return Rewrite("skipped", str(exc))
    except ModelResponseInvalid as exc:
        return Rewrite("skipped", f"model answer rejected — {exc}")
    try:
        files = consolidate_model.rewritten_files(answer.value, {f.path for f in workspace.files})
    except ModelResponseInvalid as exc:
        context.deep.answer_rejected("workspace_consolidation", str(exc))
        return Rewrite("skipped", f"model answer rejected — {exc}")
    old = workspace.texts()
    changed = {p: t for p, t in files.items() if old.get(p) != t and (p in old or t.strip())}
    return Rewrite(
        "rewritten" if changed else "unchanged",
        "",
        changed,
        tuple(consolidate_model.declared_merges(answer.value)),
        tuple(answer.value.contradictions),
        asked=True,
    )


def _combined(*reports: LossReport) -> dict[str, Any]:
    return {
        "units_before": sum(r.units_before for r in reports),
        "units_after": sum(r.units_after for r in reports),
        "lost_units": [f for r in reports for f in findings_as_dicts(r.lost)],
        "added_units": [f for r in reports for f in findings_as_dicts(r.added)],
        "merges": [
            {"merged": m.merged, "kept": m.kept, "similarity": m.similarity}
            for r in reports
            for m in r.merges
        ],
    }


class WorkspaceConsolidationPass:
    name = "workspace_consolidation"
    uses_model = True
    memory_lock: MemoryLockMode = "none"

    def write_scope(self, agent: AgentSettings) -> ManagedPaths:
        files = {
            path
            for path, role in role_files(agent)
            if role != "instructions" or regime.instruction_writes_possible(agent)
        }
        return ManagedPaths(
            frozenset({*files, STATE_FILE}), frozenset({agent.workspace.daily_logs, REVIEW_DIR})
        )

    def plan(self, context: PassContext) -> Changeset:
        agent, view = context.agent, context.view
        workspace = read_workspace(agent, view)
        logs = read_daily_logs(agent, view, context.now.date())
        old_logs = logs.texts()
        dedup = deduplicate(list(old_logs.items()))
        rewrite = _rewrite(context, workspace)
        old_roles = workspace.texts()
        new_roles = {**old_roles, **rewrite.files}
        role_check = check(old_roles, new_roles, rewrite.merges)
        log_check = check(old_logs, dedup.texts)
        details: dict[str, Any] = {
            **_combined(role_check, log_check),
            "rewrite": rewrite.status,
            "daily_logs": {
                "read": len(old_logs),
                "notes_removed": len(dedup.removed),
                "changed": dedup.changed,
            },
            "problems": [*workspace.problems, *logs.problems],
        }
        report = [*details["problems"]]
        if not (role_check.ok and log_check.ok):
            details["rewrite"] = "rejected"
            report += [f"lost {f.label()}" for f in (*role_check.lost, *log_check.lost)]
            report += [f"added {f.label()}" for f in (*role_check.added, *log_check.added)]
            return Changeset(
                pass_name=self.name,
                status="nothing",
                reason=(
                    f"rewrite rejected by the loss check ({len(role_check.lost) + len(log_check.lost)} unit(s) "
                    f"lost, {len(role_check.added) + len(log_check.added)} added); nothing written"
                ),
                report=tuple(report),
                details=details,
            )
        repeats = [f"{r.file}:{r.line} repeats {r.first}: {r.text}" for r in dedup.removed]
        if len(repeats) > MAX_EVIDENCE:
            repeats = [*repeats[:MAX_EVIDENCE], f"… and {len(repeats) - MAX_EVIDENCE} more"]
        return self._partition(context, workspace, rewrite, (dedup.texts, old_logs, repeats), details, report)

    def _partition(
        self,
        context: PassContext,
        workspace: Workspace,
        rewrite: Rewrite,
        logs: tuple[Mapping[str, str], Mapping[str, str], list[str]],
        details: dict[str, Any],
        report: list[str],
    ) -> Changeset:
        agent, view = context.agent, context.view
        new_logs, old_logs, repeats = logs
        instructions = set(agent.workspace.instructions)
        old_roles = workspace.texts()
        direct = {p: t for p, t in rewrite.files.items() if regime.applies_directly(agent, p in instructions)}
        promoted = self._promoted(old_roles, rewrite, instructions)
        if promoted and any(p in instructions for p in direct):
            direct = {p: t for p, t in direct.items() if p not in instructions}
            report.append(
                "content moved into instruction files from other files waits for review even with the hold "
                f"lifted: {'; '.join(f.text for f in promoted)}"
            )
        held = {p: t for p, t in rewrite.files.items() if p not in direct}
        if direct and held and not check(old_roles, {**old_roles, **direct}, rewrite.merges).ok:
            direct, held = {}, dict(rewrite.files)
            report.append("content moves into files that wait for review: the whole rewrite is proposed")
        changed_logs = {p: t for p, t in new_logs.items() if t != old_logs[p]}
        logs_direct = regime.applies_directly(agent, False)
        writes = dict(direct)
        if logs_direct:
            writes.update(changed_logs)
        after = view.layered({p: t.encode("utf-8") for p, t in writes.items()})
        made: list[Proposal] = []
        why = "autonomy: review" if agent.autonomy == "review" else "instruction hold"
        if agent.autonomy != "review" and not agent.instruction_hold:
            why = "content it moves into instruction files"
        held_proposed = False
        if held:
            made += self._propose(
                context,
                after,
                "consolidation",
                held,
                report,
                details,
                title=f"Consolidate {', '.join(sorted(held))}",
                rationale=(
                    f"Lossless consolidation checked by the loss check ({details['units_before']} units before, "
                    f"{details['units_after']} after, {len(details['merges'])} merged, none lost). It waits "
                    f"for review because of the {why}."
                ),
                evidence=[
                    f"merged “{m['merged']}” into “{m['kept']}” ({m['similarity']})"
                    for m in details["merges"]
                ],
            )
            held_proposed = bool(made)
        if changed_logs and not logs_direct:
            made += self._propose(
                context,
                after,
                "daily-logs",
                changed_logs,
                report,
                details,
                title=f"Remove {details['daily_logs']['notes_removed']} repeated notes from {len(changed_logs)} daily logs",
                rationale="Exact and normalised repeats removed; the first occurrence of each note stays. "
                "It waits for review because of autonomy: review.",
                evidence=repeats,
            )
        if rewrite.contradictions:
            files = {f.path: after.read_text(f.path) or "" for f in workspace.files}
            found, lines = contradictions.proposals(
                rewrite.contradictions,
                agent=agent.name,
                view=after,
                files=files,
                known=known_fingerprints(view),
                now=context.now,
                run_id=context.run_id,
            )
            made += found
            report += lines
        details["contradictions"] = len(rewrite.contradictions)
        details["applied"] = sorted(writes)
        details["proposals"] = [p.id for p in made]
        details["rewrite"] = self._verdict(rewrite, direct, held, held_proposed)
        if changed_logs and logs_direct:
            report.insert(
                0,
                f"daily logs: removed {details['daily_logs']['notes_removed']} repeated note(s) "
                f"from {len(changed_logs)} file(s); first occurrences kept",
            )
        if direct:
            report.insert(0, f"rewrote {', '.join(sorted(direct))} (loss check passed)")
        report += [
            f"merged “{m['merged']}” into “{m['kept']}” ({m['similarity']})" for m in details["merges"]
        ]
        all_writes = [FileWrite(path=p, content=t.encode("utf-8")) for p, t in sorted(writes.items())]
        all_writes += [proposal_write(p) for p in made]
        if rewrite.asked:
            all_writes.append(_state_write({**old_roles, **direct}))
        summary = self._summary(rewrite, details, len(changed_logs))
        if not all_writes:
            return Changeset(
                pass_name=self.name, status="nothing", reason=summary, report=tuple(report), details=details
            )
        return Changeset(
            pass_name=self.name,
            status="changes",
            reason=summary,
            writes=tuple(all_writes),
            report=tuple(report),
            details=details,
        )

    @staticmethod
    def _promoted(old_roles: Mapping[str, str], rewrite: Rewrite, instructions: set[str]) -> list[Finding]:
        """Units that would enter instruction files from other files (e.g. a note in MEMORY.md).

        Lossless overall, but it changes what the agent is asked to do: it never applies
        directly, whatever the hold.
        """
        old = {p: t for p, t in old_roles.items() if p in instructions}
        new = {**old, **{p: t for p, t in rewrite.files.items() if p in instructions}}
        return list(check(old, new, rewrite.merges).added)

    def _propose(
        self,
        context: PassContext,
        after: AgentView,
        kind: str,
        files: Mapping[str, str],
        report: list[str],
        details: dict[str, Any],
        *,
        title: str,
        rationale: str,
        evidence: list[str],
    ) -> list[Proposal]:
        pending = waiting(after, kind, files)
        if pending is not None:
            report.append(f"{kind} proposal {pending.id} still waits for review; not proposed again")
            details.setdefault("waiting", []).append(pending.id)
            return []
        proposal = new_proposal(
            kind=kind,
            agent=context.agent.name,
            title=title,
            target=", ".join(sorted(files)),
            rationale=rationale,
            evidence=evidence,
            changes=[make_change(after, p, t) for p, t in sorted(files.items())],
            now=context.now,
            run_id=context.run_id,
        )
        report.append(f"proposed for review: {title} ({proposal.id})")
        return [proposal]

    @staticmethod
    def _verdict(rewrite: Rewrite, direct: Mapping[str, str], held: Mapping[str, str], proposed: bool) -> str:
        if rewrite.status != "rewritten":
            return rewrite.status
        if direct and held:
            return "partly applied"
        if direct:
            return "applied"
        return "proposed" if proposed else "waiting"

    @staticmethod
    def _summary(rewrite: Rewrite, details: dict[str, Any], logs_changed: int) -> str:
        parts = [f"{details['units_before']} units before, {details['units_after']} after, none lost"]
        if rewrite.status == "skipped":
            parts.append(f"rewrite skipped: {rewrite.reason}")
        else:
            parts.append(f"rewrite {details['rewrite']}")
        if logs_changed:
            parts.append(f"{details['daily_logs']['notes_removed']} repeated daily-log note(s) removed")
        if details["proposals"]:
            parts.append(f"{len(details['proposals'])} proposal(s) for review")
        return "; ".join(parts)
