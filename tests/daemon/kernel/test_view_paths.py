"""A view's paths: normalised and refused by `check_relative`, never through a symlink by
`confined` — each refusal saying why, and naming the link where one is in the way."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from daemon.kernel.errors import PathRefused
from daemon.kernel.view import MAX_PATH_LENGTH, check_relative, confined


@pytest.mark.parametrize(
    ("rel", "normal"),
    [("a", "a"), ("a/b", "a/b"), ("a//b/", "a/b"), ("skills/x/SKILL.md", "skills/x/SKILL.md"), ("é/ü.md", "é/ü.md")],
)
def test_a_relative_path_is_normalised(rel: str, normal: str) -> None:
    assert check_relative(rel) == normal


@pytest.mark.parametrize(
    ("rel", "why"),
    [
        ("", "empty path"),
        ("a\x00b", "NUL byte in path"),
        ("a" * (MAX_PATH_LENGTH + 1), f"path longer than {MAX_PATH_LENGTH} characters"),
        ("/etc/passwd", "absolute path"),
        ("\\share", "absolute path"),
        ("a/../b", "must not contain '..', '.' or backslashes"),
        ("..", "must not contain '..', '.' or backslashes"),
        ("a/./b", "must not contain '..', '.' or backslashes"),
        ("a\\b", "must not contain '..', '.' or backslashes"),
    ],
)
def test_a_path_out_of_bounds_is_refused_saying_why(rel: str, why: str) -> None:
    with pytest.raises(PathRefused, match=re.escape(why)):
        check_relative(rel)


def test_confined_refuses_a_symlink_anywhere_on_the_way_and_names_it(tmp_path: Path) -> None:
    home, outside = tmp_path / "home", tmp_path / "outside"
    (home / "skills" / "real").mkdir(parents=True)
    outside.mkdir()
    (outside / "SKILL.md").write_text("elsewhere")
    (home / "skills" / "linked").symlink_to(outside, target_is_directory=True)
    (home / "skills" / "real" / "notes.md").symlink_to(outside / "SKILL.md")
    with pytest.raises(PathRefused, match="skills/linked is a symlink"):
        confined(home, "skills/linked/SKILL.md")
    with pytest.raises(PathRefused, match=re.escape("skills/real/notes.md is a symlink")):
        confined(home, "skills//real/notes.md")


def test_confined_gives_the_path_under_home_whether_or_not_it_exists(tmp_path: Path) -> None:
    (tmp_path / "skills" / "x").mkdir(parents=True)
    (tmp_path / "MEMORY.md").write_text("a file where a folder would be")
    assert confined(tmp_path, "skills/x/SKILL.md") == tmp_path / "skills" / "x" / "SKILL.md"
    assert confined(tmp_path, "new/folder/file.md") == tmp_path / "new" / "folder" / "file.md"
    assert confined(tmp_path, "MEMORY.md/inside") == tmp_path / "MEMORY.md" / "inside"
