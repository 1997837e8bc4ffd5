"""The spend ledger in the shared database: one row per model call, reservations checked fleet-wide.

`reserve` runs in one transaction under a transaction advisory lock of the UTC day: the
day's spend (settled, or reserved while unsettled) is summed, checked against the
deployment and agent budgets and the agent's daily deep-pass cap, and the new row is
written before the lock is released, so any number of daemons reserving at once never
exceed a budget. `settle` replaces a reservation by the real cost, `release` by zero (the
request never reached the server) and `keep` notes that it stays (the call may have been
processed); each records the row's `outcome`. If the database is down at that moment the
entry goes to a local outbox (`spend/pending-settlements.jsonl`) and is delivered on
reconnection — idempotently: a settled row is never settled twice. A reservation whose
outcome is unknown keeps counting at its full amount.
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import psycopg
import structlog
from filelock import FileLock

from daemon.coordination.database import Database
from daemon.kernel import atomic
from daemon.model.coordination_protocol import CoordinationUnavailable
from daemon.model.spend import ANSWERED, KEPT, UNSENT, BudgetExhausted, CapReached, DayTotals, Reservation

log = structlog.get_logger("metaeng.coordination")
# 2: entries carry `outcome` (and `detail`); a version-1 entry is an `answered` settlement.
OUTBOX_VERSION = 2
OUTBOX_READS = (1, 2)

_TOTALS = """
SELECT coalesce(sum(coalesce(settled_usd, reserved_usd)), 0),
       coalesce(sum(coalesce(settled_usd, reserved_usd)) FILTER (WHERE agent = %(agent)s), 0),
       (SELECT count(*) FROM metaeng_deep_passes WHERE day = %(day)s AND agent = %(agent)s),
       coalesce(sum(saved_usd) FILTER (WHERE agent = %(agent)s), 0),
       coalesce(sum(cached_tokens) FILTER (WHERE agent = %(agent)s), 0)
FROM metaeng_spend WHERE day = %(day)s
"""
_SETTLE = """
UPDATE metaeng_spend SET settled_usd = %(usd)s, input_tokens = %(inp)s, output_tokens = %(out)s,
       cached_tokens = %(cached)s, saved_usd = %(saved)s,
       settled_at = %(at)s, outcome = %(outcome)s, outcome_detail = %(detail)s
