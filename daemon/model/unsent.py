"""Whether a failed model call provably never reached the server (docs/explanation/deep-tier.md).

The `openai` SDK wraps the transport's error: APIConnectionError, or APITimeoutError,
`from` httpx's (httpx2's in SDK 3) exception, itself `from` httpcore's and the socket's.
The transport raises ConnectError or ConnectTimeout only while it opens the connection —
resolving the name, connecting, the TLS handshake — before it writes a byte of the
request; every call opens its own connection (`Connection: close`), so no request is ever
written on a connection opened for another. Any other failure (a write or read error, a
timeout, a connection dropped or reset, an HTTP status) may come after the server read the
request, and may have been processed: it is never treated as unsent.
"""

from __future__ import annotations

import socket
import ssl
import sys
from collections.abc import Iterator

TRANSPORTS = ("httpx2", "httpx")
CONNECT_FAILURES = ("ConnectError", "ConnectTimeout")


def _chain(exc: BaseException) -> Iterator[BaseException]:
    # Only explicit causes (`raise … from …`, as every layer wraps the one below): an
    # exception merely raised while another was handled says nothing about this one.
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        yield current
        current = current.__cause__


def _connect_failures() -> tuple[type[BaseException], ...]:
    # Only a transport that is loaded can have raised: never import one here.
    found: list[type[BaseException]] = []
    for name in TRANSPORTS:
        module = sys.modules.get(name)
        found += [getattr(module, cls) for cls in CONNECT_FAILURES if hasattr(module, cls)]
    return tuple(found)


def _why(root: BaseException) -> str:
    if isinstance(root, ConnectionRefusedError):
        return "connection refused"
    if isinstance(root, socket.gaierror):
        return "name not resolved"
    if isinstance(root, ssl.SSLError):
        return "TLS handshake failed"
    if isinstance(root, TimeoutError):
        return "connect timed out"
    return f"could not connect ({type(root).__name__})"


def never_sent(exc: BaseException) -> str | None:
    """Why the request of the call that failed with `exc` never reached the server, or None
    if it may have (the transport failed while connecting: refused, name not resolved, TLS
    handshake, connect timeout). The reason names error types only, never a message."""
    failures = _connect_failures()
    chain = list(_chain(exc))
    if not failures or not any(isinstance(link, failures) for link in chain):
        return None
    last = chain[-1]
    # httpcore's pool re-raises its ConnectError `from None`: the socket's error it wraps is
    # still its first argument (and its context).
    wrapped = last.args[0] if last.args and isinstance(last.args[0], BaseException) else last.__context__
    return _why(wrapped if wrapped is not None else last)
