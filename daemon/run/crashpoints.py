"""Named crash points for the crash tests: SIGKILL the process at a named step of apply.

Armed only by the test-only entry `python -m tests.support.armed` from `METAENG_CRASH_AT`
(never by the shipped command line); unarmed, a crash point costs one
comparison. The names are the steps of the commit protocol in `daemon.run.apply`, then the
applier's run-index update after the commit (`before_index`), then two steps of a run
that migrates a single-file fact store, then the steps of a history rewrite
(`daemon.run.history_rewrite`) and of a purge (`daemon.wiring.purge`).
"""

from __future__ import annotations

import os
import signal

POINTS = (
    "after_journal",
    "mid_write",
    "after_write",
    "after_stage",
    "after_commit",
    "after_cursors",
    "before_index",
)
# The migration of a single-file fact store (memory_engine.fact_migration): every pass
# planned, its shards spooled, nothing applied; halfway through the spooled shard writes.
MIGRATION_POINTS = ("after_plan", "migration_half_written")
REWRITE_POINTS = (
    "purge_after_forget",
    "purge_after_redact",
    "rewrite_built",
    "rewrite_verified",
    "rewrite_moved_old",
    "rewrite_swapped",
    "rewrite_old_removed",
)
_armed: str | None = None


def arm(name: str | None) -> None:
    global _armed
    _armed = name or None


def crashpoint(name: str) -> None:
    if _armed == name:
        os.kill(os.getpid(), signal.SIGKILL)
