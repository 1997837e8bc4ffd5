"""The connection pool to the shared database, with fail-fast backoff while it is down.

One pool per process and target. A checkout that cannot reach the server within
`connect_timeout_seconds` raises CoordinationUnavailable and opens a backoff window
(1 s, doubling to 60 s) during which further checkouts fail at once: a scheduler tick
never waits on a database that is down. Every connection is bounded (`deadline`): a
statement that outlasts `query_timeout_seconds`, or a server that stops answering, fails
the same way. The first checkout after the window tries again; the pool itself replaces
broken connections. The schema is migrated on the first connection of the process, and
`on_reconnect` (the settlement outbox) runs on every first success after a failure.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import psycopg_pool
import structlog

from daemon.config.coordination_settings import CoordinationTarget
from daemon.coordination import migrations, query_deadline
from daemon.coordination.query_deadline import BoundedConnection
from daemon.kernel import redact
from daemon.model.coordination_protocol import CoordinationUnavailable

log = structlog.get_logger("metaeng.coordination")
BACKOFF_FIRST_SECONDS = 1.0
BACKOFF_MAX_SECONDS = 60.0
# A pool whose every connection is checked out is busy, not down: wait this long for one.
BUSY_WAIT_SECONDS = 60.0
CLOSE_WAIT_SECONDS = 1.0


def connect_kwargs(target: CoordinationTarget) -> dict[str, Any]:
    """libpq parameters besides the URL: the password, timeouts, keepalives, a name in pg_stat_activity."""
    kwargs: dict[str, Any] = {
        "connect_timeout": max(1, round(target.settings.connect_timeout_seconds)),
        "application_name": f"metaeng-daemon {socket.gethostname()} {os.getpid()}"[:63],
        # A server that vanishes (host down, cable out) is noticed within ~25 s, not hours.
        "keepalives": 1,
        "keepalives_idle": 10,
        "keepalives_interval": 5,
        "keepalives_count": 3,
        "autocommit": True,
    }
    if target.password:
        kwargs["password"] = target.password
    return kwargs


# The server's own errors when one of our sessions hits a bound `deadline` set.
_SERVER_BOUNDS = (psycopg.errors.QueryCanceled, psycopg.errors.LockNotAvailable)


def describe_failure(exc: BaseException) -> str:
    """One line about a connection failure, without the password or any registered secret."""
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    if isinstance(exc, _SERVER_BOUNDS):
        text = f"{text} ({query_deadline.SETTING})"
    elif isinstance(exc, psycopg_pool.PoolTimeout):
        text = f"{text} (coordination.connect_timeout_seconds)"
    return redact.redact(f"{type(exc).__name__}: {text}")[:300]


class Database:
    def __init__(self, target: CoordinationTarget, clock: Callable[[], float] = time.monotonic) -> None:
        self.target = target
        self._clock = clock
        self._lock = threading.Lock()
        self._retry_at = 0.0
        self._backoff = 0.0
        self._last_error = ""
        self._pool_error = ""  # why the pool last dropped a connection it was preparing or checking
        self._migrated = False
        self._failed_since_success = False
        self.on_reconnect: list[Callable[[psycopg.Connection[Any]], None]] = []
        self._pool = psycopg_pool.ConnectionPool(
            target.url,
            connection_class=BoundedConnection,
            kwargs=connect_kwargs(target),
            configure=self._bound,
            min_size=1,
            max_size=target.settings.pool_max_size,
            timeout=target.settings.connect_timeout_seconds,
            check=self._check,
            reconnect_timeout=BACKOFF_MAX_SECONDS,
            name="metaeng-coordination",
            open=False,
        )
        self._opened = False

    def _bound(self, conn: BoundedConnection) -> None:
        try:
            query_deadline.bound(conn, self.target.settings)
        except psycopg.Error as exc:
            self._pool_error = describe_failure(exc)
            raise

    def _check(self, conn: BoundedConnection) -> None:
        try:
            psycopg_pool.ConnectionPool.check_connection(conn)
        except psycopg.Error as exc:
            self._pool_error = describe_failure(exc)
            raise

    def connect_one(self) -> psycopg.Connection[Any]:
        """A bounded connection of its own, outside the pool (a run lock lives as long as it does)."""
        self._refuse_in_backoff()
        try:
            conn = BoundedConnection.connect(self.target.url, **connect_kwargs(self.target))
        except psycopg.Error as exc:
            raise self._failed(exc) from None
        try:
            self._bound(conn)
        except psycopg.Error as exc:
            conn.close()
            raise self._failed(exc) from None
        return conn

    @contextmanager
    def connection(self) -> Iterator[psycopg.Connection[Any]]:
        """A pooled autocommit connection; CoordinationUnavailable if the server cannot be reached.

        An error inside the block that means the connection broke (the server stopped
        mid-statement) becomes CoordinationUnavailable too; other database errors propagate.
        """
        self._refuse_in_backoff()
        with self._lock:
            if not self._opened:
                self._pool.open(wait=False)
                self._opened = True
        try:
            with self._checkout() as conn:
                self._succeeded(conn)
                yield conn
        except (psycopg.OperationalError, psycopg_pool.PoolTimeout) as exc:
            raise self._failed(exc) from None

    @contextmanager
    def _checkout(self) -> Iterator[psycopg.Connection[Any]]:
        try:
            conn = self._pool.getconn()
        except psycopg_pool.PoolTimeout:
            if self._pool.get_stats().get("pool_size", 0) < self._pool.max_size:
                raise  # it could not connect: the server is down or refusing
            conn = self._pool.getconn(timeout=BUSY_WAIT_SECONDS)  # every connection is in use
        try:
            yield conn
        finally:
            self._pool.putconn(conn)

    def _refuse_in_backoff(self) -> None:
        with self._lock:
            wait = self._retry_at - self._clock()
            if wait > 0:
                raise CoordinationUnavailable(f"{self._last_error}; next attempt in {wait:.0f}s")

    def _failed(self, exc: BaseException) -> CoordinationUnavailable:
        detail = describe_failure(exc)
        if isinstance(exc, psycopg_pool.PoolTimeout) and self._pool_error:
            detail = f"{detail}; {self._pool_error}"  # the pool's own timeout says nothing of why
        with self._lock:
            self._backoff = min(BACKOFF_MAX_SECONDS, self._backoff * 2 if self._backoff else BACKOFF_FIRST_SECONDS)
            self._retry_at = self._clock() + self._backoff
            self._last_error = detail
            self._failed_since_success = True
        log.warning("coordination.unreachable", error=detail, retry_in_s=self._backoff)
        return CoordinationUnavailable(detail)

    def _succeeded(self, conn: psycopg.Connection[Any]) -> None:
        with self._lock:
            first = not self._migrated
            recovered = self._failed_since_success
            self._backoff = 0.0
            self._retry_at = 0.0
            self._failed_since_success = False
            self._pool_error = ""
        if first:
            migrations.migrate(conn)
            self._migrated = True
        if recovered:
            log.info("coordination.reconnected")
        if first or recovered:
            for callback in self.on_reconnect:
                callback(conn)

    def close(self) -> None:
        if self._opened:
            # Idle workers stop at once; one still waiting on a silent server is left to its bound, not joined.
            self._pool.close(timeout=CLOSE_WAIT_SECONDS)
            self._opened = False
