"""`coordination:` in the config: the URL, where the password comes from, what `config check` reports."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
import yaml

from daemon.coordination.backends import close_all
from daemon.coordination.migrations import LATEST
from tests.daemon.coordination.helpers import PG_ENV, fleet_daemon
from tests.support.deploy import run_cli
from tests.support.postgres import PASSWORD, PostgresServer


def _with_url(config: Path, url: str) -> None:
    body = yaml.safe_load(config.read_text())
    body["coordination"]["url"] = url
    config.write_text(yaml.safe_dump(body, sort_keys=False))


def test_a_password_in_the_url_is_refused_naming_the_key_and_line_and_never_echoed(tmp_path: Path) -> None:
    config = fleet_daemon(tmp_path, "a", "postgresql://metaeng:hunter2-SECRET@db.example:5432/fleet", None)
    line = next(i for i, text in enumerate(config.read_text().splitlines(), 1) if "url:" in text)
    for args in (("config", "check"), ("once", "--agent", "ada")):
        result = run_cli(config, *args)
        assert result.code == 1
        assert "coordination.url: contains a password" in result.err and f"config.yaml:{line}" in result.err
        assert "hunter2-SECRET" not in result.out + result.err
    assert not (tmp_path / "a" / "state").exists()  # refused before anything was written


def test_a_password_as_a_query_parameter_is_refused_too(tmp_path: Path) -> None:
    config = fleet_daemon(tmp_path, "a", "postgresql://metaeng@db.example/fleet?password=hunter2-SECRET", None)
    result = run_cli(config, "config", "check", "--json")
    assert result.code == 1 and "hunter2-SECRET" not in result.out
    assert any(p.startswith("coordination.url: contains a password") for p in result.json()["problems"])


def test_a_client_key_passphrase_as_sslpassword_is_refused_like_a_password(tmp_path: Path) -> None:
    url = "postgresql://metaeng@db.example/fleet?sslmode=verify-full&SSLPassword=PGPASScanary-ssl99"
    config = fleet_daemon(tmp_path, "a", url, None)
    for args in (("config", "check", "--json"), ("config", "show", "--agent", "ada")):
        result = run_cli(config, *args)
        assert result.code == 1 and "PGPASScanary" not in result.out + result.err
    problems = run_cli(config, "config", "check", "--json").json()["problems"]
    assert any(p.startswith("coordination.url: contains a password") for p in problems)


def test_a_url_that_is_not_postgresql_or_names_no_database_is_refused(tmp_path: Path) -> None:
    config = fleet_daemon(tmp_path, "a", "mysql://db.example/fleet", None)
    assert "must start with postgresql://" in run_cli(config, "config", "check").err
    _with_url(config, "postgresql://metaeng@db.example:5432")
    assert "names no database" in run_cli(config, "config", "check").err


def test_config_check_reports_the_schema_version_without_migrating(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str
) -> None:
    config = fleet_daemon(tmp_path, "a", pg_url, None)
    result = run_cli(config, "config", "check", "--json", env=PG_ENV)
    assert result.code == 0, result.out
    body = result.json()["coordination"]
    assert body["backend"] == "postgresql" and body["schema_version"] == 0 and body["schema_expected"] == LATEST
    assert body["password_from"] == "environment variable METAENG_PG_PASSWORD"
    assert run_cli(config, "once", "--agent", "ada", env=PG_ENV).code == 0  # any run migrates
    human = run_cli(config, "config", "check", env=PG_ENV)
    assert f"schema version {LATEST} (this daemon's: {LATEST})" in human.out
    assert PASSWORD not in human.out + human.err


def test_the_password_comes_from_a_systemd_credential(tmp_path: Path, pg_url: str) -> None:
    config = fleet_daemon(tmp_path, "a", pg_url, None)
    credentials = tmp_path / "creds"
    credentials.mkdir()
    (credentials / "metaeng_pg_password").write_text(PASSWORD + "\n")
    result = run_cli(config, "config", "check", "--json", env={"CREDENTIALS_DIRECTORY": str(credentials)})
    assert result.code == 0, result.out
    assert result.json()["coordination"]["password_from"] == f"credentials file {credentials / 'metaeng_pg_password'}"


def test_a_wrong_password_or_a_closed_port_is_a_problem_that_names_the_key(tmp_path: Path, pg_url: str) -> None:
    config = fleet_daemon(tmp_path, "a", pg_url, None)
    wrong = run_cli(config, "config", "check", env={"METAENG_PG_PASSWORD": "not-the-PASSWORD-x9"})
    assert wrong.code == 1 and "coordination.url: coordination database unreachable" in wrong.err
    assert "password authentication failed" in wrong.err and "not-the-PASSWORD-x9" not in wrong.err
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    _with_url(config, f"postgresql://metaeng@127.0.0.1:{closed}/fleet")
    down = run_cli(config, "config", "check", env=PG_ENV)
    assert down.code == 1 and "coordination database unreachable" in down.err


@pytest.mark.slow
def test_commands_that_need_the_shared_state_say_the_database_is_down_and_change_nothing(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    config = fleet_daemon(tmp_path, "a", f"postgresql://metaeng@127.0.0.1:{closed}/fleet", "http://127.0.0.1:9/v1")
    for args in (("breaker", "reset", "--agent", "ada"), ("status", "--fleet")):
        result = run_cli(config, *args, env=PG_ENV)
        assert result.code == 1 and "coordination database unreachable" in result.err, result.err
    status = run_cli(config, "status", "--json", env=PG_ENV)
    assert status.code == 0 and status.json()["agents"][0]["spend_today_usd"] is None
    assert "coordination database unreachable" in status.err
    assert not (tmp_path / "a" / "state" / "spend").exists()


@pytest.mark.slow
def test_a_database_migrated_by_a_newer_daemon_is_refused_and_left_alone(
    tmp_path: Path, pg_server: PostgresServer, pg_url: str
) -> None:
    config = fleet_daemon(tmp_path, "a", pg_url, None)
    assert run_cli(config, "once", "--agent", "ada", env=PG_ENV).code == 0  # migrates to LATEST
    database = pg_url.rsplit("/", 1)[1]
    with pg_server.connect(database) as conn:
        conn.execute("INSERT INTO metaeng_schema (version) VALUES (%s)", (LATEST + 1,))
    close_all()  # a new process: it checks the schema again on its first connection
    check = run_cli(config, "config", "check", env=PG_ENV)
    assert check.code == 1 and f"schema version {LATEST + 1}; this metaeng-daemon knows up to {LATEST}" in check.err
    run = run_cli(config, "once", "--agent", "ada", env=PG_ENV)
    assert run.code == 1 and "upgrade this one before it joins the fleet" in run.err
    with pg_server.connect(database) as conn:
        assert conn.execute("SELECT max(version) FROM metaeng_schema").fetchone() == (LATEST + 1,)
