"""A `git show --patch` text split per file into lines tagged for colouring (pure)."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_LINES_PER_FILE = 2000  # a year-sized fact store diff stays a page, not a megabyte of HTML
# (the run page also shows the diffs of its first 50 files only: a shard migration touches 4,096)


@dataclass
class DiffLine:
    kind: str  # add | del | hunk | meta | ctx
    text: str


@dataclass
class FileDiff:
    path: str
    lines: list[DiffLine] = field(default_factory=list)
    cut: int = 0  # lines left out beyond MAX_LINES_PER_FILE
    added: int = 0  # counted over every line, shown or cut
    removed: int = 0
    status: str = "M"  # A (created), D (deleted) or M, from the file's header
    binary: bool = False


_STATUS = {"new file": "A", "deleted file": "D"}  # `git show` header lines, before " mode 100644"


def _kind(line: str, in_hunk: bool) -> str:
    if not in_hunk:
        return "hunk" if line.startswith("@@") else "meta"
    if line.startswith("+"):
        return "add"
    if line.startswith("-"):
        return "del"
    if line.startswith("@@"):
        return "hunk"
    if line.startswith("\\"):
        return "meta"  # "\ No newline at end of file"
    return "ctx"


def split_patch(patch: str) -> list[FileDiff]:
    """Files of a unified diff, in order; text before the first `diff --git` is ignored."""
    files: list[FileDiff] = []
    current: FileDiff | None = None
    in_hunk = False  # before a file's first @@, +++/--- are its header, not changed lines
    for line in patch.splitlines():
        if line.startswith("diff --git "):
            path = line.split(" b/", 1)[-1] if " b/" in line else line[len("diff --git ") :]
            current = FileDiff(path)
            files.append(current)
            in_hunk = False
            continue
        if current is None:
            continue
        in_hunk = in_hunk or line.startswith("@@")
        kind = _kind(line, in_hunk)
        if not in_hunk:
            current.status = _STATUS.get(line.split(" mode ", 1)[0], current.status)
            current.binary = current.binary or (line.startswith("Binary files ") and line.endswith(" differ"))
        current.added += kind == "add"
        current.removed += kind == "del"
        if len(current.lines) >= MAX_LINES_PER_FILE:
            current.cut += 1
        else:
            current.lines.append(DiffLine(kind, line))
    return files
