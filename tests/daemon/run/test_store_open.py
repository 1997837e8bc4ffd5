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
    done = subprocess.run(
        ["git", "--git-dir", str(git_dir), "config", "--get", key], capture_output=True, text=True, env=env, check=True
    )
    return done.stdout.removesuffix("\n")


@pytest.mark.parametrize("name", ["ada", "my agent", "a#b;c", " leading", 'quote"d', "back\\slash", "tab\there"])
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


def test_a_config_git_init_did_not_write_plainly_is_left_to_git() -> None:
    assert with_settings('[remote "origin"]\n\turl = x\n', {"core.bare": "false"}) is None
    assert with_settings("[core]\n\tbare = true ; why\n", {"core.bare": "false"}) is None
    assert with_settings("[core]\n\tBare = true\n", {"core.bare": "false"}) == "[core]\n\tbare = false\n"
