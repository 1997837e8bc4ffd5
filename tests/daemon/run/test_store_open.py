"""A new store's config is written whole (one file instead of a git process per setting): git
reads back every hermetic setting and the work tree for any home path, and opening the store
again leaves its config as it is."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from daemon.kernel.managed import ManagedPaths
from daemon.run.store_git import HERMETIC_CONFIG
from daemon.run.store_open import open_store, with_settings

MANAGED = ManagedPaths(frozenset({"MEMORY.md"}), frozenset())


def git_config(git_dir: Path, key: str) -> str:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    done = subprocess.run(["git", "--git-dir", str(git_dir), "config", "--get", key], capture_output=True, env=env, check=True)
    return os.fsdecode(done.stdout.removesuffix(b"\n"))


NAMES = ["ada", "my agent", "a#b;c", " leading", 'quote"d', "back\\slash", "tab\there", "new\nline", "ends in\r", "bell\x07"]


@pytest.mark.parametrize("name", [*NAMES, os.fsdecode(b"caf\xe9")])  # the last is no UTF-8
def test_a_new_store_holds_every_hermetic_setting_for_any_home_path(tmp_path: Path, name: str) -> None:
    home = tmp_path / name
    home.mkdir()
    git_dir = tmp_path / "state" / "store.git"
    with open_store(git_dir, home, MANAGED, tmp_path / "scratch"):
        pass
    assert git_config(git_dir, "core.worktree") == str(home)
    for key, value in HERMETIC_CONFIG.items():
        assert git_config(git_dir, key) == value, key
    written = (git_dir / "config").read_bytes()
    with open_store(git_dir, home, MANAGED, tmp_path / "scratch"):
        pass
    assert (git_dir / "config").read_bytes() == written  # nothing to bring up to date


def test_a_store_opened_for_another_home_points_at_it(tmp_path: Path) -> None:
    """The work tree is compared whole: "agent1" is not up to date in a store of "agent10"."""
    git_dir = tmp_path / "store.git"
    for name in ("agent10", "agent1"):
        (tmp_path / name).mkdir()
        with open_store(git_dir, tmp_path / name, MANAGED, tmp_path / "scratch"):
            pass
        assert git_config(git_dir, "core.worktree") == str(tmp_path / name)


def test_a_config_git_init_did_not_write_plainly_is_left_to_git() -> None:
    assert with_settings('[remote "origin"]\n\turl = x\n', {"core.bare": "false"}) is None
    assert with_settings("[core]\n\tbare = true ; why\n", {"core.bare": "false"}) is None
    assert with_settings("[core]\n\tBare = true\n", {"core.bare": "false"}) == "[core]\n\tbare = false\n"
    assert with_settings("[core]\n\tbare = true\n", {"core.worktree": "/home/ada\r"}) is None  # git quotes it
