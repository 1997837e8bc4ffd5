"""Line regions of a three-way change: where ours and theirs each changed the base (pure, no I/O).

A diff3 of lines: a base line matched on both sides (`difflib.SequenceMatcher`, no
autojunk) is stable; the runs between stable lines are regions, each classified by who
changed it:

| kind | ours vs base | theirs vs base |
| --- | --- | --- |
| `stable` | same | same |
| `ours` | changed | same |
| `theirs` | same | changed |
| `same` | changed | changed identically |
| `conflict` | changed | changed differently |

Regions partition each of the three texts in order, so a per-region count adds up to the
whole text's count for anything read within a line.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

Kind = Literal["stable", "ours", "theirs", "same", "conflict"]


@dataclass(frozen=True)
class Region:
    kind: Kind
    base: tuple[str, ...]
    ours: tuple[str, ...]
    theirs: tuple[str, ...]

    def added(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(lines ours added or rewrote, lines theirs added or rewrote) in this region."""
        in_ours, in_theirs = _matched(self.base, self.ours), _matched(self.base, self.theirs)
        kept_ours, kept_theirs = set(in_ours.values()), set(in_theirs.values())
        return (
            tuple(line for i, line in enumerate(self.ours) if i not in kept_ours),
            tuple(line for i, line in enumerate(self.theirs) if i not in kept_theirs),
        )

    def rewritten_by_both(self) -> bool:
        """Whether a base line of this region was changed or removed by both sides."""
        in_ours, in_theirs = _matched(self.base, self.ours), _matched(self.base, self.theirs)
        return any(i not in in_ours and i not in in_theirs for i in range(len(self.base)))


def _matched(base: Sequence[str], other: Sequence[str]) -> dict[int, int]:
    """Base line index → the index of the line it is matched with in `other`."""
    matcher = SequenceMatcher(None, base, other, autojunk=False)
    return {block.a + k: block.b + k for block in matcher.get_matching_blocks() for k in range(block.size)}


def _kind(base: tuple[str, ...], ours: tuple[str, ...], theirs: tuple[str, ...]) -> Kind:
    if ours == base and theirs == base:
        return "stable"
    if ours == base:
        return "theirs"
    if theirs == base:
        return "ours"
    return "same" if ours == theirs else "conflict"


def shared_lines(ours: Sequence[str], theirs: Sequence[str]) -> tuple[str, ...]:
    """The lines `ours` and `theirs` have in common, in order (each counted once)."""
    matcher = SequenceMatcher(None, ours, theirs, autojunk=False)
    return tuple(
        line for block in matcher.get_matching_blocks() for line in ours[block.a : block.a + block.size]
    )


def regions(base: Sequence[str], ours: Sequence[str], theirs: Sequence[str]) -> list[Region]:
    """The regions of `base` → `ours` / `theirs`, in order; consecutive stable lines form one region."""
    in_ours, in_theirs = _matched(base, ours), _matched(base, theirs)
    found: list[Region] = []
    b = o = t = 0

    def add(kind: Kind, rb: Sequence[str], ro: Sequence[str], rt: Sequence[str]) -> None:
        if found and found[-1].kind == "stable" == kind:
            last = found.pop()
            rb, ro, rt = (*last.base, *rb), (*last.ours, *ro), (*last.theirs, *rt)
        found.append(Region(kind, tuple(rb), tuple(ro), tuple(rt)))

    for i in range(len(base)):
        if i not in in_ours or i not in in_theirs:
            continue
        # Matching blocks are monotonic on both sides, so anchors never cross.
        chunk = tuple(base[b:i]), tuple(ours[o : in_ours[i]]), tuple(theirs[t : in_theirs[i]])
        if any(chunk):
            add(_kind(*chunk), *chunk)
        add("stable", [base[i]], [ours[in_ours[i]]], [theirs[in_theirs[i]]])
        b, o, t = i + 1, in_ours[i] + 1, in_theirs[i] + 1
    chunk = tuple(base[b:]), tuple(ours[o:]), tuple(theirs[t:])
    if any(chunk):
        add(_kind(*chunk), *chunk)
    return found
