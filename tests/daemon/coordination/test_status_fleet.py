"""`status --fleet`: every running daemon, its agents and health, from the hosts table."""

from __future__ import annotations

import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from daemon.doors.documents import FleetDocument
from tests.daemon.coordination.helpers import PG_ENV, fleet_daemon
from tests.daemon.doors.service.helpers import Daemon, wait_for
from tests.support.deploy import run_cli


def _hosts(config: Path) -> dict[str, dict[str, Any]]:
    result = run_cli(config, "status", "--fleet", "--json", env=PG_ENV)
    assert result.code == 0, result.err
    assert FleetDocument.model_validate_json(result.out).model_dump(mode="json") == result.json()
    return {Path(h["state_dir"]).parent.name: h for h in result.json()["hosts"]}


@pytest.mark.slow
def test_status_fleet_shows_each_daemon_with_its_agents_and_tells_stopped_and_dead_ones_apart(
    tmp_path: Path, pg_url: str, start_daemon: Callable[..., Daemon]
) -> None:
    configs = [
        fleet_daemon(tmp_path, f"d{i}", pg_url, None, agents=agents)
        for i, agents in enumerate((("ada",), ("bob", "cy"), ("dee",)))
    ]
    daemons = [start_daemon(config, PG_ENV) for config in configs]
    for daemon in daemons:
        daemon.wait_ready(timeout=90)
    hosts = wait_for("three heartbeats", lambda: h if len(h := _hosts(configs[0])) == 3 else None, 30)
    assert {name: [a["name"] for a in h["agents"]] for name, h in hosts.items()} == {
        "d0": ["ada"], "d1": ["bob", "cy"], "d2": ["dee"]
    }
    assert {h["health"] for h in hosts.values()} == {"ok"}
    daemons[0].send(signal.SIGTERM)
    assert daemons[0].wait_exit() == 0
    daemons[1].send(signal.SIGKILL)
    daemons[1].wait_exit()
    wait_for("d0 stopped, d1 stale", lambda: {n: h["health"] for n, h in _hosts(configs[2]).items()}
             == {"d0": "stopped", "d1": "stale", "d2": "ok"}, 30)
    human = run_cli(configs[2], "status", "--fleet", env=PG_ENV)
    assert ": stale (pid" in human.out and ": stopped (pid" in human.out and "dee" in human.out


def test_status_fleet_without_coordination_says_what_to_configure(tmp_path: Path) -> None:
    config = fleet_daemon(tmp_path, "d0", "postgresql://x@h/d", None)
    text = config.read_text()
    config.write_text(text[: text.index("coordination:")] + text[text.index("passes:") :])
    result = run_cli(config, "status", "--fleet")
    assert result.code == 1 and "add `coordination: {url: postgresql://…}`" in result.err
