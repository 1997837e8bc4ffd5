"""Transcript watching wakes the transcript job early, on a real `run` subprocess."""

from __future__ import annotations

import json
import signal
import time
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
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # `run` daemons in subprocesses, waiting for wakes and gaps


@pytest.mark.parametrize("mode", ["auto", "polling"])
def test_new_turns_wake_the_transcript_job_long_before_its_cadence(
    mode: str, root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    cfg = service_config(
        base_config(root, fake_model.url),
        intervals={"transcripts": 3600},
        watch=mode,
        poll_interval_seconds=0.1,
        watch_debounce_seconds=0.1,
        wake_min_gap_seconds=0,
    )
    config = write_config(root, cfg)
    state = root / "state"
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    fake_model.reply(GERMAN_REPLY, schema="DistillationResponse")
    daemon = start_daemon(config)
    daemon.wait_ready()
    assert daemon.wait_event("daemon.ready")["watching"] == mode
    wait_for("the first run (never ran before: due at start)", lambda: runs_of(state, "ada"))

    # Two turns are not worth a run: fewer than 4 would be committed unanalysed.
    add_turns(root / "ada", "s2.jsonl", 2, "ada-2", first="I speak German")
    time.sleep(1.0)
    assert len(runs_of(state, "ada")) == 1 and not daemon.events("wake.early")
    add_turns(root / "ada", "s2.jsonl", 2, "ada-3")
    wake = daemon.wait_event("wake.early")
    assert wake["agent"] == "ada" and wake["pending_turns"] == 4
    second = wait_for("the woken run", lambda: (r := runs_of(state, "ada")) and len(r) >= 2 and r[1])
    assert second["outcome"] == "applied"
    assert "German" in store_text(root / "ada")
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0


def test_wake_waits_for_the_minimum_gap_after_the_last_run(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    cfg = service_config(
        base_config(root, fake_model.url),
        intervals={"transcripts": 3600},
        watch="auto",
        watch_debounce_seconds=0.1,
        wake_min_gap_seconds=3600,
    )
    config = write_config(root, cfg)
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    daemon = start_daemon(config)
    daemon.wait_ready()
    wait_for("the first run", lambda: runs_of(root / "state", "ada"))
    add_turns(root / "ada", "s2.jsonl", 4, "ada-2")
    # The watcher saw the new turns and held the agent back: an event, not a guess at timing.
    assert daemon.wait_event("wake.deferred")["agent"] == "ada"
    assert not daemon.events("wake.early")
    assert len(runs_of(root / "state", "ada")) == 1
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0


def test_a_last_run_stamped_in_the_future_postpones_neither_the_schedule_nor_a_wake(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    # The clock was five years ahead for one run, then corrected.
    cfg = service_config(
        base_config(root, fake_model.url),
        intervals={"transcripts": 3600},
        watch="auto",
        watch_debounce_seconds=0.1,
        wake_min_gap_seconds=3600,
    )
    config = write_config(root, cfg)
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada", "--pass", "distillation").code == 0
    log = root / "state" / "agents" / "ada" / "runs.jsonl"
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    for entry in entries:
        for key in ("started_at", "finished_at"):
            entry[key] = entry[key].replace("2026", "2031", 1)
    log.write_text("".join(json.dumps(e) + "\n" for e in entries))
    daemon = start_daemon(config)
    daemon.wait_ready()
    status = run_cli(config, "status", "--json").json()
    assert not status["agents"][0]["passes"]["distillation"]["next_run"].startswith("2031")
    add_turns(root / "ada", "s2.jsonl", 4, "ada-2")
    fake_model.reply(GERMAN_REPLY, schema="DistillationResponse")
    assert daemon.wait_event("wake.early")["agent"] == "ada"
    wait_for("the woken run", lambda: len(runs_of(root / "state", "ada")) == 2)
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0
