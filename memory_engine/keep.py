"""Keep a refused candidate a person chose: a held conflict, a tentative statement (pure planning).

Distillation holds two values for one key and date that its checks could not tell apart
(`held_conflict`, `fact_conflicts`), and logs a hedged statement as `tentative`; neither
becomes a fact by itself. `memory keep` is the person's decision: the chosen log entry is
written through the memory's write rules like any fact (from its turn's date, valid from
the date it was proposed with, with its quote), its source `user` — the person vouches for
it — and the entries it answers (the chosen one, and the other values held with it) are
marked settled in the log. One run, undone like any.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from daemon.kernel.changeset import Changeset, PassDetails
from daemon.kernel.errors import DaemonError
from daemon.kernel.settings import AgentSettings
from daemon.kernel.view import AgentView
from memory_engine import refused
from memory_engine.agent_memory import open_edit


class Kept(PassDetails):
    """The record `memory keep` stored (`memory keep --json`)."""

    record_id: str
    entity: str
    key: str
    value: str
    valid_from: str


def _chosen(entries: list[refused.RefusedFact], run: str, entity: str, key: str, value: str | None) -> int:
    matches = [
        i
        for i, e in enumerate(entries)
        if e.run_id == run and e.entity == entity and e.key == key and value in (None, e.value)
    ]
    if not matches:
        what = f"{entity}.{key}" + (f" = {value!r}" if value is not None else "")
        raise DaemonError(f"run {run!r} refused no {what} (see `memory refused --run {run}`); nothing changed")
    values = sorted({entries[i].value for i in matches})
    if len(values) > 1:
        raise DaemonError(
            f"run {run!r} refused {len(values)} values for {entity}.{key} ({', '.join(map(repr, values))}): "
            "say which with --value; nothing changed"
        )
    return matches[-1]


def plan_keep(
    agent: AgentSettings,
    view: AgentView,
    run: str,
    entity: str,
    key: str,
    value: str | None,
    now: datetime,
    index_path: Path | None = None,
) -> Changeset:
    entries = refused.read_log(view)
    chosen = entries[_chosen(entries, run, entity, key, value)]
    if chosen.settled is not None:
        raise DaemonError(f"{entity}.{key} = {chosen.value!r} of run {run} is already settled ({chosen.settled}); nothing changed")
    said_on = chosen.at[:10]
    edit = open_edit(agent, view, index_path)
    edit.load_scope((*agent.owner, entity, key))
    tenant, user = agent.owner
    result = edit.memory.write(
        {
            "tenant": tenant,
            "user": user,
            "entity": entity,
            "key": key,
            "value": chosen.value,
            "confidence": chosen.confidence if chosen.confidence is not None else 1.0,
            "valid_from": chosen.valid_from or said_on,
            "source": "user",
            "kind": "fact",
        },
        owner=agent.owner,
        at=said_on,
        source_event_id=f"{chosen.file}@{chosen.start}" if chosen.file is not None else f"keep:{run}",
        quote=chosen.quote,
    )
    if result.status != "stored" or result.record_id is None:
        detail = f" ({result.detail})" if result.detail else ""
        raise DaemonError(
            f"the memory does not take {entity}.{key} = {chosen.value!r}: {result.status} {result.reason}{detail}; nothing changed"
        )
    record = result.record_id
    settled = []
    for entry in entries:
        held_with = entry.run_id == run and entry.entity == entity and entry.key == key and entry.settled is None
        if entry is chosen:
            entry = entry.model_copy(update={"settled": f"kept as {record} by a person"})
        elif held_with and entry.reason == "held_conflict":
            # no value in the text: a purge of the kept value finds it in its own entry only
            entry = entry.model_copy(update={"settled": f"not kept: another value was kept as {record}"})
        settled.append(entry)
    writes, deletes = edit.changes(now.date().isoformat())
    stored = edit.memory.get(record)
    assert stored is not None
    return Changeset(
        pass_name="memory-keep",
        status="changes",
        reason=f"kept {entity}.{key} = {chosen.value!r} of run {run} as {record}, valid from {stored.valid_from}",
        writes=(*writes, refused.render_log(settled)),
        deletes=deletes,
        report=(f"stored {record}",),
        details=Kept(record_id=record, entity=entity, key=key, value=chosen.value, valid_from=stored.valid_from),
    )
