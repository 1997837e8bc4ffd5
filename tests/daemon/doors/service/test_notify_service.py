"""Notifications through the real service: one budget per job, the outbox, a prompt stop, a clean command environment."""

from __future__ import annotations

import json
import signal
import sys
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from daemon.kernel import redact
from tests.daemon.doors.service.helpers import Daemon, add_turns, runs_of, service_config, wait_for
from tests.daemon.doors.service.test_notify_people import Receiver
from tests.support.deploy import TEST_KEY, base_config, write_config
from tests.support.fake_model import FakeModelServer

TIMEOUT, RETRIES = 2, 1
BOUND = (1 + RETRIES) * TIMEOUT + 0.5  # the documented bound: every attempt of one event, and the pause
SECRET = "redact-me-CANARY-77"
# Dumps its environment next to itself, then hangs while the flag file exists.
COMMAND = """
import json, os, pathlib, sys, time
here = pathlib.Path(sys.argv[1])
event = json.loads(sys.stdin.read())
(here / f"env-{event['id']}.json").write_text(json.dumps(dict(os.environ)))
while (here / "hang").exists():
    time.sleep(0.1)
"""


@pytest.fixture
def hanging() -> Iterator[Receiver]:
    server = Receiver(hang=True)
    yield server
    server.close()
    redact.reset()


def _config(root: Path, model_url: str, webhook: str) -> Path:
    cfg = service_config(base_config(root, model_url, agents=("ada", "bob")))
    # Distillation fails on a corrupt fact store (run_failed); skill learning's model call
    # is answered 500 and opens the breaker (breaker_opened): two events from a first run.
    cfg["passes"]["skill_learning"] = True
    cfg["model"]["breaker_failures"] = 1
    cfg["redact_env"] = ["NOTIFY_TEST_SECRET"]
    for name in ("ada", "bob"):
        store = root / name / ".metaeng" / "facts.jsonl"
        store.parent.mkdir(parents=True)
        store.write_text("{not json\n")
    (root / "cmd").mkdir()
    (root / "cmd" / "notify.py").write_text(COMMAND)
    cfg["notify"] = {
        "webhook": webhook,
        "command": [sys.executable, str(root / "cmd" / "notify.py"), str(root / "cmd")],
        "timeout_seconds": TIMEOUT,
        "retries": RETRIES,
        "retry_seconds": 1,
        "events": ["run_failed", "breaker_opened"],
    }
    return write_config(root, cfg)


def _at(record: dict[str, Any], key: str) -> float:
    return datetime.fromisoformat(record[key]).timestamp()


def _ids(daemon: Daemon, name: str) -> list[str]:
    return [i for e in daemon.events(name) for i in e["events"]]


@pytest.mark.slow
def test_a_hanging_webhook_holds_a_job_at_most_the_bound_a_stop_is_prompt_and_the_outbox_delivers_later(
    root: Path, fake_model: FakeModelServer, hanging: Receiver, start_daemon: Callable[..., Daemon]
) -> None:
    config = _config(root, fake_model.url, hanging.url)
    state = root / "state"
    (root / "cmd" / "hang").touch()  # the command hangs too, at first
    env = {"NOTIFY_TEST_SECRET": SECRET, "LANG": "C.UTF-8", "LC_TIME": "C"}
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    daemon = start_daemon(config, env=env)
    daemon.wait_ready()

    # ada's first run raises two events; its job holds the agent at most the bound (broken:
    # a full budget per event plus the command's timeout each, 13 s), then the next run starts.
    first, second = wait_for("ada's next run", lambda: (r := runs_of(state, "ada"))[1:] and r, timeout=40)[:2]
    assert first["outcome"] == "failed"
    held = _at(second, "started_at") - _at(first, "finished_at")
    assert held < BOUND + 3, held
    (undelivered,) = daemon.events("notify.undelivered")
    assert len(undelivered["events"]) == 2 and undelivered["budget_s"] == BOUND
    (root / "cmd" / "hang").unlink()

    # bob's first run: SIGTERM while its job waits on the hanging webhook.
    add_turns(root / "bob", "s1.jsonl", 4, "bob")
    wait_for("bob's run", lambda: runs_of(state, "bob"), timeout=30)
    time.sleep(0.5)
    stopping = time.monotonic()
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit(timeout=30) == 0
    assert time.monotonic() - stopping < 4  # broken: the drain waited for every notification
    assert not daemon.events("stop.drain_timeout")
    abandoned = set(_ids(daemon, "notify.abandoned"))
    outbox = json.loads((state / "notify-outbox.json").read_text())
    kept = {letter["id"] for letter in outbox["letters"]}
    assert kept and kept <= abandoned and len(kept) >= 3  # bob's two, and whatever of ada's still waits
    assert {letter["kind"] for letter in outbox["letters"]} == {"run_failed", "breaker_opened"}

    # The webhook answers again: the next start sends what waited, each event once per target.
    hanging.release.set()
    again = start_daemon(config, env=env)
    again.wait_ready()
    ids = set(undelivered["events"]) | kept
    wait_for("the outbox delivered", lambda: ids <= {b["id"] for b in hanging.bodies}, timeout=30)
    wait_for("an empty outbox", lambda: not json.loads((state / "notify-outbox.json").read_text())["letters"])
    again.send(signal.SIGTERM)
    assert again.wait_exit() == 0
    assert {
        f.name.removeprefix("env-").removesuffix(".json") for f in (root / "cmd").glob("env-*.json")
    } >= ids

    # The command ran with PATH and the locale only: no model key, no redact_env variable.
    for dump in (root / "cmd").glob("env-*.json"):
        seen = json.loads(dump.read_text())
        assert {k for k in seen if k not in ("PATH", "LANG") and not k.startswith("LC_")} == set(), seen
        assert seen["LANG"] == "C.UTF-8" and seen["LC_TIME"] == "C"
        assert TEST_KEY not in json.dumps(seen) and SECRET not in json.dumps(seen)
