"""`metaeng-daemon run` as a real subprocess: cadence, overlap, caps, readiness, status."""

from __future__ import annotations

import json
import re
import shutil
import signal
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from daemon.model.spend import SpendLedger
from tests.daemon.doors.service.helpers import (
    FACT_REPLY,
    GERMAN_REPLY,
    Daemon,
    add_turns,
    intervals_overlap,
    read_jsonl,
    runs_of,
    service_config,
    wait_for,
)
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # `run` daemons in subprocesses, waiting for their cadences

AGENTS = ("ada", "bob")


def _applied(state: Path, agent: str, count: int) -> list[dict[str, object]] | None:
    runs = [r for r in runs_of(state, agent) if r["outcome"] == "applied"]
    return runs if len(runs) >= count else None


def test_run_two_agents_on_a_short_cadence_runs_both_never_overlapping_and_status_matches(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    cfg = service_config(base_config(root, fake_model.url, agents=AGENTS))
    config = write_config(root, cfg)
    state = root / "state"
    for agent in AGENTS:
        add_turns(root / agent, "s1.jsonl", 4, agent)
    # Slow answers: the 1 s cadence fires again while a run is still going.
    for reply in (FACT_REPLY, FACT_REPLY, GERMAN_REPLY, GERMAN_REPLY):
        fake_model.reply(reply, schema="DistillationResponse", delay=0.6)

    daemon = start_daemon(config)
    daemon.wait_ready()
    for agent in AGENTS:
        wait_for(f"first run of {agent}", lambda a=agent: _applied(state, a, 1))
    for agent in AGENTS:
        add_turns(root / agent, "s2.jsonl", 4, f"{agent}-2", first="I speak German")
    # A manual `once` competes for ada's run lock with the scheduler: refused while a
    # scheduled run holds it (no waiting, so the run log's start times are lock times).
    manual = wait_for(
        "a manual once between scheduled runs",
        lambda: (r := run_cli(config, "once", "--agent", "ada")).code == 0 and r,
        every=0.02,
    )
    assert "ada" in manual.out
    for agent in AGENTS:
        wait_for(f"second run of {agent}", lambda a=agent: _applied(state, a, 2))

    status = run_cli(config, "status", "--json")
    assert status.code == 0, status.err
    daemon_state = json.loads((state / "daemon.json").read_text())
    ledger = SpendLedger(state / "spend", state / "spend.lock")
    today = datetime.now(UTC).date().isoformat()
    by_name = {a["name"]: a for a in status.json()["agents"]}
    assert list(by_name) == list(AGENTS)
    for agent in AGENTS:
        entry = by_name[agent]
        runs = runs_of(state, agent)
        assert not intervals_overlap(runs), runs
        totals = ledger.totals(today, agent)
        assert entry["deep_passes_today"] == totals.agent_deep_passes >= 2
        assert entry["deep_passes_today"] <= entry["deep_cap"] == 12
        assert entry["spend_today_usd"] == round(totals.agent_usd, 6)
        assert entry["budget_usd"] == 1.0
        assert entry["pending_turns"] == 0
        assert entry["open_proposals"] == 0
        assert "quarantined" in entry
        job = next(j for j in daemon_state["jobs"] if j["id"] == f"transcripts:{agent}")
        assert entry["passes"]["distillation"]["next_run"] == job["next_run"]
        assert entry["passes"]["distillation"]["enabled"] is True
        assert entry["passes"]["memory_consolidation"]["next_run"] is None  # switched off here
        last = runs_of(state, agent)[-1]
        assert entry["last_run"] == {
            "run_id": last["run_id"],
            "status": last["outcome"],
            "finished_at": last["finished_at"],
        }
        assert "German" in store_text(root / agent)
        assert not (state / "agents" / agent / "inflight.json").exists()

    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0, daemon.output()
    lines = daemon.notify.lines()
    assert lines.index("READY=1") < lines.index("STOPPING=1")
    assert any(line.startswith("STATUS=2 agent(s)") for line in lines)
    assert daemon.events("daemon.stopped")
    assert not (state / "daemon.json").exists()
    assert daemon.events("run.end") and all(
        {"agent", "passes", "outcome", "duration_s"} <= set(e) for e in daemon.events("run.end")
    )


def test_run_respects_the_daily_deep_pass_cap(
    root: Path, fake_model: FakeModelServer, start_daemon: Callable[..., Daemon]
) -> None:
    cfg = service_config(base_config(root, fake_model.url, agents=AGENTS))
    cfg["cadence"] = "relaxed"  # 6 deep passes per agent per day
    config = write_config(root, cfg)
    state = root / "state"
    ledger = SpendLedger(state / "spend", state / "spend.lock")
    now = datetime.now(UTC)
    for i in range(6):  # ada already used today's six deep passes
        ledger.reserve(
            agent="ada",
            run_id=f"earlier-{i}",
            usd=0.0,
            now=now,
            deployment_limit=5.0,
            agent_limit=1.0,
            count_deep_pass=True,
            deep_cap=6,
        )
    for agent in AGENTS:
        add_turns(root / agent, "s1.jsonl", 4, agent)
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    fake_model.reply(FACT_REPLY, schema="DistillationResponse")

    daemon = start_daemon(config)
    daemon.wait_ready()
    wait_for("bob's run", lambda: _applied(state, "bob", 1))
    wait_for("ada's skipped runs", lambda: len(runs_of(state, "ada")) >= 2)
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0

    assert all(r["passes"] == {"distillation": "skipped"} for r in runs_of(state, "ada"))
    assert not any("(ada)" in json.dumps(body) for body in fake_model.requests)
    assert ledger.totals(now.date().isoformat(), "ada").agent_deep_passes == 6
    assert not (state / "agents" / "ada" / "cursors.json").exists()  # the turns wait for tomorrow
    assert store_text(root / "ada") == ""


def test_run_signals_readiness_and_watchdog_to_the_notify_socket(
    root: Path, start_daemon: Callable[..., Daemon]
) -> None:
    config = write_config(root, service_config(base_config(root, None)))
    daemon = start_daemon(config, env={"WATCHDOG_USEC": "600000"})
    daemon.wait_ready()
    wait_for("a watchdog ping", lambda: "WATCHDOG=1" in daemon.notify.lines(), timeout=5)
    assert any(line.startswith("MAINPID=") for line in daemon.notify.lines())
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0


def test_run_with_mode_on_demand_schedules_nothing_and_stays_ready(
    root: Path, start_daemon: Callable[..., Daemon]
) -> None:
    cfg = service_config(base_config(root, None))
    cfg["mode"] = "on_demand"
    config = write_config(root, cfg)
    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    daemon = start_daemon(config)
    daemon.wait_ready()
    ready = daemon.wait_event("daemon.ready")
    assert ready["jobs"] == 0 and "on_demand" in ready["nothing_scheduled"]
    assert any("nothing scheduled" in line for line in daemon.notify.lines())
    status = run_cli(config, "status", "--json").json()["agents"][0]
    assert all(p["next_run"] is None for p in status["passes"].values())
    assert status["pending_turns"] == 4
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0
    assert runs_of(root / "state", "ada") == []


def test_second_daemon_on_the_same_state_directory_is_refused(
    root: Path, start_daemon: Callable[..., Daemon]
) -> None:
    config = write_config(root, service_config(base_config(root, None)))
    first = start_daemon(config)
    first.wait_ready()
    second = start_daemon(config)
    assert second.wait_exit(timeout=20) == 1
    assert "another metaeng-daemon is already running" in second.output()
    assert first.proc.poll() is None
    first.send(signal.SIGTERM)
    assert first.wait_exit() == 0


def test_a_daemon_whose_state_folder_is_removed_stops_so_no_second_one_runs_beside_it(
    root: Path, start_daemon: Callable[..., Daemon]
) -> None:
    # Without its lock file, a second `run` would take a new lock and schedule beside it.
    config = write_config(root, service_config(base_config(root, None)))
    first = start_daemon(config)
    first.wait_ready()
    shutil.rmtree(root / "state")
    second = start_daemon(config)  # started at once, as systemd-tmpfiles or a person might
    second.wait_ready()
    assert first.wait_event("state.lost")["lock"] == str(root / "state" / "daemon.lock")
    assert first.wait_exit() == 1  # systemd's Restart=on-failure starts it again, lock and all
    # Leaving, the first never removes what is now the second daemon's state file.
    assert (root / "state" / "daemon.json").exists()
    assert run_cli(config, "status").out.startswith("daemon: running")
    second.send(signal.SIGTERM)
    assert second.wait_exit() == 0


def test_run_with_an_invalid_config_exits_1_before_ready(
    root: Path, start_daemon: Callable[..., Daemon]
) -> None:
    cfg = service_config(base_config(root, None))
    cfg["service"]["intervals"]["transcripts"] = 0
    config = write_config(root, cfg)
    daemon = start_daemon(config)
    assert daemon.wait_exit() == 1
    assert "service.intervals.transcripts" in daemon.output()
    assert "READY=1" not in daemon.notify.lines()
    assert read_jsonl(root / "state" / "agents" / "ada" / "runs.jsonl") == []


def test_run_serves_the_example_deployment_on_a_short_cadence(
    tmp_path: Path, start_daemon: Callable[..., Daemon]
) -> None:
    # The README's commands: copy examples/, switch to schedule mode, add a short cadence.
    demo = tmp_path / "demo"
    shutil.copytree(Path(__file__).resolve().parents[4] / "examples", demo)
    config = demo / "config.yaml"
    text = config.read_text()
    assert "\nmode: on_demand" in text
    text = re.sub(r"\nmode: on_demand[^\n]*", "\nmode: schedule", text)
    config.write_text(text + "service:\n  intervals: {transcripts: 2}\n  jitter_seconds: 0\n")
    daemon = start_daemon(config, env={"OPENAI_API_KEY": ""})
    daemon.wait_ready()
    runs = wait_for("two runs of ada", lambda: (r := runs_of(demo / "state", "ada")) and len(r) >= 2 and r)
    # Without a key the model passes are skipped and their offsets kept, so every cycle retries.
    transcript_runs = [r for r in runs if "distillation" in r["passes"]]
    assert transcript_runs and all(
        r["passes"]["distillation"] == r["passes"]["skill_learning"] == "skipped" for r in transcript_runs
    )
    status = run_cli(config, "status", "--json", env={"OPENAI_API_KEY": ""}).json()["agents"][0]
    assert status["pending_turns"] > 0 and status["passes"]["distillation"]["next_run"] is not None
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0


def test_status_json_says_whether_the_daemon_runs_with_its_pid_start_config_and_version(
    root: Path, start_daemon: Callable[..., Daemon]
) -> None:
    from importlib.metadata import version

    config = write_config(root, service_config(base_config(root, None)))
    idle = run_cli(config, "status", "--json").json()["daemon"]
    assert idle == {"running": False, "pid": None, "started_at": None, "config": None, "version": None}
    daemon = start_daemon(config)
    daemon.wait_ready()
    said = run_cli(config, "status", "--json").json()["daemon"]
    assert said["running"] is True and said["pid"] == daemon.proc.pid
    assert said["config"] == str(config) and said["version"] == version("metaeng-daemon")
    assert said["started_at"] and said["started_at"].startswith("20")
    (root / "state" / "daemon.json").write_text("{torn", encoding="utf-8")  # the lock still says it runs
    torn = run_cli(config, "status", "--json")
    assert torn.json()["daemon"]["running"] is True and torn.json()["daemon"]["pid"] is None
    assert run_cli(config, "status").out.startswith("daemon: running")
    daemon.send(signal.SIGTERM)
    assert daemon.wait_exit() == 0
    assert run_cli(config, "status", "--json").json()["daemon"]["running"] is False
