"""`run` + `once` + `undo` on one agent at the same time: one run at a time, nothing half-done."""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.daemon.doors.service.helpers import (
    FACT_REPLY,
    GERMAN_REPLY,
    Daemon,
    add_turns,
    runs_of,
    service_config,
    wait_for,
)
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # a `run` daemon, `once` and `undo` at the same time


def test_run_once_and_undo_together_stay_serialised_and_consistent(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    config = write_config(root, service_config(base_config(root, fake_model.url)))
    home = root / "ada"
    add_turns(home, "s1.jsonl", 4, "first")
    for _ in range(20):
        fake_model.reply(FACT_REPLY, schema="DistillationResponse", delay=0.2)
        fake_model.reply(GERMAN_REPLY, schema="DistillationResponse", delay=0.2)
    daemon = start_daemon(config)
    daemon.wait_ready()
    first = wait_for(
        "the daemon's first run", lambda: [r for r in runs_of(root / "state", "ada") if r.get("run_id")]
    )
    outcomes: list[tuple[str, int, str]] = []

    def manual(index: int) -> None:
        add_turns(home, f"m{index}.jsonl", 4, f"manual-{index}", first="I speak German")
        once = run_cli(config, "once", "--agent", "ada", "--wait", "20", "--json")
        outcomes.append(("once", once.code, once.err))
        undo = run_cli(config, "undo", first[0]["run_id"], "--wait", "20")
        outcomes.append(("undo", undo.code, undo.err))

    threads = [threading.Thread(target=manual, args=(i,)) for i in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0

    assert all(code == 0 for kind, code, _ in outcomes if kind == "once"), outcomes
    undos = [(code, err) for kind, code, err in outcomes if kind == "undo"]
    assert sum(code == 0 for code, _ in undos) == 1  # the first undo reverts, later ones are refused cleanly
    assert all("already undone" in err for code, err in undos if code != 0)
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    assert (
        subprocess.run(["git", f"--git-dir={git_dir}", "fsck", "--strict"], capture_output=True).returncode
        == 0
    )
    status = subprocess.run(
        ["git", f"--git-dir={git_dir}", f"--work-tree={home}", "status", "--porcelain"],
        capture_output=True,
        text=True,
    )
    assert status.stdout == ""
    assert not (root / "state" / "agents" / "ada" / "inflight.json").exists()
    statuses = run_cli(config, "runs", "--agent", "ada", "--json").json()
    assert any(r["status"].startswith("undo of") for r in statuses)
