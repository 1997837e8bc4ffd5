"""Crash matrix for the run-history retention: SIGKILL at each step of the squash's history
rewrite. After the next start the store verifies (`git fsck`), the home is untouched, and
the history is either the old one (every run) or the squashed one (the newest run on a
baseline), never a mix; running maintenance again finishes the job."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.daemon.wiring.test_purge import git, seed
from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # squashes killed with -9 in a subprocess at each step

REPO = Path(__file__).parents[2]
POINTS = ("rewrite_built", "rewrite_verified", "rewrite_moved_old", "rewrite_swapped", "rewrite_old_removed")


@pytest.fixture(scope="module")
def model() -> Iterator[FakeModelServer]:
    server = FakeModelServer().start()
    yield server
    server.stop()


def runs(config: Path) -> list[str]:
    listed = run_cli(config, "runs", "--agent", "ada", "--json")  # the next start: recovery
    assert listed.code == 0, listed.err
    return [r["run_id"] for r in listed.json()]


@pytest.mark.parametrize("point", POINTS)
def test_kill_at_each_squash_step_leaves_the_old_history_or_the_new_one(
    tmp_path: Path, model: FakeModelServer, point: str
) -> None:
    config, _runs = seed(tmp_path, model)
    raw = yaml.safe_load(config.read_text())
    raw["retention"] = {"history_runs": 1}
    config.write_text(yaml.safe_dump(raw))
    before = runs(config)
    home = tree_snapshot(tmp_path / "ada")
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "TEST_API_KEY": TEST_KEY, "METAENG_CRASH_AT": point}

    crashed = subprocess.run(
        [sys.executable, "-m", "tests.support.armed", "--config", str(config), "maintenance", "--agent", "ada"],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
    )

    assert crashed.returncode == -signal.SIGKILL, crashed.stdout + crashed.stderr
    after = runs(config)
    squashed = point in ("rewrite_verified", "rewrite_moved_old", "rewrite_swapped", "rewrite_old_removed")
    assert after == (before[:1] if squashed else before)
    assert git(tmp_path, "fsck", "--strict").returncode == 0
    assert not [p.name for p in (tmp_path / "state" / "agents" / "ada").iterdir() if "rewrite" in p.name]
    assert tree_snapshot(tmp_path / "ada") == home
    assert run_cli(config, "maintenance", "--agent", "ada").code == 0
    assert runs(config) == before[:1]
    assert tree_snapshot(tmp_path / "ada") == home
