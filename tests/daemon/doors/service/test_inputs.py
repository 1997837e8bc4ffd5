"""The cheap checks a job and a wake make before a run."""

from __future__ import annotations

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
