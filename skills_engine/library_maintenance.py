"""The library-maintenance pass: the whole skill collection as one unit.

In order, on one view (so every step sees the previous ones' changes):
1. the preservation guard quarantines failing forks (a failing copy is never merged);
2. each drifted fork is re-merged with its changed original (`remerge`);
3. identical duplicate learned skills are merged (no model needed: lossless); a pinned skill
   is never merged away (it is the one kept, or the group is not merged: `dedupe`);
4. near-duplicate groups go to the deep model, which confirms and writes the canonical
   version; groups it judged distinct are remembered and not asked again;
5. what remains is tidied (`tidy`);
6. the curator moves learned skills nobody uses to the archive, or proposes it (`curator`).

Only the learned library, the fork bases, the quarantine and the pass's state file can be
written (`SkillEdits`); originals and managed skills are read-only by construction. All
changes are one changeset, so the run's commit holds every file the pass touched before
and after, its report lists every change, and one `undo` reverts the whole pass.
Without a model, steps 1, 2 (forks without true conflicts), 3 and 5 run; everything
that needs the model is reported as pending. Under `autonomy: review`, upstream merges
and model-written merges become review-queue proposals; identical merges and tidying,
being lossless, apply.
"""

from __future__ import annotations

from daemon.kernel.changeset import Changeset, PassDetails
from daemon.kernel.errors import CorruptState, ModelResponseInvalid, ModelUnavailable, StateVersionError
from daemon.kernel.json_contract import Document
from daemon.kernel.managed import ManagedPaths
from daemon.kernel.settings import AgentSettings
from daemon.model.deep_tier import DeepTier
from daemon.passes.protocol import MemoryLockMode, PassContext
from daemon.transcripts import usage_record
from daemon.transcripts.usage_record import UsageFile
from skills_engine import library_state
from skills_engine.archive import read_pins
from skills_engine.curator import CuratorDetails, curate, recurring_of
from skills_engine.dedupe import group_fingerprint, merge_identical, merge_near, pinned_member, pinned_refusal
from skills_engine.duplicates import eligible, find_groups
from skills_engine.edits import SkillEdits, write_scope
from skills_engine.enforce import Quarantined, enforce_guard
from skills_engine.inventory import SKILL_FILE, load_inventory
from skills_engine.proposals import propose, waiting
from skills_engine.remerge import remerge
from skills_engine.tidy import tidy_skill

MAX_MODEL_CALLS = 20


class UpstreamMerge(Document):
    """A learned copy of a managed or pack skill whose origin changed: merged, or why not."""

    name: str
    outcome: str  # merged | pending | failed | proposed | refused
    reason: str
    rules: dict[str, str]  # file → the merge rule applied to it
    kept_ours: list[str]


class DuplicatesOutcome(Document):
    """One group of duplicate skills and what became of it."""

    names: list[str]
    outcome: str  # merged | distinct | proposed | refused
    reason: str


class Tidied(Document):
    name: str
    changes: list[str]


class LibraryDetails(PassDetails):
    """What the library maintenance did, and what waits (`pending`: for the model, a person
    or the review queue)."""

    upstream_merges: list[UpstreamMerge]
    duplicates: list[DuplicatesOutcome]
    tidied: list[Tidied]
    pending: list[str]
    files_merged_deterministically: int
    files_resolved_by_model: int
    quarantined: list[Quarantined]  # forks the preservation guard moved out this run
    model_calls: int
    curator: CuratorDetails | None = None  # None: the curator could not read the usage record


class LibraryMaintenancePass:
    name = "library_maintenance"
    uses_model = True
    memory_lock: MemoryLockMode = "none"

    def write_scope(self, agent: AgentSettings) -> ManagedPaths:
        return write_scope(agent)

    def plan(self, context: PassContext) -> Changeset:
        agent = context.agent
        edits = SkillEdits(agent, context.view)
        guard = enforce_guard(agent, edits, context.now, context.run_id)
        run = _Run(agent, edits, context, list(guard.report))
        run.quarantined = list(guard.quarantined)
        run.upstream_merges()
        run.duplicates()
        run.tidy()
        run.curate()
        return run.changeset(self.name)