WHERE call_id = %(call)s AND settled_usd IS NULL
"""
_KEEP = """
UPDATE metaeng_spend SET outcome = %(outcome)s, outcome_detail = %(detail)s
WHERE call_id = %(call)s AND settled_usd IS NULL AND outcome IS NULL
"""


def _usd(value: float) -> Decimal:
    return Decimal(repr(float(value)))


class SharedLedger:
    def __init__(self, db: Database, host_id: str, outbox: Path) -> None:
        self.db = db
        self.host_id = host_id
        self.outbox = outbox
        db.on_reconnect.append(self.deliver_outbox)

    def totals(self, day: str, agent: str) -> DayTotals:
        with self.db.connection() as conn:
            row = conn.execute(_TOTALS, {"day": day, "agent": agent}).fetchone()
        assert row is not None
        return DayTotals(float(row[0]), float(row[1]), int(row[2]), float(row[3]), int(row[4]))

    def reserve(
        self,
        *,
        agent: str,
        run_id: str,
        usd: float,
        now: datetime,
        deployment_limit: float,
        agent_limit: float,
        count_deep_pass: bool,
        deep_cap: int,
    ) -> Reservation:
        day = now.date().isoformat()
        call_id = f"{run_id}-{secrets.token_hex(6)}"
        amount = _usd(usd)
        with self.db.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))", (f"metaeng-spend:{day}",))
            row = conn.execute(_TOTALS, {"day": day, "agent": agent}).fetchone()
            assert row is not None
            fleet, mine, deep = Decimal(row[0]), Decimal(row[1]), int(row[2])
            if count_deep_pass and deep >= deep_cap:
                raise CapReached(agent, deep, deep_cap)
            if fleet + amount > _usd(deployment_limit):
                raise BudgetExhausted("deployment daily", float(fleet), usd, deployment_limit)
            if mine + amount > _usd(agent_limit):
                raise BudgetExhausted(f"agent {agent!r} daily", float(mine), usd, agent_limit)
            if count_deep_pass:
                conn.execute(
                    "INSERT INTO metaeng_deep_passes (day, agent, run_id, host_id, at) VALUES (%s, %s, %s, %s, %s) "
                    "ON CONFLICT DO NOTHING",
                    (day, agent, run_id, self.host_id, now),
                )
            conn.execute(
                "INSERT INTO metaeng_spend (call_id, day, agent, run_id, host_id, reserved_usd, reserved_at) "
                "VALUES (%s, %s, %s, %s, %s, %s, %s)",
                (call_id, day, agent, run_id, self.host_id, amount, now),
            )
        return Reservation(call_id, agent, run_id, usd, day)

    def settle(
        self,
        reservation: Reservation,
        usd: float,
        input_tokens: int,
        output_tokens: int,
        now: datetime,
        *,
        cached_tokens: int = 0,
        saved_usd: float = 0.0,
    ) -> None:
        self._close(
            reservation,
            now,
            {
                "outcome": ANSWERED, "usd": usd, "inp": input_tokens, "out": output_tokens,
                "cached": cached_tokens, "saved": saved_usd,
            },
        )

    def release(self, reservation: Reservation, detail: str, now: datetime) -> None:
        self._close(reservation, now, {"outcome": UNSENT, "usd": 0.0, "inp": 0, "out": 0, "detail": detail})

    def keep(self, reservation: Reservation, detail: str, now: datetime) -> None:
        self._close(reservation, now, {"outcome": KEPT, "detail": detail})

    def _close(self, reservation: Reservation, now: datetime, fields: dict[str, Any]) -> None:
        entry = {"call": reservation.call_id, "at": now.isoformat(), **fields}
        try:
            with self.db.connection() as conn:
                self._apply(conn, entry)
        except CoordinationUnavailable as exc:
            # The call was made (or refused before sending): how it ended must reach the
            # ledger, later.
            with FileLock(str(self.outbox) + ".lock", timeout=30):
                atomic.append_line(self.outbox, json.dumps({"v": OUTBOX_VERSION, **entry}, sort_keys=True))
            log.warning("coordination.settlement_queued", call=reservation.call_id, error=exc.detail)

    @staticmethod
    def _apply(conn: psycopg.Connection[Any], entry: dict[str, Any]) -> None:
        outcome = entry.get("outcome", ANSWERED)  # a version-1 outbox entry: a settlement
        if outcome == KEPT:
            conn.execute(_KEEP, {"call": entry["call"], "outcome": KEPT, "detail": entry.get("detail")})
            return
        conn.execute(
            _SETTLE,
            {
                "call": entry["call"],
                "usd": _usd(entry["usd"]),
                "inp": entry["inp"],
                "out": entry["out"],
                "cached": entry.get("cached", 0),  # absent from entries queued before schema 3
                "saved": _usd(entry.get("saved", 0.0)),
                "at": datetime.fromisoformat(entry["at"]),
                "outcome": outcome,
                "detail": entry.get("detail"),
            },
        )

    def deliver_outbox(self, conn: psycopg.Connection[Any]) -> None:
        """Apply the settlements queued while the database was down, then empty the outbox."""
        if not self.outbox.exists():
            return
        with FileLock(str(self.outbox) + ".lock", timeout=30):
            try:
                lines = self.outbox.read_text(encoding="utf-8").splitlines()
            except FileNotFoundError:
                return
            delivered, kept = 0, []
            for line in lines:
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue  # torn by a crash mid-append: its reservation keeps counting in full
                if isinstance(entry, dict) and entry.get("v") in OUTBOX_READS:
                    self._apply(conn, entry)
                    delivered += 1
                else:
                    kept.append(line)  # written by a newer daemon: left for it
            if kept:
                atomic.write_text(self.outbox, "".join(f"{line}\n" for line in kept))
            else:
                self.outbox.unlink()
        log.info("coordination.settlements_delivered", count=delivered)
