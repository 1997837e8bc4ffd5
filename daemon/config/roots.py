"""Explicit transcript roots against other agents' homes and the daemon's state (pure, on paths).

An agent's own home may contain its transcript root or sit inside it — the glob check in
`daemon.config.overlap` then decides what the glob may reach. Another agent's home may do
neither, and the state folder may do neither: transcripts of one agent are never read as
another's, and the daemon's own files are never read as transcripts.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path


def _nested(inner: Path, outer: Path) -> bool:
    return inner == outer or outer in inner.parents


def relative_inside(inner: Path, outer: Path) -> str | None:
    """`inner` relative to `outer` (`.` when equal) if it is `outer` or inside it, else None."""
    return inner.relative_to(outer).as_posix() if _nested(inner, outer) else None


def root_problems(
    roots: Mapping[str, tuple[Path, str]], homes: Mapping[str, Path], state_dir: Path | None
) -> list[str]:
    """Explicit transcript roots (agent → (root, origin)) that overlap another agent's home or the state.

    An agent's own home may contain its root or sit inside it (the glob check decides
    then); another agent's home may do neither: its transcripts are its own. A state
    folder of None (it could not be resolved, already a problem) is not checked.
    """
    problems: list[str] = []
    by_home: dict[Path, list[str]] = {}
    for name in sorted(homes):
        by_home.setdefault(homes[name], []).append(name)
    by_root: dict[Path, list[str]] = {}
    for name in sorted(roots):
        by_root.setdefault(roots[name][0], []).append(name)
    # Ancestor look-ups in a map, not every pair: a thousand agents stay fast.
    clashes: set[tuple[str, str]] = set()
    for name, (root, _origin) in roots.items():
        for folder in (root, *root.parents):
            clashes.update((name, other) for other in by_home.get(folder, ()) if other != name)
    for other, home in homes.items():
        for folder in home.parents:
            clashes.update((name, other) for name in by_root.get(folder, ()) if name != other)
    for name, other in sorted(clashes):
        root, origin = roots[name]
        problems.append(
            f"agents.{name}.transcripts.root ({origin}): {root} overlaps the home of agent {other} "
            f"({homes[other]}); an agent's transcripts are its own"
        )
    if state_dir is None:
        return problems
    for name in sorted(roots):
        root, origin = roots[name]
        if _nested(root, state_dir) or _nested(state_dir, root):
            problems.append(
                f"agents.{name}.transcripts.root ({origin}): {root} overlaps the state folder "
                f"{state_dir}; keep the daemon's state and transcripts apart"
            )
    return problems
