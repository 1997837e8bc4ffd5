"""A change to the fact store that reads and rewrites only the shards it touches.

A writer (distillation, forget, consolidation) opens an edit on its view, loads the
scopes it is about to write (`load_scope`) — or everything, when it needs the whole
store (`load_all`) — works on `memory`, and asks for `changes()`: the shards whose
rendering differs from what it read, and nothing else. A run adding 10 facts to a
100k-fact store reads and writes ~10 small files, and its memory does not grow with the
store.

Migration of a single-file store: the legacy file is streamed at open into shards
spooled on disk (`fact_migration`: memory does not grow with the file); the edit loads the
shards it touches from there like any other, and `changes()` deletes the file and writes
every shard — the untouched ones as spooled writes — in the one commit of the run that
made the edit, so a crash before that commit leaves the single file untouched (the
applier rolls back) and `undo` of that run brings the single file back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from daemon.kernel.changeset import FileWrite
from daemon.kernel.errors import CorruptState
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from memory_engine import factstore
from memory_engine.fact_index_open import open_index
from memory_engine.fact_migration import Migration
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


class TakenIds(set[str]):
    """The ids a new record must avoid: those read so far, and every id of a single-file
    store being migrated (asked of the migration, not held here)."""

    also: Callable[[str], bool] | None = None

    def __contains__(self, record_id: object) -> bool:
        if super().__contains__(record_id):
            return True
        return self.also is not None and isinstance(record_id, str) and self.also(record_id)

    def read(self, record_id: str) -> bool:
        """True if a record read so far has `record_id` (the migration not asked)."""
        return super().__contains__(record_id)


@dataclass
class FactStoreEdit:
    agent: AgentSettings
    view: AgentView
    memory: Memory
    legacy: Migration | None = None
    # Shard path → the bytes read from it (None = absent): what `changes()` compares against.
    read: dict[str, bytes | None] = field(default_factory=dict)
    # The query index (memory_engine.fact_index) the facts view may read the untouched
    # shards from; None: the view reads every shard.
    index_path: Path | None = None
    _taken: TakenIds = field(default_factory=TakenIds)
    _everything: bool = False

    @classmethod
    def open(
        cls, agent: AgentSettings, view: AgentView, memory: Memory, taken: TakenIds, index_path: Path | None = None
    ) -> FactStoreEdit:
        """An edit of `agent`'s store over `view`; `memory` is empty, its id factory avoids `taken`.

        A single-file store is migrated here (streamed into spooled shards, see
        `fact_migration`); the spool goes to a scratch folder beside `index_path` (the
        agent's state folder), else to the system's temporary folder.
        """
        edit = cls(agent=agent, view=view, memory=memory, index_path=index_path, _taken=taken)
        store = agent.memory.store
        source = view.open_bytes(store)
        if source is not None:
            spool_parent = index_path.parent / "scratch" if index_path is not None else None
            edit.legacy = Migration.build(view, store, source, spool_parent)
            taken.also = edit.legacy.has_id
        return edit

    def _take(self, records: Iterable[FactRecord], path: str, migrated: bool = False) -> None:
        """Add records read from `path`; CorruptState on a reused id. `migrated`: the shard
        as the migration left it, whose records are the single file's own."""
        for record in records:
            known = self.memory.get(record.id)
            if known == record:
                continue
            reused = self._taken.read(record.id) if migrated else record.id in self._taken
            if known is not None or reused:
                raise CorruptState(
                    self.agent.home / path, f"record id {record.id!r} is used by another record of the fact store"
                )
            self._taken.add(record.id)
            self.memory.absorb([record])

    def _load(self, path: str) -> None:
        if path in self.read:
            return
        content = self.view.read_bytes(path)
        self.read[path] = content
        if self.legacy is not None and path in self.legacy.shards:
            self._take(self.legacy.records(path), path, migrated=True)
        elif content:
            self._take(parse_shard(content, path, self.agent.home / path), path)

    def load_scope(self, scope: Scope) -> None:
        """Read the shard holding `scope` (every version of that owner, entity and key)."""
        self._load(shard_path(self.agent.memory.store, scope))

    def load_all(self) -> None:
        """Read every shard: for a pass that needs the whole store (consolidation, the markdown view)."""
        if not self._everything:
            migrated = self.legacy.shards if self.legacy is not None else set()
            for path in sorted({*shard_files(self.view, self.agent.memory.store), *migrated}):
                self._load(path)
            self._everything = True

    def records(self) -> list[FactRecord]:
        """Every record read so far, in the store's canonical order."""
        return sorted(self.memory.records(), key=factstore.sort_key)

    def changes(self, today: str) -> tuple[tuple[FileWrite, ...], tuple[str, ...]]:
        """(writes, deletes) that store `memory`: changed shards, the single file gone, the view."""
        store = self.agent.memory.store
        groups = by_shard(self.memory.records(), store)
        if self.legacy is not None and not set(groups) <= set(self.read):
            # A record placed in a migrated shard never loaded: its records join it first.
            for path in sorted(set(groups) - set(self.read)):
                self._load(path)
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
            writes += [
                FileWrite(path=path, spooled=spooled)
                for path, spooled in sorted(self.legacy.spooled.items())
                if path not in self.read
            ]
            writes.sort(key=lambda w: w.path)
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
        count. Mid-migration: the same, streamed shard by shard from the migration. Without
        an index: every shard.
        """
        store = self.agent.memory.store
        if self._everything:
            return self._whole_view(today)
        root = shard_root(store)
        for path in sorted(p for p in self.view.overlay if is_shard(store, p)):
            self._load(path)
        self.view.note_folder(root)  # the view depends on every shard, as a walk would record
        if self.legacy is not None:
            return self._migrating_view(today, self.legacy)
        if self.index_path is None:
            return self._whole_view(today)
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

    def _migrating_view(self, today: str, legacy: Migration) -> bytes:
        """The facts view mid-migration: each shard not loaded is read in turn (from the
        spool or the home) for its current records, keeping only the newest VIEW_MAX_FACTS."""
        store = self.agent.memory.store
        newest: list[FactRecord] = []
        total = 0
        for path in sorted({*shard_files(self.view, store), *legacy.shards} - set(self.read)):
            if path in legacy.shards:
                records = legacy.records(path)
            else:
                records = parse_shard(self.view.read_bytes(path) or b"", path, self.agent.home / path)
            current = [r for r in records if r.valid_at(today)]
            total += len(current)
            newest = _view_order([*newest, *current])[:VIEW_MAX_FACTS]
        return factstore.render_markdown([*self.records(), *newest], today, unseen=total - len(newest))

    def _whole_view(self, today: str) -> bytes:
        self.load_all()
        return factstore.render_markdown(self.records(), today)


def _view_order(records: list[FactRecord]) -> list[FactRecord]:
    """`records` in the facts view's order: newest valid_from first, then entity, key, id."""
    ordered = sorted(records, key=lambda r: (r.entity, r.key, r.id))
    ordered.sort(key=lambda r: r.valid_from, reverse=True)
    return ordered
