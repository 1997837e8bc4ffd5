"""The systemd notify protocol (sd_notify(3)), owned here instead of a dependency.

One datagram of `KEY=value` lines to the AF_UNIX socket named by `$NOTIFY_SOCKET` (a
path, or `@name` for an abstract socket). Outside systemd the variable is unset and
every call is a no-op. Failures are ignored, as the man page recommends: a daemon must
not stop because its supervisor went away.
"""

from __future__ import annotations

import socket
from collections.abc import Mapping


def notify(env: Mapping[str, str], *lines: str) -> bool:
    """Send `lines` (e.g. "READY=1", "STATUS=...") as one datagram; True if it was sent."""
    address = env.get("NOTIFY_SOCKET", "")
    if not address or address[0] not in "/@":
        return False  # unset, or a transport we do not speak (vsock)
    if address[0] == "@":
        address = "\0" + address[1:]
    payload = "\n".join(line.replace("\n", " ") for line in lines).encode("utf-8")
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(payload)
    except OSError:
        return False
    return True


def watchdog_seconds(env: Mapping[str, str], pid: int) -> float | None:
    """The watchdog interval systemd expects (`WatchdogSec=`), or None if not for this process."""
    usec = env.get("WATCHDOG_USEC", "")
    owner = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) == 0:
        return None
    if owner and (not owner.isdigit() or int(owner) != pid):
        return None
    return int(usec) / 1_000_000
