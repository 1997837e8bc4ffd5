"""The preservation guard: has a machine-written fork lost something against its starting state?

A copy fails if, compared with the starting state its provenance records:
- `missing-file`: a file present at fork time (or at the last upstream merge) is gone;
- `text-shrunk`: a text file fell below half its starting size (files under 512 bytes at
  the start are exempt: small files legitimately change size a lot);
- `headings-lost`: `SKILL.md` lost more than a third of the original's section headings.

Only forks are checked: hand-written learned skills are never quarantined (a deliberate
substitution stays the reference, even shorter), and a skill the daemon created has no
original to fall back to.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from skills_engine.provenance import Provenance
from skills_engine.skillfile import SkillParseError, headings_of, normalise_heading, split_frontmatter

SMALL_FILE_BYTES = 512
SKILL_FILE = "SKILL.md"


@dataclass(frozen=True)
class GuardFailure:
    rule: str
    detail: str


def skill_headings(text: str) -> list[str]:
    """Headings of a SKILL.md body (the frontmatter's `# comments` are not headings)."""
    try:
        _front, _line, body, _body_line = split_frontmatter(text, SKILL_FILE)
    except SkillParseError:
        body = text
    return headings_of(body)


def lost_headings(original: list[str], current: list[str]) -> list[str]:
    """Original headings (with repeats) that no longer appear in `current`."""
    have = Counter(normalise_heading(h) for h in current)
    lost = []
    for heading in original:
        key = normalise_heading(heading)
        if have[key] > 0:
            have[key] -= 1
        else:
            lost.append(heading)
    return lost


def check_copy(record: Provenance, files: Mapping[str, bytes]) -> list[GuardFailure]:
    """Every rule the copy `files` breaks (empty when it passes, or when it is not a fork)."""
    if not record.is_fork or not record.machine_written:
        return []
    failures: list[GuardFailure] = []
    missing = sorted(rel for rel in record.copy_files if rel not in files)
    if missing:
        failures.append(
            GuardFailure(
                "missing-file", f"present at the starting state and now missing: {', '.join(missing)}"
            )
        )
    for rel, fact in sorted(record.copy_files.items()):
        current = files.get(rel)
        if current is None or not fact.text or fact.size < SMALL_FILE_BYTES:
            continue
        if len(current) * 2 < fact.size:
            failures.append(
                GuardFailure(
                    "text-shrunk", f"{rel} fell from {fact.size} to {len(current)} bytes (below half)"
                )
            )
    skill = files.get(SKILL_FILE)
    if record.headings and skill is not None:
        lost = lost_headings(record.headings, skill_headings(skill.decode("utf-8", "replace")))
        if len(lost) * 3 > len(record.headings):
            failures.append(
                GuardFailure(
                    "headings-lost",
                    f"SKILL.md lost {len(lost)} of the original's {len(record.headings)} headings "
                    f"(more than a third): {', '.join(lost)}",
                )
            )
    return failures
