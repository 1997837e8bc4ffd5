"""A markdown file as numbered units and headings, and back to text (pure, no I/O).

A consolidation addresses what it may change by unit id: every block that carries units
(see `workspace.units`: a bullet item with its indented continuation lines, a paragraph,
a table row, a fenced code block) is one *numbered unit* `PATH#N`, numbered from 1 in
file order. Headings are structure the edits may add to; rules, table separators and blank
lines are kept as they are. `render` of a document's own items gives its text back byte
for byte, so whatever an edit does not touch stays exactly as written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal

from workspace.units import BULLET, HEADING, BlockKind, normalise, parse_blocks

ItemKind = Literal["gap", "heading", "unit", "other"]
UNIT_BLOCKS = ("bullet", "paragraph", "row", "code")
HEADING_MARKS = re.compile(r"^\s{0,3}(#{1,6})\s*(.*?)\s*#*\s*$")
QUOTE_PREFIX = re.compile(r"^\s*(?:>\s?)*")
PREAMBLE = -2  # the "heading" of what sits before a file's first heading


@dataclass(frozen=True)
class Item:
    """A run of lines of a file: blank lines (`gap`), a heading, a numbered unit, or other."""

    kind: ItemKind
    lines: tuple[str, ...]
    uid: str = ""  # units: PATH#N
    block: BlockKind | None = None  # units: bullet, paragraph, row or code
    text: str = ""  # units: the block's text (markers stripped); headings: the title
    level: int = 0  # headings: 1 for `#`, 2 for `##`, ...
    had_units: bool = False  # headings: its section held a unit before any edit
    new: bool = False  # placed by an edit: set apart from its neighbours by a blank line

    @property
    def raw(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class Document:
    path: str
    items: tuple[Item, ...]
    trailing_newline: bool
    crlf: bool

    def units(self) -> list[Item]:
        return [i for i in self.items if i.kind == "unit"]

    def sections(self) -> list[int]:
        """Per item, the index of the heading it sits under (PREAMBLE before the first)."""
        current = PREAMBLE
        found = []
        for index, item in enumerate(self.items):
            if item.kind == "heading":
                current = index
            found.append(current)
        return found

    def eol(self, line: str) -> str:
        """`line` with the file's line ending (CRLF files keep CRLF in new lines)."""
        return line + "\r" if self.crlf and not line.endswith("\r") else line


def heading_key(title: str) -> str:
    """What two headings are compared by: the title normalised, without `#` marks."""
    match = HEADING_MARKS.match(title)
    return normalise(match.group(2) if match else title.strip())


def _heading(line: str) -> tuple[int, str]:
    match = HEADING_MARKS.match(line.rstrip("\r"))
    assert match is not None
    return len(match.group(1)), match.group(2)


def parse(path: str, text: str) -> Document:
    """The items of `text`, its units numbered `path#1`, `path#2`, ... in order."""
    trailing = text.endswith("\n") or not text
    lines = (text[:-1] if text.endswith("\n") else text).split("\n") if text else []
    crlf = bool(lines) and sum(line.endswith("\r") for line in lines) * 2 > len(lines)
    items: list[Item] = []
    line = 0
    number = 0
    for block in parse_blocks("\n".join(lines)):
        if block.start - 1 > line:
            items.append(Item("gap", tuple(lines[line : block.start - 1])))
        own = tuple(lines[block.start - 1 : block.end])
        if block.kind in UNIT_BLOCKS:
            number += 1
            items.append(Item("unit", own, uid=f"{path}#{number}", block=block.kind, text=block.text))
        elif block.kind == "heading" and HEADING.match(own[0]):
            level, title = _heading(own[0])
            items.append(Item("heading", own, text=title, level=level))
        else:
            items.append(Item("other", own))
        line = block.end
    if line < len(lines):
        items.append(Item("gap", tuple(lines[line:])))
    return Document(path, tuple(_mark_sections(items)), trailing, crlf)


def reshaped(unit: Item, text: str, doc: Document) -> Item | None:
    """`unit` carrying `text` instead, shaped like it: same bullet marker and indentation, or
    quote marks, on one line; a code block keeps the lines given. None if `text` is empty."""
    head = unit.lines[0].rstrip("\r")
    if not text.strip():
        return None
    if unit.block == "code":
        lines = text.strip("\n").split("\n")
    else:
        flat = " ".join(text.split())
        if unit.block == "bullet":
            marker, inner = BULLET.match(head), BULLET.match(flat)
            flat = inner.group(3) if inner else flat
            flat = f"{marker.group(1)}{marker.group(2)} {flat}" if marker else flat
        elif unit.block == "paragraph":
            prefix = QUOTE_PREFIX.match(head)
            flat = (prefix.group(0) if prefix else "") + flat
        lines = [flat]
    blocks = parse_blocks("\n".join(lines))
    new_text = blocks[0].text if len(blocks) == 1 else "\n".join(lines)
    return replace(unit, lines=tuple(doc.eol(line) for line in lines), text=new_text)


def _mark_sections(items: list[Item]) -> list[Item]:
    """Headings whose section (up to the next heading of the same or a higher level) has units."""
    marked = list(items)
    for index, item in enumerate(items):
        if item.kind != "heading":
            continue
        for later in items[index + 1 :]:
            if later.kind == "heading" and later.level <= item.level:
                break
            if later.kind == "unit":
                marked[index] = replace(item, had_units=True)
                break
    return marked


def _drop_emptied_headings(items: list[Item]) -> list[Item]:
    """Remove a sub-heading (level 2 or deeper) whose section the edits emptied of units."""
    kept: list[Item] = []
    for index, item in enumerate(items):
        if item.kind == "heading" and item.level >= 2 and item.had_units:
            has_units = False
            for later in items[index + 1 :]:
                if later.kind == "heading" and later.level <= item.level:
                    break
                has_units = has_units or later.kind == "unit"
            if not has_units:
                continue
        kept.append(item)
    return kept


def _spaced(before: Item, after: Item) -> bool:
    """Whether an edit placing these two side by side needs a blank line between them."""
    if not (before.new or after.new):
        return False
    same_list = before.kind == after.kind == "unit" and before.block == after.block in ("bullet", "row")
    return not same_list


def render(original: Document, items: Sequence[Item]) -> str:
    """The text of `items`, laid out like `original` (its line ending, final newline, edges).

    Blank lines never pile up where units were removed, and an item an edit placed is set
    apart by one blank line from its neighbours unless both are bullets or both table rows.
    """
    cleaned: list[Item] = []
    for item in _drop_emptied_headings(list(items)):
        after_gap = bool(cleaned) and cleaned[-1].kind == "gap"
        if item.kind == "gap" and (after_gap or (not cleaned and original.items[:1] != (item,))):
            continue  # a blank run right after another, or a new one at the very start
        if cleaned and item.kind != "gap" and cleaned[-1].kind != "gap" and _spaced(cleaned[-1], item):
            cleaned.append(Item("gap", (original.eol(""),)))
        cleaned.append(item)
    if cleaned and cleaned[-1].kind == "gap" and not (original.items and original.items[-1].kind == "gap"):
        cleaned.pop()
    text = "\n".join(line for item in cleaned for line in item.lines)
    return text + "\n" if original.trailing_newline and cleaned else text
