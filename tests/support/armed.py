"""A test-only entry point: `python -m tests.support.armed ARGS…` is `metaeng-daemon ARGS…`
with the crash points and injected faults armed from the environment.

The shipped command line never reads `METAENG_CRASH_AT` or `METAENG_FAULT`: only this
module, which the crash and fault tests start instead of `python -m daemon`, arms them.
"""

from __future__ import annotations

import os
import sys

from daemon.kernel import faults
from daemon.launch import main
from daemon.run import crashpoints

if __name__ == "__main__":
    crashpoints.arm(os.environ.get("METAENG_CRASH_AT"))
    faults.arm(os.environ.get("METAENG_FAULT"))
    sys.exit(main())
