"""Kill -9 at each named step of apply: after the next start, all of the run or none of it."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from daemon.run.crashpoints import POINTS
from tests.support.deploy import run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, once_killed_at, setup_agent

pytestmark = pytest.mark.slow  # runs killed with -9 in a subprocess at each step of apply

REPO = Path(__file__).parents[3]
COMMITTED = {"after_commit", "after_cursors", "before_index"}


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", f"--work-tree={root / 'ada'}", *args], capture_output=True, text=True
    )


def cursor_offsets(root: Path) -> dict[str, int]:
    path = root / "state" / "agents" / "ada" / "cursors.json"
    if not path.exists():
        return {}
    consumers = json.loads(path.read_text())["consumers"]
    return {f: c["offset"] for f, c in consumers.get("distillation", {}).items()}


@pytest.mark.parametrize("point", POINTS)
def test_crash_at_each_step_of_apply_leaves_all_or_nothing(
    root: Path, fake_model: FakeModelServer, point: str
) -> None:
    config = setup_agent(root, fake_model)
    home = root / "ada"
    before = tree_snapshot(home)

    # Reference: what an uninterrupted run produces, computed in a twin deployment.
    twin = root / "twin"
    twin.mkdir()
    twin_config = setup_agent(twin, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(twin_config, "once", "--agent", "ada").code == 0
    after = tree_snapshot(twin / "ada")

    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    once_killed_at(config, root, point, timeout=60)

    # Next start: recovery runs first. No reply is scripted, so no new work can be applied.
    recovered = run_cli(config, "once", "--agent", "ada", "--json")
    assert recovered.code == 0, recovered.err
    notes = " ".join(recovered.json()["notes"])
    state = tree_snapshot(home)
    runs = run_cli(config, "runs", "--json").json()
    if point in COMMITTED:
        assert state == after
        assert len(runs) == 1
        assert cursor_offsets(root) == {
            "transcripts/s1.jsonl": (home / "transcripts" / "s1.jsonl").stat().st_size
        }
        if point == "after_commit":
            assert "completed interrupted run" in notes
    else:
        assert state == before
        assert runs == []
        assert cursor_offsets(root) == {}
        assert "rolled back interrupted run" in notes
        fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
        redo = run_cli(config, "once", "--agent", "ada", "--json")
        assert redo.json()["run_id"]
        assert tree_snapshot(home) == after

    assert git(root, "fsck", "--strict").returncode == 0
    assert git(root, "status", "--porcelain").stdout == ""
    assert not (root / "state" / "agents" / "ada" / "store.git" / "index.lock").exists()
    assert not (root / "state" / "agents" / "ada" / "inflight.json").exists()
    assert not [p for p in home.rglob("*") if ".metaeng-tmp-" in p.name]
