"""A `git show --patch` text split per file into lines tagged for colouring (pure)."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_LINES_PER_FILE = 2000  # a year-sized fact store diff stays a page, not a megabyte of HTML


@dataclass
class DiffLine:
    kind: str  # add | del | hunk | meta | ctx
    text: str


@dataclass
class FileDiff:
    path: str
    lines: list[DiffLine] = field(default_factory=list)
    cut: int = 0  # lines left out beyond MAX_LINES_PER_FILE

    @property
    def added(self) -> int:
        return sum(1 for line in self.lines if line.kind == "add")

    @property
    def removed(self) -> int:
        return sum(1 for line in self.lines if line.kind == "del")


def _kind(line: str) -> str:
    if line.startswith(("+++", "---")):
        return "meta"
    if line.startswith("+"):
        return "add"
    if line.startswith("-"):
        return "del"
    if line.startswith("@@"):
        return "hunk"
    if line.startswith(("index ", "new file", "deleted file", "Binary files", "similarity", "old mode", "new mode")):
        return "meta"
    return "ctx"


def split_patch(patch: str) -> list[FileDiff]:
    """Files of a unified diff, in order; text before the first `diff --git` is ignored."""
    files: list[FileDiff] = []
    current: FileDiff | None = None
    for line in patch.splitlines():
        if line.startswith("diff --git "):
            path = line.split(" b/", 1)[-1] if " b/" in line else line[len("diff --git ") :]
            current = FileDiff(path)
            files.append(current)
            continue
        if current is None:
            continue
        if len(current.lines) >= MAX_LINES_PER_FILE:
            current.cut += 1
            continue
        current.lines.append(DiffLine(_kind(line), line))
    return files
