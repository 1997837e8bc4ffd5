"""Which backend a deployment talks to: the one place that knows both.

A PostgreSQL backend holds a connection pool, so there is one per process and target,
kept here and closed at exit; the local backend is stateless and made on demand.
"""

from __future__ import annotations

import atexit
import threading
from datetime import timedelta
from typing import TYPE_CHECKING

from daemon.config.resolve import Deployment
from daemon.coordination.local import LocalCoordination
from daemon.model.coordination_protocol import AgentBreaker, Coordination

if TYPE_CHECKING:
    from daemon.coordination.postgres import PostgresCoordination

_shared: dict[tuple[str, str, str], PostgresCoordination] = {}
_mutex = threading.Lock()


def coordination_for(deployment: Deployment) -> Coordination:
    """The deployment's coordination backend (shared database if `coordination.url` is set)."""
    target = deployment.coordination
    if target is None:
        return LocalCoordination(deployment.state_dir)
    # Imported here: a deployment without `coordination:` never loads the database driver.
    from daemon.coordination.postgres import PostgresCoordination

    key = (target.url, target.host_id, str(deployment.state_dir))
    with _mutex:
        backend = _shared.get(key)
        if backend is None or backend.target.password != target.password:
            if backend is not None:
                backend.close()
            backend = _shared[key] = PostgresCoordination(target, deployment.path, deployment.state_dir)
        return backend


def agent_breaker(deployment: Deployment, agent: str) -> AgentBreaker | None:
    """The agent's circuit breaker (local or fleet-wide), or None with no model configured.

    Here rather than beside the deep tier so that reading it (`status`) needs no model client.
    """
    model = deployment.model
    if model is None:
        return None
    return coordination_for(deployment).breaker(
        agent, model.breaker_failures, timedelta(minutes=model.breaker_cooldown_minutes)
    )


def close_all() -> None:
    """Close every pool this process opened (at exit, and between tests)."""
    with _mutex:
        for backend in _shared.values():
            backend.close()
        _shared.clear()


atexit.register(close_all)
