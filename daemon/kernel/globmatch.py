"""A pure matcher for transcript globs against relative paths (no file system).

Config checks and the transcript walk ask the same question — "can this glob name that
path?" — so both use this one matcher. Semantics, segment by segment:

- a path and a glob split on `/`; empty and `.` segments are dropped;
- a segment that is exactly `**` matches zero or more whole segments, anywhere (also at
  the end, where it matches files at any depth);
- any other segment matches one path segment with `fnmatch` rules, case-sensitively;
  `*` and `?` match a leading dot too (as pathlib's glob does), never a `/`.
"""

from __future__ import annotations

from collections.abc import Iterable
from fnmatch import fnmatchcase

RECURSIVE = "**"
WILDCARD_CHARS = "*?["

Segments = tuple[str, ...]


def split(path: str) -> Segments:
    """The segments of a relative path or glob, without empty and `.` segments."""
    return tuple(part for part in path.split("/") if part not in ("", "."))


def has_wildcard(segment: str) -> bool:
    return any(c in segment for c in WILDCARD_CHARS)


def static_folder(pattern: str) -> Segments:
    """The leading folder segments of `pattern` that hold no wildcard (never the last segment)."""
    parts = split(pattern)[:-1]
    static: list[str] = []
    for part in parts:
        if has_wildcard(part):
            break
        static.append(part)
    return tuple(static)


def _closure(pattern: Segments, states: Iterable[int]) -> set[int]:
    """States plus those reachable by letting `**` match zero segments."""
    found: set[int] = set()
    todo = list(states)
    while todo:
        state = todo.pop()
        if state in found:
            continue
        found.add(state)
        if state < len(pattern) and pattern[state] == RECURSIVE:
            todo.append(state + 1)
    return found


def _after(pattern: Segments, path: Segments) -> set[int]:
    """Every position in `pattern` reachable after consuming all of `path` (closed under `**`)."""
    states = _closure(pattern, (0,))
    for segment in path:
        following: set[int] = set()
        for state in states:
            if state >= len(pattern):
                continue
            if pattern[state] == RECURSIVE:
                following.add(state)
            elif fnmatchcase(segment, pattern[state]):
                following.add(state + 1)
        states = _closure(pattern, following)
        if not states:
            break
    return states


def matches(pattern: str, path: str | Segments) -> bool:
    """True if `pattern` matches the whole relative `path`."""
    segments = split(path) if isinstance(path, str) else path
    glob = split(pattern)
    return len(glob) in _after(glob, segments)


def reaches_below(pattern: str, folder: str | Segments) -> bool:
    """True if `pattern` could match some path strictly inside the relative `folder`.

    `folder` empty means the base itself: any non-empty pattern reaches below it.
    """
    segments = split(folder) if isinstance(folder, str) else folder
    glob = split(pattern)
    return any(state < len(glob) for state in _after(glob, segments))
