"""An agent's circuit breaker in the shared database: every daemon of the fleet sees the same count.

Same rules as the local breaker (`daemon.model.breaker`); a bad call increments the count
in one statement, so two hosts failing at once both count. While the database is down the
breaker refuses (the budget cannot be proven either) and a call's outcome is not recorded.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

import structlog

from daemon.coordination.database import Database
from daemon.model.breaker import BreakerState, opened_until, refusal_for
from daemon.model.coordination_protocol import CoordinationUnavailable

log = structlog.get_logger("metaeng.coordination")

_FAIL = """
INSERT INTO metaeng_breakers AS b (agent, consecutive_failures, opened_at, last_failure_at, last_detail)
VALUES (%(agent)s, 1, CASE WHEN 1 >= %(threshold)s THEN %(now)s END, %(now)s, %(detail)s)
ON CONFLICT (agent) DO UPDATE SET
    consecutive_failures = b.consecutive_failures + 1,
    opened_at = CASE WHEN b.consecutive_failures + 1 >= %(threshold)s THEN %(now)s ELSE b.opened_at END,
    last_failure_at = %(now)s,
    last_detail = %(detail)s
"""


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


@dataclass(frozen=True)
class SharedBreaker:
    db: Database
    agent: str
    threshold: int
    cooldown: timedelta

    def state(self) -> BreakerState:
        with self.db.connection() as conn:
            row = conn.execute(
                "SELECT consecutive_failures, opened_at, last_failure_at, last_detail FROM metaeng_breakers "
                "WHERE agent = %s",
                (self.agent,),
            ).fetchone()
        if row is None:
            return BreakerState()
        return BreakerState(
            consecutive_failures=row[0], opened_at=_iso(row[1]), last_failure_at=_iso(row[2]), last_detail=row[3]
        )

    def open_until(self, now: datetime) -> datetime | None:
        return opened_until(self.state(), self.cooldown, now)

    def refusal(self, now: datetime) -> str | None:
        try:
            state = self.state()
        except CoordinationUnavailable as exc:
            return str(exc)
        return refusal_for(state, opened_until(state, self.cooldown, now))

    def record(self, ok: bool, now: datetime, detail: str = "") -> None:
        try:
            with self.db.connection() as conn:
                if ok:
                    conn.execute("DELETE FROM metaeng_breakers WHERE agent = %s", (self.agent,))
                else:
                    conn.execute(
                        _FAIL, {"agent": self.agent, "threshold": self.threshold, "now": now, "detail": detail[:200]}
                    )
        except CoordinationUnavailable as exc:
            log.warning("coordination.breaker_not_recorded", agent=self.agent, ok=ok, error=exc.detail)

    def reset(self) -> BreakerState:
        previous = self.state()
        with self.db.connection() as conn:
            conn.execute("DELETE FROM metaeng_breakers WHERE agent = %s", (self.agent,))
        return previous
