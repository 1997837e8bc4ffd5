"""The state folder fills up, or turns read-only, at any step of a run.

The state folder is a real tmpfs mounted inside a user + mount namespace and filled so
that only N KiB stay free; N sweeps from nothing to enough, so the run meets the full
disk at every step in turn (lock, store, external edits, spend ledger, journal, git
objects, commit, cursors, run log). Every time: exit 0 with the run applied, or exit 1
with a complete JSON report naming the path, the home exactly as before, and a store
that `git fsck` and `git status` find clean.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hardening.test_faults import _unshare_works
from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent

REPO = Path(__file__).parents[2]
FREE_KIB = (0, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 1024)
MARK = "----metaeng-test----"

pytestmark = [
    pytest.mark.slow,  # a run on a tmpfs filled at each step, in a subprocess: 21 of them
    pytest.mark.skipif(not _unshare_works(), reason="needs user+mount namespaces to mount a tmpfs"),
]


def run_with_state_on_tmpfs(root: Path, prepare: str) -> tuple[int, dict, str]:
    """`once --json` with `root/state` on a fresh tmpfs holding a copy of it, after `prepare`.

    Returns exit code, report and what the store checks printed inside the namespace.
    """
    state, backup = root / "state", root / "state-backup"
    git = f"git --git-dir={state}/agents/ada/store.git --work-tree={root / 'ada'}"
    script = f"""
set -u
cp -a {state} {backup}
mount -t tmpfs -o size=4m tmpfs {state} || exit 99
cp -a {backup}/. {state}/
{prepare}
{sys.executable} -m daemon --config {root / 'config.yaml'} once --agent ada --json > {root}/out.json 2> {root}/err.txt
echo "exit=$?"
echo {MARK}
rm -f {state}/filler
mount -o remount,rw {state} 2>/dev/null
{git} fsck --strict >/dev/null 2>&1 && echo fsck=ok
echo "status=[$({git} status --porcelain 2>&1)]"
test -e {state}/agents/ada/inflight.json && echo journal=left
cat {state}/agents/ada/cursors.json 2>/dev/null
"""
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY}
    done = subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, env=env, cwd=REPO, timeout=120)
    assert "exit=" in done.stdout, done.stdout + done.stderr
    code = int(done.stdout.split("exit=")[1].split()[0])
    body = json.loads((root / "out.json").read_text())
    return code, body, done.stdout.split(MARK, 1)[1]


def fill_leaving(kib: int, root: Path) -> str:
    state = root / "state"
    return (
        f"avail=$(df -k --output=avail {state} | tail -1); "
        f"dd if=/dev/zero of={state}/filler bs=1k count=$((avail - {kib})) 2>/dev/null; true"
    )


def check_outcome(
    root: Path, code: int, body: dict, checks: str, before: dict[str, bytes], what: str, waiting: str = ""
) -> None:
    """`waiting`: what `git status` may show after a failed run (a person's edit not yet recorded)."""
    assert code in (0, 1), (code, body)
    assert {"agent", "run_id", "outcome", "passes", "error", "notes"} <= set(body)
    assert "fsck=ok" in checks and "journal=left" not in checks, checks
    assert "status=[]" in checks or (code == 1 and f"status=[{waiting}]" in checks), checks
    distill = next(p for p in body["passes"] if p["name"] == "distillation")
    if code == 0:
        assert body["outcome"] == "applied" and distill["status"] == "applied", body
        return
    # One line naming the cause and the path, and nothing of the run left behind.
    said = [body["error"] or "", *(p["reason"] for p in body["passes"])]
    # Our own writes say ENOSPC's words; git says its own ("Out of diskspace", "couldn't write").
    phrases = (what, "Out of diskspace", "couldn't write", "unable to write") if "space" in what else (what,)
    assert any(p in line and str(root) in line for line in said for p in phrases), "\n".join(said)
    assert body["run_id"] is None
    assert tree_snapshot(root / "ada") == before
    assert '"distillation"' not in checks  # cursors not advanced


@pytest.mark.parametrize("free_kib", FREE_KIB)
def test_a_state_folder_that_fills_at_any_step_ends_the_run_cleanly(
    root: Path, fake_model: FakeModelServer, free_kib: int
) -> None:
    config = setup_agent(root, fake_model)
    assert run_cli(config, "once", "--agent", "ada").code == 0  # the import commit, on a roomy disk
    before = tree_snapshot(root / "ada")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    code, body, checks = run_with_state_on_tmpfs(root, fill_leaving(free_kib, root))

    check_outcome(root, code, body, checks, before, "No space left on device")
    if free_kib >= 1024:
        assert code == 0  # the sweep reaches a size where the run fits


@pytest.mark.parametrize("free_kib", (0, 4, 8, 12, 16, 24, 64))
def test_a_full_state_folder_while_a_persons_edit_is_recorded_ends_cleanly(
    root: Path, fake_model: FakeModelServer, free_kib: int
) -> None:
    # The run must first commit the person's new notes (the external-edits step): the
    # disk fills while their blobs, the index or the commit are written.
    config = setup_agent(root, fake_model)
    assert run_cli(config, "once", "--agent", "ada").code == 0
    (root / "ada" / "MEMORY.md").write_text("- a note a person typed\n" * 200)
    before = tree_snapshot(root / "ada")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    code, body, checks = run_with_state_on_tmpfs(root, fill_leaving(free_kib, root))

    check_outcome(root, code, body, checks, before, "No space left on device", waiting="?? MEMORY.md")


def test_a_read_only_state_folder_ends_the_run_cleanly(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    assert run_cli(config, "once", "--agent", "ada").code == 0
    before = tree_snapshot(root / "ada")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    code, body, checks = run_with_state_on_tmpfs(root, f"mount -o remount,ro {root / 'state'}")

    assert code == 1
    check_outcome(root, code, body, checks, before, "Read-only file system")
    assert body["error"].startswith("Read-only file system: ")
