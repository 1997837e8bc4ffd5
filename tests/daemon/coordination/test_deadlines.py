"""No wait for the coordination database lasts for ever: a statement blocked behind a lock, or a server that never answers."""

from __future__ import annotations

import os
import signal
import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
import yaml

from daemon.config import load_deployment
from daemon.coordination.backends import close_all, coordination_for
from daemon.coordination.migrations import MIGRATION_LOCK
from daemon.kernel.errors import AgentBusy
from tests.daemon.coordination.helpers import PG_ENV, fleet_daemon
from tests.support.deploy import CliResult, run_cli
from tests.support.fake_model import FakeModelServer
from tests.support.postgres import PostgresServer
from tests.support.silent_postgres import silent_postgres

pytestmark = pytest.mark.slow  # PostgreSQL sessions made to hang, waited out to each bound

# query_timeout_seconds 1 + connect_timeout_seconds 1: the longest any one wait may take, and then some.
WITHIN_SECONDS = 10


def _coordination(config: Path, **values: Any) -> None:
    body = yaml.safe_load(config.read_text())
    body["coordination"].update(values)
    config.write_text(yaml.safe_dump(body, sort_keys=False))


def _bounded(config: Path, *args: str, env: dict[str, str] | None = None) -> tuple[CliResult, float]:
    """The command's result and how long it took; fails (instead of hanging the suite) past 60 s."""
    box: dict[str, CliResult] = {}
    started = time.monotonic()
    thread = threading.Thread(target=lambda: box.update(r=run_cli(config, *args, env=env)), daemon=True)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), f"`{' '.join(args)}` still waiting on the database after 60 s"
    return box["r"], time.monotonic() - started


def _stop_backends(pg_server: PostgresServer, database: str, where: str) -> list[int]:
    """SIGSTOP the server processes of our sessions matching `where`: a server that hangs mid-conversation."""
    query = "SELECT pid FROM pg_stat_activity WHERE datname = %s AND application_name LIKE 'metaeng-daemon%%' AND "
    with pg_server.connect(database) as conn:
        pids = [row[0] for row in conn.execute(query + where, (database,)).fetchall()]
    for pid in pids:
        os.kill(pid, signal.SIGSTOP)
    return pids


def test_status_blocked_behind_another_sessions_lock_ends_within_the_query_timeout_and_changes_nothing(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str
) -> None:
    config = fleet_daemon(tmp_path, "a", pg_url, None)
    _coordination(config, query_timeout_seconds=1, connect_timeout_seconds=1)
    database = pg_url.rsplit("/", 1)[1]
    with pg_server.connect(database) as other:
        other.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK,))  # a daemon stuck mid-migration
        status, took = _bounded(config, "status", "--json", env=PG_ENV)
    assert took < WITHIN_SECONDS
    assert status.code == 0 and status.json()["agents"][0]["spend_today_usd"] is None
    assert "coordination database unreachable" in status.err and "lock timeout" in status.err
    assert "coordination.query_timeout_seconds" in status.err
    with pg_server.connect(database) as conn:
        assert conn.execute("SELECT to_regclass('metaeng_schema')").fetchone() == (None,)  # nothing migrated
    assert not (tmp_path / "a" / "state" / "spend").exists()


def test_once_with_the_spend_ledger_locked_by_another_session_skips_the_model_pass_within_the_bound(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str, fake_model: FakeModelServer
) -> None:
    config = fleet_daemon(tmp_path, "a", pg_url, fake_model.url, passes=("distillation", "memory_consolidation"))
    _coordination(config, query_timeout_seconds=1, connect_timeout_seconds=1)
    assert run_cli(config, "status", env=PG_ENV).code == 0  # migrates
    with pg_server.connect(pg_url.rsplit("/", 1)[1]) as other:
        with other.transaction():
            other.execute("LOCK TABLE metaeng_spend IN ACCESS EXCLUSIVE MODE")  # e.g. a stuck maintenance job
            once, took = _bounded(config, "once", "--agent", "ada", "--json", env=PG_ENV)
        assert took < WITHIN_SECONDS
        assert once.code == 0, once.err
        passes = {p["name"]: p for p in once.json()["passes"]}
        assert passes["distillation"]["status"] == "skipped"
        reason = passes["distillation"]["reason"]
        assert "coordination database unreachable" in reason and "coordination.query_timeout_seconds" in reason
        assert passes["memory_consolidation"]["status"] in ("applied", "nothing")
        assert fake_model.requests == []
        assert other.execute("SELECT count(*) FROM metaeng_spend").fetchone() == (0,)  # nothing reserved


