"""The curator: learned skills nobody uses go stale, then to the archive — with consent where it matters.

Run as the last step of the library-maintenance pass and by `metaeng-daemon curator`
(`--dry-run` shows what would move and why). Each skill's place comes from the usage
record and from what the last `impact` found (skills_engine/lifecycle.py); a skill due for the archive is **moved**
(skills_engine/archive.py), never deleted, in the pass's one changeset, so one `undo`
brings every skill of the run back.

Consent, before anything moves:

- the first time an agent's curator would archive anything, the moves go to the review
  queue as one proposal (kind `skill-archive`); once a person approved one (the queue keeps
  the decision), later runs archive on their own;
- a run that would archive more than `skills.curator.consent_share` of the learned library
  (default 10 %) asks again, whatever was consented before;
- under `autonomy: review` every archive is a proposal.

The record also keeps which skills are stale, so a skill going stale is reported (and
notified) once, not every run.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from daemon.kernel.changeset import FileWrite, PassDetails
from daemon.kernel.paths import SKILL_CURATOR
from daemon.kernel.review_queue import list_proposals
from daemon.kernel.settings import AgentSettings
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView
from daemon.transcripts.usage_record import UsageFile
from skills_engine import impact_record
from skills_engine.archive import ARCHIVE_DIR, plan_archive, read_pins, skill_files
from skills_engine.edits import SkillEdits
from skills_engine.folders import is_text
from skills_engine.inventory import Inventory, Skill, load_inventory
from skills_engine.lifecycle import Verdict, use_of, verdict
from skills_engine.proposals import propose

CURATOR_FILE = SKILL_CURATOR
KIND = "skill-archive"
VERSION = 1


class CuratorState(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)  # built when first read

    version: int = VERSION
    stale: list[str] = []  # stale or due for the archive, as of the last run
    # skill → when a person restored it from the archive: its quiet time counts from then
    restored: dict[str, str] = {}


@dataclass
class CuratorPlan:
    verdicts: list[Verdict]
    moves: list[Verdict]  # due for the archive this run
    newly_stale: list[str]
    consent: str | None  # why the moves wait for a person; None: they apply
    state: CuratorState
    writes: list[FileWrite] = field(default_factory=list)
    deletes: list[str] = field(default_factory=list)


def read_state(view: AgentView) -> CuratorState:
    raw = view.read_bytes(CURATOR_FILE)
    if raw is None:
        return CuratorState()
    return parse_versioned(raw, view.home / CURATOR_FILE, CuratorState, VERSION)


def state_write(state: CuratorState) -> FileWrite:
    body = json.dumps(state.model_dump(mode="json"), indent=1) + "\n"
    return FileWrite(path=CURATOR_FILE, content=body.encode("utf-8"))


def curated(skill: Skill) -> bool:
    """A skill the daemon learned itself, in the learned library, serving (not a fork)."""
    prov = skill.provenance
    return (
        skill.source == "learned"
        and skill.status == "active"
        and prov is not None
        and prov.machine_written
        and prov.kind in ("created", "merged")
    )


def recurring_of(path: Path | None, agent: AgentSettings, now: datetime) -> dict[str, int]:
    """Skill → times its corrections were said again after it was opened, as the last `impact`
    wrote at `path` (`skills_engine.impact_record`); empty without one, or when it is older than
    `skills.curator.impact_max_age_days`. Raises CorruptState or StateVersionError."""
    found = impact_record.load(path) if path is not None else None
    return found.recurring(now, agent.skills.curator.impact_max_age_days) if found is not None else {}


def verdicts(
    agent: AgentSettings,
    inventory: Inventory,
    usage: UsageFile,
    pinned: set[str],
    now: datetime,
    restored: Mapping[str, str],
    recurring: Mapping[str, int] | None = None,
) -> list[Verdict]:
    """Where every skill of the inventory stands, by name; a skill a person restored counts
    its quiet time from the restore (`restored`), not from when it was learned or last used
    before it; `recurring`: what `recurring_of` read."""
    today = now.date()
    found = []
    for skill in inventory.skills:
        learned_at = skill.provenance.created_at if skill.provenance else now.isoformat()
        back = restored.get(skill.name)
        if back is not None and _instant(back) <= _instant(learned_at):
            back = None  # learned again since the restore: its own time counts
        use = use_of(usage, usage.skill(skill.name, skill.doc.name), learned_at, today, back)
        again = (recurring or {}).get(skill.name, 0)
        found.append(verdict(skill.name, use, curated(skill), skill.name in pinned, agent.skills.curator, again))
    return found


def standing(
    agent: AgentSettings,
    view: AgentView,
    inventory: Inventory,
    usage: UsageFile,
    now: datetime,
    recurring: Mapping[str, int],
) -> list[Verdict]:
    """Where every skill of `inventory` stands now, as the curator acts on it: the pins and the
    restores read from `view`, what `impact` found from `recurring` (`recurring_of`). The one
    computation `plan`, `status` and the console share. Raises CorruptState or
    StateVersionError if the pins or the curator's record cannot be read."""
    return verdicts(agent, inventory, usage, set(read_pins(view).pinned), now, read_state(view).restored, recurring)


