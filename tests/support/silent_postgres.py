"""A PostgreSQL server that never answers: it completes the startup handshake, then reads and ignores every query.

The stuck server (a hung backend, a proxy whose backend is gone) that no server-side
timeout can bound: only the client's own deadline ends a wait on it. Trust authentication,
no TLS (the client's SSL request is refused, so use `?sslmode=disable` or `prefer`).
"""

from __future__ import annotations

import socket
import struct
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_SSL_OR_GSS = (80877103, 80877104)
_PARAMETERS = (
    ("server_version", "16.0"),
    ("client_encoding", "UTF8"),
    ("server_encoding", "UTF8"),
    ("standard_conforming_strings", "on"),
    ("integer_datetimes", "on"),
    ("DateStyle", "ISO, MDY"),
    ("TimeZone", "UTC"),
)


def _message(kind: bytes, body: bytes) -> bytes:
    return kind + struct.pack("!I", len(body) + 4) + body


def _read(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))
        if not chunk:
            raise EOFError
        data += chunk
    return data


def _serve(conn: socket.socket, queries: list[bytes]) -> None:
    with conn:
        try:
            while True:  # the startup packet, after any SSL/GSS request we refuse
                body = _read(conn, struct.unpack("!I", _read(conn, 4))[0] - 4)
                if struct.unpack("!I", body[:4])[0] not in _SSL_OR_GSS:
                    break
                conn.sendall(b"N")
            hello = _message(b"R", struct.pack("!I", 0))  # AuthenticationOk
            hello += b"".join(_message(b"S", f"{k}\0{v}\0".encode()) for k, v in _PARAMETERS)
            hello += _message(b"K", struct.pack("!II", 1, 2)) + _message(b"Z", b"I")
            conn.sendall(hello)
            while True:
                kind = _read(conn, 1)
                queries.append(kind + _read(conn, struct.unpack("!I", _read(conn, 4))[0] - 4))
                if kind == b"X":
                    return
        except (EOFError, OSError):
            return  # the client gave up and closed the connection


@contextmanager
def silent_postgres() -> Iterator[tuple[int, list[bytes]]]:
    """(port on 127.0.0.1, every message clients sent after the handshake) while the server runs."""
    queries: list[bytes] = []
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)

    def accept() -> None:
        while True:
            try:
                conn, _ = listener.accept()
            except OSError:
                return  # closed: the block ended
            threading.Thread(target=_serve, args=(conn, queries), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield listener.getsockname()[1], queries
    finally:
        try:
            listener.shutdown(socket.SHUT_RDWR)  # wakes the blocked accept()
        except OSError:
            pass
        listener.close()
