"""The shared database's schema, as versioned migrations applied by the daemon itself.

Each migration runs once, in its own transaction, under a session advisory lock so that
daemons starting together never apply one twice; `metaeng_schema` records what ran. A
database migrated by a newer daemon (a version above LATEST) is refused rather than
written with rules this daemon does not know.
"""

from __future__ import annotations

from typing import Any

from daemon.model.coordination_protocol import CoordinationError

# pg_advisory_lock key of migrations ("metaeng\0" as a 64-bit integer).
MIGRATION_LOCK = 0x6D657461656E6700

MIGRATIONS: tuple[tuple[int, str], ...] = (
    (
        1,
        """
        CREATE TABLE metaeng_spend (
            call_id text PRIMARY KEY,
            day date NOT NULL,
            agent text NOT NULL,
            run_id text NOT NULL,
            host_id text NOT NULL,
            reserved_usd numeric(24, 12) NOT NULL CHECK (reserved_usd >= 0),
            settled_usd numeric(24, 12) CHECK (settled_usd >= 0),
            input_tokens bigint,
            output_tokens bigint,
            reserved_at timestamptz NOT NULL,
            settled_at timestamptz
        );
        CREATE INDEX metaeng_spend_day ON metaeng_spend (day, agent);
        CREATE TABLE metaeng_deep_passes (
            day date NOT NULL,
            agent text NOT NULL,
            run_id text NOT NULL,
            host_id text NOT NULL,
            at timestamptz NOT NULL,
            PRIMARY KEY (day, agent, run_id)
        );
        CREATE TABLE metaeng_breakers (
            agent text PRIMARY KEY,
            consecutive_failures integer NOT NULL,
            opened_at timestamptz,
            last_failure_at timestamptz,
            last_detail text NOT NULL DEFAULT ''
        );
        CREATE TABLE metaeng_agent_locks (
            agent text PRIMARY KEY,
            host_id text NOT NULL,
            pid integer NOT NULL,
            since timestamptz NOT NULL
        );
        CREATE TABLE metaeng_hosts (
            host_id text PRIMARY KEY,
            hostname text NOT NULL,
            pid integer NOT NULL,
            config text NOT NULL,
            state_dir text NOT NULL,
            agents text[] NOT NULL,
            started_at timestamptz NOT NULL,
            heartbeat_at timestamptz NOT NULL,
            heartbeat_seconds double precision NOT NULL,
            stopped_at timestamptz
        );
        CREATE TABLE metaeng_host_runs (
            host_id text NOT NULL,
            agent text NOT NULL,
            run_id text NOT NULL,
            outcome text NOT NULL,
            at timestamptz NOT NULL,
            PRIMARY KEY (host_id, agent)
        );
        """,
    ),
    (
        2,
        # How each call ended: `answered` (settled to its usage), `unsent` (its request never
        # reached the server: settled at zero) or `kept` (may have been processed: the
        # reservation stays); the detail says why. NULL: unfinished, or settled before v2.
        """
        ALTER TABLE metaeng_spend ADD COLUMN outcome text, ADD COLUMN outcome_detail text;
        """,
    ),
    (
        3,
        # Of a settled call's input tokens, how many the server reported cached (a prefix it
        # had processed before), and what that saved against the full input price.
        """
        ALTER TABLE metaeng_spend ADD COLUMN cached_tokens bigint,
            ADD COLUMN saved_usd numeric(24, 12) CHECK (saved_usd >= 0);
        """,
    ),
)
LATEST = MIGRATIONS[-1][0]

_TABLE = """CREATE TABLE IF NOT EXISTS metaeng_schema (
    version integer PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
)"""


def current_version(conn: Any) -> int:
    """The schema version of the database (0: never migrated)."""
    row = conn.execute("SELECT to_regclass('metaeng_schema') IS NOT NULL").fetchone()
    if not row or not row[0]:
        return 0
    row = conn.execute("SELECT coalesce(max(version), 0) FROM metaeng_schema").fetchone()
    return int(row[0]) if row else 0


def refuse_newer(version: int) -> None:
    if version > LATEST:
        raise CoordinationError(
            f"the coordination database has schema version {version}; this metaeng-daemon knows up to "
            f"{LATEST}. A newer daemon migrated it: upgrade this one before it joins the fleet."
        )


def migrate(conn: Any) -> int:
    """Bring the schema to LATEST on an autocommit connection; return the version found first."""
    conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))
    try:
        found = current_version(conn)
        refuse_newer(found)
        if found < LATEST:
            conn.execute(_TABLE)
            for version, sql in MIGRATIONS:
                if version <= found:
                    continue
                with conn.transaction():
                    conn.execute(sql)
                    conn.execute("INSERT INTO metaeng_schema (version) VALUES (%s)", (version,))
        return found
    finally:
        conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK,))