class _Run:
    def __init__(
        self, agent: AgentSettings, edits: SkillEdits, context: PassContext, report: list[str]
    ) -> None:
        self.agent = agent
        self.edits = edits
        self.context = context
        self.report = report
        self.review = agent.autonomy == "review"
        self.unavailable = context.deep.availability()
        self.calls_at_start = len(context.deep.calls)
        self.pending: list[str] = []
        self.quarantined: list[Quarantined] = []
        self.merges: list[UpstreamMerge] = []
        self.duplicate_groups: list[DuplicatesOutcome] = []
        self.tidied: list[Tidied] = []
        self.curator: CuratorDetails | None = None
        self.merged_deterministically = 0
        self.resolved_by_model = 0

    def curate(self) -> None:
        path = self.context.usage_record
        try:
            usage = usage_record.load(path) if path is not None else UsageFile()
            recurring = recurring_of(self.context.impact_skills, self.agent, self.context.now)
            lines, self.curator = curate(
                self.agent, self.edits, usage, self.context.now, self.context.run_id, recurring
            )
        except (CorruptState, StateVersionError) as exc:
            self.report.append(f"curator not run: {exc}")
            return
        self.report.extend(lines)

    def deep(self) -> DeepTier | None:
        """The model, if it can be called and this pass's call budget is not spent."""
        if self.unavailable or len(self.context.deep.calls) - self.calls_at_start >= MAX_MODEL_CALLS:
            return None
        return self.context.deep

    def why_no_model(self) -> str:
        return self.unavailable or f"this pass already made {MAX_MODEL_CALLS} model calls"

    def upstream_merges(self) -> None:
        learned = self.agent.skills.learned
        inventory = load_inventory(self.agent, self.edits.view)
        in_review = {target for target, _ in waiting(self.edits.view, "skill-upstream-merge")}
        for skill in inventory.learned_skills():
            if skill.origin_gone:
                self.pending.append(
                    f"upstream merge of {skill.name}: its origin {skill.origin_gone} no longer provides it "
                    "(moved or removed); not merged with any other source — restore the origin, or delete "
                    "the sidecar to own the copy"
                )
        for skill in [s for s in inventory.learned_skills() if s.status == "drifted"]:
            original = inventory.upstream(skill)
            assert original is not None
            if f"{learned}/{skill.name}" in in_review:
                self.pending.append(f"upstream merge of {skill.name}: a proposal waits in the review queue")
                continue
            result = remerge(
                skill,
                original,
                learned=learned,
                view=self.edits.view,
                deep=self.deep(),
                now=self.context.now,
                run_id=self.context.run_id,
            )
            entry = UpstreamMerge(
                name=skill.name,
                outcome=result.status,
                reason=result.reason,
                rules=result.rules,
                kept_ours=result.kept_ours,
            )
            if result.status == "merged":
                self.merged_deterministically += result.deterministic
                self.resolved_by_model += result.model_resolved
            if result.status == "pending":
                self.pending.append(f"upstream merge of {skill.name}: {result.reason}")
                self.unavailable = self.unavailable or result.model_failed
            elif result.status == "failed":
                self.report.append(f"upstream merge of {skill.name} not done: {result.reason}")
            elif self.review:
                outcome = propose(
                    self.agent,
                    self.edits,
                    kind="skill-upstream-merge",
                    title=f"merge upstream changes into {skill.name}",
                    target=f"{learned}/{skill.name}",
                    rationale=result.reason,
                    evidence=[str(original.path)],
                    writes=result.writes,
                    deletes=result.deletes,
                    now=self.context.now,
                    run_id=self.context.run_id,
                )
                entry = entry.model_copy(
                    update={
                        "outcome": "proposed" if outcome.proposal_id else "refused",
                        "reason": outcome.refused or f"review-queue proposal {outcome.proposal_id}",
                    }
                )
                self.report.append(f"upstream merge of {skill.name}: {entry.reason}")
            else:
                self.edits.apply(result.writes, result.deletes)
                self.report.append(result.reason)
            self.report.extend(result.report)
            self.merges.append(entry)

    def duplicates(self) -> None:
        learned = self.agent.skills.learned
        try:
            pinned = set(read_pins(self.edits.view).pinned)
        except (CorruptState, StateVersionError) as exc:
            self.report.append(f"duplicates not merged: the pins cannot be read, and a pinned skill is never merged away: {exc}")
            return
        inventory = load_inventory(self.agent, self.edits.view)
        groups = find_groups(eligible(inventory.skills))
        for group in groups.identical:
            result = merge_identical(group, learned, self.context.now, self.context.run_id, pinned)
            self.edits.apply(result.writes, result.deletes)
            self._record(result.outcome, result.reason, result.names)
        if groups.identical:
            inventory = load_inventory(self.agent, self.edits.view)
            groups = find_groups(eligible(inventory.skills))
        for group in groups.oversized:
            names = [s.name for s in group]
            self.pending.append(
                f"{len(names)} similar skills ({', '.join(names)}): too many to merge at once"
            )
        state = library_state.load(self.edits.view)
        all_names = set(inventory.folder_names)
        in_review = {evidence for _, evidence in waiting(self.edits.view, "skill-merge")}
        for group in groups.near:
            names = [s.name for s in group]
            fingerprint = group_fingerprint(group)
            if fingerprint in state.distinct:
                continue
            if frozenset(names) in in_review:
                self.pending.append(
                    f"near-duplicates {', '.join(names)}: a proposal waits in the review queue"
                )
                continue
            refused = pinned_refusal(group, pinned)
            if refused is not None:
                self._record(refused.outcome, refused.reason, names)
                continue
            deep = self.deep()
            if deep is None:
                self.pending.append(
                    f"near-duplicates {', '.join(names)}: need the deep model ({self.why_no_model()})"
                )
                continue
            try:
                result = merge_near(
                    group,
                    learned=learned,
                    all_names=all_names,
                    deep=deep,
                    now=self.context.now,
                    run_id=self.context.run_id,
                    keep=pinned_member(group, pinned),
                )
            except ModelUnavailable as exc:
                self.pending.append(f"near-duplicates {', '.join(names)}: {exc}")
                self.unavailable = str(exc)  # cap, budget or server: no point asking again this run
                continue
            except ModelResponseInvalid as exc:
                self._record("refused", str(exc), names)
                continue
            if result.outcome == "distinct":
                group_record = library_state.DistinctGroup(
                    names=names, at=self.context.now.isoformat(), reason=result.reason
                )
                state = state.model_copy(update={"distinct": {**state.distinct, fingerprint: group_record}})
                self.edits.apply([library_state.state_write(state)])
            elif result.outcome == "merged" and self.review:
                outcome = propose(
                    self.agent,
                    self.edits,
                    kind="skill-merge",
                    title=f"merge {', '.join(names)}",
                    target=f"{learned}/{result.canonical}",
                    rationale=result.reason,
                    evidence=names,
                    writes=result.writes,
                    deletes=result.deletes,
                    now=self.context.now,
                    run_id=self.context.run_id,
                )
                result.outcome = "proposed" if outcome.proposal_id else "refused"
                result.reason = (
                    outcome.refused or f"review-queue proposal {outcome.proposal_id}: {result.reason}"
                )
            elif result.outcome == "merged":
                self.edits.apply(result.writes, result.deletes)
                all_names = (all_names - set(names)) | {result.canonical or ""}
            self._record(result.outcome, result.reason, names)

    def _record(self, outcome: str, reason: str, names: list[str]) -> None:
        self.duplicate_groups.append(DuplicatesOutcome(names=names, outcome=outcome, reason=reason))
        self.report.append(f"duplicates {outcome}: {reason}")

    def tidy(self) -> None:
        learned = self.agent.skills.learned
        inventory = load_inventory(self.agent, self.edits.view)
        for skill in eligible(inventory.skills):
            text = skill.folder.files[SKILL_FILE].decode("utf-8")
            tidied, notes = tidy_skill(text)
            if notes:
                self.edits.write(f"{learned}/{skill.name}/{SKILL_FILE}", tidied.encode("utf-8"))
                self.tidied.append(Tidied(name=skill.name, changes=notes))
                self.report.append(f"tidied {skill.name}: {'; '.join(notes)}")

    def changeset(self, pass_name: str) -> Changeset:
        details = LibraryDetails(
            upstream_merges=self.merges,
            duplicates=self.duplicate_groups,
            tidied=self.tidied,
            pending=self.pending,
            files_merged_deterministically=self.merged_deterministically,
            files_resolved_by_model=self.resolved_by_model,
            quarantined=self.quarantined,
            model_calls=len(self.context.deep.calls) - self.calls_at_start,
            curator=self.curator,
        )
        self.report.extend(f"pending: {item}" for item in self.pending)
        # Pending, failed and refused work is reported, not planned.
        not_done = ("pending", "failed", "refused")
        done = (
            sum(1 for m in self.merges if m.outcome not in not_done)
            + sum(1 for d in self.duplicate_groups if d.outcome not in not_done)
            + len(self.tidied)
        )
        reason = f"{done} library change(s) planned, {len(self.pending)} pending"
        if self.quarantined:
            reason += f", {len(self.quarantined)} quarantined"
        if self.curator is not None and self.curator.archived:
            reason += f", {len(self.curator.archived)} archived"
        if not self.edits and self.pending and self.unavailable:
            return Changeset(
                pass_name=pass_name,
                status="skipped",
                reason=f"{reason}: {self.unavailable}",
                report=tuple(self.report),
                details=details,
            )
        return self.edits.changeset(pass_name, reason, self.report, details)
