"""A deadline for one network exchange, enforced from outside its blocked reads.

A socket timeout bounds each read or write, not the exchange: a server that answers and
then trickles its bytes (a byte a second, of the status line or of the body) never lets
one read time out, and its caller waits forever. `Deadline.bound(seconds)` starts a timer
around the exchange; every socket the exchange connects is `watch`ed; when the time is up
the timer shuts those sockets down, which wakes a read or write blocked on them at once
(it then fails), and `expired` tells the caller why it failed.

A watched socket is held as a duplicate of its descriptor, closed when the bound ends: the
shutdown reaches the connection even once TLS has wrapped (and detached) the socket object
the exchange connected, and no descriptor outlives the exchange.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Deadline:
    """Ends the exchanges run under `bound`, one at a time, when their time is up."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._twins: list[socket.socket] = []
        self._active = False
        self._expired = False

    @property
    def expired(self) -> bool:
        """True if the last bound's time ran out (the exchange, if it failed, failed for that)."""
        return self._expired

    def watch(self, sock: socket.socket) -> None:
        """Shut `sock` down when the current bound's time is up (at once if it already is)."""
        with self._lock:
            if not self._active:
                return
            try:
                twin = socket.fromfd(sock.fileno(), sock.family, sock.type)
            except OSError:
                return  # closed or detached already: nothing can block on it
            self._twins.append(twin)
            if self._expired:
                _shut(twin)

    @contextmanager
    def bound(self, seconds: float) -> Iterator[None]:
        """Run the body as one exchange that may take at most `seconds`."""
        with self._lock:
            self._active, self._expired = True, False
        timer = threading.Timer(seconds, self._expire)
        timer.name, timer.daemon = "deadline", True
        timer.start()
        try:
            yield
        finally:
            timer.cancel()
            timer.join()
            with self._lock:
                self._active = False
                for twin in self._twins:
                    twin.close()
                self._twins.clear()

    def _expire(self) -> None:
        with self._lock:
            self._expired = True
            for twin in self._twins:
                _shut(twin)


def _shut(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass  # the peer or the exchange closed it first: nothing left to wake
