"""The delivery index: what the runtime hook hands the agent before each prompt, kept in
step with the store after every run (docs/explanation/delivery.md).

One SQLite file per agent in its state folder (`AgentState.delivery_index`), derived and
safe to delete: the current facts (entity, key, value, quote, dates) and the skills the
agent can use (name, description, path), each with its search terms
(`daemon.text.search_terms`) in an FTS5 table. The hook (`daemon.doors.hook`) only reads
it, with the standard library, so a prompt waits milliseconds, not the seconds a process
that loads the config and the engines would take.

It is refreshed by the applier after each run (`Deployment.after_commit`: runs, `undo`,
a person's actions, purge), inside the run lock. Facts are brought up to date by their
ids (a run adding ten facts writes ten rows, whatever the store's size); skills are read
again only when a `SKILL.md` under the agent's skill folders changed (their stamps). A
file of another schema, unreadable, or missing is built anew beside and moved into place,
so the hook reads either the old file or the new one, never half of one. A purge drops
the file whole (`daemon.run.state_erasure`); the next run builds it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from daemon.kernel.paths import AgentState
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from daemon.text.language import detect, known
from daemon.text.search_terms import stems, terms
from memory_engine.fact_index_open import open_index
from skills_engine.inventory import load_inventory

SCHEMA = 1
QUOTE_CHARS = 240  # of a fact's quote kept for the hook (it shows at most a line of it)
STEM_SAMPLE = 50  # quotes whose languages choose the stemmers

_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE facts (
    rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, entity TEXT NOT NULL, key TEXT NOT NULL,
    value TEXT NOT NULL, quote TEXT NOT NULL, valid_from TEXT NOT NULL, valid_to TEXT,
    head TEXT NOT NULL, said TEXT NOT NULL
);
CREATE INDEX facts_newest ON facts (valid_from DESC, entity, key);
CREATE VIRTUAL TABLE facts_fts USING fts5(
    head, said, content='facts', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE facts_vocab USING fts5vocab(facts_fts, 'row');
CREATE TABLE skills (
    rowid INTEGER PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, path TEXT NOT NULL,
    terms TEXT NOT NULL
);
CREATE VIRTUAL TABLE skills_fts USING fts5(
    terms, content='skills', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
);
CREATE VIRTUAL TABLE skills_vocab USING fts5vocab(skills_fts, 'row');
CREATE TABLE stopwords (term TEXT PRIMARY KEY) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Refreshed:
    """What one refresh changed."""

    facts: int  # current facts in the index after it
    added: int
    removed: int
    skills: int | None  # skills written, None when their folders had not changed
    rebuilt: bool


@dataclass(frozen=True)
class _Fact:
    id: str
    entity: str
    key: str
    value: str
    quote: str
    valid_from: str
    valid_to: str | None

    def head(self, algorithms: list[str]) -> str:
        # the key's words count: "deploy_command" is found by "deploy"
        return _with_stems(f"{self.entity} {self.key} {self.value}", algorithms)

    def said(self, algorithms: list[str]) -> str:
        return _with_stems(self.quote, algorithms)


def _with_stems(text: str, algorithms: list[str]) -> str:
    found = terms(text)
    return " ".join([*found, *stems(found, algorithms)])


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), timeout=30, isolation_level=None)
    # a deleted fact's text is overwritten in the file, not left in a free page
    db.execute("PRAGMA secure_delete = ON")
    return db


def _usable(db: sqlite3.Connection, agent: AgentSettings) -> bool:
    try:
        meta = dict(db.execute("SELECT key, value FROM meta").fetchall())
    except sqlite3.Error:
        return False
    return meta.get("schema") == str(SCHEMA) and meta.get("home") == str(agent.home)


def _create(path: Path, agent: AgentSettings) -> sqlite3.Connection:
    """A new, empty index at `path`, built beside it and moved into place."""
    temp = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    temp.unlink(missing_ok=True)
    db = _connect(temp)
    try:
        db.executescript(_TABLES)
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)",
            [("schema", str(SCHEMA)), ("agent", agent.name), ("home", str(agent.home)), ("skills_stamp", "")],
        )
        db.close()
        os.replace(temp, path)
    except BaseException:
        db.close()
        temp.unlink(missing_ok=True)
        raise
    return _connect(path)


def _open(path: Path, agent: AgentSettings) -> tuple[sqlite3.Connection, bool]:
    if path.exists():
        try:
            db = _connect(path)
            if _usable(db, agent):
                return db, False
            db.close()
        except sqlite3.Error:
            pass
    return _create(path, agent), True


def _fact(raw: str) -> _Fact:
    record = json.loads(raw)
    return _Fact(
        id=record["id"],
        entity=record["entity"],
        key=record["key"],
        value=record["value"],
        quote=" ".join((record.get("quote") or "").split())[:QUOTE_CHARS],
        valid_from=record["valid_from"],
        valid_to=record.get("valid_to"),
    )


def _stemmers(quotes: list[str]) -> list[str]:
    """The Snowball algorithms of the languages the facts are said in: each language with a
    stemmer that at least one in ten of a sample of quotes is in (at most three)."""
    counts: dict[str, int] = {}
    for quote in quotes[:STEM_SAMPLE]:
        lang = detect([quote]) if quote.strip() else None
        if lang is not None and lang.stemmer:
            counts[lang.stemmer] = counts.get(lang.stemmer, 0) + 1
    sampled = min(len(quotes), STEM_SAMPLE)
    common = [a for a, n in sorted(counts.items(), key=lambda item: -item[1]) if n * 10 >= sampled]
    return sorted(common[:3])


def _insert(db: sqlite3.Connection, fact: _Fact, algorithms: list[str]) -> None:
    head, said = fact.head(algorithms), fact.said(algorithms)
    cursor = db.execute(
        "INSERT INTO facts (id, entity, key, value, quote, valid_from, valid_to, head, said)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (fact.id, fact.entity, fact.key, fact.value, fact.quote, fact.valid_from, fact.valid_to, head, said),
    )
    db.execute("INSERT INTO facts_fts (rowid, head, said) VALUES (?, ?, ?)", (cursor.lastrowid, head, said))


def _sync_facts(db: sqlite3.Connection, agent: AgentSettings, state: AgentState, today: str) -> tuple[int, int, int]:
    """Mirror the facts current on `today` (or later: future-dated ones are kept, the hook
    checks the dates when it reads) by id: (how many now, added, removed). When the
    languages the facts are said in change, every row is indexed again with their stemmers."""
    have = dict(db.execute("SELECT id, rowid FROM facts").fetchall())
    with open_index(state.fact_index, agent.home, agent.memory.store) as index:
        current = index.current_ids(today)
        new = [_fact(raw) for raw in index.stored_json(current - have.keys())]
    gone = [have[i] for i in have.keys() - current]
    for rowid in gone:
        db.execute(
            "INSERT INTO facts_fts (facts_fts, rowid, head, said) SELECT 'delete', rowid, head, said FROM facts"
            " WHERE rowid = ?",
            (rowid,),
        )
        db.execute("DELETE FROM facts WHERE rowid = ?", (rowid,))
    sample = [f.quote for f in new[:STEM_SAMPLE]]
    sample += [q for (q,) in db.execute("SELECT quote FROM facts ORDER BY rowid DESC LIMIT ?", (STEM_SAMPLE - len(sample),))]
    algorithms = _stemmers(sample)
    row = db.execute("SELECT value FROM meta WHERE key = 'stemmers'").fetchone()
    if row is None or json.loads(row[0]) != algorithms:
        kept = [
            _Fact(*values)
            for values in db.execute("SELECT id, entity, key, value, quote, valid_from, valid_to FROM facts").fetchall()
        ]
        db.execute("INSERT INTO facts_fts (facts_fts) VALUES ('delete-all')")
        db.execute("DELETE FROM facts")
        new = kept + new
        db.execute("INSERT OR REPLACE INTO meta VALUES ('stemmers', ?)", (json.dumps(algorithms),))
    for fact in new:
        _insert(db, fact, algorithms)
    return len(current), len(new), len(gone)


def _roots(agent: AgentSettings) -> list[str]:
    """The folders a session of this agent runs in: the hook answers only there."""
    return [os.path.realpath(agent.home), *(os.path.realpath(p) for p in agent.transcripts.projects)]


def _skill_files(agent: AgentSettings) -> list[Path]:
    roots = [*agent.managed_skill_dirs, *agent.pack_skill_dirs, agent.home / agent.skills.learned]
    return [p for root in roots if root.is_dir() for p in sorted(root.glob("*/SKILL.md"))]


def _skills_stamp(agent: AgentSettings) -> str:
    stamps = []
    for path in _skill_files(agent):
        try:
            st = path.stat()
        except OSError:
            continue
        stamps.append([str(path), st.st_size, st.st_mtime_ns, st.st_ino])
    return hashlib.sha256(json.dumps(stamps).encode()).hexdigest()


def _sync_skills(db: sqlite3.Connection, agent: AgentSettings) -> int | None:
    row = db.execute("SELECT value FROM meta WHERE key = 'stemmers'").fetchone()
    algorithms: list[str] = json.loads(row[0]) if row else []
    stamp = json.dumps([_skills_stamp(agent), algorithms])
    row = db.execute("SELECT value FROM meta WHERE key = 'skills_stamp'").fetchone()
    if row is not None and row[0] == stamp:
        return None
    inventory = load_inventory(agent, AgentView(agent.home))
    db.execute("INSERT INTO skills_fts (skills_fts) VALUES ('delete-all')")
    db.execute("DELETE FROM skills")
    count = 0
    for skill in inventory.skills:
        if skill.status != "active":
            continue  # shadowed or quarantined: another copy serves, or none should
        description = " ".join(skill.doc.description.split())
        said = _with_stems(f"{skill.name.replace('-', ' ')} {description}", algorithms)
        cursor = db.execute(
            "INSERT INTO skills (name, description, path, terms) VALUES (?, ?, ?, ?)",
            (skill.name, description, str(skill.path), said),
        )
        db.execute("INSERT INTO skills_fts (rowid, terms) VALUES (?, ?)", (cursor.lastrowid, said))
        count += 1
    db.execute("INSERT OR REPLACE INTO meta VALUES ('skills_stamp', ?)", (stamp,))
    return count


def _stopwords() -> list[str]:
    """Every language's stopwords (its data file's `stopwords:`), as search terms: what the
    hook never matches on ("the", "der", "的"). One set for all: a prompt's language is
    not read on the hook's path."""
    return sorted({term for lang in known().values() for word in lang.words("stopwords") for term in terms(word)})


