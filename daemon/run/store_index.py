"""The run index: run id → commit, kind, trailers and files, so `runs`, `show` and `undo`
never walk the store's history.

It is derived data, kept in the agent's state folder next to the store (one SQLite file)
and rebuilt from the commits' trailers (`Run-Id`, `Undoes`, `Kind`) whenever it cannot be
trusted: missing, unreadable, another schema version, or stale — its recorded head is not
the store's HEAD (a crash between the commit and the index write, a person's commit in
the store). Stale is cheap to see (two shas compared) and cheap to fix: when the recorded
head is an ancestor of HEAD only the commits since are added, one `git log` for all of
them; otherwise (a rewritten history: new shas, same run ids) the index is built anew.

Every first-parent commit is indexed, runs and external edits alike, with the files it
changed, so "which later commits touched this file" is one indexed query.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing, contextmanager
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import structlog

from daemon.kernel.errors import StoreError
from daemon.run.store import CommitInfo, FileChange, StoreSession

VERSION = 1
BUSY_TIMEOUT_SECONDS = 30.0
log = structlog.get_logger("metaeng.run_index")

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);
CREATE TABLE commits(
    seq INTEGER PRIMARY KEY,
    sha TEXT NOT NULL,
    parent TEXT,
    committed_at TEXT NOT NULL,
    subject TEXT NOT NULL,
    trailers TEXT NOT NULL,
    run_id TEXT,
    undoes TEXT,
    files_changed INTEGER NOT NULL
);
CREATE INDEX commits_by_run ON commits(run_id) WHERE run_id IS NOT NULL;
CREATE INDEX commits_by_target ON commits(undoes) WHERE undoes IS NOT NULL;
CREATE TABLE touches(seq INTEGER NOT NULL, path BLOB NOT NULL, status TEXT NOT NULL);
CREATE INDEX touches_by_path ON touches(path, seq);
CREATE INDEX touches_by_commit ON touches(seq);
"""


@dataclass(frozen=True)
class IndexedCommit:
    """One first-parent commit of the store as the index knows it."""

    seq: int  # position in first-parent history, 1 = the first commit
    info: CommitInfo
    files_changed: int

    @property
    def label(self) -> str:
        """How a person recognises it: `run ID`, or the commit for external edits."""
        if self.info.run_id:
            return f"run {self.info.run_id}"
        if self.info.trailers.get("Kind") == "external-edits":
            return f"external edits {self.info.sha[:10]}"
        return f"commit {self.info.sha[:10]}"


