"""Moving a single-file fact store into its shards in bounded memory (docs/explanation/fact-memory.md).

A store written before shards existed can hold a million records (300 MB); parsed all at
once it took ten times that. So the single file is streamed, never held, in two passes:

1. Each line is parsed and checked as a store line is, and written in its canonical form
   to one of 256 partition files (by the first two hex digits of its shard), with its
   shard and line number; a 64-bit hash of its id goes into one sorted array,
   which finds a reused id (confirmed on the ids themselves) and answers "is this id a
   record of the single file" for the id factory and the checks of later shard reads.
2. Each partition is read back (1/256 of the store), grouped by shard, and each shard's
   content — its records in the store's canonical order, merged with a shard already on
   disk (the same record in both is kept once; two records under one id are refused, as
   at any shard read) — is spooled to disk (`daemon.kernel.spool`).

The edit (`fact_edit`) loads into memory only the shards its pass touches; the others
become `FileWrite`s whose content stays in the spool until the applier copies it, one
shard at a time, in the one commit of the run that deletes the single file. A crash
before that commit leaves the single file as it was (the applier's journal rolls back);
`undo` of that run brings it back byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from array import array
from bisect import bisect_left
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from daemon.kernel.errors import CorruptState
from daemon.kernel.spool import SpooledContent, SpoolFolder
from daemon.kernel.view import AgentView
from memory_engine import factstore
from memory_engine.fact_shards import parse_shard, shard_name, shard_root
from memory_engine.records import FactRecord

# An entry of a partition file is `<shard name>\t<line number>\t<canonical line>\n` (a
# canonical line is JSON on one line: a newline in a value is escaped). Read back as
# (sort key, line number, id, canonical line).
Entry = tuple[tuple[str, ...], int, str, str]


def _id_hash(record_id: str) -> int:
    return int.from_bytes(hashlib.blake2b(record_id.encode("utf-8"), digest_size=8).digest(), "little", signed=True)


@dataclass
class Migration:
    """The single-file store `store` of `view`, streamed into spooled shards."""

    view: AgentView
    store: str
    folder: SpoolFolder
    # Shard path → its content after the migration, for each shard that differs from disk.
    spooled: dict[str, SpooledContent] = field(default_factory=dict)
    # Every shard path holding a record of the single file.
    shards: set[str] = field(default_factory=set)
    _hashes: array = field(default_factory=lambda: array("q"))
    _found: dict[str, bool] = field(default_factory=dict)

    @property
    def label(self) -> Path:
        return self.view.home / self.store

    @classmethod
    def build(cls, view: AgentView, store: str, source: BinaryIO, spool_parent: Path | None) -> Migration:
        """Stream `source` (the single file, closed here) into spooled shards; raises
        CorruptState (StateVersionError) naming the line at fault, OSError if the spool fails."""
        migration = cls(view, store, SpoolFolder(spool_parent))
        with source:
            migration._partition(source)
        migration._check_ids()
        for part in sorted(migration.folder.path.glob("part-*")):
            migration._spool_partition(part)
        return migration

    # Pass 1: every line parsed, checked and written to its partition.

    def _lines(self) -> Iterator[tuple[int, bytes]]:
        """(line number, line) of the single file, read again from the view."""
        source = self.view.open_bytes(self.store)
        if source is None:
            raise CorruptState(self.label, "the single-file store went away while it was migrated")
        with source:
            yield from enumerate(source, start=1)

    def _partition(self, source: BinaryIO) -> None:
        label = str(self.label)
        outputs: dict[str, BinaryIO] = {}
        offset = 0
        try:
            for number, raw in enumerate(source, start=1):
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise CorruptState(self.label, f"not UTF-8 at byte {offset + exc.start}") from None
                offset += len(raw)
                if not text.strip():
                    continue
                record = factstore.parse_line(text, number, label)
                name = shard_name(record.scope)
                part = name[:3].replace("/", "")
                out = outputs.get(part)
                if out is None:
                    out = outputs[part] = open(self.folder.path / f"part-{part}", "xb")  # noqa: SIM115
                out.write(f"{name}\t{number}\t{factstore.record_line(record)}\n".encode())
                self._hashes.append(_id_hash(record.id))
        finally:
            for out in outputs.values():
                out.close()
        self._hashes = array("q", sorted(self._hashes))

    def _check_ids(self) -> None:
        """CorruptState at the first line whose id an earlier line already has (as a store read says)."""
        hashes = self._hashes
        doubled = {hashes[i] for i in range(1, len(hashes)) if hashes[i] == hashes[i - 1]}
        if not doubled:
            return
        seen: set[str] = set()
        for number, raw in self._lines():
            if not raw.strip():
                continue
            record_id = json.loads(raw)["id"]
            if _id_hash(record_id) in doubled:
                if record_id in seen:
                    raise CorruptState(self.label, f"line {number}: duplicate record id {record_id!r}")
                seen.add(record_id)

    # Pass 2: each partition grouped by shard, merged with the shard on disk, spooled.

    def _spool_partition(self, part: Path) -> None:
        groups: dict[str, list[Entry]] = {}
        for name, entry in _entries(part):
            groups.setdefault(name, []).append(entry)
        root = shard_root(self.store)
        for name in sorted(groups):
            path = f"{root}/{name}"
            self.shards.add(path)
            entries = sorted(groups[name])  # by sort key: ids are unique, so no tie goes further
            disk = self.view.read_bytes(path)
            if disk:
                content = self._merged(path, disk, entries)
            else:
                content = ("\n".join(e[3] for e in entries) + "\n").encode("utf-8")
            if content != disk:
                self.spooled[path] = self.folder.put(content)

    def _merged(self, path: str, disk: bytes, entries: list[Entry]) -> bytes:
        """The shard on disk with the single file's records of it, each record once."""
        label = self.view.home / path
        by_id = {r.id: r for r in parse_shard(disk, path, label)}
        for _key, number, _id, line in entries:
            record = FactRecord.model_validate_json(line)
            known = by_id.get(record.id)
            if known is not None and known != record:
                raise CorruptState(
                    self.label, f"line {number}: record id {record.id!r} is used by another record of the fact store"
                )
            by_id[record.id] = record
        legacy = {e[2] for e in entries}
        for record in by_id.values():
            if record.id not in legacy and self.has_id(record.id):
                # The single file has this id on a record of another shard.
                raise CorruptState(label, f"record id {record.id!r} is used by another record of the fact store")
        return factstore.render(by_id.values())

    # What the edit asks.

    def has_id(self, record_id: str) -> bool:
        """True if a record of the single file has `record_id` (exact: a hash hit is confirmed)."""
        hashed = _id_hash(record_id)
        at = bisect_left(self._hashes, hashed)
        if at == len(self._hashes) or self._hashes[at] != hashed:
            return False
        if record_id not in self._found:
            self._found[record_id] = any(self._entry_ids(record_id))
        return self._found[record_id]

    def _entry_ids(self, record_id: str) -> Iterator[bool]:
        for part in sorted(self.folder.path.glob("part-*")):
            for _name, entry in _entries(part):
                if entry[2] == record_id:
                    yield True
                    return

    def records(self, path: str) -> list[FactRecord]:
        """The records shard `path` holds after the migration (it is one of `shards`)."""
        spooled = self.spooled.get(path)
        content = spooled.read() if spooled is not None else self.view.read_bytes(path) or b""
        return parse_shard(content, path, self.view.home / path)


def _entries(part: Path) -> Iterator[tuple[str, Entry]]:
    """(shard name, entry) of each line of a partition file."""
    with part.open("rb") as lines:
        for raw in lines:
            name, number, line = raw.decode("utf-8").rstrip("\n").split("\t", 2)
            data = json.loads(line)
            key = (data["tenant"], data["user"], data["entity"], data["key"], data["valid_from"], data["id"])
            yield name, (key, int(number), data["id"], line)
