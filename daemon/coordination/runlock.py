"""An agent's fleet-wide run lock: a session-level PostgreSQL advisory lock on its own connection.

Held as long as that connection lives: a daemon that exits, crashes or is killed (-9)
loses its connection and PostgreSQL releases the lock at once; a host that vanishes is
noticed by TCP keepalives. Who holds it is noted in `metaeng_agent_locks` so a refused
daemon can name the holder. When the database cannot be reached the run goes on under
the local locks, and the grant refuses model calls; it refuses them too if the lock's
connection drops mid-run (the lock may then be someone else's).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import psycopg

from daemon.coordination.database import Database, describe_failure
from daemon.kernel.errors import AgentBusy
from daemon.model.coordination_protocol import CoordinationUnavailable, RunGrant

POLL_SECONDS = 0.1


class FleetBusy(AgentBusy):
    def __init__(self, agent: str, holder: tuple[Any, ...] | None) -> None:
        who = (
            f"daemon {holder[0]} (pid {holder[1]}, since {holder[2].isoformat(timespec='seconds')})"
            if holder
            else "another daemon of the fleet"
        )
        super().__init__(
            agent,
            message=f"agent {agent!r} is busy: {who} holds its fleet run lock in the coordination database",
        )


class _Held:
    """The lock's connection, checked before each model call."""

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn
        self.lost: str | None = None
        self._mutex = threading.Lock()

    def refusal(self) -> str | None:
        with self._mutex:
            if self.lost is None:
                try:
                    self.conn.execute("SELECT 1")
                except psycopg.Error as exc:
                    self.lost = (
                        "the fleet run lock was lost mid-run (coordination database connection dropped: "
                        f"{describe_failure(exc)}); model passes skipped"
                    )
            return self.lost


def _try(conn: psycopg.Connection[Any], agent: str, timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while True:
        row = conn.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (f"metaeng-agent:{agent}",)).fetchone()
        if row and row[0]:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_SECONDS)


@contextmanager
def fleet_run_lock(db: Database, agent: str, host_id: str, timeout: float, now: datetime) -> Iterator[RunGrant]:
    """Hold `agent`'s fleet run lock for the block; raises FleetBusy if another daemon holds it."""
    conn: psycopg.Connection[Any] | None = None
    refusal: str | None = None
    try:
        with db.connection():
            pass  # the schema is migrated and the backoff window respected before the lock's own connection
        conn = db.connect_one()
        if not _try(conn, agent, timeout):
            holder = conn.execute(
                "SELECT host_id, pid, since FROM metaeng_agent_locks WHERE agent = %s", (agent,)
            ).fetchone()
            conn.close()
            raise FleetBusy(agent, holder)
        conn.execute(
            "INSERT INTO metaeng_agent_locks (agent, host_id, pid, since) VALUES (%s, %s, %s, %s) "
            "ON CONFLICT (agent) DO UPDATE SET host_id = excluded.host_id, pid = excluded.pid, since = excluded.since",
            (agent, host_id, os.getpid(), now),
        )
    except CoordinationUnavailable as exc:
        refusal = f"{exc}; this run holds the local locks only"
    except psycopg.Error as exc:
        if conn is not None:
            conn.close()
        conn = None
        refusal = f"{CoordinationUnavailable(describe_failure(exc))}; this run holds the local locks only"
    if conn is None:
        message = refusal
        yield RunGrant(lambda: message)
        return
    held = _Held(conn)
    try:
        yield RunGrant(held.refusal)
    finally:
        try:
            conn.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (f"metaeng-agent:{agent}",))
        except psycopg.Error:
            pass  # the connection is gone, and the lock with it
        conn.close()
