"""How each model call ended, in the shared ledger: unsent calls settle at zero, even through the outbox."""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from daemon.config import load_deployment
from daemon.coordination.backends import coordination_for
from daemon.model.coordination_protocol import CoordinationUnavailable
from tests.daemon.coordination.helpers import PG_ENV, fleet_daemon
from tests.daemon.doors.service.helpers import wait_for
from tests.support.deploy import run_cli
from tests.support.postgres import PostgresServer

pytestmark = pytest.mark.slow  # PostgreSQL

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


def _closed_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def test_a_call_to_a_closed_port_is_settled_at_zero_as_unsent_in_the_shared_ledger(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str
) -> None:
    config = fleet_daemon(tmp_path, "d1", pg_url, _closed_url())
    result = run_cli(config, "once", "--agent", "ada", "--json", env=PG_ENV)
    assert result.code == 0, result.err
    assert result.json()["cost_usd"] == 0.0 and result.json()["model_calls"] == 1
    with pg_server.connect(pg_url.rsplit("/", 1)[1]) as conn:
        rows = conn.execute(
            "SELECT reserved_usd, settled_usd, outcome, outcome_detail FROM metaeng_spend"
        ).fetchall()
    assert len(rows) == 1 and rows[0][0] > 0
    assert rows[0][1:] == (Decimal(0), "unsent", "connection error: connection refused")
    status = run_cli(config, "status", "--agent", "ada", "--json", env=PG_ENV).json()
    assert status["agents"][0]["spend_today_usd"] == 0.0


def test_how_a_call_ended_waits_in_the_outbox_while_the_database_is_down(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str
) -> None:
    config = fleet_daemon(tmp_path, "d1", pg_url, None)
    deployment = load_deployment(config, {"HOME": str(tmp_path), **PG_ENV})
    ledger = coordination_for(deployment).ledger()
    limits = {
        "now": NOW,
        "deployment_limit": 1.0,
        "agent_limit": 1.0,
        "count_deep_pass": False,
        "deep_cap": 1,
    }
    unsent = ledger.reserve(agent="ada", run_id="r1", usd=0.4, **limits)  # type: ignore[arg-type]
    kept = ledger.reserve(agent="ada", run_id="r2", usd=0.3, **limits)  # type: ignore[arg-type]
    pg_server.stop()
    try:
        ledger.release(unsent, "connection error: name not resolved", NOW)
        ledger.keep(kept, "timeout", NOW)
        outbox = tmp_path / "d1" / "state" / "spend" / "pending-settlements.jsonl"
        queued = [json.loads(line) for line in outbox.read_text().splitlines()]
        assert [(e["v"], e["outcome"]) for e in queued] == [(2, "unsent"), (2, "kept")]
    finally:
        pg_server.start()

    def reconnected() -> bool:
        try:
            coordination_for(deployment).fleet(datetime.now(UTC))
        except CoordinationUnavailable:
            return False
        return True

    wait_for("reconnection", reconnected, 90)
    assert not outbox.exists()
    with pg_server.connect(pg_url.rsplit("/", 1)[1]) as conn:
        rows = conn.execute(
            "SELECT run_id, settled_usd, outcome, outcome_detail FROM metaeng_spend ORDER BY run_id"
        ).fetchall()
    assert rows == [
        ("r1", Decimal(0), "unsent", "connection error: name not resolved"),
        ("r2", None, "kept", "timeout"),
    ]
    assert round(ledger.totals(NOW.date().isoformat(), "ada").agent_usd, 9) == 0.3
