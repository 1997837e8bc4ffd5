"""Lossless tidying of the skills the daemon wrote itself (the library pass's "improve" step).

For machine-written skills it created or merged (never forks, whose updates stay
additive, never hand-written ones): steps are renumbered 1..n when the numbering is off,
and a step that repeats an earlier one word for word is removed. Nothing else changes.
"""

from __future__ import annotations

import re

from skills_engine.skillfile import steps_of
from skills_engine.step_key import step_key


def tidy_skill(text: str) -> tuple[str, list[str]]:
    """(tidied SKILL.md text, what was done); the text is unchanged when nothing needs doing."""
    steps = steps_of(text)
    if not steps:
        return text, []
    lines = text.split("\n")
    notes: list[str] = []
    seen: set[str] = set()
    drop: set[int] = set()
    for step in steps:
        key = step_key(step.text)
        single = step.line >= len(lines) or not lines[step.line].startswith("    ")
        if key in seen and single:
            drop.add(step.line - 1)
            notes.append(f"removed repeated step {step.number}: {step.text}")
        seen.add(key)
    number = 0
    renumbered = False
    for step in steps:
        index = step.line - 1
        if index in drop:
            continue
        number += 1
        if step.number != number:
            lines[index] = re.sub(r"^( {0,3})\d{1,4}([.)])", rf"\g<1>{number}\g<2>", lines[index], count=1)
            renumbered = True
    if renumbered:
        notes.append("renumbered steps 1..n")
    return "\n".join(line for i, line in enumerate(lines) if i not in drop), notes
