"""What a merge must keep because every side kept it: headings, steps, sentences (pure, no I/O).

A merge written by the model — a conflict resolution of a fork and its upstream, the
canonical version of duplicate skills — may rewrite what the sides changed, never what
they all still hold. The texts are read as structure, not size (`markdown_blocks`):

| unit | what it is | kept when the merge … |
| --- | --- | --- |
| heading | a heading line, its level aside (the section it opens) | has a heading with the same text |
| step | a sentence of a numbered or bulleted item | holds it inside one of its blocks |
| sentence | a sentence of a paragraph | holds it inside one of its blocks |
| code | a fenced code block, exactly | holds it exactly |
| row | a table row | holds it inside one of its blocks |
| line | a line of the YAML frontmatter, or of a text that is not markdown (a script, data) | has the same line |

Units are compared by their key (`markdown_blocks.normalise`: case, whitespace, emphasis
and trailing punctuation aside; code, links and URLs byte for byte), and counted: a unit
every side holds twice must be there twice. "Inside one of its blocks" lets a merge join two
steps into one or add to a sentence (what it adds is the meaning check's concern), never
leave a unit out; a unit must match whole words at its edges ("done" is not in "abandoned").
No word list: the same for every language.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from daemon.text.markdown_blocks import normalise, parse_blocks, sentences

UnitKind = Literal["heading", "step", "sentence", "code", "row", "line"]
LABEL = {
    "heading": "section",
    "step": "step",
    "sentence": "sentence",
    "code": "code block",
    "row": "table row",
    "line": "line",
}
SHOWN = 80
EXACT = ("heading", "line")  # counted as whole units, not found inside a block


@dataclass(frozen=True)
class Kept:
    """One unit of a text: its kind, its text as written, its key, the key of the heading it is
    under ("" before the first) and, for a heading, its level (0 otherwise)."""

    kind: UnitKind
    text: str
    key: str
    section: str = ""
    level: int = 0

    def label(self) -> str:
        text = " ".join(self.text.split())
        shown = text if len(text) <= SHOWN else text[: SHOWN - 1] + "…"
        return f"{LABEL[self.kind]} “{shown}”"


@dataclass(frozen=True)
class Reading:
    """A text read as units, with what the units of another text are looked up in."""

    units: tuple[Kept, ...]
    blocks: str  # the keys of its blocks, one a line: where a step or sentence is found
    exact: Counter[tuple[str, str]]  # (kind, key) of its headings and lines

    def count(self, unit: Kept) -> int:
        """How often `unit` is in this text (see the module docstring)."""
        if unit.kind in EXACT:
            return self.exact[(unit.kind, unit.key)]
        return _occurrences(self.blocks, unit.key)


def _occurrences(haystack: str, key: str) -> int:
    """Non-overlapping occurrences of `key` in `haystack` whose word edges are whole."""
    found, start = 0, 0
    while key:
        at = haystack.find(key, start)
        if at < 0:
            break
        end = at + len(key)
        before = haystack[at - 1] if at else " "
        after = haystack[end] if end < len(haystack) else " "
        if not (key[0].isalnum() and before.isalnum()) and not (key[-1].isalnum() and after.isalnum()):
            found += 1
            start = end
        else:
            start = at + 1
    return found


def _frontmatter(text: str) -> tuple[list[str], str]:
    """(the YAML frontmatter's lines, the rest) of a markdown text; no lines if it has none."""
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        for index in range(1, len(lines)):
            if lines[index].strip() == "---":
                return lines[1:index], "\n".join(lines[index + 1 :])
    return [], text


def read(text: str, markdown: bool = True) -> Reading:
    """The units of `text`: of markdown (with an optional YAML frontmatter) by its structure,
    of any other text by its non-blank lines."""
    if not markdown:
        keys = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
        units = tuple(Kept("line", key, key) for key in keys)
        return Reading(units, "", Counter(("line", key) for key in keys))
    front, body = _frontmatter(text)
    found = [Kept("line", line, normalise(line)) for line in front if line.strip()]
    blocks: list[str] = []
    section = ""
    for block in parse_blocks(body):
        if block.kind == "heading":
            hashes = block.text.lstrip("#")
            level = len(block.text) - len(hashes)
            title = hashes.strip().rstrip("#").strip()
            section = normalise(title)
            found.append(Kept("heading", title, section, section, level))
        elif block.kind == "code":
            found.append(Kept("code", block.raw, block.raw, section))
            blocks.append(block.raw)
        elif block.kind in ("bullet", "paragraph", "row"):
            blocks.append(normalise(block.text))
            parts = [block.text] if block.kind == "row" else sentences(block.text)
            kind: UnitKind = (
                "step" if block.kind == "bullet" else "row" if block.kind == "row" else "sentence"
            )
            found += [Kept(kind, part, normalise(part), section) for part in parts if normalise(part)]
    exact: Counter[tuple[str, str]] = Counter((u.kind, u.key) for u in found if u.kind in EXACT)
    return Reading(tuple(found), "\n".join(blocks), exact)


def dropped(
    sides: Sequence[str],
    merged: str,
    *,
    markdown: bool = True,
    counts: Callable[[Kept], bool] = lambda unit: True,
) -> list[Kept]:
    """The units every text of `sides` holds that `merged` holds fewer times than each of them
    does (each once, in the order of the first side), among those `counts` accepts; empty
    when the merge keeps what every side kept."""
    if not sides:
        return []
    readings = [read(text, markdown) for text in sides]
    after = read(merged, markdown)
    lost: dict[tuple[str, str], Kept] = {}
    for unit in readings[0].units:
        ident = (unit.kind, unit.key)
        if ident in lost or not counts(unit):
            continue
        need = min(reading.count(unit) for reading in readings)
        if need and after.count(unit) < need:
            lost[ident] = unit
    return list(lost.values())


def describe(units: Iterable[Kept], limit: int = 5) -> str:
    """The dropped units in one phrase: `section “Notes”, sentence “Be kind.”` (at most `limit`)."""
    units = list(units)
    shown = ", ".join(u.label() for u in units[:limit])
    return shown + (f" and {len(units) - limit} more" if len(units) > limit else "")
