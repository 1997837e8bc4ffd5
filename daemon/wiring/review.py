"""Deciding a proposal — the one code path for `review approve|reject` and the console's buttons."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from daemon.config.resolve import Deployment
from daemon.kernel.changeset import Changeset
from daemon.kernel.review_decisions import plan_approval, plan_rejection
from daemon.kernel.review_queue import ReviewError, list_proposals
from daemon.kernel.view import AgentView
from daemon.run.manual import ManualResult, run_manual
from daemon.run.session import AgentSession
from daemon.wiring.review_scope import vetting


def locate(deployment: Deployment, proposal_id: str, agent: str | None) -> tuple[str, AgentView]:
    """The agent whose queue holds `proposal_id` (only `agent`'s if given); raises ReviewError."""
    names = [deployment.agent(agent).name] if agent else list(deployment.agents)
    for name in names:
        view = AgentView(deployment.agents[name].home)
        if any(p.id == proposal_id for p in list_proposals(view)):
            return name, view
    raise ReviewError(f"no proposal {proposal_id!r} in the review queue of {', '.join(names)}")


def decide(
    deployment: Deployment,
    agent: str,
    proposal_id: str,
    verb: Literal["approve", "reject"],
    *,
    now: datetime,
    by: str,
    why: str,
    lock_timeout: float,
    keep: str | None = None,
) -> ManualResult:
    """Approve (apply as a run) or reject `proposal_id` under the agent's run lock; `keep`
    approves one of the proposal's choices (a contradiction's side `a`, `b`, or `both`).

    Approval changes only what the proposal's kind may change (`review_scope`). Raises
    ReviewError (stale, already decided, unknown, outside its kind's scope) or DaemonError;
    nothing changed then.
    """

    def plan(session: AgentSession, view: AgentView, run_id: str) -> Changeset:
        if verb == "reject":
            if keep is not None:
                raise ReviewError("--keep chooses what an approval keeps; a rejection keeps nothing")
            return plan_rejection(view, proposal_id, now=now, run_id=run_id, by=by, why=why)
        vet = vetting(session.agent)
        return plan_approval(view, proposal_id, vet=vet, now=now, run_id=run_id, by=by, why=why, keep=keep)

    return run_manual(
        deployment,
        agent,
        label=f"review-{verb}",
        plan=plan,
        now=now,
        lock_timeout=lock_timeout,
        trailers={"Proposal": proposal_id},
    )