def plan(
    agent: AgentSettings,
    view: AgentView,
    inventory: Inventory,
    usage: UsageFile,
    now: datetime,
    run_id: str | None,
    recurring: Mapping[str, int],
) -> CuratorPlan:
    """What the curator does now: the verdicts, the moves and whether they need consent."""
    settings = agent.skills.curator
    state = read_state(view)
    found = standing(agent, view, inventory, usage, now, recurring)
    moves = [v for v in found if v.state == "archive"]
    stale = sorted(v.name for v in found if v.state in ("stale", "archive"))
    newly = [name for name in stale if name not in state.stale]
    learned = len(inventory.learned_skills())
    consent = None
    if moves:
        if agent.autonomy == "review":
            consent = "autonomy is review: every archive waits for a person"
        elif not any(p.kind == KIND and p.decision == "approved" for p in list_proposals(view)):
            consent = "the first archive of this agent's skills waits for a person's consent"
        elif len(moves) > settings.consent_share * learned:
            consent = (
                f"{len(moves)} of {learned} learned skills would be archived, more than "
                f"{settings.consent_share:.0%} (skills.curator.consent_share): a person decides"
            )
    result = CuratorPlan(found, moves, newly, consent, state.model_copy(update={"stale": stale}))
    for move in moves:
        writes, deletes = plan_archive(view, agent.skills.learned, move, now, run_id)
        result.writes += writes
        result.deletes += deletes
    if result.state != state:
        result.writes.append(state_write(result.state))
    return result


def _skill_of(path: str) -> str:
    """The skill an archive path belongs to: `.metaeng/skill-archive/<name>/…`."""
    return path[len(ARCHIVE_DIR) + 1 :].split("/", 1)[0]


