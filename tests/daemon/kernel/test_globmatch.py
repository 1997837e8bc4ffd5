"""The pure glob matcher shared by config checks and the transcript walk."""

from __future__ import annotations

from pathlib import Path

import pytest

from daemon.kernel.globmatch import matches, reaches_below, static_folder


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("transcripts/*.jsonl", "transcripts/a.jsonl", True),
        ("transcripts/*.jsonl", "transcripts/x/a.jsonl", False),
        ("transcripts/**/*.jsonl", "transcripts/a.jsonl", True),
        ("transcripts/**/*.jsonl", "transcripts/x/y/a.jsonl", True),
        ("**/*.jsonl", ".metaeng/facts.jsonl", True),
        ("*", ".metaeng", True),
        ("*.md", "MEMORY.md", True),
        ("*.md", "memory.MD", False),
        ("a/**", "a/b/c", True),
        ("./transcripts//*.jsonl", "transcripts/a.jsonl", True),
        ("t/[ab].jsonl", "t/c.jsonl", False),
    ],
)
def test_matches_segment_by_segment_with_recursive_stars(pattern: str, path: str, expected: bool) -> None:
    assert matches(pattern, path) is expected


@pytest.mark.parametrize(
    ("pattern", "folder", "expected"),
    [
        ("**/*.jsonl", ".metaeng", True),
        ("transcripts/**/*.jsonl", ".metaeng", False),
        ("transcripts/*.jsonl", "transcripts", True),
        ("transcripts/*.jsonl", "transcripts/old", False),
        ("*/*.jsonl", "skills", True),
        ("*.jsonl", "skills", False),
        ("memory/**", "memory", True),
        ("x.jsonl", "", True),
    ],
)
def test_reaches_below_says_whether_a_folder_can_hold_a_match(
    pattern: str, folder: str, expected: bool
) -> None:
    assert reaches_below(pattern, folder) is expected


def test_static_folder_stops_at_the_first_wildcard() -> None:
    assert static_folder("transcripts/**/*.jsonl") == ("transcripts",)
    assert static_folder("a/b/*.jsonl") == ("a", "b")
    assert static_folder("*/b/x.jsonl") == ()
    assert static_folder("x.jsonl") == ()


@pytest.mark.parametrize("pattern", ["transcripts/**/*.jsonl", "*/*.jsonl", "**/*.md", "t/?.jsonl", "*"])
def test_agrees_with_pathlib_glob_on_files_of_a_real_tree(tmp_path: Path, pattern: str) -> None:
    for rel in (
        "transcripts/a.jsonl",
        "transcripts/x/b.jsonl",
        "transcripts/x/y/c.jsonl",
        ".metaeng/facts.jsonl",
        "t/1.jsonl",
        "t/12.jsonl",
        "MEMORY.md",
        "skills/s/SKILL.md",
    ):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("x", encoding="utf-8")
    files = [p for p in tmp_path.rglob("*") if p.is_file()]
    expected = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.glob(pattern) if p.is_file())
    assert (
        sorted(
            p.relative_to(tmp_path).as_posix()
            for p in files
            if matches(pattern, p.relative_to(tmp_path).as_posix())
        )
        == expected
    )
