"""Apply a consolidation's edit operations to the role files, deterministically (pure).

Operations (`workspace.consolidate_model`) name numbered units (`workspace.numbered`) and
run in the order given:

- `merge`: the first unit's block takes the new text (same bullet marker, indentation or
  quote marks), the others are removed;
- `drop_duplicate`: the unit is removed; the unit it duplicates stays as it is;
- `move`: the unit goes to the end of the direct content of the heading in the target file
  (matched by its normalised title; a heading not there is created at the end of the file,
  `##` under a `#` title; an empty heading means the end of the file);
- `group`: like `move`, for several units, into the first unit's file; a unit already
  directly under that heading stays where it is.

A heading created that way must be an existing heading of the role files or a short label
made of the words of the units under it (`workspace.headings`): headings are structure,
which the loss check does not read.

Every line not part of a named unit stays byte for byte, in order; blank lines do not pile
up where units left, and a sub-heading whose section lost all its units is removed.
Whatever was removed is declared as merged into the unit that carries it now, so the loss
check (`workspace.loss_check.check`) can verify it. A unit id that does not exist, that
was not sent in the same request, or that an earlier operation already removed, a path
that is not a role file, and a heading `workspace.headings` refuses, refuse the whole
answer (`EditRefused` lists every reason).
"""

from __future__ import annotations

import textwrap
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace

from daemon.kernel.errors import PathRefused
from daemon.kernel.view import check_relative
from workspace import headings
from workspace.consolidate_model import DropDuplicateOp, GroupOp, MergeOp, MoveOp, Operation
from workspace.loss_check import DeclaredMerge
from workspace.numbered import Document, Item, heading_key, render, reshaped
from workspace.units import units_of

END = -1  # the "section" at the end of a file, after everything else


class EditRefused(ValueError):
    """The operations cannot be applied; `reasons` names each operation at fault."""

    def __init__(self, reasons: Sequence[str]) -> None:
        self.reasons = tuple(reasons)
        super().__init__("; ".join(self.reasons))


class _Refusal(Exception):
    pass


@dataclass(frozen=True)
class Applied:
    texts: dict[str, str]  # every file an operation involved → its new text (maybe unchanged)
    merges: tuple[DeclaredMerge, ...]
    placed: frozenset[tuple[str, str]]  # (file, raw text) of each unit an operation changed or moved


@dataclass
class _Unit:
    item: Item
    path: str
    where: tuple[str, int | str]  # ("slot", index in its file) | ("tail", heading index) | ("new", key)
    origins: list[str]
    alive: bool = True
    touched: bool = False


@dataclass
class _File:
    doc: Document
    section: list[int]  # per item: index of the heading it sits under (numbered.PREAMBLE: none)
    tails: dict[int, list[str]] = field(default_factory=dict)
    new_sections: dict[str, tuple[Item, list[str]]] = field(default_factory=dict)


def _kept_text(item: Item) -> str:
    """The unit's text as a declared merge names it (its raw block if the text parses apart)."""
    keys = [u.key for u in units_of("", item.raw)]
    return item.text if [u.key for u in units_of("", item.text)] == keys else item.raw


