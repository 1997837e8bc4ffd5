"""Injected I/O faults for the fault-injection tests, at the atomic-write door.

Armed only by the tests — in-process with `arm`, or through the test-only entry
`python -m tests.support.armed` from `METAENG_FAULT=<errno name>@<path fragment>` (for example
`ENOSPC@facts.jsonl`): the next atomic write or delete of a path containing the fragment
raises that OSError, exactly as a full disk or a read-only mount would. Unarmed, a check
costs one comparison. Used where the platform cannot give a real tiny filesystem.
"""

from __future__ import annotations

import errno
import os

_armed: tuple[int, str] | None = None


def arm(spec: str | None) -> None:
    global _armed
    if not spec:
        _armed = None
        return
    name, _, fragment = spec.partition("@")
    code = getattr(errno, name.strip().upper(), None)
    if not isinstance(code, int) or not fragment:
        raise ValueError(f"METAENG_FAULT must look like ENOSPC@fragment, got {spec!r}")
    _armed = (code, fragment)


def check(path: os.PathLike[str] | str) -> None:
    if _armed is not None and _armed[1] in os.fspath(path):
        raise OSError(_armed[0], os.strerror(_armed[0]), os.fspath(path))
