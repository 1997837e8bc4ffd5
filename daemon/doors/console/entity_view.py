"""A fact page: one entity's timeline — every stored version of each of its keys, current
and superseded, with its validity, the turn it came from, its quote, and the run that wrote
it (and the one that last changed its line, closing it).

The versions are the query index's (`memory list --entity E --all` reads the same). Which
run wrote a record is the store's history: one `git log -G` over the fact store's files for
the entity's record ids, whose added lines name each record's first and last commit.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field

from daemon.config.resolve import Deployment
from daemon.kernel.errors import DaemonError
from daemon.run.session import has_store, read_session
from daemon.wiring import fact_lookup
from memory_engine.agent_memory import memory_files, memory_folders
from memory_engine.records import FactRecord

ERE_SPECIAL = frozenset(".^$*+?()[]{}|\\")  # characters an extended regex reads as operators
MAX_LOOKUP = 400  # record ids looked up in one `git log` (one regex); an entity with more says so


class UnknownEntity(DaemonError):
    """The agent's owner has no stored fact about that entity; the message names it."""


@dataclass(frozen=True)
class Writer:
    """A commit of the store: a run (`run_id`) or a person's edit the store recorded."""

    run_id: str | None
    sha: str
    at: str

    @property
    def label(self) -> str:
        return f"run {self.run_id}" if self.run_id else f"a person's edit ({self.sha[:10]})"


@dataclass(frozen=True)
class Version:
    record: FactRecord
    current: bool  # valid on the page's day
    written_by: Writer | None  # the commit that first added its line
    changed_by: Writer | None  # the last later commit that rewrote its line (closed it), if any


@dataclass(frozen=True)
class EntityPage:
    entity: str
    day: str
    keys: dict[str, list[Version]]  # key → versions, oldest first
    problems: list[str] = field(default_factory=list)

    @property
    def quotes(self) -> list[Version]:
        return [v for versions in self.keys.values() for v in versions if v.record.quote]


def _pattern(ids: list[str]) -> str:
    """An extended regex (git's -G) matching the `id` field of any of `ids` in a stored line."""
    escaped = ("".join("\\" + c if c in ERE_SPECIAL else c for c in i) for i in ids)
    return '"id": ?"(' + "|".join(escaped) + ')"'


def _parse_log(out: str, wanted: set[str]) -> dict[str, list[Writer]]:
    """Each wanted record id → the commits (oldest first) whose diff adds a line of it."""
    found: dict[str, list[Writer]] = defaultdict(list)
    for chunk in out.split("\x1e"):
        head, _, patch = chunk.partition("\n")
        fields = head.split("\x00")
        if len(fields) < 3:
            continue
        writer = Writer(fields[1] or None, fields[0], fields[2])
        for line in patch.splitlines():
            if not line.startswith("+") or line.startswith("+++"):
                continue
            try:
                record = json.loads(line[1:])
            except ValueError:
                continue
            rid = record.get("id") if isinstance(record, dict) else None
            if isinstance(rid, str) and rid in wanted and (not found[rid] or found[rid][-1] != writer):
                found[rid].append(writer)
    return found


def writers(deployment: Deployment, agent: str, ids: list[str]) -> dict[str, list[Writer]]:
    """The commits that added a line of each record of `ids`, oldest first (see the module docstring)."""
    settings = deployment.agent(agent)
    if not ids or not has_store(deployment, agent):
        return {}
    paths = sorted(memory_files(settings) | memory_folders(settings))
    with read_session(deployment, agent) as session:
        if session.store.head() is None:
            return {}
        _status, out = session.store.run_git(
            "log",
            "--first-parent",
            "--reverse",
            "--no-renames",
            "-E",
            f"-G{_pattern(ids)}",
            "-p",
            "--no-color",
            "--no-ext-diff",
            "--unified=0",
            "--format=%x1e%H%x00%(trailers:key=Run-Id,valueonly,separator=)%x00%cI",
            "HEAD",
            "--",
            *paths,
        )
    return _parse_log(out.decode("utf-8", "replace"), set(ids))


def entity_page(deployment: Deployment, agent: str, entity: str, day: str) -> EntityPage:
    """Every version of every key of `entity` for the agent's owner; raises UnknownAgent, or
    UnknownEntity when no record names it."""
    settings = deployment.agent(agent)
    with fact_lookup.fact_index(deployment.state_dir, settings) as index:
        records = index.records(settings.owner, entity)
    if not records:
        raise UnknownEntity(f"agent {settings.name} has no stored fact about {entity!r}")
    problems: list[str] = []
    ids = sorted({r.id for r in records})
    if len(ids) > MAX_LOOKUP:
        problems.append(f"the runs that wrote them are shown for {MAX_LOOKUP} of {len(ids)} records")
    try:
        found = writers(deployment, settings.name, ids[:MAX_LOOKUP])
    except DaemonError as exc:
        problems.append(f"the runs that wrote them are not shown: {exc}")
        found = {}
    by_key: dict[str, list[FactRecord]] = defaultdict(list)
    for record in records:
        by_key[record.key].append(record)
    keys: dict[str, list[Version]] = {}
    for key, versions in sorted(by_key.items()):
        versions.sort(key=lambda r: (r.valid_from, r.observed_at, r.id))
        current = next((r for r in reversed(versions) if r.valid_at(day)), None)
        keys[key] = [
            Version(
                r,
                r is current,
                found[r.id][0] if found.get(r.id) else None,
                found[r.id][-1] if len(found.get(r.id, [])) > 1 else None,
            )
            for r in versions
        ]
    return EntityPage(entity, day, keys, problems)
