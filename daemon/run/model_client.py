"""The deep-tier client of one run, assembled in one place (pass runs and the lab alike).

Budgets, the daily deep-pass cap and the breaker come from the deployment and the agent;
a run without an agent (the settings lab's campaign) is charged as `lab` with the
deployment's per-agent budget and the cadence's cap.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.coordination.backends import agent_breaker, coordination_for
from daemon.kernel.cadence import CADENCES
from daemon.kernel.settings import AgentSettings
from daemon.model.access import ModelAccess
from daemon.model.coordination_protocol import RunGrant
from daemon.model.deep_tier import DeepTier


def deep_tier_for(
    deployment: Deployment,
    agent: AgentSettings | None,
    access: ModelAccess,
    *,
    run_id: str,
    now: datetime,
    clock: Callable[[], datetime] | None = None,
    with_breaker: bool = True,
    grant: RunGrant | None = None,
) -> DeepTier:
    """The model client for one run of `agent` (or of the lab, with `agent` None).

    `with_breaker=False` for work that is not the agent's own passes (a lab campaign): its
    failures never pause the agent. `grant` is the run's fleet lock, asked before each call.
    """
    config = deployment.config
    return DeepTier(
        model=deployment.model,
        api_key=access.api_key,
        ledger=coordination_for(deployment).ledger(),
        agent=agent.name if agent else "lab",
        run_id=run_id,
        now=now,
        deployment_budget_usd=config.budget.daily_usd,
        agent_budget_usd=agent.budget_usd if agent else config.budget.per_agent_daily_usd,
        deep_cap=agent.deep_cap if agent else CADENCES[config.cadence].deep_passes_per_day,
        unavailable_reason=access.unavailable_reason,
        breaker=agent_breaker(deployment, agent.name) if agent and with_breaker else None,
        fleet_refusal=grant.model_refusal if grant is not None else None,
        clock=clock,
    )
