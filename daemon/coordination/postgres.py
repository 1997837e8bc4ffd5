"""The PostgreSQL backend of `daemon.model.coordination_protocol.Coordination` (docs/how-to/fleet.md)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from datetime import datetime, timedelta
from pathlib import Path

import psycopg
import structlog

from daemon.config.coordination_settings import CoordinationTarget
from daemon.coordination import hosts, migrations
from daemon.coordination.database import Database, describe_failure
from daemon.coordination.fleet_breaker import SharedBreaker
from daemon.coordination.fleet_ledger import SharedLedger
from daemon.coordination.runlock import fleet_run_lock
from daemon.kernel.paths import StateLayout
from daemon.model.coordination_protocol import (
    CoordinationError,
    CoordinationUnavailable,
    FleetHost,
    RunGrant,
    SharedBackend,
)

log = structlog.get_logger("metaeng.coordination")


class PostgresCoordination:
    kind = "postgresql"

    def __init__(self, target: CoordinationTarget, config: Path, state_dir: Path) -> None:
        self.target = target
        self.db = Database(target)
        self.me = hosts.HostIdentity(target.host_id, str(config), str(state_dir), target.settings.heartbeat_seconds)
        self._ledger = SharedLedger(self.db, target.host_id, StateLayout(state_dir).spend_dir / "pending-settlements.jsonl")

    def ledger(self) -> SharedLedger:
        return self._ledger

    def breaker(self, agent: str, threshold: int, cooldown: timedelta) -> SharedBreaker:
        return SharedBreaker(self.db, agent, threshold, cooldown)

    def run_lock(self, agent: str, timeout: float, now: datetime) -> AbstractContextManager[RunGrant]:
        return fleet_run_lock(self.db, agent, self.target.host_id, timeout, now)

    def record_run(self, agent: str, run_id: str, outcome: str, at: datetime) -> None:
        try:
            hosts.record_run(self.db, self.me, agent, run_id, outcome, at)
        except CoordinationUnavailable as exc:
            log.warning("coordination.run_not_recorded", agent=agent, run_id=run_id, error=exc.detail)

    def heartbeat(self, agents: list[str], now: datetime) -> None:
        try:
            hosts.heartbeat(self.db, self.me, agents, now)
        except CoordinationUnavailable as exc:
            log.warning("coordination.heartbeat_failed", error=exc.detail)

    def stopped(self, now: datetime) -> None:
        try:
            hosts.stopped(self.db, self.me, now)
        except CoordinationUnavailable as exc:
            log.warning("coordination.heartbeat_failed", error=exc.detail)

    def fleet(self, now: datetime) -> list[FleetHost]:
        return hosts.fleet(self.db, now)

    def describe(self) -> SharedBackend:
        """The backend, this daemon's host id and the schema version, read without migrating.

        Raises CoordinationUnavailable if unreachable, CoordinationError if the schema is newer."""
        conn = self.db.connect_one()
        try:
            version = migrations.current_version(conn)
        except psycopg.OperationalError as exc:  # it stopped answering, or the query timed out
            raise CoordinationUnavailable(describe_failure(exc)) from None
        except psycopg.Error as exc:
            raise CoordinationError(f"cannot read the schema version: {describe_failure(exc)}") from None
        finally:
            conn.close()
        migrations.refuse_newer(version)
        return SharedBackend(
            backend=self.kind,
            host_id=self.target.host_id,
            schema_expected=migrations.LATEST,
            password_from=self.target.password_source,
            schema_version=version,
        )

    def close(self) -> None:
        self.db.close()
