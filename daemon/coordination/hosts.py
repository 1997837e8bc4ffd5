"""The hosts table: every daemon of the fleet, its agents, heartbeat and last runs (`status --fleet`).

A running daemon upserts its row at start and on every heartbeat, marks it stopped on a
clean exit, and notes each agent's last run. Health is read from the heartbeat's age: a
daemon silent for three heartbeat intervals is `stale` (crashed, or cut off).
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from daemon.coordination.database import Database
from daemon.model.coordination_protocol import FleetAgent, FleetHost, FleetRun

STALE_AFTER_HEARTBEATS = 3

_UPSERT = """
INSERT INTO metaeng_hosts AS h (host_id, hostname, pid, config, state_dir, agents, started_at, heartbeat_at,
                                heartbeat_seconds, stopped_at)
VALUES (%(host_id)s, %(hostname)s, %(pid)s, %(config)s, %(state_dir)s, %(agents)s, %(now)s, %(now)s,
        %(every)s, NULL)
ON CONFLICT (host_id) DO UPDATE SET hostname = excluded.hostname, pid = excluded.pid, config = excluded.config,
    state_dir = excluded.state_dir, agents = excluded.agents, heartbeat_at = excluded.heartbeat_at,
    heartbeat_seconds = excluded.heartbeat_seconds, stopped_at = NULL,
    started_at = CASE WHEN h.pid = excluded.pid AND h.stopped_at IS NULL THEN h.started_at ELSE excluded.started_at END
"""


@dataclass(frozen=True)
class HostIdentity:
    host_id: str
    config: str
    state_dir: str
    heartbeat_seconds: float


def heartbeat(db: Database, me: HostIdentity, agents: list[str], now: datetime) -> None:
    with db.connection() as conn:
        conn.execute(
            _UPSERT,
            {
                "host_id": me.host_id,
                "hostname": socket.gethostname(),
                "pid": os.getpid(),
                "config": me.config,
                "state_dir": me.state_dir,
                "agents": agents,
                "now": now,
                "every": me.heartbeat_seconds,
            },
        )


def stopped(db: Database, me: HostIdentity, now: datetime) -> None:
    with db.connection() as conn:
        conn.execute(
            "UPDATE metaeng_hosts SET stopped_at = %s WHERE host_id = %s AND pid = %s", (now, me.host_id, os.getpid())
        )


def record_run(db: Database, me: HostIdentity, agent: str, run_id: str, outcome: str, at: datetime) -> None:
    with db.connection() as conn:
        conn.execute(
            "INSERT INTO metaeng_host_runs (host_id, agent, run_id, outcome, at) VALUES (%s, %s, %s, %s, %s) "
            "ON CONFLICT (host_id, agent) DO UPDATE SET run_id = excluded.run_id, outcome = excluded.outcome, "
            "at = excluded.at",
            (me.host_id, agent, run_id, outcome, at),
        )


def health(heartbeat_at: datetime, every: float, stopped_at: datetime | None, now: datetime) -> str:
    if stopped_at is not None:
        return "stopped"
    return "stale" if now - heartbeat_at > timedelta(seconds=every * STALE_AFTER_HEARTBEATS) else "ok"


def fleet(db: Database, now: datetime) -> list[FleetHost]:
    with db.connection() as conn:
        hosts = conn.execute(
            "SELECT host_id, hostname, pid, config, state_dir, agents, started_at, heartbeat_at, heartbeat_seconds, "
            "stopped_at FROM metaeng_hosts ORDER BY host_id"
        ).fetchall()
        runs = conn.execute("SELECT host_id, agent, run_id, outcome, at FROM metaeng_host_runs").fetchall()
    last = {(r[0], r[1]): FleetRun(run_id=r[2], outcome=r[3], at=r[4].isoformat()) for r in runs}
    return [
        FleetHost(
            host_id=h[0],
            hostname=h[1],
            pid=h[2],
            config=h[3],
            state_dir=h[4],
            started_at=h[6].isoformat(),
            heartbeat_at=h[7].isoformat(),
            heartbeat_age_seconds=round((now - h[7]).total_seconds(), 1),
            health=health(h[7], h[8], h[9], now),
            agents=[FleetAgent(name=a, last_run=last.get((h[0], a))) for a in h[5]],
        )
        for h in hosts
    ]
