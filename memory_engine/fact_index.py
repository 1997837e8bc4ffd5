"""The fact store's query index: SQLite in the state folder, derived from the JSONL shards.

The shards in the agent home stay the source of truth; the index only saves a fresh
process from reading them all. Before every read the index is brought up to date with
the files on disk, shard by shard: a file whose (size, mtime_ns, ctime_ns, inode) is what
the index recorded is taken as is; any other is hashed, and re-read only if its sha256
changed. So a run's ten rewritten shards cost ten small parses on the next query, a
person's hand edit is seen by the next query, and nothing reads the untouched 4,086.

The file is rebuilt from scratch when it is missing, unreadable as SQLite, of another
schema version, or built for another store path. When the state folder cannot be
written, the index is built in memory for the one command. A malformed line in a shard
fails the read with its file and line; the index keeps what it had.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from daemon.kernel.errors import CorruptState
from daemon.kernel.regular_files import NotRegular, read_regular
from daemon.kernel.view import confined
from memory_engine import factstore
from memory_engine.fact_files import Stamp, disk_files
from memory_engine.fact_shards import parse_shard
from memory_engine.records import FactRecord

INDEX_SCHEMA = 2  # 2: facts_id, for the delivery index's lookups by id
BUSY_TIMEOUT_MS = 30_000
SETTLE_SECONDS = 10.0
SETTLE_POLL_SECONDS = 0.05

TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (
    path TEXT PRIMARY KEY, size INTEGER, mtime_ns INTEGER, ctime_ns INTEGER, ino INTEGER, sha256 TEXT
);
CREATE TABLE facts (
    file TEXT NOT NULL, line INTEGER NOT NULL, id TEXT NOT NULL,
    tenant TEXT NOT NULL, user TEXT NOT NULL, entity TEXT NOT NULL, key TEXT NOT NULL,
    valid_from TEXT NOT NULL, valid_to TEXT, record TEXT NOT NULL
);
CREATE INDEX facts_owner_entity ON facts (tenant, user, entity, key, valid_from, id);
CREATE INDEX facts_file ON facts (file);
CREATE INDEX facts_id ON facts (id);
"""

RACY_NS = 2_000_000_000  # coarser than any file-system clock tick in use (FAT's is 2 s)


@dataclass(frozen=True)
class Look:
    """What `FactIndex.flag` looks for: one of `forms` at the start of a word (a field's start
    or after a space), or, `inside`, anywhere (a script written without spaces)."""

    forms: tuple[str, ...]
    inside: bool = False


class Flagged(NamedTuple):
    """A record that may hold what a search looks for (`FactIndex.flag`)."""

    row: int  # the index's row of it, for `FactIndex.fields` while the index is open
    id: str
    valid_from: str
    looks: int  # bit i set: it may hold what the i-th look looks for


class Searchable(NamedTuple):
    """A record's searchable fields and its stored JSON (`FactIndex.fields`)."""

    id: str
    valid_from: str
    entity: str
    key: str
    value: str
    quote: str  # "" when it has none
    record: str


@dataclass(frozen=True)
class Tally:
    """How many records an entity, or a key of one, has on a day (`FactIndex.tally`)."""

    name: str  # the entity, or the key
    keys: int  # distinct keys with a current record (1 for a key)
    current: int  # records valid on the day
    superseded: int  # records closed on or before the day


@dataclass(frozen=True)
class Refresh:
    """What bringing the index up to date did."""

    files: int
    reread: int
    rebuilt: bool


