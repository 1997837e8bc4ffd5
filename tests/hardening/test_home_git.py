"""The store never depends on the home's own git: ignore rules, attributes, nested clones.

The agent home may be a person's own git checkout, and a learned skill may be its own
clone. Neither changes what the store records: managed paths are recorded as plain
files, byte for byte, and a nested `.git` is never recorded (nor a submodule).
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.skills_engine.builders import candidate, once, pass_entry
from tests.skills_engine.test_scout import scenario
from tests.support.deploy import run_cli
from tests.support.facts import shard_of, store_text
from tests.support.fake_model import FakeModelServer
from tests.support.runs import berlin_fact, setup_agent


def git(cwd: Path, *args: str) -> str:
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin"}
    return subprocess.run(
        ["git", "-c", "user.name=p", "-c", "user.email=p@x", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def store(root: Path, *args: str) -> str:
    return git(root, f"--git-dir={root / 'state' / 'agents' / 'ada' / 'store.git'}", *args)


def blob(root: Path, spec: str) -> bytes:
    """The exact bytes the store holds at `spec` (REV:PATH)."""
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    return subprocess.run(
        ["git", f"--git-dir={git_dir}", "cat-file", "blob", spec], capture_output=True, check=True
    ).stdout


def test_a_learned_skill_that_is_its_own_clone_is_recorded_as_plain_files(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = scenario(root, fake_model.url)
    skill = root / "ada" / "skills" / "weekly-report"
    git(skill, "init", "-q", ".")
    git(skill, "add", ".")
    git(skill, "commit", "-qm", "a person keeps this skill in its own repository")
    update = candidate("update", "weekly-report", steps=["Mention who is on call next week"], cites=["T2"])
    fake_model.reply({"candidates": [update]}, schema="ScoutResponse")

    result = once(config, "skill_learning")

    entry = pass_entry(result, "skill_learning")
    assert result["_code"] == 0 and entry["status"] == "applied", entry
    on_disk = (skill / "SKILL.md").read_bytes()
    assert b"Mention who is on call next week" in on_disk
    tree = store(root, "ls-tree", "-r", "HEAD")
    assert " commit " not in tree and "160000" not in tree  # no submodule, ever
    assert "skills/weekly-report/SKILL.md" in tree and "/.git/" not in tree
    assert blob(root, "HEAD:skills/weekly-report/SKILL.md") == on_disk
    assert git(skill, "status", "--porcelain") == " M SKILL.md\n"  # its own repository untouched


def test_a_home_that_is_a_persons_checkout_ignoring_the_daemon_folder_works(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = setup_agent(root, fake_model)
    home = root / "ada"
    (home / ".gitignore").write_text(".metaeng/\nMEMORY.md\ntranscripts/\n")
    # Attributes that would rewrite bytes on `git add`: line endings, $Id$ expansion.
    (home / ".gitattributes").write_text("* text eol=crlf ident\n")
    (home / "MEMORY.md").write_bytes(b"# Memory\n- $Id$ stays as typed\n")
    git(home, "init", "-q", ".")
    git(home, "add", ".")
    git(home, "commit", "-qm", "my agent")
    own_head, own_index = git(home, "rev-parse", "HEAD"), (home / ".git" / "index").read_bytes()
    fake_model.reply({"facts": [berlin_fact()]}, schema="DistillationResponse")

    result = run_cli(config, "once", "--agent", "ada", "--json")

    assert result.code == 0, result.err
    distill = next(p for p in result.json()["passes"] if p["name"] == "distillation")
    assert distill["status"] == "applied", distill
    facts = (home / shard_of()).read_bytes()
    assert blob(root, f"HEAD:{shard_of()}") == facts
    assert blob(root, "HEAD:MEMORY.md") == (home / "MEMORY.md").read_bytes()
    # A person's edit to a file their own .gitignore lists is still recorded, byte-exact.
    (home / "MEMORY.md").write_bytes(b"# Memory\r\n- edited on Windows\r\n")
    run_id = result.json()["run_id"]
    undo = run_cli(config, "undo", run_id)
    assert undo.code == 0, undo.err
    assert blob(root, "HEAD~1:MEMORY.md") == b"# Memory\r\n- edited on Windows\r\n"
    assert "Berlin" not in store_text(home)
    # The person's own repository: same commit, same index, never written by the daemon.
    assert git(home, "rev-parse", "HEAD") == own_head
    assert (home / ".git" / "index").read_bytes() == own_index
    assert ".git/" not in store(root, "ls-tree", "-r", "--name-only", "HEAD")


def test_an_old_store_holding_a_submodule_entry_is_repaired_by_the_next_run(
    root: Path, fake_model: FakeModelServer
) -> None:
    config = scenario(root, fake_model.url)
    assert run_cli(config, "once", "--agent", "ada", "--pass", "memory_consolidation").code == 0
    skill = root / "ada" / "skills" / "weekly-report"
    git(skill, "init", "-q", ".")
    git(skill, "add", ".")
    git(skill, "commit", "-qm", "nested")
    # What `git add -A` did before: the folder recorded as a gitlink.
    git_dir = root / "state" / "agents" / "ada" / "store.git"
    git(root / "ada", f"--git-dir={git_dir}", "--work-tree=.", "rm", "-rq", "--cached", "skills/weekly-report")
    git(root / "ada", f"--git-dir={git_dir}", "--work-tree=.", "add", "skills/weekly-report")
    git(root / "ada", f"--git-dir={git_dir}", "--work-tree=.", "commit", "-qm", "old gitlink")
    assert "160000" in store(root, "ls-tree", "-r", "HEAD")
    update = candidate("update", "weekly-report", steps=["Mention who is on call next week"], cites=["T2"])
    fake_model.reply({"candidates": [update]}, schema="ScoutResponse")

    result = once(config, "skill_learning")

    assert pass_entry(result, "skill_learning")["status"] == "applied"
    tree = store(root, "ls-tree", "-r", "HEAD")
    assert "160000" not in tree and "skills/weekly-report/SKILL.md" in tree
