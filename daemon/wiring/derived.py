"""What the composition root derives from an agent's store after each run it commits.

`delivering(deployment)` is what every door that loads a deployment applies (the command
line, the service): the applier then refreshes the agent's delivery index
(`daemon.wiring.delivery`) after every committed run, inside the run lock. The engines
are imported only when a run commits, not by every command that loads a config.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from daemon.config.resolve import Deployment
from daemon.kernel.paths import AgentState
from daemon.kernel.runtime_files import PROMPT_HOOKS
from daemon.kernel.settings import AgentSettings


def refresh_delivery(agent: AgentSettings, state: AgentState, now: datetime) -> str | None:
    """The applier's call after a run (`Deployment.after_commit`): refresh, no note. Only
    for a runtime with a prompt hook, or an index someone wired by hand (it exists)."""
    from daemon.wiring import delivery  # the engines, only once a run has committed

    wanted = agent.transcripts.format in PROMPT_HOOKS or state.delivery_index.exists()
    if wanted and state.root.is_dir():
        delivery.refresh(agent, state, now)
    return None


def delivering(deployment: Deployment) -> Deployment:
    """`deployment` with the delivery index refreshed after every run it commits."""
    if refresh_delivery in deployment.after_commit:
        return deployment
    return replace(deployment, after_commit=(*deployment.after_commit, refresh_delivery))
