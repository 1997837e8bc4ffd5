"""Opening the fact store's query index (memory_engine/fact_index.py): the file in the
state folder brought up to date, rebuilt when it is missing, damaged, of another schema or
built for another store, or kept in memory for one command when the folder cannot hold it.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from memory_engine.fact_index import (
    BUSY_TIMEOUT_MS,
    INDEX_SCHEMA,
    SETTLE_POLL_SECONDS,
    SETTLE_SECONDS,
    TABLES,
    FactIndex,
)


def _connect(path: Path | str) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    return db


def _usable(db: sqlite3.Connection, store_label: str) -> bool:
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.DatabaseError:
        return False
    return meta.get("schema") == str(INDEX_SCHEMA) and meta.get("store") == store_label


def _create(db: sqlite3.Connection, store_label: str) -> None:
    db.execute("BEGIN IMMEDIATE")
    try:
        for name in ("facts", "files", "meta"):
            db.execute(f"DROP TABLE IF EXISTS {name}")
        for statement in TABLES.split(";"):
            if statement.strip():
                db.execute(statement)
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)", [("schema", str(INDEX_SCHEMA)), ("store", store_label)]
        )
    except BaseException:
        db.rollback()
        raise
    db.commit()


def _remove(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            Path(f"{path}{suffix}").unlink()


def _open_file(path: Path, store_label: str) -> tuple[sqlite3.Connection, bool]:
    """The index at `path`, rebuilt if missing, corrupt, of another schema or another store."""
    for attempt in range(2):
        db = _connect(path)
        try:
            path.chmod(0o600)
            db.execute("PRAGMA journal_mode = WAL")
            if _usable(db, store_label):
                return db, False
            _create(db, store_label)
            return db, True
        except sqlite3.DatabaseError:
            db.close()
            if attempt:
                raise
            _remove(path)  # not a database (or a damaged one): it is derived, start again
    raise AssertionError("unreachable")


def _in_memory(home: Path, store: str, store_label: str) -> FactIndex:
    db = _connect(":memory:")
    _create(db, store_label)
    return FactIndex(db, home, store, True)


def _fresh(path: Path, home: Path, store: str, runs: Callable[[], tuple[bool, object]] | None) -> FactIndex:
    """The file index, refreshed; a damaged file is removed and built again once."""
    store_label = str(home / store)
    for attempt in range(2):
        if not path.parent.is_dir():
            # The agent has no state folder yet (never run): a read creates none.
            raise FileNotFoundError(path.parent)
        db, rebuilt = _open_file(path, store_label)
        index = FactIndex(db, home, store, rebuilt)
        try:
            _settle(index, runs)
            return index
        except sqlite3.DatabaseError:
            index.close()
            if attempt:
                raise
            _remove(path)
    raise AssertionError("unreachable")


def _settle(index: FactIndex, runs: Callable[[], tuple[bool, object]] | None) -> None:
    """Refresh `index` from a store no run is writing: a run applies its shards one file at
    a time (a migrating run deletes the single file before it writes the shards), so a
    refresh that overlapped an apply is done again. `runs()` → (a run is applying, a
    token that changes with every commit). After SETTLE_SECONDS (a crashed run's journal
    waits for the next run's recovery) the index takes the files as they are."""
    if runs is None:
        index.refresh()
        return
    deadline = time.monotonic() + SETTLE_SECONDS
    while True:
        applying, before = runs()
        if not applying:
            index.refresh()
            if runs() == (False, before):
                return
        if time.monotonic() > deadline:
            index.refresh()
            return
        time.sleep(SETTLE_POLL_SECONDS)


@contextlib.contextmanager
def open_index(
    path: Path, home: Path, store: str, runs: Callable[[], tuple[bool, object]] | None = None
) -> Iterator[FactIndex]:
    """The up-to-date index of the store `store` in `home`, kept at `path`; `runs`: see `_settle`.

    If the agent's state folder does not exist yet or cannot hold it (read-only, full),
    the index lives in memory for this one command. Raises CorruptState naming the file and line of a malformed record.
    """
    try:
        index = _fresh(path, home, store, runs)
    except (OSError, sqlite3.Error):
        index = _in_memory(home, store, str(home / store))
        try:
            _settle(index, runs)
        except BaseException:
            index.close()
            raise
    try:
        yield index
    finally:
        index.close()
