"""Crash matrix for `memory forget --purge`: SIGKILL at each step of the purge and of the
history rewrite. After the next start the store verifies (`git fsck`) and is either the
old one (every value still in its objects, HEAD the forget run) or the rewritten one (no
value in any object), never a mix; every run is still listed; running the purge again
finishes the job: zero hits anywhere."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from daemon.run.crashpoints import REWRITE_POINTS
from tests.daemon.wiring.test_purge import FIRST, SECOND, git, hits, seed
from tests.support.deploy import TEST_KEY, run_cli
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # purges killed with -9 in a subprocess at each step

REPO = Path(__file__).parents[2]
PURGE = ("memory", "forget", "--agent", "ada", "--entity", "user", "--key", "city", "--purge", "--yes")


@pytest.fixture(scope="module")
def model() -> Iterator[FakeModelServer]:
    server = FakeModelServer().start()
    yield server
    server.stop()


def crash(root: Path, point: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY, "METAENG_CRASH_AT": point}
    return subprocess.run(
        [sys.executable, "-m", "tests.support.armed", "--config", str(root / "config.yaml"), *PURGE],
        env=env, cwd=REPO, capture_output=True, text=True, timeout=120,
    )


def objects(root: Path) -> bytes:
    return bytes(git(root, "cat-file", "--batch-all-objects", "--batch", text=False).stdout)


@pytest.mark.parametrize("point", REWRITE_POINTS)
def test_kill_at_each_purge_step_leaves_the_old_store_or_the_new_one(
    tmp_path: Path, model: FakeModelServer, point: str
) -> None:
    config, _runs = seed(tmp_path, model)
    runs_before = {r["run_id"] for r in run_cli(config, "runs", "--agent", "ada", "--json").json()}

    crashed = crash(tmp_path, point)
    assert crashed.returncode == -signal.SIGKILL, crashed.stdout + crashed.stderr

    listed = run_cli(config, "runs", "--agent", "ada", "--json")  # the next start: recovery
    assert listed.code == 0, listed.err
    assert runs_before <= {r["run_id"] for r in listed.json()}
    assert git(tmp_path, "fsck", "--strict").returncode == 0
    assert not [p.name for p in (tmp_path / "state" / "agents" / "ada").iterdir() if "rewrite" in p.name]
    held = objects(tmp_path)
    old = FIRST.encode() in held and SECOND.encode() in held
    new = FIRST.encode() not in held and SECOND.encode() not in held
    assert old or new, f"a mix of old and new objects after a kill at {point}"
    assert new == (point in ("rewrite_moved_old", "rewrite_swapped", "rewrite_old_removed", "rewrite_verified"))

    again = run_cli(config, *PURGE)
    assert again.code == 0, again.err
    assert hits(tmp_path, FIRST, SECOND) == []
    assert runs_before <= {r["run_id"] for r in run_cli(config, "runs", "--agent", "ada", "--json").json()}
