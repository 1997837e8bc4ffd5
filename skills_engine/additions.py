"""Additive edits of a skill: new steps, new or extended sections, text appended to a file.

Updates to a learned skill — a fork above all — only ever add: existing lines are kept
byte for byte and in order, so an update can never shorten a skill or drop a heading.
Steps already present (the same `step_key`: numbering, case, whitespace and plain
punctuation aside, symbols kept) are not added twice.
"""

from __future__ import annotations

from collections.abc import Sequence

from skills_engine.skillfile import HEADING, STEP, normalise_heading, parse, steps_of
from skills_engine.step_key import step_key


def new_steps(existing: Sequence[str], proposed: Sequence[str]) -> list[str]:
    """`proposed` steps not already in `existing` (nor repeated), whitespace collapsed."""
    seen = {step_key(s) for s in existing}
    out = []
    for step in proposed:
        text = " ".join(step.split())
        key = step_key(text)
        if text and key and key not in seen:
            seen.add(key)
            out.append(text)
    return out


def _insert_steps(lines: list[str], text: str, steps: Sequence[str]) -> list[str]:
    doc_steps = steps_of(text)
    if not doc_steps:
        return [*lines, "", "## Steps", *[f"{i}. {s}" for i, s in enumerate(steps, start=1)]]
    last = doc_steps[-1]
    index = last.line  # 1-based line of the last step → insert after it and its continuation
    while (
        index < len(lines)
        and lines[index].startswith("    ")
        and lines[index].strip()
        and not STEP.match(lines[index])
    ):
        index += 1
    numbered = [f"{last.number + i}. {s}" for i, s in enumerate(steps, start=1)]
    return [*lines[:index], *numbered, *lines[index:]]


def _section_end(lines: list[str], start: int, level: int) -> int:
    fenced = False
    for index in range(start + 1, len(lines)):
        if lines[index].lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        match = None if fenced else HEADING.match(lines[index])
        if match and len(match.group(1)) <= level:
            return index
    return len(lines)


def _add_section(lines: list[str], heading: str, body: str) -> list[str]:
    wanted = normalise_heading(heading)
    fenced = False
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        match = None if fenced else HEADING.match(line)
        if match and normalise_heading(match.group(2)) == wanted:
            end = _section_end(lines, index, len(match.group(1)))
            while end > index + 1 and not lines[end - 1].strip():
                end -= 1
            return [*lines[:end], "", *body.strip().splitlines(), *lines[end:]]
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return [*lines, "", f"## {' '.join(heading.split())}", "", *body.strip().splitlines()]


def extend_skill(text: str, steps: Sequence[str], sections: Sequence[tuple[str, str]]) -> str:
    """SKILL.md `text` with `steps` appended to its numbered steps and `sections` added."""
    doc = parse(text, "SKILL.md")
    lines = text.rstrip("\n").split("\n")
    fresh = new_steps([s.text for s in doc.steps], steps)
    if fresh:
        lines = _insert_steps(lines, text, fresh)
    for heading, body in sections:
        if body.strip() and body.strip() not in "\n".join(lines):
            lines = _add_section(lines, heading, body)
    return "\n".join(lines) + "\n"


def append_text(data: bytes, addition: str) -> bytes:
    """A text file with `addition` appended as its own paragraph (unless already present)."""
    text = data.decode("utf-8")
    if addition.strip() in text:
        return data
    return (text.rstrip("\n") + "\n\n" + addition.strip() + "\n").encode("utf-8")
