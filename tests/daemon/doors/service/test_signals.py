"""SIGTERM and SIGHUP on a real `metaeng-daemon run` subprocess."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from tests.daemon.doors.service.helpers import (
    FACT_REPLY,
    Daemon,
    add_turns,
    runs_of,
    service_config,
    wait_for,
)
from tests.support.deploy import TEST_KEY, base_config, run_cli, tree_snapshot, write_config
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # signals to `run` daemons in subprocesses


def _store_clean(root: Path, agent: str) -> str:
    git = [
        "git",
        f"--git-dir={root / 'state' / 'agents' / agent / 'store.git'}",
        f"--work-tree={root / agent}",
    ]
    return subprocess.run([*git, "status", "--porcelain"], capture_output=True, text=True, check=True).stdout


def test_sigterm_during_a_run_lets_it_finish_and_exits_0(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    config = write_config(root, service_config(base_config(root, fake_model.url)))
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    answer = threading.Event()  # the model answers only once the stop was requested
    fake_model.reply(FACT_REPLY, schema="DistillationResponse", hold=answer)
    daemon = start_daemon(config)
    daemon.wait_ready()
    wait_for("the model call", lambda: fake_model.requests)
    daemon.send(signal.SIGTERM)
    daemon.wait_event("stop.requested")
    answer.set()
    started = time.monotonic()
    assert daemon.wait_exit() == 0, daemon.output()
    assert time.monotonic() - started < 10

    stop = daemon.events("stop.requested")[0]
    assert stop["runs_going"] == ["transcripts:ada"]
    (run,) = runs_of(root / "state", "ada")
    assert run["outcome"] == "applied"  # the run finished: all of it is visible
    assert "Paris" in store_text(root / "ada")
    assert not (root / "state" / "agents" / "ada" / "inflight.json").exists()
    assert _store_clean(root, "ada") == ""
    cursors = json.loads((root / "state" / "agents" / "ada" / "cursors.json").read_text())
    assert "s1.jsonl" in json.dumps(cursors["consumers"]["distillation"])


def test_sigterm_with_a_run_outlasting_the_stop_timeout_exits_and_applies_nothing(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    cfg = service_config(base_config(root, fake_model.url), stop_timeout_seconds=1)
    config = write_config(root, cfg)
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    answer = threading.Event()  # never answered while the daemon lives
    fake_model.reply(FACT_REPLY, schema="DistillationResponse", hold=answer)
    daemon = start_daemon(config)
    daemon.wait_ready()
    wait_for("the model call", lambda: fake_model.requests)
    before = tree_snapshot(root / "ada")
    daemon.send(signal.SIGTERM)
    started = time.monotonic()
    assert daemon.wait_exit() == 1
    answer.set()
    assert time.monotonic() - started < 4  # bounded by stop_timeout_seconds, not by the run
    assert daemon.events("stop.drain_timeout")

    assert tree_snapshot(root / "ada") == before  # nothing of the cut run is visible
    assert not (root / "state" / "agents" / "ada" / "cursors.json").exists()
    assert runs_of(root / "state", "ada") == []
    # The next run reads the same turns again and applies them.
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0 and result.json()["outcome"] == "applied", result.out


def test_sighup_with_a_broken_config_keeps_the_old_one_and_a_valid_one_applies(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    cfg = service_config(base_config(root, fake_model.url, agents=("ada", "bob")))
    config = write_config(root, cfg)
    daemon = start_daemon(config)
    daemon.wait_ready()
    good = config.read_text()

    config.write_text(good.replace("jitter_seconds: 0", "jitter_seconds: 0\n  colour: blue"))
    mark = len(daemon.notify.lines())
    daemon.send(signal.SIGHUP)
    invalid = daemon.wait_event("reload.invalid")
    assert "service.colour: unknown key 'colour' (config.yaml:" in invalid["error"]
    lines = wait_for(
        "READY after the failed reload",
        lambda: (ls := daemon.notify.lines()[mark:]) and "READY=1" in ls and ls,
    )
    assert lines.index("RELOADING=1") < lines.index("READY=1")
    # Still serving with the old configuration (both agents, 1 s cadence).
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    add_turns(root / "bob", "s1.jsonl", 4, "bob")
    wait_for("bob's run after the failed reload", lambda: runs_of(root / "state", "bob"))
    assert daemon.proc.poll() is None

    changed = yaml.safe_load(good)
    changed["agents"]["bob"]["enabled"] = False
    write_config(root, changed)
    daemon.send(signal.SIGHUP)
    applied = daemon.wait_event("reload.applied")
    assert applied["removed"] == 2 and applied["kept"] == 2  # bob's and ada's transcripts + store maintenance
    state = wait_for(
        "the state file without bob",
        lambda: (
            (s := json.loads((root / "state" / "daemon.json").read_text()))
            and sorted(j["id"] for j in s["jobs"]) == ["store_maintenance:ada", "transcripts:ada"]
            and s
        ),
    )
    assert state["pid"] == daemon.proc.pid
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0


def test_a_run_cut_by_a_crash_is_rolled_back_before_the_daemon_is_ready(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    config = write_config(
        root, service_config(base_config(root, fake_model.url), intervals={"transcripts": 3600})
    )
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    before = tree_snapshot(root / "ada")
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    crashed = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.support.armed",
            "--config",
            str(config),
            "once",
            "--agent",
            "ada",
        ],
        env={**os.environ, "TEST_API_KEY": TEST_KEY, "METAENG_CRASH_AT": "after_write"},
        cwd=Path(__file__).parents[4],
        capture_output=True,
        check=False,
    )
    assert crashed.returncode == -signal.SIGKILL
    assert (root / "state" / "agents" / "ada" / "inflight.json").exists()
    assert tree_snapshot(root / "ada") != before  # half applied: written, not committed

    daemon = start_daemon(config)
    daemon.wait_ready()
    names = [e["event"] for e in daemon.events()]
    assert names.index("recovery.done") < names.index("daemon.ready")
    assert not (root / "state" / "agents" / "ada" / "inflight.json").exists()
    assert tree_snapshot(root / "ada") == before
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0
