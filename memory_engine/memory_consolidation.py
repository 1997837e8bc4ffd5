"""Memory-consolidation pass: compact the fact store under the memory lock (docs/explanation/fact-memory.md, §6).

It never drops history. What it changes:
- exact duplicates — records identical in owner, entity, key, value, confidence, source
  and validity interval, differing only in id or provenance (`source_event_id`,
  `observed_at`) — are merged into the one recorded first; links to a dropped id are
  pointed at the kept one. Repeated identical lines are dropped the same way;
- broken supersede chains — a link that is missing, dangling, self-referencing or
  pointing outside the record's scope — are repaired when the scope has exactly one
  version closed on the record's `valid_from` (what a write would have linked);
  otherwise they are reported and left as they are;
- the file is rewritten in canonical order (the runner writes it atomically, while the
  memory lock is held, so distillation backs off meanwhile).
Closed versions are never removed: the bitemporal history (valid_from/valid_to and
observed_at) is what answers "where did she live on the 5th". Several open versions of
one scope, or overlapping intervals, need a person: they are reported, not resolved.
Two different records under one id make the pass fail without touching anything.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from daemon.kernel import review_queue
from daemon.kernel.changeset import Changeset, FileWrite, PassDetails, failed, nothing
from daemon.kernel.errors import StateVersionError
from daemon.kernel.managed import ManagedPaths
from daemon.kernel.paths import REVIEW_DIR
from daemon.kernel.settings import AgentSettings
from daemon.passes.protocol import MemoryLockMode, PassContext
from memory_engine import factstore
from memory_engine.agent_memory import memory_files, memory_folders
from memory_engine.fact_shards import by_shard, shard_files
from memory_engine.facts_wiring import wiring_proposal
from memory_engine.records import SCHEMA_VERSION, FactRecord

Scope = tuple[str, str, str, str]


@dataclass
class Consolidation:
    records: list[FactRecord]
    dropped: list[str] = field(default_factory=list)  # report lines
    repaired: list[str] = field(default_factory=list)
    reported: list[str] = field(default_factory=list)
    blocking: list[str] = field(default_factory=list)


def _read(text: str, label: str, plan: Consolidation, by_id: dict[str, FactRecord], where: str) -> None:
    """Add the records of one file to `plan`; `where` prefixes its problems ("" or "<path>: ")."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except ValueError:
            plan.blocking.append(f"{where}line {number}: not JSON")
            continue
        version = raw.get("schema_version") if isinstance(raw, dict) else None
        if isinstance(version, int) and version > SCHEMA_VERSION:
            raise StateVersionError(Path(f"{label}:{number}"), raw["schema_version"], SCHEMA_VERSION)
        try:
            record = FactRecord.model_validate(raw)
        except ValidationError as exc:
            err = exc.errors()[0]
            plan.blocking.append(f"{where}line {number}: {'.'.join(str(p) for p in err['loc'])}: {err['msg']}")
            continue
        seen = by_id.get(record.id)
        if seen is None:
            by_id[record.id] = record
            plan.records.append(record)
        elif seen == record:
            plan.dropped.append(f"{where}line {number}: repeated line of record {record.id} removed")
        else:
            plan.blocking.append(f"{where}line {number}: id {record.id} is used by two different records")


def _identity(r: FactRecord) -> tuple[object, ...]:
    return (r.tenant, r.user, r.entity, r.key, r.value, r.confidence, r.source, r.valid_from, r.valid_to)


def _merge_duplicates(plan: Consolidation) -> None:
    first: dict[tuple[object, ...], FactRecord] = {}
    replaced: dict[str, str] = {}
    for record in sorted(plan.records, key=lambda r: (r.observed_at, r.id)):
        kept = first.setdefault(_identity(record), record)
        if kept is not record:
            replaced[record.id] = kept.id
            plan.dropped.append(
                f"{record.id} duplicates {kept.id} ({record.entity}.{record.key}={record.value!r} "
                f"from {record.valid_from}); merged into {kept.id}"
            )
    if not replaced:
        return
    plan.records = [
        r.model_copy(
            update={"supersedes_memory_id": replaced.get(r.supersedes_memory_id, r.supersedes_memory_id)}
        )
        if r.supersedes_memory_id in replaced
        else r
        for r in plan.records
        if r.id not in replaced
    ]


def _scopes(records: Iterable[FactRecord]) -> dict[Scope, list[FactRecord]]:
    scopes: dict[Scope, list[FactRecord]] = {}
    for record in records:
        scopes.setdefault(record.scope, []).append(record)
    return scopes