def test_the_run_lock_is_held_for_longer_than_the_query_timeout(tmp_path: Path, pg_url: str) -> None:
    homes = tmp_path / "shared"
    configs = [fleet_daemon(tmp_path, name, pg_url, None, homes=homes) for name in ("d1", "d2")]
    for config in configs:
        _coordination(config, query_timeout_seconds=1)
    first, second = (coordination_for(load_deployment(c, {"HOME": str(tmp_path), **PG_ENV})) for c in configs)
    with first.run_lock("ada", 0.0, datetime.now(UTC)) as grant:
        time.sleep(2.5)  # the lock's session idles across statements: only each statement is bounded
        assert grant.model_refusal() is None
        with pytest.raises(AgentBusy), second.run_lock("ada", 0.0, datetime.now(UTC)):
            pass


def test_a_server_that_never_answers_fails_config_check_status_and_once_within_the_bound(tmp_path: Path) -> None:
    with silent_postgres() as (port, received):
        url = f"postgresql://metaeng@127.0.0.1:{port}/fleet?sslmode=disable"
        config = fleet_daemon(tmp_path, "a", url, "http://127.0.0.1:9/v1")
        _coordination(config, query_timeout_seconds=1, connect_timeout_seconds=1, password_env=None)
        try:
            check, took = _bounded(config, "config", "check")
            assert took < WITHIN_SECONDS and check.code == 1
            assert "coordination.url: coordination database unreachable" in check.err
            assert "no answer" in check.err and "coordination.query_timeout_seconds" in check.err
            assert received  # it was reached, and asked

            close_all()  # each command in a process of its own, as from a shell
            status, took = _bounded(config, "status", "--json")
            assert took < WITHIN_SECONDS and status.code == 0, status.err
            assert "coordination database unreachable" in status.err

            close_all()
            once, took = _bounded(config, "once", "--agent", "ada", "--json")
            assert took < WITHIN_SECONDS and once.code == 0, once.err
            distillation = next(p for p in once.json()["passes"] if p["name"] == "distillation")
            assert distillation["status"] == "skipped"
            assert "coordination database unreachable" in distillation["reason"]
            assert not (tmp_path / "a" / "state" / "spend").exists()  # nothing reserved, nothing queued
        finally:
            close_all()


def test_status_on_a_pooled_connection_whose_server_hangs_ends_within_the_bound(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str
) -> None:
    config = fleet_daemon(tmp_path, "a", pg_url, None)
    _coordination(config, query_timeout_seconds=1, connect_timeout_seconds=1)
    assert run_cli(config, "status", env=PG_ENV).code == 0  # the pool holds a connection now
    stopped = _stop_backends(pg_server, pg_url.rsplit("/", 1)[1], "true")
    assert stopped
    try:
        status, took = _bounded(config, "status", "--json", env=PG_ENV)
    finally:
        for pid in stopped:
            os.kill(pid, signal.SIGCONT)
    assert took < WITHIN_SECONDS and status.code == 0
    assert "coordination database unreachable" in status.err
    assert "no answer from the server within 2s (coordination.query_timeout_seconds" in status.err


def test_a_run_lock_whose_server_hangs_mid_run_refuses_model_calls_within_the_bound(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str
) -> None:
    config = fleet_daemon(tmp_path, "a", pg_url, None)
    _coordination(config, query_timeout_seconds=1, connect_timeout_seconds=1)
    backend = coordination_for(load_deployment(config, {"HOME": str(tmp_path), **PG_ENV}))
    started = time.monotonic()
    with backend.run_lock("ada", 0.0, datetime.now(UTC)) as grant:
        assert grant.model_refusal() is None
        holder = "pid IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted)"
        stopped = _stop_backends(pg_server, pg_url.rsplit("/", 1)[1], holder)
        assert len(stopped) == 1  # the lock's own session
        try:
            refusal = grant.model_refusal()
        finally:
            os.kill(stopped[0], signal.SIGCONT)
    assert time.monotonic() - started < WITHIN_SECONDS  # the refusal and the unlock, each bounded
    assert refusal is not None and "the fleet run lock was lost mid-run" in refusal and "no answer" in refusal
