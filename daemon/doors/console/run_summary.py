"""What a run changed, per file, in words (pure): the lines a run page opens with.

`memory facts: 3 facts added, 1 superseded`, `skills/x/SKILL.md: created`,
`AGENTS.md: 2 lines changed`. Counted from the run's per-file diff (`diff.split_patch`):
fact records by their `id` (a record whose new version gains `valid_to` is superseded),
other files by line. The daemon's own files (`.metaeng/…`, the fact store aside) are
internal: the run page shows them, collapsed, below the files a person cares about.
All of the wording is in PHRASES and COUNTED.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from daemon.doors.console.diff import FileDiff
from daemon.kernel.paths import META_DIR

REVIEW_DIR = f"{META_DIR}/review/"

PHRASES = {
    "created": "created",
    "deleted": "deleted",
    "binary": "binary file changed",
    "no_lines": "no line changed (mode only)",
    "proposal_A": "review proposal opened",
    "proposal_M": "review proposal updated",
    "proposal_D": "review proposal removed",
    "partial": "{words} (in the first {shown} lines of the diff)",
}
COUNTED = {  # (one, many)
    "facts_added": ("{n} fact added", "{n} facts added"),
    "facts_superseded": ("{n} superseded", "{n} superseded"),
    "facts_updated": ("{n} updated", "{n} updated"),
    "facts_removed": ("{n} removed", "{n} removed"),
    "lines_changed": ("{n} line changed", "{n} lines changed"),
    "lines_added": ("{n} line added", "{n} lines added"),
    "lines_removed": ("{n} line removed", "{n} lines removed"),
    "more_added": ("{n} added", "{n} added"),
    "more_removed": ("{n} removed", "{n} removed"),
}


@dataclass(frozen=True)
class FileSummary:
    path: str
    words: str
    internal: bool


def _count(key: str, n: int) -> str:
    one, many = COUNTED[key]
    return (one if n == 1 else many).format(n=n)


def _joined(parts: Iterable[tuple[str, int]]) -> str:
    return ", ".join(_count(key, n) for key, n in parts if n)


def is_fact_store(path: str, fact_store: str) -> bool:
    return path == fact_store or path.startswith(f"{fact_store}.d/")


def is_internal(path: str, fact_store: str) -> bool:
    """The daemon's own bookkeeping (review queue, cursors, fork bases), not the fact store."""
    return path.startswith(f"{META_DIR}/") and not is_fact_store(path, fact_store)


def _records(diff: FileDiff, kind: str) -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for line in diff.lines:
        if line.kind != kind:
            continue
        try:
            record = json.loads(line.text[1:])
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            found[record["id"]] = record
    return found


def fact_words(diffs: Sequence[FileDiff]) -> str:
    """Facts added, superseded (newly given `valid_to`), updated and removed, by record id."""
    added: dict[str, dict[str, object]] = {}
    removed: dict[str, dict[str, object]] = {}
    for diff in diffs:
        added.update(_records(diff, "add"))
        removed.update(_records(diff, "del"))
    both = added.keys() & removed.keys()
    superseded = sum(1 for i in both if added[i].get("valid_to") is not None and removed[i].get("valid_to") is None)
    return _joined(
        [
            ("facts_added", len(added.keys() - removed.keys())),
            ("facts_superseded", superseded),
            ("facts_updated", len(both) - superseded),
            ("facts_removed", len(removed.keys() - added.keys())),
        ]
    )


def line_words(diff: FileDiff) -> str:
    """A file by its status, else its lines: changed (one removed for one added), then the rest."""
    if diff.path.startswith(REVIEW_DIR):
        return PHRASES[f"proposal_{diff.status}"]
    if diff.status == "A":
        return PHRASES["created"]
    if diff.status == "D":
        return PHRASES["deleted"]
    if diff.binary:
        return PHRASES["binary"]
    changed = min(diff.added, diff.removed)
    if not changed:
        words = _joined([("lines_added", diff.added), ("lines_removed", diff.removed)])
    else:
        words = _joined(
            [("lines_changed", changed), ("more_added", diff.added - changed), ("more_removed", diff.removed - changed)]
        )
    return words or PHRASES["no_lines"]


def summarise(files: Sequence[FileDiff], fact_store: str) -> list[FileSummary]:
    """One summary per file, except the fact store's files (one or many shards): one line,
    first, labelled with the store's path. Person-facing files come before internal ones."""
    facts = [f for f in files if is_fact_store(f.path, fact_store)]
    summaries: list[FileSummary] = []
    if facts:
        words = fact_words(facts) or line_words(facts[0])
        shown = sum(len(f.lines) for f in facts)
        if any(f.cut for f in facts):
            words = PHRASES["partial"].format(words=words, shown=shown)
        summaries.append(FileSummary(fact_store, words, internal=False))
    for diff in files:
        if not is_fact_store(diff.path, fact_store):
            summaries.append(FileSummary(diff.path, line_words(diff), is_internal(diff.path, fact_store)))
    return sorted(summaries, key=lambda s: s.internal)  # stable: the diff's order within each group
