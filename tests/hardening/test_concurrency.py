"""Concurrency: many `once` on one agent, agents sharing a pack, many agents reserving budget."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.deploy import TEST_KEY, base_config, conversation, run_cli, write_config, write_transcript
from tests.support.facts import store_text
from tests.support.fake_model import FakeModelServer
from tests.support.runs import FOUR_TURNS, berlin_fact, setup_agent

pytestmark = pytest.mark.slow  # many `once` subprocesses at the same time

REPO = Path(__file__).parents[2]


def spawn(config: Path, root: Path, *args: str) -> subprocess.Popen[str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY}
    return subprocess.Popen(
        [sys.executable, "-m", "daemon", "--config", str(config), *args],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_four_parallel_once_on_one_agent_never_interleave(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse", delay=0.5)
    procs = [spawn(config, root, "once", "--agent", "ada", "--wait", "60", "--json") for _ in range(4)]
    bodies = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        bodies.append(json.loads(out))
    applied = [b for b in bodies if b["run_id"]]
    assert len(applied) == 1  # one analysed the turns; the others found nothing new
    assert len(fake_model.requests) == 1
    # Interleaved runs would both have read the same turns and asked the model twice.
    assert len((root / "state" / "agents" / "ada" / "runs.jsonl").read_text().splitlines()) == 4
    facts = store_text(root / "ada").splitlines()
    assert len(facts) == 1


def test_two_agents_sharing_a_pack_fork_it_independently(root: Path, fake_model: FakeModelServer) -> None:
    pack = root / "pack"
    skill = pack / "report"
    skill.mkdir(parents=True)
    original = "---\nname: report\ndescription: Write the weekly report.\n---\n\n# Report\n\n## Steps\n1. Collect numbers.\n2. Post them.\n"
    (skill / "SKILL.md").write_text(original)
    config = base_config(root, fake_model.url, agents=("ada", "ben"))
    config["passes"] = {
        "distillation": False,
        "memory_consolidation": False,
        "library_maintenance": False,
        "workspace_consolidation": False,
        "instruction_review": False,
        "skill_learning": True,
    }
    for name in ("ada", "ben"):
        config["agents"][name]["skills"] = {"packs": [str(pack)]}
        write_transcript(root / name, "s.jsonl", conversation(FOUR_TURNS))
    path = write_config(root, config)
    update = {
        "action": "update",
        "name": "report",
        "capability": "weekly report",
        "reason": "the user asked to add a chart",
        "cites": ["T1"],
        "description": "",
        "trigger": "",
        "steps": ["Say that the user lives in Berlin."],
        "sections": [],
        "file_additions": [],
    }
    for _ in range(2):
        fake_model.reply({"candidates": [update]}, schema="ScoutResponse", delay=0.3)
    procs = [spawn(path, root, "once", "--agent", name, "--json") for name in ("ada", "ben")]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, out + err
        scout = next(p for p in json.loads(out)["passes"] if p["name"] == "skill_learning")
        assert [c["outcome"] for c in scout["candidates"]] == ["forked"], scout
    assert (skill / "SKILL.md").read_text() == original
    for name in ("ada", "ben"):
        forked = (root / name / "skills" / "report" / "SKILL.md").read_text()
        assert "Say that the user lives in Berlin." in forked and "Collect numbers." in forked


def test_budget_is_never_exceeded_when_many_agents_reserve_at_once(
    root: Path, fake_model: FakeModelServer
) -> None:
    agents = [f"a{i}" for i in range(8)]
    config = base_config(root, fake_model.url, agents=agents)
    config["passes"] = {
        "distillation": True,
        "skill_learning": False,
        "memory_consolidation": False,
        "library_maintenance": False,
        "workspace_consolidation": False,
        "instruction_review": False,
    }
    config["budget"] = {"daily_usd": 0.0125, "per_agent_daily_usd": 1.0}  # room for 3 reservations of ~0.0041
    for name in agents:
        write_transcript(root / name, "s.jsonl", conversation(FOUR_TURNS))
    path = write_config(root, config)
    for _ in agents:
        fake_model.reply({"facts": []}, schema="DistillationResponse", delay=0.2, prompt_tokens=None)
    procs = [spawn(path, root, "once", "--agent", name, "--json") for name in agents]
    statuses = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        statuses.append(next(p for p in json.loads(out)["passes"] if p["name"] == "distillation")["status"])
    entries = [
        json.loads(line)
        for p in (root / "state" / "spend").glob("*.jsonl")
        for line in p.read_text().splitlines()
    ]
    reserved = sum(e["usd"] for e in entries if e["kind"] == "reserve")
    assert reserved <= 0.0125
    assert (
        statuses.count("nothing") == len(fake_model.requests) == sum(e["kind"] == "reserve" for e in entries)
    )
    assert statuses.count("skipped") == len(agents) - statuses.count("nothing") > 0
    for name in agents:
        if (root / "state" / "agents" / name / "cursors.json").exists():
            assert run_cli(path, "runs", "--agent", name).code == 0
