"""The scout's candidates: how each one the model answered (`scout_answer`) is checked and applied.

- `skip`: the capability is already covered — reported, nothing written (a success);
- `update`: must name an existing skill; additions only (steps, sections, text appended
  to a text file of the skill). A learned skill is updated in place; a managed or pack
  skill is forked first (outcome `forked`);
- `create`: the name is sanitised and confined (a path-like name is refused), checked
  against near-identical names (stops on one), then written as a well-formed SKILL.md
  with a `created` sidecar. If the name check cannot complete (a skill source could not
  be read) or the candidate cannot be formatted, it is written as it is and marked so in
  its sidecar (`as_is`) rather than lost.

Every create and update must cite turns that were sent. Under `autonomy: review`, each
create or update becomes one review-queue proposal instead of files.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TypedDict

from daemon.kernel.changeset import FileWrite
from daemon.kernel.errors import PathRefused
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import check_relative
from skills_engine import provenance
from skills_engine.additions import append_text, extend_skill
from skills_engine.archive import recorded_names
from skills_engine.edits import SkillEdits
from skills_engine.folders import is_text
from skills_engine.fork import plan_fork
from skills_engine.inventory import SKILL_FILE, Inventory
from skills_engine.names import NameRefused, near_identical, sanitise
from skills_engine.proposals import propose, waiting
from skills_engine.provenance import Event, Provenance
from skills_engine.scout_answer import (
    CandidateResult,
    Outcome,
    ScoutCandidate,
)
from skills_engine.skillfile import SkillParseError, parse, render, render_body
from skills_engine.step_grounding import unsupported_steps


class _Where(TypedDict, total=False):
    """Where a create or update lands, reported with whatever becomes of it."""

    cites: list[str]
    path: str
    files: list[str]
    forked_from: str
    as_is: str


@dataclass
class Applier:
    """Applies candidates one by one to `edits`; the inventory is reloaded by the caller after each."""

    agent: AgentSettings
    edits: SkillEdits
    now: datetime
    run_id: str
    turns: Mapping[str, str]  # sent turn id → turn ref (file@offset)
    review: bool
    # sent turn id → the turn's text: what a new step must find its words in
    texts: Mapping[str, str] = field(default_factory=dict)
    # Turns whose text reads like a prompt injection: what rests on them waits for a person.
    untrusted: frozenset[str] = frozenset()
    created: set[str] = field(default_factory=set)

    def result(
        self,
        c: ScoutCandidate,
        outcome: Outcome,
        reason: str,
        *,
        proposal: str | None = None,
        near: str | None = None,
        cites: list[str] | None = None,
        path: str | None = None,
        files: list[str] | None = None,
        forked_from: str | None = None,
        as_is: str | None = None,
    ) -> CandidateResult:
        return CandidateResult(
            action=c.action,
            name=c.name,
            outcome=outcome,
            reason=reason,
            proposal=proposal,
            near=near,
            cites=cites,
            path=path,
            files=files,
            forked_from=forked_from,
            as_is=as_is,
        )

    def cited(self, c: ScoutCandidate) -> list[str] | str:
        """The turn refs a candidate cites, or why its citations are refused."""
        if not c.cites:
            return "cites no turn"
        unknown = [t for t in c.cites if t not in self.turns]
        if unknown:
            return f"cites turn(s) {', '.join(unknown)}, which were not sent"
        return [self.turns[t] for t in dict.fromkeys(c.cites)]

    def apply(self, c: ScoutCandidate, inventory: Inventory) -> CandidateResult:
        if c.action == "skip":
            return self.result(c, "skipped", c.reason or "already covered")
        try:
            name = sanitise(c.name)
        except NameRefused as exc:
            return self.result(c, "refused", str(exc))
        refs = self.cited(c)
        if isinstance(refs, str):
            return self.result(c, "refused", refs)
        applier = self
        if not self.review and self.untrusted & set(c.cites):
            applier = replace(self, review=True)  # same `created` set: shared bookkeeping
        outcome = (
            applier.create(c, name, refs, inventory)
            if c.action == "create"
            else applier.update(c, name, refs, inventory)
        )
        if applier is not self:
            held = " (held for review: a cited turn reads like a prompt injection)"
            outcome = outcome.model_copy(update={"reason": outcome.reason + held})
        return outcome

    def ungrounded(self, c: ScoutCandidate, refs: list[str]) -> CandidateResult | None:
        """The refusal of a candidate whose new steps the turns it cites do not support, or None."""
        if not self.texts:
            return None
        missing = unsupported_steps(c.steps, [self.texts.get(t, "") for t in dict.fromkeys(c.cites)])
        if not missing:
            return None
        quoted = "; ".join(f"“{m[:80]}”" for m in missing)
        return self.result(c, "refused", f"ungrounded: the cited turns do not say {quoted}", cites=refs)

    # -- create -------------------------------------------------------------------------
    def create(self, c: ScoutCandidate, name: str, refs: list[str], inventory: Inventory) -> CandidateResult:
        proposed = (
            {t.rsplit("/", 1)[-1] for t, _ in waiting(self.edits.view, "skill-create")}
            if self.review
            else set()
        )
        clash = near_identical(name, inventory.folder_names | self.created | proposed)
        if clash:
            why = "the same name" if clash == name else "a near-identical name"
            return self.result(c, "stopped-near-duplicate", f"{clash} already exists with {why}", near=clash)
        refusal = self.ungrounded(c, refs)
        if refusal is not None:
            return refusal
        as_is: str | None = None
        if inventory.incomplete:
            as_is = "near-identical name check could not complete: " + "; ".join(inventory.incomplete)
        title = name.replace("-", " ").capitalize()
        sections = [(s.heading, s.text) for s in c.sections]
        try:
            if not c.steps:
                raise ValueError("the candidate has no steps")
            text = render(
                name,
                c.description,
                {"trigger": c.trigger} if c.trigger.strip() else {},
                render_body(title, c.trigger, c.steps, sections),
            )
            parse(text, SKILL_FILE, folder_name=name)
        except (ValueError, SkillParseError) as exc:
            as_is = f"formatting could not complete: {exc}" + (f"; {as_is}" if as_is else "")
            text = _as_is_text(name, title, c)
        learned = self.agent.skills.learned
        record = Provenance(
            name=name,
            kind="created",
            created_at=self.now.isoformat(),
            as_is=as_is,
            history=[
                Event(
                    at=self.now.isoformat(),
                    run_id=self.run_id,
                    action="created",
                    cites=refs,
                    note=c.capability,
                )
            ],
        )
        writes = [
            FileWrite(path=f"{learned}/{name}/{SKILL_FILE}", content=text.encode("utf-8")),
            provenance.sidecar_write(learned, record),
        ]
        self.created.add(name)
        extra: _Where = {"cites": refs, "path": f"{learned}/{name}"}
        if as_is:
            extra["as_is"] = as_is
        # A skill the curator archived is never learned back silently: a person decides.
        archived = near_identical(name, recorded_names(self.edits.view))
        if self.review or archived:
            title = f"new skill {name}" + (f" (a skill {archived} was archived: bring it back as this?)" if archived else "")
            return self.proposed(c, "skill-create", title, f"{learned}/{name}", writes, (), refs, extra)
        self.edits.apply(writes)
        reason = c.reason or c.capability
        return self.result(c, "created", f"{reason} (written as is: {as_is})" if as_is else reason, **extra)

    # -- update -------------------------------------------------------------------------
    def update(self, c: ScoutCandidate, name: str, refs: list[str], inventory: Inventory) -> CandidateResult:
        learned_dir = self.agent.skills.learned
        own = inventory.learned(name)
        original = inventory.original(name)
        writes: list[FileWrite] = []
        deletes: tuple[str, ...] = ()
        if own is None and _learned_folder_exists(self.edits, learned_dir, name):
            return self.result(
                c, "refused", f"{learned_dir}/{name} is malformed; fix it before it can be updated"
            )
        if own is not None:
            files = dict(own.folder.files)
            record = own.provenance
            outcome: Outcome = "updated"
        elif original is not None:
            plan = plan_fork(
                original,
                home=self.agent.home,
                learned=learned_dir,
                view=self.edits.view,
                now=self.now,
                run_id=self.run_id,
                cites=refs,
            )
            writes, deletes, files, record = list(plan.writes), plan.deletes, dict(plan.files), plan.record
            outcome = "forked"
        else:
            return self.result(c, "refused", f"no skill named {name!r} to update")
        refusal = self.ungrounded(c, refs)
        if refusal is not None:
            return refusal
        changed = _extended(files, c)
        if isinstance(changed, str):
            return self.result(c, "refused", changed)
        if not changed:
            return self.result(c, "skipped", f"{name} already has every proposed addition")
        writes += [
            FileWrite(path=f"{learned_dir}/{name}/{rel}", content=data)
            for rel, data in sorted(changed.items())
        ]
        if record is not None and record.machine_written:
            event = Event(
                at=self.now.isoformat(), run_id=self.run_id, action="updated", cites=refs, note=c.capability
            )
            writes.append(provenance.sidecar_write(learned_dir, record.with_event(event)))
        extra: _Where = {"cites": refs, "path": f"{learned_dir}/{name}", "files": sorted(changed)}
        if outcome == "forked" and original is not None:
            extra["forked_from"] = str(original.path)
        if self.review:
            kind = "skill-fork" if outcome == "forked" else "skill-update"
            return self.proposed(
                c, kind, f"improve skill {name}", f"{learned_dir}/{name}", writes, deletes, refs, extra
            )
        self.edits.apply(_dedupe(writes), deletes)
        return self.result(c, outcome, c.reason or c.capability, **extra)

    def proposed(
        self,
        c: ScoutCandidate,
        kind: str,
        title: str,
        target: str,
        writes: list[FileWrite],
        deletes: tuple[str, ...],
        refs: list[str],
        extra: _Where,
    ) -> CandidateResult:
        outcome = propose(
            self.agent,
            self.edits,
            kind=kind,
            title=title,
            target=target,
            rationale=c.reason or c.capability,
            evidence=refs,
            writes=_dedupe(writes),
            deletes=deletes,
            now=self.now,
            run_id=self.run_id,
        )
        if outcome.refused:
            return self.result(c, "refused", outcome.refused, **extra)
        return self.result(
            c,
            "proposed",
            f"review-queue proposal {outcome.proposal_id}",
            proposal=outcome.proposal_id,
            **extra,
        )


def _learned_folder_exists(edits: SkillEdits, learned: str, name: str) -> bool:
    return next(iter(edits.view.walk(f"{learned}/{name}")), None) is not None


def _dedupe(writes: list[FileWrite]) -> list[FileWrite]:
    """Later writes of the same path win (a fork's copy, then the update of it)."""
    latest = {w.path: w for w in writes}
    return [latest[p] for p in sorted(latest)]


def _extended(files: dict[str, bytes], c: ScoutCandidate) -> dict[str, bytes] | str:
    """The files the update changes (path → new bytes), or why the update is refused."""
    if not (c.steps or c.sections or c.file_additions):
        return "the update adds nothing (no steps, sections or file additions)"
    changed: dict[str, bytes] = {}
    skill = files.get(SKILL_FILE)
    if skill is None:
        return "the skill has no SKILL.md"
    if c.steps or c.sections:
        try:
            new = extend_skill(skill.decode("utf-8"), c.steps, [(s.heading, s.text) for s in c.sections])
        except (SkillParseError, UnicodeDecodeError) as exc:
            return f"SKILL.md cannot be extended: {exc}"
        if new.encode("utf-8") != skill:
            changed[SKILL_FILE] = new.encode("utf-8")
    for item in c.file_additions:
        try:
            rel = check_relative(item.path)
        except PathRefused as exc:
            return f"file addition refused: {exc}"
        if rel == SKILL_FILE:
            return "file addition refused: add to SKILL.md with steps or sections"
        current = changed.get(rel, files.get(rel))
        if current is None:
            return f"file addition refused: {rel} is not a file of the skill"
        if not is_text(current):
            return f"file addition refused: {rel} is a binary file (never rewritten)"
        updated = append_text(current, item.text)
        if updated != current:
            changed[rel] = updated
    return changed


def _as_is_text(name: str, title: str, c: ScoutCandidate) -> str:
    description = " ".join((c.description or c.capability).split())[:1000] or "Candidate skill written as is"
    lines = [f"# {title}", "", "Written as is by the skill scout: review and tidy it.", ""]
    lines += [
        f"Capability: {c.capability}",
        f"Description: {c.description}",
        f"Trigger: {c.trigger}",
        "",
        "## Steps",
    ]
    lines += [f"{i}. {' '.join(s.split())}" for i, s in enumerate(c.steps, start=1)] or [
        "(the candidate gave no steps)"
    ]
    for s in c.sections:
        lines += ["", f"## {' '.join(s.heading.split()) or 'Section'}", s.text.strip()]
    return render(name, description, {}, "\n".join(lines))
