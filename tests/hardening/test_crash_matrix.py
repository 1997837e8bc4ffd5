"""Crash matrix: every pass, undo and review approval, killed with SIGKILL at each named step.

One more operation has a person edit a file a pass planned to write while its model
answer is delayed (between plan and apply): the person's bytes survive every kill.

After the next start (recovery runs in `once --dry-run`, which changes nothing else):
the store is consistent (`git fsck` clean), the work tree equals the pre-run state or the
committed post-run state, cursors are untouched unless the run committed, and the
interrupted run completes or is cleanly absent on the next `once`.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from daemon.run.crashpoints import POINTS
from tests.hardening.crash_ops import OPS, CrashOp, PersonEdit
from tests.support.deploy import TEST_KEY, run_cli, tree_snapshot
from tests.support.fake_model import FakeModelServer

pytestmark = pytest.mark.slow  # 63 runs killed with -9 in a subprocess, about 2.5 minutes

REPO = Path(__file__).parents[2]


@pytest.fixture(scope="module")
def model() -> Iterator[FakeModelServer]:
    server = FakeModelServer().start()
    yield server
    server.stop()


def git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", f"--work-tree={root / 'ada'}", *args], capture_output=True, text=True
    )


def head(root: Path) -> str:
    return git(root, "rev-parse", "HEAD").stdout.strip()


def read(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


def check_consistent(root: Path) -> None:
    state = root / "state" / "agents" / "ada"
    assert git(root, "fsck", "--strict").returncode == 0
    assert git(root, "status", "--porcelain").stdout == ""
    assert not (state / "inflight.json").exists()
    assert not (state / "store.git" / "index.lock").exists()
    assert not [p for p in (root / "ada").rglob("*") if ".metaeng-tmp-" in p.name]
    for ledger in (root / "state" / "spend").glob("*.jsonl"):
        entries = [json.loads(line) for line in ledger.read_text().splitlines()]
        reserved = {e["call"] for e in entries if e["kind"] == "reserve"}
        assert {e["call"] for e in entries if e["kind"] == "settle"} <= reserved


def edit_when_asked(root: Path, model: FakeModelServer, edit: PersonEdit, done: threading.Event) -> threading.Thread:
    """Append the person's text once the held request arrives (the run is between plan and
    apply), then release the answer by setting `done`."""
    seen = model.schema_names().count(edit.schema)  # the server outlives one test: count new ones

    def act() -> None:
        deadline = time.monotonic() + 30
        while model.schema_names().count(edit.schema) <= seen and time.monotonic() < deadline:
            time.sleep(0.01)
        with (root / "ada" / edit.path).open("a", encoding="utf-8") as fh:
            fh.write(edit.text)
        done.set()

    thread = threading.Thread(target=act, daemon=True)
    thread.start()
    return thread


def last_is_run(root: Path) -> bool:
    return "Run-Id:" in git(root, "log", "-1", "--format=%B").stdout


def crash(root: Path, command: list[str], point: str) -> subprocess.CompletedProcess[str]:
    env = {"PATH": os.environ["PATH"], "HOME": str(root), "TEST_API_KEY": TEST_KEY, "METAENG_CRASH_AT": point}
    return subprocess.run(
        [sys.executable, "-m", "tests.support.armed", "--config", str(root / "config.yaml"), *command],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("point", POINTS)
@pytest.mark.parametrize("op", OPS, ids=[op.name for op in OPS])
def test_kill_at_each_step_leaves_all_or_nothing(
    tmp_path: Path, model: FakeModelServer, op: CrashOp, point: str
) -> None:
    root = tmp_path
    command = op.prepare(root, model)
    config = root / "config.yaml"
    idle = next(name for name in ("distillation", "instruction_review") if name not in op.passes)
    settle = run_cli(config, "once", "--agent", "ada", "--pass", idle)  # only the import commit
    assert settle.code == 0, settle.err
    before_tree = tree_snapshot(root / "ada")
    before_head = head(root)
    cursors = root / "state" / "agents" / "ada" / "cursors.json"
    before_cursors = read(cursors)
    edit = op.person_edit
    edited = threading.Event()
    for content, schema in op.replies:
        model.reply(content, schema=schema, hold=edited if edit and schema == edit.schema else None)
    editor = edit_when_asked(root, model, edit, edited) if edit else None

    crashed = crash(root, command, point)
    assert crashed.returncode == -signal.SIGKILL, crashed.stdout + crashed.stderr
    if editor is not None and edit is not None:
        editor.join(30)
        before_tree[edit.path] = before_tree[edit.path] + edit.text.encode()

    recovered = run_cli(config, "once", "--agent", "ada", "--dry-run", "--json")  # the next start
    assert recovered.code in (0, 1), recovered.err
    check_consistent(root)
    # A person's edit made during the run is committed on its own, before any run commit.
    committed = head(root) != before_head and last_is_run(root)
    if committed:
        info = git(root, "log", "-1", "--format=%B").stdout
        assert "Run-Id:" in info
    else:
        assert tree_snapshot(root / "ada") == before_tree
        assert read(cursors) == before_cursors
        assert point not in ("after_commit", "after_cursors", "before_index")
    if edit is not None:
        assert (root / "ada" / edit.path).read_text().endswith(edit.text)

    # The next real start completes what was interrupted, or finds it already done.
    for content, schema in op.replies:
        model.reply(content, schema=schema)
    again = crash(root, command, "none") if command[0] != "once" else None
    if command[0] == "once":
        finished = run_cli(config, *command, "--json")
        assert finished.code == 0, finished.err
    else:
        assert again is not None
        assert again.returncode == (0 if not committed else 1), again.stdout + again.stderr
    check_consistent(root)
    assert head(root) != before_head
    if edit is not None:  # a later run may render the file anew; the person's bytes stay in history
        assert edit.text.strip() in git(root, "log", "-p", "--format=%s", "--", edit.path).stdout
    model.clear()  # replies not consumed when the work was already committed