class _Edits:
    def __init__(self, docs: Mapping[str, Document], sent: Collection[str] | None) -> None:
        self.files = {path: _File(doc, doc.sections()) for path, doc in docs.items()}
        self.units: dict[str, _Unit] = {}
        for path, doc in docs.items():
            for index, item in enumerate(doc.items):
                if item.kind == "unit":
                    self.units[item.uid] = _Unit(item, path, ("slot", index), [item.text])
        self.sent = set(sent) if sent is not None else None
        # Every heading the files already have, by key: the titles an answer may reuse anywhere.
        self.titles: dict[str, str] = {}
        for doc in docs.values():
            for item in doc.items:
                if item.kind == "heading":
                    self.titles.setdefault(heading_key(item.text), item.text)
        self.absorbed: dict[str, str] = {}
        self.touched_files: set[str] = set()

    def known(self, uid: str) -> _Unit:
        if uid not in self.units:
            raise _Refusal(f"names unit {uid!r}, which does not exist")
        if self.sent is not None and uid not in self.sent:
            raise _Refusal(f"names unit {uid!r}, which was not sent in this request")
        return self.units[uid]

    def unit(self, uid: str) -> _Unit:
        uid = uid.strip()
        found = self.known(uid)
        if not found.alive:
            raise _Refusal(f"names unit {uid!r}, which an earlier operation already removed")
        return found

    def distinct(self, uids: Sequence[str]) -> list[_Unit]:
        found = [self.unit(uid) for uid in uids]
        if len({u.item.uid for u in found}) != len(found):
            raise _Refusal("names the same unit twice")
        return found

    def remove(self, unit: _Unit, into: _Unit) -> None:
        self.detach(unit)
        unit.alive = False
        into.origins += unit.origins
        into.touched = True
        self.touched_files.add(into.path)  # its text now carries the removed unit: checked with it
        self.absorbed[unit.item.uid] = into.item.uid

    def detach(self, unit: _Unit) -> None:
        kind, key = unit.where
        file = self.files[unit.path]
        if kind == "tail":
            file.tails[int(key)].remove(unit.item.uid)
        elif kind == "new":
            file.new_sections[str(key)][1].remove(unit.item.uid)
        self.touched_files.add(unit.path)

    def target(self, path: str, title: str, units: Sequence[_Unit]) -> tuple[str, int | str]:
        """Where `units` go under `title` in `path`: an existing heading there, or a new one (checked)."""
        file = self.files[path]
        if not title:
            return ("tail", END)
        key = heading_key(title)
        for index, item in enumerate(file.doc.items):
            if item.kind == "heading" and heading_key(item.text) == key:
                return ("tail", index)
        if key in self.titles:
            title = self.titles[key]
        else:
            under = file.new_sections[key][1] if key in file.new_sections else []
            texts = [self.units[uid].item.text for uid in under] + [u.item.text for u in units]
            why = headings.refusal(title, texts)
            if why:
                raise _Refusal(why)
        if key not in file.new_sections:
            levels = {i.level for i in file.doc.items if i.kind == "heading"}
            level = 2 if not levels or 1 in levels else min(levels)
            line = file.doc.eol(f"{'#' * level} {title}")
            heading = Item("heading", (line,), text=title, level=level, had_units=True, new=True)
            file.new_sections[key] = (heading, [])
        return ("new", key)

    def place(self, unit: _Unit, path: str, where: tuple[str, int | str]) -> None:
        file = self.files[path]
        if unit.path == path and (
            unit.where == where
            or (unit.where[0] == "slot" and ("tail", file.section[int(unit.where[1])]) == where)
        ):
            return
        self.detach(unit)
        lines = tuple(textwrap.dedent(unit.item.raw).split("\n"))
        unit.item = replace(unit.item, lines=lines, new=True)
        unit.path, unit.where, unit.touched = path, where, True
        kind, key = where
        if kind == "tail":
            file.tails.setdefault(int(key), []).append(unit.item.uid)
        else:
            file.new_sections[str(key)][1].append(unit.item.uid)
        self.touched_files.add(path)

    def path(self, name: str) -> str:
        try:
            path = check_relative(name.strip())
        except PathRefused as exc:
            raise _Refusal(f"names a bad path: {exc}") from None
        if path not in self.files:
            given = ", ".join(sorted(self.files))
            raise _Refusal(f"names {path!r}, which is not a workspace file it was given ({given})")
        return path

    def do(self, op: Operation) -> None:
        if isinstance(op, MergeOp):
            units = self.distinct(op.units)
            if len(units) < 2:
                raise _Refusal("needs at least two different units")
            first = units[0]
            item = reshaped(first.item, op.text, self.files[first.path].doc)
            if item is None:
                raise _Refusal("merges into an empty text")
            for other in units[1:]:
                self.remove(other, first)
            first.item, first.touched = item, True
            self.touched_files.add(first.path)
        elif isinstance(op, DropDuplicateOp):
            unit = self.unit(op.unit)
            kept = self.known(op.of.strip())
            while not kept.alive:  # it was merged or dropped: what carries it now stays
                kept = self.units[self.absorbed[kept.item.uid]]
            if kept is unit:
                raise _Refusal("names a unit as a duplicate of itself")
            self.remove(unit, kept)
        elif isinstance(op, MoveOp):
            unit = self.unit(op.unit)
            path = self.path(op.file)
            self.place(unit, path, self.target(path, _title(op.heading), [unit]))
        elif isinstance(op, GroupOp):
            units = self.distinct(op.units)
            title = _title(op.heading)
            if not title:
                raise _Refusal("needs a heading")
            path = units[0].path
            where = self.target(path, title, units)
            for unit in units:
                self.place(unit, path, where)

    def items(self, path: str) -> list[Item]:
        file = self.files[path]
        out: list[Item] = []
        current: int | None = None

        def flush(key: int) -> None:
            uids = file.tails.get(key, [])
            gaps: list[Item] = []
            while out and out[-1].kind == "gap" and uids:
                gaps.insert(0, out.pop())
            out.extend(self.units[uid].item for uid in uids)
            out.extend(gaps)

        for index, item in enumerate(file.doc.items):
            if item.kind == "heading":
                if current is not None:
                    flush(current)
                current = index
            if item.kind != "unit":
                out.append(item)
                continue
            unit = self.units[item.uid]
            if unit.alive and unit.path == path and unit.where == ("slot", index):
                out.append(unit.item)
        if current is not None:
            flush(current)
        flush(END)
        for heading, uids in file.new_sections.values():
            if uids:
                out.append(heading)
                out.extend(self.units[uid].item for uid in uids)
        return out


def _title(heading: str) -> str:
    return " ".join(heading.strip().lstrip("#").split())


def apply(
    docs: Mapping[str, Document], operations: Sequence[Operation], sent: Collection[str] | None = None
) -> Applied:
    """Apply `operations` to `docs` (every role file, by path), in order.

    `sent` is the unit ids the request showed (None: any id of `docs`). Raises EditRefused
    naming every operation that cannot be applied; then nothing is applied.
    """
    edits = _Edits(docs, sent)
    reasons: list[str] = []
    for number, op in enumerate(operations, start=1):
        try:
            edits.do(op)
        except _Refusal as exc:
            reasons.append(f"operation {number} ({op.op}) {exc}")
    if reasons:
        raise EditRefused(reasons)
    texts = {path: render(edits.files[path].doc, edits.items(path)) for path in sorted(edits.touched_files)}
    merges = tuple(
        DeclaredMerge(kept=_kept_text(u.item), merged=tuple(u.origins))
        for u in edits.units.values()
        if u.alive and (len(u.origins) > 1 or u.item.text != u.origins[0])
    )
    placed = frozenset((u.path, u.item.raw) for u in edits.units.values() if u.alive and u.touched)
    return Applied(texts, merges, placed)
