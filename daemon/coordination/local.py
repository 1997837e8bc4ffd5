"""The local-file backend: today's spend ledger, breakers and locks in the state folder (one host)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from daemon.kernel.errors import DaemonError
from daemon.kernel.paths import StateLayout
from daemon.model.breaker import Breaker
from daemon.model.coordination_protocol import FleetHost, LocalBackend, RunGrant
from daemon.model.spend import SpendLedger


@contextmanager
def _local_only() -> Iterator[RunGrant]:
    yield RunGrant()  # the state folder's and the home's locks, already held, are the whole run lock


class LocalCoordination:
    kind = "local"

    def __init__(self, state_dir: Path) -> None:
        self.layout = StateLayout(state_dir)

    def ledger(self) -> SpendLedger:
        return SpendLedger(self.layout.spend_dir, self.layout.spend_lock)

    def breaker(self, agent: str, threshold: int, cooldown: timedelta) -> Breaker:
        return Breaker(self.layout.agent(agent).breaker, threshold, cooldown)

    def run_lock(self, agent: str, timeout: float, now: datetime) -> AbstractContextManager[RunGrant]:
        return _local_only()

    def record_run(self, agent: str, run_id: str, outcome: str, at: datetime) -> None:
        return None  # the agent's run log already has it

    def heartbeat(self, agents: list[str], now: datetime) -> None:
        return None

    def stopped(self, now: datetime) -> None:
        return None

    def fleet(self, now: datetime) -> list[FleetHost]:
        raise DaemonError(
            "no fleet: this deployment keeps its budget and locks in its state folder; "
            "add `coordination: {url: postgresql://…}` to the config to share them (docs/how-to/fleet.md)"
        )

    def describe(self) -> LocalBackend:
        return LocalBackend(backend="local")

    def close(self) -> None:
        return None
