"""Adoption: a selected configuration becomes a review-queue proposal, never a change.

The proposal's single change writes `.metaeng/memory-settings.json` (the file
`agent_memory.settings_for` reads). Nothing changes an agent's settings until a person
approves it with `review approve`, which applies it as a run that `undo` reverts; if
the file changed in the meantime the proposal is stale and refused.

Which configuration: the best score by the selection rule; among configurations with
exactly that score (the grid often has ties, e.g. every top_k), the one that changes the
fewest of the agent's current settings. It is proposed only if the selection rule
prefers it to the agent's current settings on the same suite.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from daemon.kernel.changeset import Changeset, PassDetails, nothing
from daemon.kernel.memory_settings import SETTING_NAMES, MemorySettings
from daemon.kernel.paths import ADOPTED_SETTINGS
from daemon.kernel.review_queue import list_proposals, make_change, new_proposal, proposal_write
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.lab.evaluator import Evaluation, evaluate
from daemon.lab.grid import GridResult
from daemon.lab.scenarios import Suite
from daemon.lab.selection import Comparison, compare, rank_key
from memory_engine.agent_memory import adopted_settings_file, settings_for

KIND = "memory-settings"
PASS_NAME = "lab-propose"


def changed(current: MemorySettings, proposed: MemorySettings) -> list[str]:
    return [n for n in SETTING_NAMES if getattr(current, n) != getattr(proposed, n)]


def closest_best(results: Sequence[GridResult], current: MemorySettings) -> GridResult | None:
    """Among the results tied with the best (same selection-rule key), the smallest change."""
    if not results or results[0].violations:
        return None
    key = rank_key(results[0])
    tied = [r for r in results if rank_key(r) == key]
    return min(tied, key=lambda r: len(changed(current, r.settings)))


@dataclass(frozen=True)
class Assessment:
    """The proposed settings against the agent's current ones, on one suite."""

    current: MemorySettings
    current_origin: str
    proposed: MemorySettings
    current_eval: Evaluation
    proposed_eval: Evaluation
    comparison: Comparison

    @property
    def worth_proposing(self) -> bool:
        return self.comparison.recommendation == "recommend_accept"


def assess(agent: AgentSettings, view: AgentView, suite: Suite, proposed: MemorySettings) -> Assessment:
    current, origin = settings_for(agent, view)
    current_eval = evaluate(suite, current)
    proposed_eval = evaluate(suite, proposed)
    return Assessment(
        current, origin, proposed, current_eval, proposed_eval, compare(proposed_eval, current_eval)
    )


class SettingsProposal(PassDetails):
    """The settings proposal that waits in the review queue (made now, or still open)."""

    proposal: str


class SettingsProposed(SettingsProposal):
    """A settings proposal made now: the settings it proposes and the names it changes."""

    settings: MemorySettings
    changed: list[str]


def _fingerprint(settings: MemorySettings) -> str:
    material = json.dumps([KIND, ADOPTED_SETTINGS, settings.model_dump()], sort_keys=True)
    return hashlib.sha256(material.encode("utf-8")).hexdigest()


def plan_proposal(
    agent: AgentSettings,
    view: AgentView,
    assessment: Assessment,
    *,
    suite: Suite,
    source: str,
    extra_evidence: Sequence[str],
    now: datetime,
    run_id: str,
) -> Changeset:
    """A changeset that adds one settings proposal to the agent's review queue (or nothing)."""
    proposed = assessment.proposed
    if not assessment.worth_proposing:
        return nothing(
            PASS_NAME,
            f"nothing to propose: {proposed.describe()} is not preferred to the current settings "
            f"({assessment.comparison.reason})",
        )
    fingerprint = _fingerprint(proposed)
    for existing in list_proposals(view):
        if existing.decision == "open" and existing.fingerprint == fingerprint:
            return nothing(
                PASS_NAME, f"already proposed and still open: {existing.id}", SettingsProposal(proposal=existing.id)
            )
    a, b = assessment.current_eval, assessment.proposed_eval
    diffs = changed(assessment.current, proposed)
    rationale = (
        f"On the scenario suite {suite.name} ({a.total} stories), the current memory settings "
        f"({assessment.current_origin}) pass {a.passed}/{a.total} with {a.mean_stored_records:.2f} stored "
        f"records per story; the proposed settings pass {b.passed}/{b.total} with "
        f"{b.mean_stored_records:.2f} ({assessment.comparison.reason}). Selected by: {source}. "
        f"Changes: "
        + ", ".join(f"{n} {getattr(assessment.current, n)} → {getattr(proposed, n)}" for n in diffs)
        + ". The scenarios are synthetic stories: check the change against this agent's own use first."
    )
    evidence = [
        f"suite {suite.name}: {a.total} scenarios, sha256 {suite.sha256}",
        f"scenarios fixed: {', '.join(assessment.comparison.wins) or 'none'}",
        f"scenarios broken: {', '.join(assessment.comparison.losses) or 'none'}",
        f"hard-check violations with the proposed settings: {b.violations}",
        *extra_evidence,
    ]
    draft = new_proposal(
        kind=KIND,
        agent=agent.name,
        title=f"memory settings: {', '.join(f'{n}={getattr(proposed, n)}' for n in diffs)}",
        target=ADOPTED_SETTINGS,
        rationale=rationale,
        evidence=evidence,
        changes=[],
        now=now,
        run_id=run_id,
        by="metaeng-daemon lab",
    )
    change = make_change(view, ADOPTED_SETTINGS, adopted_settings_file(proposed, draft.id).decode("utf-8"))
    proposal = draft.model_copy(update={"changes": [change], "fingerprint": fingerprint})
    return Changeset(
        pass_name=PASS_NAME,
        status="changes",
        reason=f"proposed {proposed.describe()} for agent {agent.name} as {proposal.id} (review queue)",
        writes=(proposal_write(proposal),),
        details=SettingsProposed(proposal=proposal.id, settings=proposed, changed=diffs),
    )
