"""Two deployments (two config files, two state folders) naming one agent home.

The home's own lock (`.metaeng/lock`) makes them take turns: the second waits, or is
refused naming both configs; no fact either one stored is ever overwritten.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
import yaml

from tests.support.deploy import TEST_KEY
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

pytestmark = pytest.mark.slow  # two deployments' runs in subprocesses taking turns

REPO = Path(__file__).parents[2]


def second_deployment(root: Path) -> tuple[Path, Path]:
    """Config A (from setup_agent) and config B: same home, own state folder.

    The model's timeout is long: A's answer is held until B has started, which on a loaded
    machine takes more than setup_agent's 5 s.
    """
    first = root / "config.yaml"
    data = yaml.safe_load(first.read_text())
    data["model"]["timeout_seconds"] = 120
    first.write_text(yaml.safe_dump(data))
    data["state_dir"] = str(root / "state-b")
    second = root / "config-b.yaml"
    second.write_text(yaml.safe_dump(data))
    return first, second


def start(config: Path, *args: str) -> subprocess.Popen[str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(config.parent), "TEST_API_KEY": TEST_KEY}
    return subprocess.Popen(
        [sys.executable, "-m", "daemon", "--config", str(config), "once", "--agent", "ada", "--json", *args],
        cwd=REPO,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_for_requests(server: FakeModelServer, count: int) -> None:
    deadline = time.monotonic() + 30
    while len(server.requests) < count:
        assert time.monotonic() < deadline, "the model was never asked"
        time.sleep(0.02)


def wait_for(path: Path) -> None:
    deadline = time.monotonic() + 30
    while not path.exists():
        assert time.monotonic() < deadline, f"{path} never appeared"
        time.sleep(0.02)


def test_two_deployments_on_one_home_take_turns_and_no_fact_is_lost(
    root: Path, fake_model: FakeModelServer
) -> None:
    setup_agent(root, fake_model)
    config_a, config_b = second_deployment(root)
    timezone = berlin_fact(
        turn="T2", quote="I speak German at work", key="language", value="German", valid_from="2026-11-02"
    )
    answer_a = threading.Event()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=answer_a)
    fake_model.reply({"facts": [timezone]}, schema="DistillationResponse")

    first = start(config_a)
    wait_for_requests(fake_model, 1)  # A holds the home and waits for the model
    second = start(config_b, "--wait", "60")
    wait_for(root / "state-b" / "agents" / "ada" / "run.lock")  # B is in, queued behind A
    answer_a.set()
    out_a, err_a = first.communicate(timeout=60)
    out_b, err_b = second.communicate(timeout=60)

    assert first.returncode == 0, err_a
    assert second.returncode == 0, err_b
    assert json.loads(out_a)["outcome"] == "applied" and json.loads(out_b)["outcome"] == "applied"
    facts = store_text(root / "ada")
    assert '"value":"Berlin"' in facts and '"value":"German"' in facts
    # B started after A had finished: A's run is an external edit in B's store.
    b_store = root / "state-b" / "agents" / "ada" / "store.git"
    log = subprocess.run(
        ["git", f"--git-dir={b_store}", "log", "--format=%s"], capture_output=True, text=True, check=True
    ).stdout
    assert "initial import of managed files" in log
    assert (root / "ada" / ".metaeng" / "lock").read_bytes() == b""  # nobody holds it now


def test_a_second_deployment_that_will_not_wait_is_refused_naming_both_configs(
    root: Path, fake_model: FakeModelServer
) -> None:
    setup_agent(root, fake_model)
    config_a, config_b = second_deployment(root)
    answer_a = threading.Event()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", hold=answer_a)
    first = start(config_a)
    wait_for_requests(fake_model, 1)

    second = start(config_b)
    out_b, err_b = second.communicate(timeout=60)  # A still waits for its answer meanwhile
    answer_a.set()
    first.communicate(timeout=60)

    assert second.returncode == 1, out_b + err_b
    message = next(line for line in err_b.splitlines() if line.startswith("error:"))
    assert str(config_a) in message and str(config_b) in message and "busy" in message
    assert not (root / "state-b" / "agents" / "ada" / "store.git").exists()  # nothing was started
    assert len(fake_model.requests) == 1