class FactIndex:
    """An open index of one agent's store; use `open_index`."""

    def __init__(self, db: sqlite3.Connection, home: Path, store: str, rebuilt: bool) -> None:
        self._db = db
        self._home = home
        self._store = store
        self._rebuilt = rebuilt

    # -- freshness -------------------------------------------------------------------------
    def refresh(self) -> Refresh:
        """Bring the index up to date with the files on disk; CorruptState names a bad line."""
        disk = disk_files(self._home, self._store)
        if self._stale(disk):
            # One writer at a time; compare again under the lock (another reader may have done it).
            self._db.execute("BEGIN IMMEDIATE")
            try:
                reread = self._update(disk)
            except BaseException:
                self._db.rollback()
                raise
            self._db.commit()
        else:
            reread = 0
        return Refresh(files=len(disk), reread=reread, rebuilt=self._rebuilt)

    def _known(self) -> dict[str, tuple[Stamp, str]]:
        rows = self._db.execute("SELECT path, size, mtime_ns, ctime_ns, ino, sha256 FROM files")
        return {row[0]: ((row[1], row[2], row[3], row[4]), row[5]) for row in rows}

    def _racy_before(self) -> int:
        """Files changed at or after this time (ns) may hide a same-size edit in one clock tick.

        Like git's "racily clean" entries: a write within RACY_NS of the last refresh can
        leave size and times unchanged on a coarse clock, so such files are hashed again.
        """
        row = self._db.execute("SELECT value FROM meta WHERE key = 'refreshed_ns'").fetchone()
        return (int(row[0]) if row else 0) - RACY_NS

    def _stale(self, disk: dict[str, Stamp]) -> bool:
        known = self._known()
        racy = self._racy_before()
        return (
            known.keys() != disk.keys()
            or any(known[p][0] != s for p, s in disk.items())
            or any(max(s[1], s[2]) >= racy for s in disk.values())
        )

    def _update(self, disk: dict[str, Stamp]) -> int:
        known = self._known()
        racy = self._racy_before()
        started = time.time_ns()
        reread = 0
        for path in known.keys() - disk.keys():
            self._db.execute("DELETE FROM facts WHERE file = ?", (path,))
            self._db.execute("DELETE FROM files WHERE path = ?", (path,))
        for path, stamp in sorted(disk.items()):
            seen = known.get(path)
            if seen is not None and seen[0] == stamp and max(stamp[1], stamp[2]) < racy:
                continue
            try:
                content = read_regular(confined(self._home, path))
            except (FileNotFoundError, NotRegular):  # removed since the scan (a run deleting a shard)
                self._db.execute("DELETE FROM facts WHERE file = ?", (path,))
                self._db.execute("DELETE FROM files WHERE path = ?", (path,))
                continue
            digest = hashlib.sha256(content).hexdigest()
            if seen is None or seen[1] != digest:
                self._index_file(path, content)
                reread += 1
            self._db.execute(
                "INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?, ?)", (path, *stamp, digest)
            )
        self._db.execute("INSERT OR REPLACE INTO meta VALUES ('refreshed_ns', ?)", (str(started),))
        return reread

    def _index_file(self, path: str, content: bytes) -> None:
        label = self._home / path
        if path == self._store:
            try:
                text = content.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise CorruptState(label, f"not UTF-8 at byte {exc.start}") from None
            numbered = factstore.parse_numbered(text, str(label))
        else:
            numbered = list(enumerate(parse_shard(content, path, label), start=1))
        self._db.execute("DELETE FROM facts WHERE file = ?", (path,))
        self._db.executemany(
            "INSERT INTO facts VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                (
                    path,
                    number,
                    r.id,
                    r.tenant,
                    r.user,
                    r.entity,
                    r.key,
                    r.valid_from,
                    r.valid_to,
                    r.model_dump_json(),
                )
                for number, r in numbered
            ),
        )

    # -- reading ---------------------------------------------------------------------------
    def records(
        self,
        owner: tuple[str, str],
        entity: str | None = None,
        as_of: str | None = None,
        containing: tuple[str, ...] = (),
    ) -> list[FactRecord]:
        """The owner's records (of `entity`, valid on `as_of`, if given) in the store's order.

        Never another owner's: the owner is part of every query. `containing`: only records
        whose stored line holds each of these lower-case ASCII words (a prefilter for a
        search, so a search does not parse every record; the caller checks the fields).
        """
        sql = "SELECT record FROM facts WHERE tenant = ? AND user = ?"
        params: list[str] = [*owner]
        for word in containing:
            sql += " AND instr(lower(record), ?) > 0"  # SQLite's lower() folds ASCII only
            params.append(word)
        if entity is not None:
            sql += " AND entity = ?"
            params.append(entity)
        if as_of is not None:
            sql += " AND valid_from <= ? AND (valid_to IS NULL OR ? < valid_to)"
            params += [as_of, as_of]
        sql += " ORDER BY tenant, user, entity, key, valid_from, id"
        seen: set[str] = set()
        found: list[FactRecord] = []
        for (raw,) in self._db.execute(sql, params):
            record = FactRecord.model_validate_json(raw)
            if record.id not in seen:  # the same record in a single file and a shard mid-migration
                seen.add(record.id)
                found.append(record)
        return found

    def newest_current(self, as_of: str, limit: int, skip_files: Iterable[str]) -> tuple[list[FactRecord], int]:
        """The `limit` newest records valid on `as_of` outside `skip_files`, in the facts
        view's order (valid_from descending, then entity, key, id), and how many there are.

        Any owner's, as the view shows them. For the facts view of a run that rewrote a few
        shards: those are read by the run itself and skipped here.
        """
        where = (
            "valid_from <= ? AND (valid_to IS NULL OR ? < valid_to) AND file NOT IN (SELECT value FROM json_each(?))"
        )
        params = (as_of, as_of, json.dumps(sorted(set(skip_files))))
        total = int(self._db.execute(f"SELECT count(DISTINCT id) FROM facts WHERE {where}", params).fetchone()[0])
        rows = self._db.execute(
            f"SELECT record FROM facts WHERE {where} ORDER BY valid_from DESC, entity, key, id LIMIT ?",
            (*params, limit),
        )
        found: dict[str, FactRecord] = {}
        for (raw,) in rows:
            record = FactRecord.model_validate_json(raw)
            found.setdefault(record.id, record)
        return list(found.values()), total

    def current_ids(self, day: str) -> set[str]:
        """The ids of every record, any owner's, not closed on `day` (valid_to unset or
        later; a future start included): what the delivery index mirrors."""
        rows = self._db.execute("SELECT DISTINCT id FROM facts WHERE valid_to IS NULL OR valid_to > ?", (day,))
        return {fact_id for (fact_id,) in rows}

    def stored_json(self, ids: Iterable[str]) -> Iterator[str]:
        """The stored JSON of the records with these ids, one per id."""
        seen: set[str] = set()
        rows = self._db.execute(
            "SELECT id, record FROM facts WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(sorted(set(ids))),)
        )
        for fact_id, raw in rows:
            if fact_id not in seen:
                seen.add(fact_id)
                yield raw

    def closed_before(self, day: str) -> tuple[list[FactRecord], set[str]]:
        """Records of any owner closed before `day` (valid_to < day) with a value, in the
        store's order; and which of their values a record not so closed still holds."""
        rows = self._db.execute(
            "SELECT record FROM facts WHERE valid_to IS NOT NULL AND valid_to < ?"
            " ORDER BY tenant, user, entity, key, valid_from, id",
            (day,),
        )
        found: dict[str, FactRecord] = {}
        for (raw,) in rows:
            record = FactRecord.model_validate_json(raw)
            if record.value:
                found.setdefault(record.id, record)
        values = sorted({r.value for r in found.values()})
        held = self._db.execute(
            "SELECT DISTINCT json_extract(record, '$.value') FROM facts"
            " WHERE (valid_to IS NULL OR valid_to >= ?) AND json_extract(record, '$.value') IN"
            " (SELECT value FROM json_each(?))",
            (day, json.dumps(values)),
        )
        return list(found.values()), {str(v) for (v,) in held}

    def count(self, owner: tuple[str, str]) -> int:
        """How many stored versions the owner has (a record mid-migration may count twice)."""
        row = self._db.execute("SELECT count(*) FROM facts WHERE tenant = ? AND user = ?", owner).fetchone()
        return int(row[0])

    def tally(self, owner: tuple[str, str], day: str, entity: str | None = None) -> list[Tally]:
        """The owner's entities (or, given `entity`, its keys) with a record valid on `day`:
        how many keys and records are current then, and how many were closed by then
        (valid_to on or before `day`). Most current records first, then by name."""
        current = "valid_from <= :day AND (valid_to IS NULL OR :day < valid_to)"
        name = "entity" if entity is None else "key"
        rows = self._db.execute(
            f"SELECT {name}, count(DISTINCT CASE WHEN {current} THEN key END),"
            f" count(DISTINCT CASE WHEN {current} THEN id END) AS now,"
            " count(DISTINCT CASE WHEN valid_to <= :day THEN id END)"
            " FROM facts WHERE tenant = :tenant AND user = :user"
            + ("" if entity is None else " AND entity = :entity")
            + f" GROUP BY {name} HAVING now > 0 ORDER BY now DESC, {name}",
            {"day": day, "tenant": owner[0], "user": owner[1], "entity": entity},
        )
        return [Tally(str(n), int(k), int(c), int(s)) for n, k, c, s in rows]

    def flag(self, owner: tuple[str, str], day: str | None, looks: Sequence[Look]) -> list[Flagged]:
        """The owner's records (valid on `day`, if given) whose entity, key, value or quote may
        hold what one of `looks` looks for, each with the looks it may hold (bit i: `looks[i]`).
        One per id, in no particular order; some flagged records do not hold it, none that
        does is left out (ASCII letters match in either case, others as given).

        A search's prefilter: one pass of LIKE in SQLite, handing Python a few fields of the
        records that may match; `fields` reads those it checks. Entity and key are their
        columns; a value or quote starts after its key in the stored line, and a word after
        a space anywhere in the line is in practice in one of the four (a quote's own
        `"value":"` is escaped, never taken for a field's start)."""
        if not looks:
            return []
        tests: list[str] = []
        params: list[str] = []
        for look in looks:
            shapes: list[tuple[str, str]] = []
            for form in map(_literal, look.forms):
                if look.inside:
                    shapes += [(column, f"%{form}%") for column in ("entity", "key", "record")]
                else:
                    shapes += [(column, f"{lead}{form}%") for column in ("entity", "key") for lead in ("", "% ")]
                    shapes += [("record", f"%{lead}{form}%") for lead in (" ", 'value":"', 'quote":"')]
            tests.append("(" + " OR ".join(f"{column} LIKE ? ESCAPE '\\'" for column, _ in shapes) + ")")
            params += [pattern for _, pattern in shapes]
        mask = " | ".join(f"({test} << {bit})" for bit, test in enumerate(tests))
        sql = f"SELECT rowid, id, valid_from, {mask} FROM facts WHERE tenant = ? AND user = ?"
        where: list[str] = [*owner]
        if day is not None:
            sql += " AND valid_from <= ? AND (valid_to IS NULL OR ? < valid_to)"
            where += [day, day]
        sql += f" AND ({' OR '.join(tests)})"
        rows = self._db.execute(sql, [*params, *where, *params]).fetchall()
        if len({row[1] for row in rows}) < len(rows):  # the same record in a single file and a shard mid-migration
            rows = list({row[1]: row for row in reversed(rows)}.values())
        return list(map(Flagged._make, rows))

    def fields(self, rows: Sequence[int]) -> list[Searchable]:
        """The searchable fields of records `flag` returned (by their `row`), in that order."""
        found: dict[int, Searchable] = {}
        for start in range(0, len(rows), 500):  # SQLite's bound on a statement's parameters
            chunk = rows[start : start + 500]
            for row, *rest in self._db.execute(
                "SELECT rowid, id, valid_from, entity, key, json_extract(record, '$.value'),"
                " ifnull(json_extract(record, '$.quote'), ''), record FROM facts"
                f" WHERE rowid IN ({', '.join('?' for _ in chunk)})",
                chunk,
            ):
                found[row] = Searchable._make(rest)
        return [found[row] for row in rows if row in found]

    def close(self) -> None:
        self._db.close()


def _literal(text: str) -> str:
    """`text` as a literal in a LIKE pattern with the escape character `\\`."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