class RunIndex:
    """Queries over an index that matches the store's HEAD (see `synced_index`)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def head(self) -> str | None:
        return _meta(self._db, "head")

    def runs(self, limit: int | None = None) -> list[IndexedCommit]:
        """Commits that are runs, newest first."""
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM commits WHERE run_id IS NOT NULL ORDER BY seq DESC LIMIT ?",
            (-1 if limit is None else limit,),
        )
        return [_row(r) for r in rows]

    def matching_runs(
        self,
        limit: int,
        *,
        pass_name: str | None = None,
        path_part: str | None = None,
        shas: Iterable[str] = (),
    ) -> list[IndexedCommit]:
        """The newest `limit` runs, newest first: only those including pass `pass_name` (or of
        that kind) if given; if `path_part` is given, only those that changed a path containing
        it (ASCII case-insensitive) or whose commit is one of `shas`."""
        where = ["run_id IS NOT NULL"]
        params: list[object] = []
        if pass_name:
            where.append(
                "(instr(',' || COALESCE(json_extract(trailers, '$.Passes'), '') || ',', ',' || ? || ',') > 0"
                " OR COALESCE(json_extract(trailers, '$.Kind'), 'run') = ?)"
            )
            params += [pass_name, pass_name]
        if path_part is not None:
            where.append(
                "(sha IN (SELECT value FROM json_each(?)) OR EXISTS (SELECT 1 FROM touches t"
                " WHERE t.seq = commits.seq AND instr(lower(CAST(t.path AS TEXT)), ?) > 0))"
            )
            params += [json.dumps(list(shas)), path_part.lower()]
        rows = self._db.execute(
            f"SELECT {_COLUMNS} FROM commits WHERE {' AND '.join(where)} ORDER BY seq DESC LIMIT ?",
            (*params, limit),
        )
        return [_row(r) for r in rows]

    def find(self, run_id: str) -> IndexedCommit | None:
        """The newest commit of run `run_id`, or None."""
        row = self._db.execute(
            f"SELECT {_COLUMNS} FROM commits WHERE run_id = ? ORDER BY seq DESC LIMIT 1", (run_id,)
        ).fetchone()
        return None if row is None else _row(row)

    def root(self) -> CommitInfo | None:
        """The first commit of the store (a retention baseline, once history was squashed)."""
        row = self._db.execute(f"SELECT {_COLUMNS} FROM commits WHERE seq = 1").fetchone()
        return None if row is None else _row(row).info

    def files(self, seq: int) -> list[FileChange]:
        rows = self._db.execute("SELECT status, path FROM touches WHERE seq = ? ORDER BY rowid", (seq,))
        return [FileChange(status, _path(path)) for status, path in rows]

    def undone_by(self, run_id: str) -> str | None:
        """The newest undo of `run_id` that is itself in effect (an undone undo restores)."""
        targets = self._db.execute(
            "SELECT run_id FROM commits WHERE undoes = ? AND run_id IS NOT NULL ORDER BY seq DESC", (run_id,)
        ).fetchall()
        for (undo_id,) in targets:
            if undo_id != run_id and self.undone_by(undo_id) is None:
                return str(undo_id)
        return None

    def touched_after(self, seq: int, paths: Iterable[str]) -> dict[str, list[IndexedCommit]]:
        """For each path, the commits after `seq` that changed it, oldest first."""
        found: dict[str, list[IndexedCommit]] = {}
        for path in paths:
            rows = self._db.execute(
                f"SELECT {_COLUMNS} FROM touches JOIN commits USING (seq) WHERE path = ? AND seq > ? ORDER BY seq",
                (_key(path), seq),
            )
            later = [_row(r) for r in rows]
            if later:
                found[path] = later
        return found

    def touching(
        self, paths: Iterable[str], folders: Iterable[str], limit: int
    ) -> list[tuple[IndexedCommit, list[str]]]:
        """The newest `limit` commits that changed one of `paths` or a file under one of
        `folders`, newest first, each with those of its files (a skill's history)."""
        where: list[str] = []
        params: list[bytes] = []
        for path in paths:
            where.append("path = ?")
            params.append(_key(path))
        for folder in folders:
            low = _key(folder.rstrip("/") + "/")
            where.append("(path >= ? AND path < ?)")  # BLOBs compare bytewise: the folder's range
            params += [low, low[:-1] + b"0"]  # "0" is the byte after "/"
        if not where:
            return []
        touched: dict[int, list[str]] = {}
        rows = self._db.execute(f"SELECT seq, path FROM touches WHERE {' OR '.join(where)} ORDER BY seq DESC", params)
        for seq, path in rows:
            if seq not in touched and len(touched) >= limit:
                break
            touched.setdefault(int(seq), []).append(_path(path))
        if not touched:
            return []
        marks = ", ".join("?" * len(touched))
        commits = self._db.execute(
            f"SELECT {_COLUMNS} FROM commits WHERE seq IN ({marks}) ORDER BY seq DESC", list(touched)
        )
        return [(entry, sorted(touched[entry.seq])) for entry in map(_row, commits)]


_COLUMNS = "seq, sha, parent, committed_at, subject, trailers, files_changed"


def _row(row: Sequence[object]) -> IndexedCommit:
    seq, sha, parent, committed_at, subject, trailers, files_changed = row
    info = CommitInfo(
        sha=str(sha),
        parent=None if parent is None else str(parent),
        committed_at=datetime.fromisoformat(str(committed_at)),
        subject=str(subject),
        body="",
        trailers=json.loads(str(trailers)),
    )
    return IndexedCommit(int(str(seq)), info, int(str(files_changed)))


def _key(path: str) -> bytes:
    return path.encode("utf-8", "surrogateescape")


def _path(raw: object) -> str:
    return bytes(raw).decode("utf-8", "surrogateescape") if isinstance(raw, bytes) else str(raw)


def _meta(db: sqlite3.Connection, key: str) -> str | None:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
    return None if row is None or row[0] is None else str(row[0])


def _connect(path: Path | str) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_SECONDS, isolation_level=None)
    db.execute("PRAGMA foreign_keys = OFF")
    return db