def _repair_chains(plan: Consolidation) -> None:
    by_id = {r.id: r for r in plan.records}
    fixes: dict[str, str] = {}
    for scope, versions in _scopes(plan.records).items():
        name = f"{scope[0]}/{scope[1]} {scope[2]}.{scope[3]}"
        open_ids = [r.id for r in versions if r.valid_to is None]
        if len(open_ids) > 1:
            plan.reported.append(
                f"{name}: {len(open_ids)} open versions ({', '.join(open_ids)}); a person decides"
            )
        ordered = sorted(versions, key=lambda r: (r.valid_from, r.id))
        for before, after in itertools.pairwise(ordered):
            if before.valid_to is not None and before.valid_to > after.valid_from:
                plan.reported.append(f"{name}: {before.id} and {after.id} overlap in time")
        for record in versions:
            link = by_id.get(record.supersedes_memory_id or "")
            if (
                link is not None
                and link.scope == scope
                and link.id != record.id
                and link.valid_to == record.valid_from
            ):
                continue
            candidates = [v for v in versions if v.id != record.id and v.valid_to == record.valid_from]
            if record.supersedes_memory_id is None and not candidates:
                continue  # the first version of its chain
            if len(candidates) == 1:
                fixes[record.id] = candidates[0].id
                plan.repaired.append(
                    f"{record.id} ({name}): supersedes {record.supersedes_memory_id or 'nothing'} → {candidates[0].id}"
                )
            else:
                why = (
                    "no version closes on its valid_from"
                    if not candidates
                    else "several versions could precede it"
                )
                plan.reported.append(
                    f"{record.id} ({name}): link to {record.supersedes_memory_id or 'nothing'} is broken and "
                    f"cannot be repaired ({why})"
                )
    plan.records = [
        r.model_copy(update={"supersedes_memory_id": fixes[r.id]}) if r.id in fixes else r
        for r in plan.records
    ]


def consolidate(content: bytes, label: str) -> Consolidation:
    """The consolidated records of a fact-store file, with what was done and what was not."""
    return consolidate_files([(label, content)], named=False)


def consolidate_files(files: list[tuple[str, bytes]], named: bool = True) -> Consolidation:
    """The consolidated records of several fact-store files (the shards, a single file not
    yet migrated), taken as one store; `named`: problems name their file."""
    plan = Consolidation(records=[])
    by_id: dict[str, FactRecord] = {}
    for label, content in files:
        where = f"{label}: " if named else ""
        try:
            text = content.decode("utf-8")
        except UnicodeDecodeError as exc:
            plan.blocking.append(f"{where}not UTF-8 at byte {exc.start}")
            continue
        _read(text, label, plan, by_id, where)
    if plan.blocking:
        return plan
    _merge_duplicates(plan)
    _repair_chains(plan)
    return plan


class ConsolidationDetails(PassDetails):
    """What the memory consolidation did to the fact store."""

    records: int
    duplicates_removed: int
    links_repaired: int
    problems_reported: list[str]
    wiring_proposed: str | None  # the one-time facts-view-wiring proposal made this run


class ConsolidationBlocked(PassDetails):
    """Why the fact store needs a person before it can be consolidated."""

    problems: list[str]


class MemoryConsolidationPass:
    name = "memory_consolidation"
    uses_model = False
    memory_lock: MemoryLockMode = "wait"

    def write_scope(self, agent: AgentSettings) -> ManagedPaths:
        # memory_folders: the shards; REVIEW_DIR: the one-time proposal wiring the facts view
        # into the runtime's instruction file.
        return ManagedPaths(frozenset(memory_files(agent)), frozenset({*memory_folders(agent), REVIEW_DIR}))

    def plan(self, context: PassContext) -> Changeset:
        agent = context.agent
        store = agent.memory.store
        read: dict[str, bytes] = {}
        legacy = context.view.read_bytes(store)
        if legacy is not None:
            read[store] = legacy
        for path in shard_files(context.view, store):
            content = context.view.read_bytes(path)
            if content is not None:
                read[path] = content
        if not read:
            return nothing(self.name, f"no fact store yet ({store})")
        label = str(agent.home / store)
        plan = consolidate_files([(str(agent.home / path), content) for path, content in read.items()])
        if plan.blocking:
            return failed(
                self.name,
                f"{label} needs a person before it can be consolidated: {'; '.join(plan.blocking[:5])}",
                ConsolidationBlocked(problems=plan.blocking),
            )
        # Every record goes to its own shard (one moved by hand goes back); the single file goes.
        groups = by_shard(plan.records, store)
        writes: list[FileWrite] = []
        deletes = [store] if legacy is not None else []
        for path in sorted(set(groups) | (set(read) - {store})):
            rendered = factstore.render(groups.get(path, []))
            if rendered == read.get(path, b""):
                continue
            if rendered:
                writes.append(FileWrite(path=path, content=rendered))
            else:
                deletes.append(path)
        wiring = None
        if agent.memory.markdown_view:
            view = factstore.render_markdown(plan.records, context.now.date().isoformat())
            if view != context.view.read_bytes(agent.memory.markdown_view):
                writes.append(FileWrite(path=agent.memory.markdown_view, content=view))
            wiring = wiring_proposal(agent, context.view, context.now, context.run_id)
            if wiring is not None:
                writes.append(review_queue.proposal_write(wiring))
        report = tuple(
            [f"merged: {line}" for line in plan.dropped]
            + [f"repaired: {line}" for line in plan.repaired]
            + [f"needs a person: {line}" for line in plan.reported]
        )
        details = ConsolidationDetails(
            records=len(plan.records),
            duplicates_removed=len(plan.dropped),
            links_repaired=len(plan.repaired),
            problems_reported=plan.reported,
            wiring_proposed=wiring.id if wiring is not None else None,
        )
        summary = (
            f"{len(plan.records)} record(s); {len(plan.dropped)} duplicate(s) removed, "
            f"{len(plan.repaired)} link(s) repaired, {len(plan.reported)} problem(s) reported"
        )
        if not writes and not deletes:
            return Changeset(
                pass_name=self.name,
                status="nothing",
                reason=f"fact store already compact: {summary}",
                report=report,
                details=details,
            )
        return Changeset(
            pass_name=self.name,
            status="changes",
            reason=summary,
            writes=tuple(writes),
            deletes=tuple(deletes),
            report=report,
            details=details,
        )
