"""A running daemon survives hostile reloads and signals at any moment of start-up (issue 13, item 8).

Real `metaeng-daemon run` subprocesses (`python -m daemon`, the console script's entry
point). The hostile configs are those of tests/daemon/config/test_config_limits.py.
"""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.daemon.config.test_config_limits import alias_bomb
from tests.daemon.doors.service.helpers import Daemon, service_config, wait_for
from tests.support.deploy import base_config, write_config

pytestmark = pytest.mark.slow  # signals to `run` daemons in subprocesses while they start

HOSTILE = {
    "alias-bomb": (alias_bomb, "aliases expand the document past 200,000 nodes (config.yaml:"),
    "deep-nesting": (
        lambda _home: "version: 1\nx: " + "[" * 3000 + "]" * 3000 + "\nagents: {}\n",
        "the document is nested deeper than 32 levels (config.yaml:2)",
    ),
    "unknown-user": (
        lambda _home: "version: 1\nagents:\n  ada:\n    home: ~nosuchuser/x\n",
        "agents.ada.home: '~nosuchuser/x' names a user this system does not know (config.yaml:4)",
    ),
}


def resident_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError("no VmRSS")


def catches(pid: int, signum: signal.Signals) -> bool:
    """Whether process `pid` has a handler installed for `signum` (Linux /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    mask = next(int(line.split()[1], 16) for line in status.splitlines() if line.startswith("SigCgt:"))
    return bool(mask & (1 << (signum - 1)))


@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_sighup_with_a_hostile_config_keeps_the_old_one_in_bounded_time_and_memory(
    root: Path, start_daemon: Callable[..., Daemon], case: str
) -> None:
    config = write_config(root, service_config(base_config(root, None)))
    daemon = start_daemon(config)
    daemon.wait_ready()
    before = resident_kib(daemon.proc.pid)

    make, expected = HOSTILE[case]
    config.write_text(make(root / "ada"))
    sent = time.monotonic()
    daemon.send(signal.SIGHUP)
    invalid = daemon.wait_event("reload.invalid", timeout=20)
    assert time.monotonic() - sent < 10
    assert expected in invalid["error"], invalid
    assert invalid["note"] == "kept the previous configuration"
    assert daemon.proc.poll() is None
    assert resident_kib(daemon.proc.pid) - before < 100 * 1024  # far from the 1.1 GB of the report

    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0, daemon.output()
    assert daemon.events("daemon.stopped")


def test_a_sigterm_right_after_start_ends_the_daemon_cleanly_before_ready(
    root: Path, start_daemon: Callable[..., Daemon]
) -> None:
    config = write_config(root, service_config(base_config(root, None)))
    daemon = start_daemon(config)
    wait_for("the launcher's handlers", lambda: catches(daemon.proc.pid, signal.SIGTERM), every=0.002)
    daemon.send(signal.SIGTERM)
    assert "READY=1" not in daemon.notify.lines()  # still starting (importing) when it arrived
    assert daemon.wait_exit() == 0, daemon.output()
    assert "READY=1" not in daemon.notify.lines()
    (stop,) = daemon.events("stop.requested")
    assert stop["signal"] == "SIGTERM" and stop["during"] == "start-up"
    assert daemon.events("daemon.stopped")
    assert not (root / "state" / "daemon.json").exists()


def test_sighups_all_through_start_up_are_never_fatal_and_the_last_is_acted_on(
    root: Path, start_daemon: Callable[..., Daemon]
) -> None:
    config = write_config(root, service_config(base_config(root, None)))
    daemon = start_daemon(config)
    wait_for("the launcher's handlers", lambda: catches(daemon.proc.pid, signal.SIGHUP), every=0.002)
    sent = 0
    while "READY=1" not in daemon.notify.lines():
        assert daemon.proc.poll() is None, daemon.output()
        os.kill(daemon.proc.pid, signal.SIGHUP)
        sent += 1
        time.sleep(0.02)
    assert sent >= 5  # the imports alone take longer than 0.1 s
    daemon.wait_event("reload.applied")  # the SIGHUPs during start-up: one reload after READY
    assert daemon.proc.poll() is None
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0, daemon.output()
