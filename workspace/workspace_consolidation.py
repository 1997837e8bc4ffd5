"""Workspace consolidation pass: tidy the role files and daily logs without losing a unit.

1. Daily logs in the window are de-duplicated deterministically (`daily_logs`).
2. The deep model answers with edit operations on the numbered units of the role files
   (merge reworded duplicates, drop duplicates, move content to the file it belongs in,
   group under headings) and reports contradictions; Python applies them to the original
   text (`consolidate_rewrite`, `unit_edits`). Large files are sent section by section in
   several requests, each within `max_input_bytes`, at most 8 per pass; what is not reached
   waits for the next run (`consolidate_requests`). Without a model (none configured, cap,
   budget) this step is skipped and step 1 still runs.
3. The loss check runs on both (`loss_check`); an answer whose result loses or adds a unit
   is rejected; when no answer is left, nothing is written and the report names every lost
   unit.
4. The regime (`regime`) splits what passed: lossless tidy-ups apply directly, changes to
   instruction files under the hold — or everything under `autonomy: review` — become
   proposals. If applying only the direct part would itself lose a unit (content moved
   into a held file), the whole rewrite becomes the proposal instead.
5. Verified contradictions become proposals (`contradictions`).

`once --json` shows `units_before`, `units_after`, `lost_units` (a list; non-empty means an
answer was rejected), `added_units`, `rewrite` (applied, proposed, partly applied, waiting,
unchanged, skipped, rejected), and per model request `requests`, with `requests_waiting`,
`units_waiting` and `units_too_large`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from daemon.kernel.changeset import Changeset, FileWrite
from daemon.kernel.managed import ManagedPaths
from daemon.kernel.paths import REVIEW_DIR
from daemon.kernel.review_queue import (
    Proposal,
    known_fingerprints,
    make_change,
    new_proposal,
    proposal_write,
    waiting,
)
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.passes.protocol import MemoryLockMode, PassContext
from workspace import consolidate_report, consolidate_rewrite, contradictions, loss_check, regime
from workspace.consolidate_report import CheckedDetails, ConsolidatedDetails, DailyLogs
from workspace.consolidate_requests import STATE_FILE
from workspace.consolidate_rewrite import Rewrite
from workspace.daily_logs import deduplicate
from workspace.loss_check import Finding, check
from workspace.roles import Workspace, read_daily_logs, read_workspace, role_files

MAX_EVIDENCE = 50


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
        try:
            return self._plan(context)
        finally:
            loss_check.forget()

    def _plan(self, context: PassContext) -> Changeset:
        agent, view = context.agent, context.view
        workspace = read_workspace(agent, view)
        logs = read_daily_logs(agent, view, context.now.date())
        old_logs = logs.texts()
        dedup = deduplicate(list(old_logs.items()))
        rewrite = consolidate_rewrite.rewrite(context, workspace)
        old_roles = workspace.texts()
        new_roles = {**old_roles, **rewrite.files}
        role_check = check(old_roles, new_roles, rewrite.merges)
        log_check = check(old_logs, dedup.texts)
        lost = [*role_check.lost, *(f for r in rewrite.rejected for f in r.lost), *log_check.lost]
        added = [*role_check.added, *(f for r in rewrite.rejected for f in r.added), *log_check.added]
        details = consolidate_report.checked(
            (role_check, log_check),
            lost,
            added,
            rewrite,
            DailyLogs(read=len(old_logs), notes_removed=len(dedup.removed), changed=dedup.changed),
            [*workspace.problems, *logs.problems],
        )
        report = [*details.problems]
        if not (role_check.ok or log_check.ok):
            details = details.model_copy(update={"rewrite": "rejected"})
            report += [f"lost {f.label()}" for f in lost]
            report += [f"added {f.label()}" for f in added]
            return Changeset(
                pass_name=self.name,
                status="nothing",
                reason=(
                    f"rewrite rejected by the loss check ({len(lost)} unit(s) lost, {len(added)} added); "
                    "nothing written"
                ),
                report=tuple(report),
                details=details,
            )
        # One refused part never throws away the others: a rewrite that fails its final check
        # is dropped, the daily-log tidying (no model) and the contradictions still count.
        if not role_check.ok:
            report += [f"lost {f.label()} (the rewrite dropped)" for f in role_check.lost]
            report += [f"added {f.label()} (the rewrite dropped)" for f in role_check.added]
            rewrite = replace(rewrite, status="rejected", files={}, merges=())
            details = details.model_copy(update={"rewrite": "rejected"})
        if not log_check.ok:
            report += [f"lost {f.label()} (the daily-log tidying dropped)" for f in log_check.lost]
            dedup = replace(dedup, texts=dict(old_logs), removed=())
            details = details.model_copy(update={"daily_logs": DailyLogs(read=len(old_logs), notes_removed=0, changed=[])})
        report += consolidate_report.request_lines(rewrite)
        report += [f"lost {f.label()} (refused by the loss check)" for r in rewrite.rejected for f in r.lost]
        report += [f"added {f.label()} (refused by the loss check)" for r in rewrite.rejected for f in r.added]
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
        details: CheckedDetails,
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
        still_waiting: list[str] = []  # proposals of an earlier run that still wait
        if held:
            made += self._propose(
                context,
                after,
                "consolidation",
                held,
                report,
                still_waiting,
                title=f"Consolidate {', '.join(sorted(held))}",
                rationale=(
                    f"Lossless consolidation checked by the loss check ({details.units_before} units before, "
                    f"{details.units_after} after, {len(details.merges)} merged, none lost). It waits "
                    f"for review because of the {why}."
                ),
                evidence=[f"merged “{m.merged}” into “{m.kept}” ({m.similarity})" for m in details.merges],
            )
            held_proposed = bool(made)
        if changed_logs and not logs_direct:
            made += self._propose(
                context,
                after,
                "daily-logs",
                changed_logs,
                report,
                still_waiting,
                title=f"Remove {details.daily_logs.notes_removed} repeated notes from {len(changed_logs)} daily logs",
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
                known=known_fingerprints(view) | contradictions.kept_both(view),
                now=context.now,
                run_id=context.run_id,
            )
            made += found
            report += lines
        done = ConsolidatedDetails(
            **{**dict(details), "rewrite": self._verdict(rewrite, direct, held, held_proposed)},
            contradictions=len(rewrite.contradictions),
            applied=sorted(writes),
            proposals=[p.id for p in made],
            waiting=still_waiting or None,
        )
        if changed_logs and logs_direct:
            report.insert(
                0,
                f"daily logs: removed {done.daily_logs.notes_removed} repeated note(s) "
                f"from {len(changed_logs)} file(s); first occurrences kept",
            )
        if direct:
            report.insert(0, f"rewrote {', '.join(sorted(direct))} (loss check passed)")
        report += [f"merged “{m.merged}” into “{m.kept}” ({m.similarity})" for m in done.merges]
        all_writes = [FileWrite(path=p, content=t.encode("utf-8")) for p, t in sorted(writes.items())]
        all_writes += [proposal_write(p) for p in made]
        if rewrite.progress is not None:
            all_writes.append(rewrite.progress.state_write({**old_roles, **direct}))
        summary = consolidate_report.summary(rewrite, done, len(changed_logs))
        if not all_writes:
            return Changeset(
                pass_name=self.name, status="nothing", reason=summary, report=tuple(report), details=done
            )
        return Changeset(
            pass_name=self.name,
            status="changes",
            reason=summary,
            writes=tuple(all_writes),
            report=tuple(report),
            details=done,
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
        still_waiting: list[str],
        *,
        title: str,
        rationale: str,
        evidence: list[str],
    ) -> list[Proposal]:
        pending = waiting(after, kind, files)
        if pending is not None:
            report.append(f"{kind} proposal {pending.id} still waits for review; not proposed again")
            still_waiting.append(pending.id)
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
