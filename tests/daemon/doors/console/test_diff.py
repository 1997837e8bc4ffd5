"""Splitting a patch into coloured lines per file."""

from __future__ import annotations

from daemon.doors.console.diff import MAX_LINES_PER_FILE, split_patch

PATCH = """commit abc
Run-Id: x

diff --git a/notes.md b/notes.md
index 1..2 100644
--- a/notes.md
+++ b/notes.md
@@ -1,3 +1,3 @@
 # notes
--- a removed line that starts with two dashes
+++ an added line that starts with two pluses
\\ No newline at end of file
diff --git a/new.md b/new.md
new file mode 100644
--- /dev/null
+++ b/new.md
@@ -0,0 +1 @@
+hello
"""


def test_header_lines_are_meta_and_changed_lines_keep_their_kind_whatever_they_start_with() -> None:
    first, second = split_patch(PATCH)
    assert first.path == "notes.md" and second.path == "new.md"
    assert [(line.kind, line.text[:4]) for line in first.lines] == [
        ("meta", "inde"),
        ("meta", "--- "),
        ("meta", "+++ "),
        ("hunk", "@@ -"),
        ("ctx", " # n"),
        ("del", "--- "),
        ("add", "+++ "),
        ("meta", "\\ No"),
    ]
    assert (first.added, first.removed, second.added, second.removed) == (1, 1, 1, 0)


def test_a_huge_file_diff_is_cut_but_counted_in_full() -> None:
    body = "".join(f"+line {n}\n" for n in range(MAX_LINES_PER_FILE + 10))
    (diff,) = split_patch(f"diff --git a/f b/f\n@@ -0,0 +1 @@\n{body}")
    assert len(diff.lines) == MAX_LINES_PER_FILE and diff.cut == 11
    assert diff.added == MAX_LINES_PER_FILE + 10
