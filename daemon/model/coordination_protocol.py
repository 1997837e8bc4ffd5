"""What a deployment shares with the rest of its fleet, as one interface (docs/how-to/fleet.md).

The spend ledger (reservations, daily deep-pass counts), each agent's circuit breaker and
each agent's run lock live either in the state folder (the default: one host) or in a
PostgreSQL database shared by every daemon of the fleet (`coordination.url`). The runner,
the deep tier and `status` hold a `Coordination` and never learn which one it is.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal, Protocol

from daemon.kernel.errors import DaemonError, ModelUnavailable
from daemon.kernel.json_contract import Document
from daemon.model.breaker import BreakerState
from daemon.model.spend import DayTotals, Reservation


class CoordinationUnavailable(ModelUnavailable):
    """The shared database cannot be reached: the budget cannot be proven, so no model call (fail closed)."""

    def __init__(self, detail: str) -> None:
        self.detail = detail
        super().__init__(f"coordination database unreachable ({detail}); model passes skipped until it is back")


class CoordinationError(DaemonError):
    """The shared database answered, but refused: a newer schema, a permission, a bad setting."""


class FleetRun(Document):
    run_id: str
    outcome: str
    at: str


class FleetAgent(Document):
    name: str
    last_run: FleetRun | None


class FleetHost(Document):
    """A daemon that wrote a heartbeat to the coordination database (`status --fleet --json`)."""

    host_id: str
    hostname: str
    pid: int
    config: str
    state_dir: str
    started_at: str
    heartbeat_at: str
    heartbeat_age_seconds: float
    health: str  # ok | stale | stopped
    agents: list[FleetAgent]


class LocalBackend(Document):
    """Budget, breakers and locks in the state folder (no `coordination:` section)."""

    backend: Literal["local"]


class SharedBackend(Document):
    """A coordination database shared by the fleet, and its schema."""

    backend: str
    host_id: str
    schema_expected: int  # this daemon's
    password_from: str | None  # where the password was read, never the value
    schema_version: int  # 0: never migrated


class Ledger(Protocol):
    def totals(self, day: str, agent: str) -> DayTotals: ...

    def reserve(
        self,
        *,
        agent: str,
        run_id: str,
        usd: float,
        now: datetime,
        deployment_limit: float,
        agent_limit: float,
        count_deep_pass: bool,
        deep_cap: int,
    ) -> Reservation:
        """Check caps and budgets and record the reservation; raises CapReached/BudgetExhausted
        (or CoordinationUnavailable: nothing was reserved that will not be counted)."""
        ...

    def settle(
        self,
        reservation: Reservation,
        usd: float,
        input_tokens: int,
        output_tokens: int,
        now: datetime,
        *,
        cached_tokens: int = 0,
        saved_usd: float = 0.0,
    ) -> None:
        """Replace a reservation by the real cost (`cached_tokens` of the input were priced as
        cached, which saved `saved_usd`); never loses it (a shared ledger that is down
        keeps the settlement locally and delivers it on reconnection)."""
        ...

    def release(self, reservation: Reservation, detail: str, now: datetime) -> None:
        """Settle a reservation at zero, recorded as `unsent`: its request provably never
        reached the server (`detail` says why); delivered like a settlement."""
        ...

    def keep(self, reservation: Reservation, detail: str, now: datetime) -> None:
        """Record, as `kept`, that the call failed after its request may have been processed
        (`detail` says how): the reservation keeps counting at its full amount."""
        ...


class AgentBreaker(Protocol):
    def state(self) -> BreakerState: ...

    def open_until(self, now: datetime) -> datetime | None: ...

    def refusal(self, now: datetime) -> str | None: ...

    def record(self, ok: bool, now: datetime, detail: str = "") -> None: ...

    def reset(self) -> BreakerState: ...


def _no_refusal() -> str | None:
    return None


@dataclass(frozen=True)
class RunGrant:
    """What the fleet lock of one run allows: `model_refusal()` says why model calls may not be made now."""

    model_refusal: Callable[[], str | None] = _no_refusal


class Coordination(Protocol):
    kind: str  # "local" or "postgresql", for status and reports

    def ledger(self) -> Ledger: ...

    def breaker(self, agent: str, threshold: int, cooldown: timedelta) -> AgentBreaker: ...

    def run_lock(self, agent: str, timeout: float, now: datetime) -> AbstractContextManager[RunGrant]:
        """Hold the fleet-wide run lock of `agent`; raises AgentBusy naming the holder.

        Taken after the local locks. When the shared database is down the run goes on under
        the local locks only, and the grant refuses model passes.
        """
        ...

    def record_run(self, agent: str, run_id: str, outcome: str, at: datetime) -> None:
        """Note an agent's last run for `status --fleet` (best effort; never raises)."""
        ...

    def heartbeat(self, agents: list[str], now: datetime) -> None:
        """Tell the fleet this daemon is alive and which agents it runs (best effort; never raises)."""
        ...

    def stopped(self, now: datetime) -> None:
        """Tell the fleet this daemon stopped cleanly (best effort; never raises)."""
        ...

    def fleet(self, now: datetime) -> list[FleetHost]:
        """Every daemon of the fleet with its agents, last runs and health.

        Raises CoordinationUnavailable if unreachable, DaemonError with the local backend."""
        ...

    def describe(self) -> LocalBackend | SharedBackend:
        """The backend and, for a shared one, its schema version (raises if unreachable)."""
        ...

    def close(self) -> None: ...
