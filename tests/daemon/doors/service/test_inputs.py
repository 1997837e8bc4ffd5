"""The cheap checks a job and a wake make before a run."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

from daemon.config import load_deployment
from daemon.doors.service.inputs import has_new_input, pending_turns
from daemon.kernel.paths import StateLayout
from tests.daemon.doors.service.helpers import FACT_REPLY, add_turns
from tests.support.deploy import base_config, run_cli, write_config
from tests.support.fake_model import FakeModelServer

CONSUMERS = ("distillation",)


@pytest.mark.slow
def test_new_input_is_seen_until_a_run_consumes_it_and_again_after_an_append(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = write_config(root, base_config(root, fake_model.url))
    deployment = load_deployment(config, {})
    agent = deployment.agent("ada")
    state = StateLayout(deployment.state_dir).agent("ada")
    now = datetime.now(UTC)
    assert not has_new_input(agent, state, CONSUMERS)  # no transcripts at all

    add_turns(root / "ada", "s1.jsonl", 4, "ada")
    assert has_new_input(agent, state, CONSUMERS)
    assert pending_turns(agent, state, "distillation", now) == 4

    fake_model.reply(FACT_REPLY, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    assert not has_new_input(agent, state, CONSUMERS)
    assert has_new_input(agent, state, ("distillation", "skill_learning"))  # skill learning never read it
    assert pending_turns(agent, state, "distillation", now) == 0

    add_turns(root / "ada", "s1.jsonl", 1, "ada-2")
    assert has_new_input(agent, state, CONSUMERS)
    assert pending_turns(agent, state, "distillation", now) == 1


def test_an_interrupted_run_counts_as_input_so_it_gets_recovered(root: Path) -> None:
    config = write_config(root, base_config(root, None))
    deployment = load_deployment(config, {})
    state = StateLayout(deployment.state_dir).agent("ada")
    state.root.mkdir(parents=True)
    state.journal.write_text("{}")
    assert has_new_input(deployment.agent("ada"), state, CONSUMERS)


def test_a_session_of_another_project_is_never_new_input(root: Path) -> None:
    """It is never read, so it gets no cursor: counted as new, it would wake every cycle."""
    codex_home = root / "codex-home"
    config = base_config(root, None)
    config["agents"]["ada"]["transcripts"] = {"format": "codex", "root": str(codex_home), "glob": "**/rollout-*.jsonl"}
    deployment = load_deployment(write_config(root, config), {})
    agent = deployment.agent("ada")
    state = StateLayout(deployment.state_dir).agent("ada")
    rollout = codex_home / "sessions" / "rollout-2026-11-03T10-00-00-0199a213-81c0-7800-8aa1-000000000001.jsonl"
    rollout.parent.mkdir(parents=True)
    meta = {"timestamp": "2026-11-03T10:00:00Z", "type": "session_meta", "payload": {"id": "x", "cwd": "/srv/beta"}}
    said = {"timestamp": "2026-11-03T10:00:01Z", "type": "event_msg", "payload": {"type": "user_message", "message": "Hi"}}
    rollout.write_text(json.dumps(meta) + "\n" + json.dumps(said) + "\n")
    assert not has_new_input(agent, state, CONSUMERS)
    meta["payload"]["cwd"] = str(root / "ada")
    rollout.write_text(json.dumps(meta) + "\n" + json.dumps(said) + "\n")
    assert has_new_input(agent, state, CONSUMERS)


def test_a_codex_rollout_read_to_its_end_is_not_new_input(root: Path) -> None:
    """Codex cursors are keyed by the session id (`codex-session:<uuid>`), not the path."""
    codex_home = root / "codex-home"
    raw = base_config(root, None)
    raw["agents"]["ada"]["transcripts"] = {"format": "codex", "root": str(codex_home), "glob": "**/rollout-*.jsonl"}
    config = write_config(root, raw)
    deployment = load_deployment(config, {})
    rollout = codex_home / "sessions" / "rollout-2026-11-03T10-00-00-0199a213-81c0-7800-8aa1-000000000001.jsonl"
    rollout.parent.mkdir(parents=True)
    meta = {"timestamp": "2026-11-03T10:00:00Z", "type": "session_meta", "payload": {"id": "x", "cwd": str(root / "ada")}}
    said = {"timestamp": "2026-11-03T10:00:01Z", "type": "event_msg", "payload": {"type": "user_message", "message": "Hi"}}
    done = {"timestamp": "2026-11-03T10:00:02Z", "type": "event_msg", "payload": {"type": "task_complete"}}
    rollout.write_text("".join(json.dumps(line) + "\n" for line in (meta, said, done)))
    assert run_cli(config, "once", "--agent", "ada", "--json", env={"TEST_API_KEY": ""}).code in (0, 1)
    assert not has_new_input(deployment.agent("ada"), StateLayout(deployment.state_dir).agent("ada"), CONSUMERS)
