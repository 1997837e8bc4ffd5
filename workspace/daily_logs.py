"""Daily logs: which ones a consolidation reads, and their de-duplication (pure, no model).

Daily logs are `<daily_logs>/YYYY-MM-DD.md`. The window is the last `daily_log_days` days
ending today (per the run's clock) or, with `daily_log_anchor: latest`, ending at the
newest log. Today's log (and any dated later) is never rewritten: the agent may still be
appending to it.

De-duplication is the most aggressive tidy-up and needs no model: reading the logs in
date order, a note (bullet, paragraph, table row or code block) whose normalised text
already appeared earlier in the window is removed; the first occurrence stays. Headings
are structure and always stay, so a day that only repeated old notes keeps its heading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta

from workspace.units import block_key, parse_blocks

# \Z, not $: a file named "2026-01-31.md\n" is not a daily log.
LOG_NAME = re.compile(r"(\d{4}-\d{2}-\d{2})\.md\Z")


@dataclass(frozen=True)
class RemovedNote:
    file: str
    line: int
    text: str
    first: str  # "path:line" of the occurrence that stays


@dataclass(frozen=True)
class Deduplicated:
    texts: dict[str, str]  # every log given, new text (unchanged ones too)
    removed: tuple[RemovedNote, ...]

    @property
    def changed(self) -> list[str]:
        return sorted({r.file for r in self.removed})


def log_date(folder: str, rel: str) -> date | None:
    """The date of a daily log directly inside `folder`, or None if `rel` is not one."""
    prefix = folder.rstrip("/") + "/"
    if not rel.startswith(prefix):
        return None
    match = LOG_NAME.match(rel[len(prefix) :])
    if not match:
        return None
    try:
        return date.fromisoformat(match.group(1))
    except ValueError:
        return None


def select_window(
    folder: str, paths: Iterable[str], today: date, days: int, anchor: str
) -> list[tuple[str, date]]:
    """The logs a consolidation may rewrite, oldest first."""
    dated = sorted((d, p) for p in paths if (d := log_date(folder, p)) is not None and d < today)
    if not dated:
        return []
    end = today if anchor == "today" else dated[-1][0]
    start = end - timedelta(days=days - 1)
    return [(p, d) for d, p in dated if start <= d <= end]


def deduplicate(logs: Sequence[tuple[str, str]]) -> Deduplicated:
    """Remove notes repeated earlier in `logs` (path, text), read in the order given."""
    seen: dict[str, str] = {}
    texts: dict[str, str] = {}
    removed: list[RemovedNote] = []
    for path, text in logs:
        lines = text.split("\n")
        drop: set[int] = set()  # 0-based line indexes
        for block in parse_blocks(text):
            key = block_key(block)
            if not key:
                continue
            if key not in seen:
                seen[key] = f"{path}:{block.start}"
                continue
            removed.append(RemovedNote(path, block.start, block.raw.strip(), seen[key]))
            drop.update(range(block.start - 1, block.end))
            before = block.start - 2
            after = block.end
            blank_before = before < 0 or not lines[before].strip() or before in drop
            if blank_before and after < len(lines) - 1 and not lines[after].strip():
                drop.add(after)
        if not drop:
            texts[path] = text
            continue
        kept = "\n".join(line for i, line in enumerate(lines) if i not in drop)
        # Removing the last notes must not leave a trail of blank lines at the end.
        texts[path] = kept.rstrip("\n") + "\n" if text.endswith("\n") else kept.rstrip("\n")
    return Deduplicated(texts, tuple(removed))
