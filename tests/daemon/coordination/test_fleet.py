"""The issue's proof: three daemons (own state folders, one database) and the scripted model server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest

from daemon.config import load_deployment
from daemon.coordination.backends import coordination_for
from daemon.kernel.errors import AgentBusy
from daemon.model.coordination_protocol import CoordinationUnavailable
from tests.daemon.coordination.helpers import PG_ENV, fleet_daemon
from tests.daemon.doors.service.helpers import wait_for
from tests.support.deploy import TEST_KEY, run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.postgres import PostgresServer
from tests.support.runs import add_turns, berlin_fact

pytestmark = pytest.mark.slow  # three daemons in subprocesses on PostgreSQL

REPO = Path(__file__).resolve().parents[3]


def _env(**extra: str) -> dict[str, str]:
    return {**os.environ, **PG_ENV, "TEST_API_KEY": TEST_KEY, "PYTHONPATH": str(REPO), **extra}


def test_a_thousand_concurrent_reservations_from_three_daemons_never_exceed_a_dollar(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str, fake_model: FakeModelServer
) -> None:
    for _ in range(1000):  # each call costs about what it reserves, so the budget binds
        fake_model.reply({"ok": True}, prompt_tokens=1000, completion_tokens=1000)
    budget = {"daily_usd": 1.0, "per_agent_daily_usd": 1.0}
    daemons = [
        (fleet_daemon(tmp_path, f"d{i}", pg_url, fake_model.url, agents=(agent,), budget=budget), agent)
        for i, agent in enumerate(("ada", "bob", "cy"))
    ]
    workers = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.support.fleet_worker", str(config), agent, str(calls), "16"],
            cwd=REPO, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for (config, agent), calls in zip(daemons, (334, 333, 333), strict=True)
    ]
    results = []
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err
        results.append(json.loads(out.strip().splitlines()[-1]))  # log lines may come first
    assert all(r["errors"] == [] for r in results), results
    ok = sum(r["ok"] for r in results)
    assert ok + sum(r["refused"] for r in results) == 1000
    assert 150 < ok < 250 and len(fake_model.requests) == ok  # a refused reservation calls no model
    with pg_server.connect(pg_url.rsplit("/", 1)[1]) as conn:
        spent, rows, unsettled, hosts = conn.execute(
            "SELECT sum(coalesce(settled_usd, reserved_usd)), count(*), count(*) FILTER (WHERE settled_usd IS NULL), "
            "count(DISTINCT host_id) FROM metaeng_spend"
        ).fetchone()
    assert spent <= Decimal("1.0") and (rows, unsettled, hosts) == (ok, 0, 3)
    assert spent == ok * Decimal("0.005")  # each settled at its real cost: 1000 tokens in and out


def _once(config: Path, fake_model: FakeModelServer) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada", "--json"],
        cwd=REPO, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def test_a_home_two_daemons_reach_is_never_run_by_both_and_kill_9_frees_the_lock(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str, fake_model: FakeModelServer
) -> None:
    homes = tmp_path / "shared"
    first = fleet_daemon(tmp_path, "d1", pg_url, fake_model.url, homes=homes)
    second = fleet_daemon(tmp_path, "d2", pg_url, fake_model.url, homes=homes)
    answer = threading.Event()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=answer)
    holder = _once(first, fake_model)
    try:
        wait_for("the first daemon's model call", lambda: fake_model.requests or holder.poll() is not None, 30)
        assert holder.poll() is None, holder.communicate()
        with pg_server.connect(pg_url.rsplit("/", 1)[1]) as conn:
            held = conn.execute("SELECT pid FROM metaeng_agent_locks WHERE agent = 'ada'").fetchone()
        assert held == (holder.pid,)
        busy = run_cli(second, "once", "--agent", "ada", env=PG_ENV)
        assert busy.code == 1 and "agent 'ada' is busy" in busy.err
        # The fleet lock alone, without the home's: a daemon on another host sees only this one.
        other = load_deployment(second, {"HOME": str(tmp_path), **PG_ENV})
        with (
            pytest.raises(AgentBusy, match=f"pid {holder.pid}.*holds its fleet run lock"),
            coordination_for(other).run_lock("ada", 0.0, datetime.now(UTC)),
        ):
            pass
        holder.send_signal(signal.SIGKILL)
        holder.wait(10)
    finally:
        answer.set()
        if holder.poll() is None:
            holder.kill()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    after = run_cli(second, "once", "--agent", "ada", "--json", env=PG_ENV)
    assert after.code == 0, after.err
    assert next(p for p in after.json()["passes"] if p["name"] == "distillation")["status"] == "applied"


def test_postgres_stopped_mid_cycle_skips_model_passes_runs_local_ones_and_loses_nothing(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str, fake_model: FakeModelServer
) -> None:
    config = fleet_daemon(tmp_path, "d1", pg_url, fake_model.url, passes=("distillation", "memory_consolidation"))
    deployment = load_deployment(config, {"HOME": str(tmp_path), **PG_ENV})
    answer = threading.Event()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=answer)
    first: dict[str, object] = {}
    run = threading.Thread(target=lambda: first.update(r=run_cli(config, "once", "--agent", "ada", "--json", env=PG_ENV)))
    run.start()
    wait_for("the model call", lambda: fake_model.requests, 30)
    pg_server.stop()  # between the reservation and its settlement
    try:
        answer.set()
        run.join(60)
        body = first["r"].json()  # type: ignore[attr-defined]
        assert {p["name"]: p["status"] for p in body["passes"]}["distillation"] == "applied"
        outbox = tmp_path / "d1" / "state" / "spend" / "pending-settlements.jsonl"
        assert len(outbox.read_text().splitlines()) == 1  # the paid call's cost waits to be delivered
        add_turns(tmp_path / "d1", first="I moved to Berlin.")
        second = run_cli(config, "once", "--agent", "ada", "--json", env=PG_ENV)
        assert second.code == 0, second.err
        passes = {p["name"]: p for p in second.json()["passes"]}
        assert passes["distillation"]["status"] == "skipped"
        assert "coordination database unreachable" in passes["distillation"]["reason"]
        assert passes["memory_consolidation"]["status"] in ("applied", "nothing")
        assert len(fake_model.requests) == 1
    finally:
        pg_server.start()

    def reconnected() -> bool:
        try:
            coordination_for(deployment).fleet(datetime.now(UTC))
        except CoordinationUnavailable:
            return False
        return True

    wait_for("reconnection", reconnected, 90)
    assert not outbox.exists()  # delivered on reconnection
    with pg_server.connect(pg_url.rsplit("/", 1)[1]) as conn:
        rows = conn.execute("SELECT reserved_usd, settled_usd, input_tokens FROM metaeng_spend").fetchall()
    assert len(rows) == 1 and rows[0][1] == Decimal("0.00028") and rows[0][2] == 120  # once, at its real cost
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    third = run_cli(config, "once", "--agent", "ada", "--json", env=PG_ENV).json()
    assert {p["name"]: p["status"] for p in third["passes"]}["distillation"] != "skipped"
    assert len(fake_model.requests) == 2  # the turns skipped during the outage were read again
    with pg_server.connect(pg_url.rsplit("/", 1)[1]) as conn:
        count, unsettled = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE settled_usd IS NULL) FROM metaeng_spend"
        ).fetchone()
    assert (count, unsettled) == (2, 0)  # one row per model call: nothing lost, nothing counted twice
