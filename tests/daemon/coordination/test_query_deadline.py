"""The coordination watchdog shuts down its own duplicate of a connection's socket, never a number."""

from __future__ import annotations

import os
import socket
import time

from daemon.coordination.query_deadline import Watchdog


def test_a_watch_that_fires_after_its_connection_gave_the_number_up_leaves_the_numbers_new_owner_alone() -> (
    None
):
    watchdog = Watchdog()
    connection, server_end = socket.socketpair()
    listener = socket.create_server(("127.0.0.1", 0))  # another thread's, say the model server's
    number = connection.fileno()
    with watchdog.watch(number, 0.2) as watch:
        # libpq closes its socket inside the wait when the server drops the connection, and
        # the kernel hands the number to the next socket opened: here, the listener.
        connection.close()
        os.dup2(listener.fileno(), number)
        new_owner = socket.socket(fileno=number)
        give_up = time.monotonic() + 10
        while not watch.fired and time.monotonic() < give_up:
            time.sleep(0.01)
        assert watch.fired
    try:
        assert new_owner.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1, (
            "the listener was shut down"
        )
        with socket.create_connection(listener.getsockname(), timeout=5):
            pass
        server_end.settimeout(5)
        assert server_end.recv(1) == b""  # the watched connection itself was shut down
        assert watch.twin is not None and watch.twin.fileno() == -1  # the watch closed its duplicate
    finally:
        new_owner.close()
        listener.close()
        server_end.close()


def test_a_watch_that_never_fires_closes_its_duplicate_and_leaves_the_connection_open() -> None:
    watchdog = Watchdog()
    connection, server_end = socket.socketpair()
    with connection, server_end:
        before = len(os.listdir("/proc/self/fd"))
        with watchdog.watch(connection.fileno(), 60) as watch:
            assert len(os.listdir("/proc/self/fd")) == before + 1
        assert not watch.fired and len(os.listdir("/proc/self/fd")) == before
        connection.sendall(b"x")
        assert server_end.recv(1) == b"x"
