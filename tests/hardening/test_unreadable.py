"""Managed files the daemon's user cannot read: reported, left out, and never overwritten.

Permissions mean nothing to root, so the daemon runs here as an unprivileged user: as
`nobody` through `setpriv` when the tests run as root, or as the test user itself. It runs
from a copy of this checkout that user can read (`tests.support.unprivileged`), so the tests
work from a clone under a folder only root may enter.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import yaml

from tests.support.deploy import TEST_KEY
from tests.support.facts import shard_of, store_text, stored_fact, write_store
from tests.support.fake_model import FakeModelServer
from tests.support.runs import add_turns, berlin_fact, setup_agent
from tests.support.unprivileged import NOBODY, ReadableCheckout, shared_temp

pytestmark = pytest.mark.slow  # runs as another user in subprocesses
Daemon = Callable[..., subprocess.CompletedProcess[str]]


@pytest.fixture(scope="module")
def checkout() -> Iterator[ReadableCheckout]:
    """This checkout's packages where the unprivileged user can read them (fails naming the folder if it cannot)."""
    copy = ReadableCheckout.create()
    try:
        yield copy
    finally:
        copy.remove()


@pytest.fixture
def shared_root() -> Iterator[Path]:
    """A folder an unprivileged user can use (pytest's own temp folder is private to root)."""
    root = Path(tempfile.mkdtemp(prefix="metaeng-unreadable-", dir=shared_temp()))
    root.chmod(0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def daemon(checkout: ReadableCheckout) -> Daemon:
    """`metaeng-daemon ARGS` with `root`'s config, as the unprivileged user, from the copy."""

    def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
        env = {"HOME": str(root), "TEST_API_KEY": TEST_KEY}
        return checkout.run(["-m", "daemon", "--config", str(root / "config.yaml"), *args], env)

    return run


def hand_over(root: Path) -> None:
    if os.geteuid() == 0:
        for path in (root, *root.rglob("*")):
            os.lchown(path, NOBODY, NOBODY)


def test_an_unreadable_managed_file_is_reported_left_out_and_other_work_proceeds(
    shared_root: Path, fake_model: FakeModelServer, daemon: Daemon
) -> None:
    root = shared_root
    setup_agent(root, fake_model)
    home = root / "ada"
    memory = home / "MEMORY.md"
    memory.write_text("# Memory\n- private\n")
    locked = home / "skills" / "locked"
    locked.mkdir(parents=True)
    (locked / "SKILL.md").write_text("---\nname: locked\n---\n")
    hand_over(root)
    memory.chmod(0o000)
    locked.chmod(0o000)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    try:
        result = daemon(root, "once", "--agent", "ada", "--json")
        status = daemon(root, "status", "--agent", "ada", "--json")
        human = daemon(root, "status", "--agent", "ada")
    finally:
        memory.chmod(0o644)
        locked.chmod(0o755)

    assert result.returncode == 0, result.stdout + result.stderr
    body = json.loads(result.stdout)
    distill = next(p for p in body["passes"] if p["name"] == "distillation")
    assert distill["status"] == "applied"
    assert "left out of this run, cannot read MEMORY.md: Permission denied" in body["notes"]
    assert "left out of this run, cannot read skills/locked: Permission denied" in body["notes"]
    assert memory.read_text() == "# Memory\n- private\n"
    assert status.returncode == 0, status.stderr
    (agent,) = json.loads(status.stdout)["agents"]
    assert {"path": "MEMORY.md", "reason": "Permission denied"} in agent["unreadable"]
    assert "cannot read MEMORY.md: Permission denied" in human.stdout
    # Readable again: the next run records it as a person's edit.
    again = daemon(root, "once", "--agent", "ada", "--json")
    assert again.returncode == 0, again.stderr
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    shown = subprocess.run(
        ["git", f"--git-dir={git_dir}", "show", "HEAD:MEMORY.md"], capture_output=True, text=True
    )
    assert shown.stdout == "# Memory\n- private\n"


def test_a_pass_that_would_write_an_unreadable_file_is_dropped_and_the_file_kept(
    shared_root: Path, fake_model: FakeModelServer, daemon: Daemon
) -> None:
    root = shared_root
    config = setup_agent(root, fake_model)
    data = yaml.safe_load(config.read_text())
    data["agents"]["ada"]["memory"] = {"markdown_view": "FACTS.md"}
    config.write_text(yaml.safe_dump(data))
    view = root / "ada" / "FACTS.md"
    view.write_text("# notes a person keeps private\n")
    hand_over(root)
    view.chmod(0o000)
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    try:
        result = daemon(root, "once", "--agent", "ada", "--json")
    finally:
        view.chmod(0o644)

    assert result.returncode == 0, result.stdout + result.stderr
    distill = next(p for p in json.loads(result.stdout)["passes"] if p["name"] == "distillation")
    assert distill["status"] == "skipped"
    assert "FACTS.md — cannot read it: Permission denied; left out of this run" in distill["reason"]
    assert view.read_text() == "# notes a person keeps private\n"
    assert store_text(root / "ada") == ""


def test_an_unreadable_shard_leaves_the_facts_view_to_the_readable_ones(
    shared_root: Path, fake_model: FakeModelServer, daemon: Daemon
) -> None:
    """The facts view reads untouched shards through the query index; one it cannot read
    falls back to the view's own reads, which note it and leave it out."""
    root = shared_root
    config = setup_agent(root, fake_model)
    data = yaml.safe_load(config.read_text())
    data["agents"]["ada"]["memory"] = {"markdown_view": "FACTS.md"}
    config.write_text(yaml.safe_dump(data))
    home = root / "ada"
    write_store(home, stored_fact(id="f-hidden", entity="e1", key="city", value="Hiddenville"))
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")
    hand_over(root)
    first = daemon(root, "once", "--agent", "ada", "--json")  # migrates to shards
    assert first.returncode == 0, first.stdout + first.stderr
    shard = home / shard_of(entity="e1")
    add_turns(root, "s2.jsonl", first="I speak German at work.")
    hand_over(root)
    shard.chmod(0o000)
    fake_model.reply(
        {"facts": [berlin_fact(quote="I speak German", key="language", value="German", valid_from="2026-11-03")]},
        schema="DistillationResponse",
    )
    try:
        result = daemon(root, "once", "--agent", "ada", "--json")
    finally:
        shard.chmod(0o644)

    assert result.returncode == 0, result.stdout + result.stderr
    body = json.loads(result.stdout)
    distill = next(p for p in body["passes"] if p["name"] == "distillation")
    assert distill["status"] == "applied", distill
    assert any(shard.name in note and "Permission denied" in note for note in body["notes"]), body["notes"]
    view = (home / "FACTS.md").read_text()
    assert "German" in view and "Hiddenville" not in view
    assert "Hiddenville" in shard.read_text()
