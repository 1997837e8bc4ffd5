"""A change to the fact store that reads and rewrites only the shards it touches.

A writer (distillation, forget, consolidation) opens an edit on its view, loads the
scopes it is about to write (`load_scope`) — or everything, when it needs the whole
store (`load_all`) — works on `memory`, and asks for `changes()`: the shards whose
rendering differs from what it read, and nothing else. A run adding 10 facts to a
100k-fact store reads and writes ~10 small files, and its memory does not grow with the
store.

Migration of a single-file store: the legacy file's records are read at open (it is the
store as it was written), placed in their shards, and `changes()` deletes the file and
writes those shards — in the one commit of the run that made the edit, so a crash before
that commit leaves the single file untouched (the applier rolls back) and `undo` of that
run brings the single file back.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from daemon.kernel.changeset import FileWrite
from daemon.kernel.errors import CorruptState
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from memory_engine import factstore
from memory_engine.fact_index_open import open_index
from memory_engine.fact_shards import (
    Scope,
    by_shard,
    is_shard,
    parse_shard,
    shard_files,
    shard_path,
    shard_root,
)
from memory_engine.markdown_text import VIEW_MAX_FACTS
from memory_engine.memory import Memory
from memory_engine.records import FactRecord


@dataclass
class FactStoreEdit:
    agent: AgentSettings
    view: AgentView
    memory: Memory
    legacy: bytes | None = None
    # Shard path → the bytes read from it (None = absent): what `changes()` compares against.
    read: dict[str, bytes | None] = field(default_factory=dict)
    # The query index (memory_engine.fact_index) the facts view may read the untouched
    # shards from; None: the view reads every shard.
    index_path: Path | None = None
    _taken: set[str] = field(default_factory=set)
    _everything: bool = False

    @classmethod
    def open(
        cls, agent: AgentSettings, view: AgentView, memory: Memory, taken: set[str], index_path: Path | None = None
    ) -> FactStoreEdit:
        """An edit of `agent`'s store over `view`; `memory` is empty, its id factory avoids `taken`."""
        edit = cls(agent=agent, view=view, memory=memory, index_path=index_path, _taken=taken)
        store = agent.memory.store
        edit.legacy = view.read_bytes(store)
        if edit.legacy is not None:
            label = edit._label(store)
            legacy = factstore.parse_numbered(_text(edit.legacy, label), label)
            for path in sorted({shard_path(store, r.scope) for _n, r in legacy}):
                edit._load(path)
            for number, record in legacy:
                edit._take([record], store, number)
        return edit

    def _label(self, rel: str) -> str:
        return str(self.agent.home / rel)

    def _take(self, records: Iterable[FactRecord], path: str, line: int | None = None) -> None:
        """Add records read from `path` (at `line`, for the single file); CorruptState on a reused id."""
        for record in records:
            known = self.memory.get(record.id)
            if known == record:
                continue  # the same record in the single file and its shard
            if known is not None or record.id in self._taken:
                at = f"line {line}: " if line is not None else ""
                raise CorruptState(
                    self.agent.home / path, f"{at}record id {record.id!r} is used by another record of the fact store"
                )
            self._taken.add(record.id)
            self.memory.absorb([record])

    def _load(self, path: str) -> None:
        if path in self.read:
            return
        content = self.view.read_bytes(path)
        self.read[path] = content
        if content:
            self._take(parse_shard(content, path, self.agent.home / path), path)

    def load_scope(self, scope: Scope) -> None:
        """Read the shard holding `scope` (every version of that owner, entity and key)."""
        self._load(shard_path(self.agent.memory.store, scope))

    def load_all(self) -> None:
        """Read every shard: for a pass that needs the whole store (consolidation, the markdown view)."""
        if not self._everything:
            for path in shard_files(self.view, self.agent.memory.store):
                self._load(path)
            self._everything = True

    def records(self) -> list[FactRecord]:
        """Every record read so far, in the store's canonical order."""
        return sorted(self.memory.records(), key=factstore.sort_key)

    def changes(self, today: str) -> tuple[tuple[FileWrite, ...], tuple[str, ...]]:
        """(writes, deletes) that store `memory`: changed shards, the single file gone, the view."""
        store = self.agent.memory.store
        groups = by_shard(self.memory.records(), store)
        writes: list[FileWrite] = []
        deletes: list[str] = []
        for path in sorted(set(self.read) | set(groups)):
            content = factstore.render(groups.get(path, []))
            if content == (self.read.get(path) or b""):
                continue
            if content:
                writes.append(FileWrite(path=path, content=content))
            elif self.read.get(path) is not None:
                deletes.append(path)
        if self.legacy is not None:
            deletes.append(store)
        view = self.agent.memory.markdown_view
        if view and (writes or deletes):
            writes.append(FileWrite(path=view, content=self.facts_view(today)))
        return tuple(writes), tuple(deletes)

    def facts_view(self, today: str) -> bytes:
        """The facts view after this edit, reading no more of the store than it must.

        With an index: the shards this edit read, and any an earlier pass of the run
        changed, come from the view; of all the others only the VIEW_MAX_FACTS newest
        current records (the only ones that can be shown) come from the index, plus their
        count. Without one, or with a single-file store mid-migration: every shard.
        """
        store = self.agent.memory.store
        if self.index_path is None or self.legacy is not None or self._everything:
            return self._whole_view(today)
        root = shard_root(store)
        for path in sorted(p for p in self.view.overlay if is_shard(store, p)):
            self._load(path)
        self.view.note_folder(root)  # the view depends on every shard, as a walk would record
        # The single file is absent in this view (else `legacy`), yet may still be on disk
        # (a pending migration proposal deletes it in the overlay only): never from the index.
        skip = {*self.read, store}
        try:
            with open_index(self.index_path, self.view.home, store) as index:
                others, total = index.newest_current(today, VIEW_MAX_FACTS, skip)
        except OSError:  # a shard the daemon cannot read: the view's own reads note it and go on
            return self._whole_view(today)
        own = self.records()
        ids = {r.id for r in own}
        shown = [r for r in others if r.id not in ids]  # an id in two files: the run's copy wins
        return factstore.render_markdown([*own, *shown], today, unseen=total - len(others))

    def _whole_view(self, today: str) -> bytes:
        self.load_all()
        return factstore.render_markdown(self.records(), today)


def _text(content: bytes, label: str) -> str:
    try:
        return content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorruptState(Path(label), f"not UTF-8 at byte {exc.start}") from None
