"""Deciding a proposal — the one code path for `review approve|reject` and the console's buttons."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from daemon.config.resolve import Deployment
from daemon.kernel.review_queue import ReviewError, list_proposals, plan_approval, plan_rejection
from daemon.kernel.view import AgentView
from daemon.run.manual import ManualResult, run_manual


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
) -> ManualResult:
    """Approve (apply as a run) or reject `proposal_id` under the agent's run lock.

    Raises ReviewError (stale, already decided, unknown) or DaemonError; nothing changed then.
    """
    planner = plan_approval if verb == "approve" else plan_rejection
    return run_manual(
        deployment,
        agent,
        label=f"review-{verb}",
        plan=lambda session, view, run_id: planner(view, proposal_id, now=now, run_id=run_id, by=by, why=why),
        now=now,
        lock_timeout=lock_timeout,
        trailers={"Proposal": proposal_id},
    )
