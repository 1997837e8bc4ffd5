"""`AgentView.walk`: the regular files under a folder, in a fixed order, planned changes
included, symlinks and special files left out, and as deep as asked."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from daemon.kernel.view import AgentView, ReadLog


def _library(home: Path) -> None:
    lib = home / "lib"
    (lib / "sub" / "deeper").mkdir(parents=True)
    for rel in ("b.txt", "a.txt", "sub/z.txt", "sub/deeper/x.txt"):
        (lib / rel).write_text(rel)
    (lib / "file-link").symlink_to(lib / "a.txt")
    (lib / "dir-link").symlink_to(lib / "sub", target_is_directory=True)
    (lib / "dangling").symlink_to(lib / "gone")
    os.mkfifo(lib / "pipe")


def test_a_folder_s_files_come_by_name_then_its_subfolders_and_no_link_or_pipe(tmp_path: Path) -> None:
    _library(tmp_path)
    log = ReadLog()
    found = list(AgentView(tmp_path, {}, log).walk("lib"))
    assert found == ["lib/a.txt", "lib/b.txt", "lib/sub/z.txt", "lib/sub/deeper/x.txt"]
    assert log.saw("lib/sub/deeper/x.txt") and log.unreadable == {}


def test_planned_changes_are_walked_and_deleted_files_are_not(tmp_path: Path) -> None:
    _library(tmp_path)
    view = AgentView(tmp_path, {"lib/b.txt": None, "lib/new/y.txt": b"y", "other/o.txt": b"o"})
    assert list(view.walk("lib")) == ["lib/a.txt", "lib/sub/z.txt", "lib/sub/deeper/x.txt", "lib/new/y.txt"]


def test_a_depth_stops_the_walk_that_many_folders_down(tmp_path: Path) -> None:
    _library(tmp_path)
    view = AgentView(tmp_path, {"lib/new/y.txt": b"y", "lib/new/far/w.txt": b"w"})
    assert list(view.walk("lib", depth=1)) == ["lib/a.txt", "lib/b.txt"]
    assert list(view.walk("lib", depth=2)) == ["lib/a.txt", "lib/b.txt", "lib/sub/z.txt", "lib/new/y.txt"]
    assert list(view.walk("lib", depth=0)) == []


def test_a_missing_folder_holds_only_what_is_planned_in_it(tmp_path: Path) -> None:
    view = AgentView(tmp_path, {"skills/new/SKILL.md": b"# new"})
    assert list(view.walk("skills")) == ["skills/new/SKILL.md"]
    assert list(view.walk("nowhere")) == []


def test_a_tree_deeper_than_the_recursion_limit_is_walked(tmp_path: Path) -> None:
    deep = str(tmp_path / "lib")
    try:
        os.mkdir(deep)
        for _ in range(1200):  # one at a time: os.makedirs itself recurses a level per folder
            deep = os.path.join(deep, "d")
            os.mkdir(deep)
        Path(deep, "bottom.txt").write_text("x")
        assert list(AgentView(tmp_path).walk("lib")) == ["lib/" + "d/" * 1200 + "bottom.txt"]
    finally:  # rm walks without recursion; shutil.rmtree (pytest's clean-up) would fail on it
        subprocess.run(["rm", "-rf", str(tmp_path / "lib")], check=True)


def test_a_folder_made_a_symlink_during_the_walk_is_not_entered(tmp_path: Path) -> None:
    _library(tmp_path)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "id_rsa").write_text("secret")
    walking = AgentView(tmp_path).walk("lib")
    assert next(walking) == "lib/a.txt"
    sub = tmp_path / "lib" / "sub"
    sub.rename(tmp_path / "moved")
    sub.symlink_to(outside, target_is_directory=True)
    assert list(walking) == ["lib/b.txt"]


def test_a_file_removed_during_the_walk_is_passed_over_without_a_note(tmp_path: Path) -> None:
    _library(tmp_path)
    log = ReadLog()
    walking = AgentView(tmp_path, {}, log).walk("lib")
    assert next(walking) == "lib/a.txt"
    (tmp_path / "lib" / "b.txt").unlink()
    assert list(walking) == ["lib/sub/z.txt", "lib/sub/deeper/x.txt"]
    assert log.unreadable == {}
