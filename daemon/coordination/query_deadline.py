"""Every wait for the coordination database ends: timeouts in the server, and a watchdog for a server that never answers.

PostgreSQL bounds each statement of our sessions itself: `statement_timeout` is
`coordination.query_timeout_seconds`, `lock_timeout` half of it (an equal one would never
fire first, and a wait on a lock deserves its own message), and a session idle inside a
transaction for as long is ended, so a stopped daemon never holds the day's spend lock.
They are set with `set_config` after connecting, not as startup options, which poolers such
as PgBouncer refuse. Only statements are bounded: the run lock's session, idle between
statements for a whole run, keeps its advisory lock.

A server that accepted the connection and then stopped answering (hung, or a proxy whose
backend is gone) sends no cancellation either, and libpq would wait on the socket for
ever. So every wait of a `BoundedConnection` is watched: past the query timeout plus
`connect_timeout_seconds` (time for the server's own cancellation to arrive), the watchdog
shuts the socket down, the blocked read fails, and the caller gets an OperationalError
naming the settings — the same "database down" path as a server that went away.

The watchdog acts on a duplicate of the connection's descriptor, taken by the waiting
thread before the wait and closed when the wait ends, never on the descriptor's number:
libpq closes its socket inside a wait when the server drops the connection, and the
number is then the next socket's or file's — a listener, another thread's connection —
which a shutdown by number would break. The duplicate is the watch's own, so a shutdown
reaches this connection and nothing else.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import psycopg
from psycopg.abc import PQGen
from psycopg.rows import TupleRow

from daemon.config.models import CoordinationSettings

SETTING = "coordination.query_timeout_seconds"
RV = TypeVar("RV")
_BOUNDS = (
    "SELECT set_config('statement_timeout', %s, false), set_config('lock_timeout', %s, false), "
    "set_config('idle_in_transaction_session_timeout', %s, false)"
)


def server_bounds(settings: CoordinationSettings) -> tuple[str, str, str]:
    """statement_timeout, lock_timeout and idle_in_transaction_session_timeout for our sessions."""
    ms = max(1, round(settings.query_timeout_seconds * 1000))
    return f"{ms}ms", f"{max(1, ms // 2)}ms", f"{ms}ms"


def client_bound(settings: CoordinationSettings) -> float:
    """How long one wait for the server may last before the watchdog closes the connection."""
    return settings.query_timeout_seconds + settings.connect_timeout_seconds


@dataclass(eq=False)
class _Watch:
    twin: socket.socket | None  # the watch's own duplicate of the connection's socket
    deadline: float
    fired: bool = False


def _twin(fileno: int) -> socket.socket | None:
    """A duplicate of the socket `fileno`, owned by the caller; None if one cannot be made.

    Taken while the caller's connection owns `fileno`: the duplicate then names the same
    connection for as long as it is open, whatever later becomes of the number.
    """
    try:
        duplicate = os.dup(fileno)
    except OSError:
        return None  # out of descriptors: the wait is bounded by the server's timeouts alone
    try:
        return socket.socket(fileno=duplicate)
    except OSError:
        os.close(duplicate)  # not a socket: `socket` did not take it
        return None


def _shut_down(twin: socket.socket) -> None:
    """End every read and write on the connection `twin` duplicates (its owner closes the connection)."""
    try:
        twin.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # already disconnected


class Watchdog:
    """One thread for the process that shuts down the socket of every wait past its deadline."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._cond = threading.Condition()
        self._watched: set[_Watch] = set()
        self._thread: threading.Thread | None = None

    @contextmanager
    def watch(self, fileno: int, seconds: float) -> Iterator[_Watch]:
        """Watch socket `fileno` for the block; `.fired` tells afterwards whether it was shut down.

        Call it in the thread about to wait on `fileno`, before the wait: the watch
        duplicates the descriptor then, and closes its duplicate when the block ends.
        """
        watch = _Watch(_twin(fileno), self._clock() + seconds)
        with self._cond:
            self._watched.add(watch)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="metaeng-db-watchdog", daemon=True)
                self._thread.start()
            self._cond.notify()
        try:
            yield watch
        finally:
            with self._cond:  # the watchdog uses a twin only while it holds this lock
                self._watched.discard(watch)
                if watch.twin is not None:
                    watch.twin.close()

    def _run(self) -> None:
        with self._cond:
            while True:
                now = self._clock()
                for watch in [w for w in self._watched if w.deadline <= now]:
                    self._watched.discard(watch)
                    watch.fired = True
                    if watch.twin is not None:
                        _shut_down(watch.twin)
                soonest = min((w.deadline for w in self._watched), default=None)
                self._cond.wait(None if soonest is None else max(0.0, soonest - now))


WATCHDOG = Watchdog()


class BoundedConnection(psycopg.Connection[TupleRow]):
    """A connection whose every wait for the server ends after `bound_seconds` (None: unbounded)."""

    bound_seconds: float | None = None

    # psycopg sends every statement, fetch, BEGIN and COMMIT through this one method.
    def wait(self, gen: PQGen[RV], *args: Any, **kwargs: Any) -> RV:
        bound = self.bound_seconds
        if bound is None:
            return super().wait(gen, *args, **kwargs)
        with WATCHDOG.watch(self.fileno(), bound) as watch:
            try:
                return super().wait(gen, *args, **kwargs)
            except psycopg.OperationalError as exc:
                if not watch.fired:
                    raise
                raise psycopg.OperationalError(
                    f"no answer from the server within {bound:g}s ({SETTING} plus "
                    "coordination.connect_timeout_seconds); connection closed"
                ) from exc


def bound(conn: BoundedConnection, settings: CoordinationSettings) -> None:
    """Bound every later wait on `conn`, in the client and in the server (one round trip, itself bounded)."""
    conn.bound_seconds = client_bound(settings)
    conn.execute(_BOUNDS, server_bounds(settings))
