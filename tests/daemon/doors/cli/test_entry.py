"""The shipped entry point carries no test hooks and leaves the process environment alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.support.deploy import TEST_KEY, run_cli
from tests.support.runs import setup_agent

REPO = Path(__file__).parents[4]


def test_test_hook_variables_mean_nothing_to_the_shipped_command(root: Path) -> None:
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "METAENG_FAULT": "garbage", "METAENG_CRASH_AT": "after_write"}
    done = subprocess.run([sys.executable, "-m", "daemon", "--help"], env=env, cwd=REPO, capture_output=True, text=True)
    assert done.returncode == 0 and "usage: metaeng-daemon" in done.stdout and done.stderr == ""


def test_a_run_neither_reads_nor_changes_git_variables_of_the_process(root: Path) -> None:
    config = setup_agent(root, None)
    hostile = {"GIT_DIR": str(root / "elsewhere.git"), "GIT_CONFIG_PARAMETERS": "'core.hooksPath'='/tmp/evil'"}
    before = dict(os.environ)
    os.environ.update(hostile)
    try:
        result = run_cli(config, "once", "--agent", "ada", "--json", env={"TEST_API_KEY": TEST_KEY, **hostile})
        assert {k: os.environ.get(k) for k in hostile} == hostile  # main() left the environment as it was
    finally:
        os.environ.clear()
        os.environ.update(before)
    assert result.code == 0, result.err
    assert not (root / "elsewhere.git").exists()
    assert (root / "state" / "agents" / "ada" / "store.git" / "HEAD").exists()
