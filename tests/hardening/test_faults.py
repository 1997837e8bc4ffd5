"""Fault injection: full disk, read-only home, corrupted store, stale locks.

Each fault: a clear error, nothing half-written, offsets uncommitted, spend accounted.
Model-server faults (timeout, HTTP 500, truncated JSON, 2 MB answers) are in
tests/daemon/model/test_deep_tier.py.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from daemon.kernel import faults
from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent

REPO = Path(__file__).parents[2]
FACTS = ".metaeng/facts.jsonl"


def distill(body: dict) -> dict:
    return next(p for p in body["passes"] if p["name"] == "distillation")


def offsets_committed(root: Path) -> bool:
    path = root / "state" / "agents" / "ada" / "cursors.json"
    return path.exists() and "distillation" in json.loads(path.read_text())["consumers"]


def spend_entries(root: Path) -> list[dict]:
    return [
        json.loads(line)
        for p in (root / "state" / "spend").glob("*.jsonl")
        for line in p.read_text().splitlines()
    ]


def git_ok(root: Path) -> bool:
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    fsck = subprocess.run(["git", f"--git-dir={git_dir}", "fsck", "--strict"], capture_output=True)
    status = subprocess.run(
        ["git", f"--git-dir={git_dir}", f"--work-tree={root / 'ada'}", "status", "--porcelain"],
        capture_output=True,
        text=True,
    )
    return fsck.returncode == 0 and status.stdout == ""


@pytest.mark.parametrize(
    ("fault", "message"), [("ENOSPC", "No space left on device"), ("EROFS", "Read-only file system")]
)
def test_injected_write_fault_rolls_back_keeps_offsets_and_accounts_spend(
    root: Path, fake_model: FakeModelServer, fault: str, message: str
) -> None:
    config = setup_agent(root, fake_model)
    run_cli(config, "once", "--agent", "ada")  # first import commit, no turns analysed yet (no reply)
    before = tree_snapshot(root / "ada")
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    faults.arm(f"{fault}@facts.jsonl")  # the fault-injection hook, armed by the test itself
    try:
        result = run_cli(config, "once", "--agent", "ada", "--json")
    finally:
        faults.arm(None)
    assert result.code == 1
    entry = distill(result.json())
    assert (
        entry["status"] == "failed"
        and "rolled back, nothing changed" in entry["reason"]
        and message in entry["reason"]
    )
    assert tree_snapshot(root / "ada") == before
    assert not offsets_committed(root)
    kinds = [e["kind"] for e in spend_entries(root)]
    assert kinds.count("settle") == 1  # the call was paid for and is accounted
    assert git_ok(root)
    assert not [p for p in (root / "ada").rglob("*") if ".metaeng-tmp-" in p.name]


def _unshare_works() -> bool:
    if not shutil.which("unshare"):
        return False
    probe = subprocess.run(
        ["unshare", "-rm", "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"], capture_output=True
    )
    return probe.returncode == 0


def once_in_namespace(root: Path, config: Path, setup: str, after: str = "") -> tuple[str, dict]:
    """Run `once --json` after `setup` mounts, inside a user+mount namespace (as root there).

    Returns the shell output and the parsed JSON report; asserts `once` exited 1.
    """
    script = (
        f"{setup} && {sys.executable} -m daemon --config {config} once --agent ada --json; "
        f"echo EXIT=$?; {after}"
    )
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY}
    done = subprocess.run(
        ["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True, env=env, cwd=REPO, timeout=60
    )
    assert "EXIT=1" in done.stdout, done.stdout + done.stderr
    return done.stdout, json.loads(done.stdout.split("EXIT=")[0])


@pytest.mark.slow
@pytest.mark.skipif(not _unshare_works(), reason="needs user+mount namespaces to mount a tiny tmpfs")
def test_real_full_disk_on_a_tiny_tmpfs(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    meta = root / "ada" / ".metaeng"
    meta.mkdir()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    stdout, body = once_in_namespace(
        root,
        config,
        # Fill it; dd itself may fail with ENOSPC on the last block, which is the point.
        f"mount -t tmpfs -o size=64k tmpfs {meta} && {{ dd if=/dev/zero of={meta}/filler bs=1k count=64 2>/dev/null; true; }}",
        after=f"ls -a {meta}",
    )
    assert "No space left on device" in distill(body)["reason"]
    listing = stdout.split("EXIT=1", 1)[1].split()
    assert "facts.jsonl" not in listing and not any(".metaeng-tmp-" in name for name in listing)
    assert not offsets_committed(root)


def test_corrupted_store_is_a_clear_error_and_nothing_is_written(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    assert run_cli(config, "once", "--agent", "ada").code == 0
    objects = root / "state" / "agents" / "ada" / "store.git" / "objects"
    for path in [p for p in objects.rglob("*") if p.is_file() and len(p.parent.name) == 2]:
        path.unlink()
    add_turns(root)
    before = tree_snapshot(root / "ada")
    for args in (("once", "--agent", "ada"), ("runs", "--agent", "ada"), ("undo", "x", "--agent", "ada")):
        result = run_cli(config, *args)
        assert result.code == 1, args
        assert "is corrupted: HEAD points to commit" in result.err and "fsck" in result.err
    assert tree_snapshot(root / "ada") == before
    assert len(fake_model.requests) == 1  # no model call was made for the broken store


def test_lock_files_left_by_dead_processes_never_block(root: Path, fake_model: FakeModelServer) -> None:
    config = setup_agent(root, fake_model)
    assert run_cli(config, "once", "--agent", "ada").code == 0
    state = root / "state" / "agents" / "ada"
    # A process that took every lock and died with kill -9.
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import filelock, os, signal, sys\n"
            f"for p in ({str(state / 'run.lock')!r}, {str(state / 'memory.lock')!r}, {str(root / 'state' / 'spend.lock')!r}):\n"
            "    filelock.FileLock(p).acquire()\n"
            "os.kill(os.getpid(), signal.SIGKILL)\n",
        ],
    )
    holder.wait()
    (state / "store.git" / "index.lock").write_text("")  # a git killed mid-commit
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    result = run_cli(config, "once", "--agent", "ada", "--json")
    assert result.code == 0, result.err
    assert distill(result.json())["status"] == "applied"
    assert any("stale git index.lock" in note for note in result.json()["notes"])
    assert git_ok(root)


@pytest.mark.slow
def test_read_only_agent_home_mount(root: Path, fake_model: FakeModelServer) -> None:
    if not _unshare_works():
        pytest.skip("needs user+mount namespaces for a read-only bind mount")
    config = setup_agent(root, fake_model)
    home = root / "ada"
    assert run_cli(config, "once", "--agent", "ada").code == 0  # import commit while writable
    before = tree_snapshot(home)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    _, body = once_in_namespace(
        root, config, f"mount --bind {home} {home} && mount -o remount,bind,ro {home}"
    )
    assert "Read-only file system" in distill(body)["reason"]
    assert tree_snapshot(home) == before
    assert not offsets_committed(root)
    assert git_ok(root)
