"""One webhook POST, bounded in all by its timeout.

urllib's `timeout` bounds each socket operation: a receiver that answers a byte a second
(its status line, or its body) never lets one time out, and held the service's job thread
— and the agent's next job — for as long as it liked. Here one POST runs under a
`Deadline`: the connection it opens is watched, and when the time is up it is shut down,
which ends the blocked read at once.
"""

from __future__ import annotations

import http.client
import urllib.error
import urllib.request
from typing import Any

from daemon.kernel.exchange_deadline import Deadline

ANSWER_BYTES = 4096  # what is read of an answer: only its status matters


def post(url: str, body: bytes, seconds: float) -> None:
    """POST `body` (JSON) to `url`, taking at most `seconds` in all: connect, send, wait, read.

    Raises urllib.error.HTTPError for an error status, TimeoutError (naming no part of the
    URL) once `seconds` have passed, else what urllib raises (OSError, ValueError,
    http.client.HTTPException).
    """
    deadline = Deadline()
    opener = urllib.request.build_opener(_HTTPHandler(deadline), _HTTPSHandler(deadline))
    request = urllib.request.Request(url, data=body, method="POST", headers={"Content-Type": "application/json"})
    try:
        with deadline.bound(seconds), opener.open(request, timeout=seconds) as answer:
            answer.read(ANSWER_BYTES)
    except urllib.error.HTTPError:
        raise  # the receiver answered: its status says more than the clock
    except Exception as exc:
        if deadline.expired:
            raise TimeoutError(f"no complete answer within {seconds:g}s") from exc
        raise
    if deadline.expired:  # http.client ends a body cut short without an error
        raise TimeoutError(f"no complete answer within {seconds:g}s")


class _Watched(http.client.HTTPConnection):
    """An HTTP connection whose socket, once connected, its attempt's deadline watches."""

    deadline: Deadline

    def connect(self) -> None:
        super().connect()
        self.deadline.watch(self.sock)


class _WatchedTLS(http.client.HTTPSConnection, _Watched):
    """HTTPS: the TCP socket is watched before the TLS handshake, which the deadline bounds too."""


class _HTTPHandler(urllib.request.HTTPHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self.deadline = deadline

    def http_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connection, req)

    def _connection(self, host: str, **kwargs: Any) -> http.client.HTTPConnection:
        connection = _Watched(host, **kwargs)
        connection.deadline = self.deadline
        return connection


class _HTTPSHandler(urllib.request.HTTPSHandler):
    def __init__(self, deadline: Deadline) -> None:
        super().__init__()
        self.deadline = deadline

    def https_open(self, req: urllib.request.Request) -> http.client.HTTPResponse:
        return self.do_open(self._connection, req)

    def _connection(self, host: str, **kwargs: Any) -> http.client.HTTPConnection:
        connection = _WatchedTLS(host, **kwargs)
        connection.deadline = self.deadline
        return connection
