"""The circuit breaker: pause an agent's model passes after N consecutive bad model calls.

A call counts as bad when it fails (timeout, HTTP error, unreachable server) or its answer
is rejected (schema, truncation, size, or — for distillation — every proposed fact
refused). After `breaker_failures` bad calls in a row the breaker opens: model passes of
that agent are skipped (offsets kept, nothing spent) until `breaker_cooldown_minutes`
have passed, then one call is allowed through (half-open): a good call closes it, a bad
one opens it again. `metaeng-daemon breaker reset --agent A` closes it by hand. The state
is a small versioned JSON file in the agent's state folder; `status` reports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from daemon.kernel import atomic
from daemon.kernel.statefile import read_versioned

VERSION = 1


class BreakerState(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    consecutive_failures: int = 0
    opened_at: str | None = None
    last_failure_at: str | None = None
    last_detail: str = ""


def opened_until(state: BreakerState, cooldown: timedelta, now: datetime) -> datetime | None:
    """When a breaker in `state` closes again, if it is open at `now` (shared by both backends)."""
    if state.opened_at is None:
        return None
    until = datetime.fromisoformat(state.opened_at) + cooldown
    return until if now < until else None


def refusal_for(state: BreakerState, until: datetime | None) -> str | None:
    if until is None:
        return None
    return (
        f"circuit breaker open: {state.consecutive_failures} consecutive failed or rejected model calls "
        f"(last: {state.last_detail}); model passes paused until {until.isoformat(timespec='seconds')} "
        "or `metaeng-daemon breaker reset`"
    )


@dataclass(frozen=True)
class Breaker:
    path: Path
    threshold: int
    cooldown: timedelta

    def state(self) -> BreakerState:
        return read_versioned(self.path, BreakerState, VERSION) or BreakerState()

    def open_until(self, now: datetime) -> datetime | None:
        """When the breaker closes again, if it is open at `now`."""
        return opened_until(self.state(), self.cooldown, now)

    def refusal(self, now: datetime) -> str | None:
        """Why no model call may be made now, or None."""
        state = self.state()
        return refusal_for(state, opened_until(state, self.cooldown, now))

    def record(self, ok: bool, now: datetime, detail: str = "") -> None:
        state = self.state()
        if ok:
            if state.consecutive_failures or state.opened_at:
                self._save(BreakerState())
            return
        failures = state.consecutive_failures + 1
        opened = state.opened_at
        if failures >= self.threshold:
            opened = now.isoformat()  # opens, or re-opens after a failed half-open attempt
        self._save(
            BreakerState(
                consecutive_failures=failures,
                opened_at=opened,
                last_failure_at=now.isoformat(),
                last_detail=detail[:200],
            )
        )

    def reset(self) -> BreakerState:
        previous = self.state()
        self._save(BreakerState())
        return previous

    def _save(self, state: BreakerState) -> None:
        atomic.write_text(self.path, state.model_dump_json(indent=1) + "\n")