def _append(db: sqlite3.Connection, commits: Iterable[tuple[CommitInfo, list[FileChange]]], after: int) -> int:
    """Insert `commits` (oldest first) after position `after`; return the last position."""
    seq = after
    for info, files in commits:
        seq += 1
        db.execute(
            "INSERT INTO commits VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                seq,
                info.sha,
                info.parent,
                info.committed_at.isoformat(),
                info.subject,
                json.dumps(dict(info.trailers), sort_keys=True),
                info.run_id,
                info.trailers.get("Undoes") if info.run_id else None,
                len(files),
            ),
        )
        db.executemany(
            "INSERT INTO touches VALUES (?, ?, ?)", ((seq, _key(f.path), f.status) for f in files)
        )
    return seq


def _fill(db: sqlite3.Connection, store: StoreSession, head: str | None) -> None:
    """Create the schema in an empty database and index `store` up to `head`."""
    db.executescript(SCHEMA)
    db.execute("BEGIN")
    _append(db, store.commits_with_files(head) if head else (), 0)
    db.executemany("INSERT INTO meta VALUES (?, ?)", (("version", str(VERSION)), ("head", head)))
    db.execute("COMMIT")


def _rebuild(index_path: Path, store: StoreSession, head: str | None, reason: str) -> sqlite3.Connection:
    """Build the index anew beside `index_path` and move it into place; return a connection.

    If the state folder cannot be written, the index is built in memory for this process.
    """
    temp = index_path.with_name(f"{index_path.name}.tmp-{os.getpid()}")
    try:
        _remove_orphans(index_path)
        temp.unlink(missing_ok=True)
        with closing(_connect(temp)) as db:
            db.execute("PRAGMA journal_mode = OFF")  # a new file: the rename below is the commit
            _fill(db, store, head)
        with open(temp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(temp, index_path)
    except (OSError, sqlite3.Error) as exc:
        try:
            temp.unlink(missing_ok=True)
        except OSError:
            pass
        log.warning("run_index.not_saved", index=str(index_path), error=str(exc), note="built in memory")
        db = _connect(":memory:")
        _fill(db, store, head)
        return db
    log.info("run_index.rebuilt", index=str(index_path), reason=reason)
    return _connect(index_path)


def _remove_orphans(index_path: Path) -> None:
    """Remove half-built indexes left by processes killed while rebuilding."""
    for orphan in index_path.parent.glob(f"{index_path.name}.tmp-*"):
        pid = orphan.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or not _alive(int(pid)):
            orphan.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _problem(db: sqlite3.Connection) -> str | None:
    """Why this index cannot be used as it is (None: it can)."""
    version = _meta(db, "version")
    if version != str(VERSION):
        return f"schema version {version!r}, this daemon writes {VERSION}"
    return None


def _catch_up(db: sqlite3.Connection, store: StoreSession, head: str | None) -> str | None:
    """Bring an open, valid index to `head` in one transaction; return why a rebuild is needed."""
    if _meta(db, "head") == head:
        return None  # current: a plain read, no write lock (the common case, and a read-only file)
    db.execute("BEGIN IMMEDIATE")  # one writer at a time; the others then find it current
    try:
        recorded = _meta(db, "head")
        if recorded == head:
            db.execute("COMMIT")
            return None
        if recorded is None or head is None or not store.is_ancestor(recorded, head):
            db.execute("ROLLBACK")
            return f"recorded head {recorded or 'none'} is not in the store's history up to {head or 'none'}"
        last = db.execute("SELECT COALESCE(MAX(seq), 0) FROM commits").fetchone()[0]
        _append(db, store.commits_with_files(head, since=recorded), int(last))
        db.execute("UPDATE meta SET value = ? WHERE key = 'head'", (head,))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return None


@contextmanager
def synced_index(store: StoreSession, index_path: Path) -> Iterator[RunIndex]:
    """The run index of `store`, brought up to its HEAD first (see the module docstring).

    Raises StoreError if git fails; any problem with the index file itself is repaired by
    rebuilding it from the store.
    """
    head = store.head()
    db: sqlite3.Connection | None = None
    reason: str | None = "missing" if not index_path.exists() else None
    try:
        if reason is None:
            db = _connect(index_path)
            reason = _problem(db) or _catch_up(db, store, head)
    except sqlite3.Error as exc:
        reason = f"unreadable: {exc}"
    if reason is not None:
        if db is not None:
            db.close()
        db = _rebuild(index_path, store, head, reason)
    assert db is not None
    try:
        yield RunIndex(db)
    except sqlite3.Error as exc:
        # Damaged past its header: drop it, so the next command builds it anew.
        db.close()
        index_path.unlink(missing_ok=True)
        raise StoreError(f"run index {index_path} is damaged ({exc}); it was removed and is rebuilt on the next command") from exc
    finally:
        db.close()