def _sync_stopwords(db: sqlite3.Connection) -> None:
    words = _stopwords()
    stamp = hashlib.sha256("\n".join(words).encode()).hexdigest()
    row = db.execute("SELECT value FROM meta WHERE key = 'stopwords_stamp'").fetchone()
    if row is not None and row[0] == stamp:
        return
    db.execute("DELETE FROM stopwords")
    db.executemany("INSERT OR IGNORE INTO stopwords VALUES (?)", ((w,) for w in words))
    db.execute("INSERT OR REPLACE INTO meta VALUES ('stopwords_stamp', ?)", (stamp,))


def refresh(agent: AgentSettings, state: AgentState, now: datetime) -> Refreshed:
    """Bring `agent`'s delivery index up to date with its store and skill folders."""
    today = now.date().isoformat()
    db, rebuilt = _open(state.delivery_index, agent)
    try:
        db.execute("BEGIN IMMEDIATE")
        try:
            facts, added, removed = _sync_facts(db, agent, state, today)
            skills = _sync_skills(db, agent)
            _sync_stopwords(db)
            db.executemany(
                "INSERT OR REPLACE INTO meta VALUES (?, ?)",
                [("refreshed_at", now.isoformat()), ("facts", str(facts)), ("roots", json.dumps(_roots(agent)))],
            )
        except BaseException:
            db.rollback()
            raise
        db.commit()
    finally:
        db.close()
    return Refreshed(facts, added, removed, skills, rebuilt)
