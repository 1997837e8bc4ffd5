"""Per-file three-way merge of a fork: base = kept snapshot, ours = the copy, theirs = new original.

Base and theirs are raw original bytes; before comparing, the fork's path rewriting is
applied to both (text files only), exactly as it was applied to the copy, so rewritten
references are never seen as changes. Each path in base ∪ ours ∪ theirs gets one rule:

| case (b = base, o = ours, t = theirs)           | result                                   | rule                          |
| ----------------------------------------------- | ---------------------------------------- | ----------------------------- |
| o = t                                           | taken (unchanged, or identical change)   | `same` / `identical-change`   |
| o = b, t changed                                | theirs                                   | `theirs-changed`              |
| o = b = absent, t added                         | theirs (added upstream → kept)           | `added-upstream`              |
| o = b, t deleted                                | deleted (deleted upstream, unchanged here)| `deleted-upstream`           |
| t = b, o changed or added                       | ours (added here → kept)                 | `ours-changed` / `added-here` |
| t deleted, o changed                            | ours kept, reported                      | `deleted-upstream-changed-here` |
| o deleted, t changed                            | theirs restored, reported                | `deleted-here-changed-upstream` |
| text changed on both sides (or added on both)   | line-level three-way merge (git merge-file) | `text-merged`              |
| … with a true conflict                          | deep model; answer with no markers that keeps the guard passing and what each side says, dropping nothing both sides hold, else the fork stays pending (nothing merged, retried next pass) | `conflict` |
| binary changed on both sides                    | ours kept, reported                      | `binary-both-changed`         |

Only `conflict` needs the model; every other row is decided here, deterministically.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from daemon.kernel.textmerge import merge_text
from skills_engine.folders import is_text

REPORTED = {"deleted-upstream-changed-here", "deleted-here-changed-upstream", "binary-both-changed"}


@dataclass(frozen=True)
class FileDecision:
    path: str
    rule: str
    result: bytes | None  # None = the file is absent from the merged copy
    conflict_text: bytes | None = None  # git merge-file output with markers (rule `conflict`)
    ours: bytes | None = None
    base: bytes | None = None
    theirs: bytes | None = None

    @property
    def reported(self) -> bool:
        return self.rule in REPORTED


@dataclass(frozen=True)
class MergePlan:
    decisions: tuple[FileDecision, ...]
    merged: dict[str, bytes] = field(default_factory=dict)  # ours where a conflict is unresolved

    @property
    def conflicts(self) -> list[FileDecision]:
        return [d for d in self.decisions if d.rule == "conflict"]

    @property
    def deterministic(self) -> list[FileDecision]:
        return [d for d in self.decisions if d.rule != "conflict"]


def decide(path: str, b: bytes | None, o: bytes | None, t: bytes | None) -> FileDecision:
    """The rule and result for one path (see the table in the module docstring)."""
    if o == t:
        return FileDecision(path, "same" if o == b else "identical-change", o)
    if o == b:
        if t is None:
            return FileDecision(path, "deleted-upstream", None)
        return FileDecision(path, "added-upstream" if b is None else "theirs-changed", t)
    if t == b:
        return FileDecision(path, "added-here" if b is None else "ours-changed", o)
    if t is None:
        return FileDecision(path, "deleted-upstream-changed-here", o)
    if o is None:
        return FileDecision(path, "deleted-here-changed-upstream", t)
    if not (is_text(o) and is_text(t) and (b is None or is_text(b))):
        return FileDecision(path, "binary-both-changed", o)
    merged, conflicts = merge_text(o, b or b"", t)
    if conflicts:
        return FileDecision(path, "conflict", o, merged, o, b, t)
    return FileDecision(path, "text-merged", merged)


def plan_merge(
    base: Mapping[str, bytes], ours: Mapping[str, bytes], theirs: Mapping[str, bytes]
) -> MergePlan:
    """Decide every file; the merged copy keeps ours wherever a conflict is still open."""
    decisions = tuple(
        decide(path, base.get(path), ours.get(path), theirs.get(path))
        for path in sorted(base.keys() | ours.keys() | theirs.keys())
    )
    merged = {d.path: d.result for d in decisions if d.result is not None}
    return MergePlan(decisions, merged)