def _instant(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


@dataclass(frozen=True)
class Approval:
    """The approved `skill-archive` proposal that moved an archived skill: its `archive.json`
    was written when the move was proposed (its `run_id`, `archived_at`: the proposing run's),
    the files moved by the approval run (`run_id`, the run whose undo brings the skill back)."""

    proposal: str
    run_id: str | None


def approvals(view: AgentView) -> dict[tuple[str, str | None], Approval]:
    """(archived skill, the run that proposed its move) → the approval that moved it, for every
    approved archive proposal in the queue. Raises CorruptState if a proposal cannot be read."""
    found: dict[tuple[str, str | None], Approval] = {}
    for proposal in list_proposals(view):
        if proposal.kind != KIND or proposal.decision != "approved":
            continue
        for change in proposal.changes:
            if change.path.startswith(ARCHIVE_DIR + "/") and change.path.endswith("/archive.json"):
                found[(_skill_of(change.path), proposal.created_by_run)] = Approval(proposal.id, proposal.run_id)
    return found


def restored_write(view: AgentView, name: str, now: datetime) -> FileWrite:
    """The record after a person restores `name`: its quiet time starts again now."""
    state = read_state(view)
    return state_write(state.model_copy(update={"restored": {**state.restored, name: now.isoformat()}}))




class CuratorDetails(PassDetails):
    """What the curator did in a run: moved to the archive, proposed, found stale."""

    archived: list[str]
    proposal: str | None  # the review-queue proposal holding this run's moves
    waiting: str | None  # why the moves wait for a person (consent), if they do
    stale: list[str]  # every stale skill
    newly_stale: list[str]  # stale since the last run


def curate(
    agent: AgentSettings,
    edits: SkillEdits,
    usage: UsageFile,
    now: datetime,
    run_id: str,
    recurring: Mapping[str, int],
) -> tuple[list[str], CuratorDetails]:
    """Plan the curator into `edits` (moves, or one proposal of them); report lines and details."""
    inventory = load_inventory(agent, edits.view)
    found = plan(agent, edits.view, inventory, usage, now, run_id, recurring)
    report = [f"stale: {name} ({next(v.why for v in found.verdicts if v.name == name)})" for name in found.newly_stale]
    details = CuratorDetails(archived=[], proposal=None, waiting=found.consent, stale=found.state.stale, newly_stale=found.newly_stale)
    state_files = [w for w in found.writes if w.path == CURATOR_FILE]
    moves = [w for w in found.writes if w.path != CURATOR_FILE]
    if not found.moves:
        edits.apply(state_files)
        return report, details
    if found.consent is None:
        edits.apply(found.writes, found.deletes)
        report += [f"archived {v.name}: {v.why}" for v in found.moves]
        return report, details.model_copy(update={"archived": [v.name for v in found.moves]})
    edits.apply(state_files)
    if any(p.kind == KIND and p.status(edits.view) == "open" for p in list_proposals(edits.view)):
        report.append(f"archive of {len(found.moves)} skill(s) waits: a proposal is already in the review queue")
        return report, details
    # a proposal carries text: a skill with a binary file waits for the consent of another one
    movable = [v for v in found.moves if all(is_text(data) for data in skill_files(edits.view, agent.skills.learned, v.name).values())]
    held = [v.name for v in found.moves if v not in movable]
    if held:
        report.append(
            f"not proposed, they hold binary files a proposal cannot carry: {', '.join(held)} "
            "(they move on their own once a person approved an archive)"
        )
    if not movable:
        return report, details
    names = {f"{agent.skills.learned}/{v.name}" for v in movable}
    writes = [w for w in moves if _skill_of(w.path) in {v.name for v in movable}]
    archived = {f"{ARCHIVE_DIR}/{v.name}/" for v in movable}  # an older archive of the name, replaced whole
    deletes = [
        d for d in found.deletes
        if any(d.startswith(n + "/") or d.startswith(n + ".") for n in names) or any(d.startswith(a) for a in archived)
    ]
    outcome = propose(
        agent,
        edits,
        kind=KIND,
        title=f"archive {len(movable)} learned skill(s) nobody uses: {', '.join(v.name for v in movable[:5])}"
        + ("…" if len(movable) > 5 else ""),
        target=ARCHIVE_DIR,
        rationale=f"{found.consent}. " + "; ".join(f"{v.name}: {v.why}" for v in movable)
        + ". Archived skills move to .metaeng/skill-archive (never deleted); `skills restore NAME` brings one back.",
        evidence=[f"{agent.skills.learned}/{v.name}" for v in movable],
        writes=writes,
        deletes=deletes,
        now=now,
        run_id=run_id,
    )
    if outcome.proposal_id is None:
        report.append(f"archive of {len(movable)} skill(s) not proposed: {outcome.refused}")
    else:
        report.append(f"archive of {len(movable)} skill(s) proposed for review ({outcome.proposal_id}): {found.consent}")
    return report, details.model_copy(update={"proposal": outcome.proposal_id})
