"""The deep-tier client of one run, assembled in one place (pass runs and the lab alike).

Budgets, the daily deep-pass cap and the breaker come from the deployment and the agent;
a run without an agent (the settings lab's campaign) is charged as `lab` with the
deployment's per-agent budget and the cadence's cap.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from daemon.config.resolve import Deployment
from daemon.kernel.breaker import Breaker
from daemon.kernel.cadence import CADENCES
from daemon.kernel.deep_tier import DeepTier
from daemon.kernel.model_access import ModelAccess
from daemon.kernel.paths import AgentState, StateLayout
from daemon.kernel.settings import AgentSettings
from daemon.kernel.spend import SpendLedger


def breaker_for(deployment: Deployment, state: AgentState) -> Breaker | None:
    """The agent's circuit breaker, or None with no model configured."""
    model = deployment.model
    if model is None:
        return None
    return Breaker(state.breaker, model.breaker_failures, timedelta(minutes=model.breaker_cooldown_minutes))


def deep_tier_for(
    deployment: Deployment,
    agent: AgentSettings | None,
    access: ModelAccess,
    *,
    run_id: str,
    now: datetime,
    clock: Callable[[], datetime] | None = None,
    with_breaker: bool = True,
) -> DeepTier:
    """The model client for one run of `agent` (or of the lab, with `agent` None).

    `with_breaker=False` for work that is not the agent's own passes (a lab campaign): its
    failures never pause the agent.
    """
    layout = StateLayout(deployment.state_dir)
    config = deployment.config
    return DeepTier(
        model=deployment.model,
        api_key=access.api_key,
        ledger=SpendLedger(layout.spend_dir, layout.spend_lock),
        agent=agent.name if agent else "lab",
        run_id=run_id,
        now=now,
        deployment_budget_usd=config.budget.daily_usd,
        agent_budget_usd=agent.budget_usd if agent else config.budget.per_agent_daily_usd,
        deep_cap=agent.deep_cap if agent else CADENCES[config.cadence].deep_passes_per_day,
        unavailable_reason=access.unavailable_reason,
        breaker=breaker_for(deployment, layout.agent(agent.name)) if agent and with_breaker else None,
        clock=clock,
    )
