"""Distillation as the pass does it, on one corpus session, and the figures it scores. Pure.

The requests are the pass's own: its system prompt, its user message (`today`, the
allowed keys, the turn bodies), its response model, turns grouped into requests by the
same splitter on the room the deep tier leaves. Each proposed fact goes through the
pass's own checks and write rules (`DistillationPass._write`: the cited turn, the quote,
the source, grounding, then the memory's decision list) on a fresh memory per session,
with the settings of a new agent (`AgentMemory` defaults) and the corpus's allowed keys.

A stored fact is *supported* when a fact label of its session has its key, an entity of
the same family (`user`, `user.home`… are all the user) and its value (every content
word of the label's value, or of one of its `also` spellings, is in the stored value). A
stored fact that is not supported is junk: it counts against precision, and it is put
down to a trap when a trap label of the session has its key and value, whatever entity
the model named (a stored `wife / drink = tea` is as much the trap as `user / drink =
tea`); otherwise it is `unlabelled`.

precision = supported stored / stored; recall = fact labels stored / fact labels;
junk rate of a category = its traps stored / its traps.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from daemon.kernel.settings import (
    AgentMemory,
    AgentSettings,
    SkillSources,
    TranscriptSettings,
    WorkspaceRoles,
)
from daemon.lab.distill_corpus import Corpus, CorpusSession, Label, same_value
from daemon.passes import turn_prompt
from daemon.passes.turn_batches import TurnGroup, split_turns
from daemon.text.language import detect
from memory_engine import factstore
from memory_engine.agent_memory import schema_for
from memory_engine.distillation import TASK, DistillationResponse, task_data
from memory_engine.fact_admission import admit_all

BENCH_AGENT = "lab-distill"


def bench_agent(allowed_keys: Iterable[str], memory: AgentMemory | None = None) -> AgentSettings:
    """A new agent's settings with `allowed_keys` (or `memory` as recorded); only its memory is ever read."""
    return AgentSettings(
        name=BENCH_AGENT,
        home=Path(BENCH_AGENT),  # never read: the corpus turns are handed over, no home exists
        enabled=True,
        autonomy="auto",
        cadence="standard",
        deep_cap=1,
        instruction_hold=False,
        budget_usd=0.0,
        passes={},
        transcripts=TranscriptSettings(),
        skills=SkillSources(),
        managed_skill_dirs=(),
        pack_skill_dirs=(),
        workspace=WorkspaceRoles(),
        memory=memory or AgentMemory(allowed_keys=list(allowed_keys)),
    )


def session_now(cs: CorpusSession) -> datetime:
    """The pass's `now` for a session: the evening of its date (its `today`)."""
    return datetime.fromisoformat(f"{cs.session.date}T18:00:00").replace(tzinfo=UTC)


def groups(cs: CorpusSession, room: int) -> list[TurnGroup]:
    """The session's turns as consecutive requests of at most `room` bytes of turns each."""
    found: list[TurnGroup] = []
    start = 0
    while start < len(cs.turns):
        (group,) = split_turns(cs.turns[start:], room, 1)
        found.append(group)
        start += len(group.turns)
    return found


def user_message(group: TurnGroup | None, agent: AgentSettings, now: datetime) -> str:
    """The pass's user message around `group`'s turn bodies (None: no turns, to size the room)."""
    bodies = list(group.bodies) if group is not None else []
    return turn_prompt.user_message(bodies, TASK, task_data(list(agent.memory.allowed_keys), now))


def first_turn(cs: CorpusSession, group: TurnGroup) -> int:
    """1-based index in the session of the group's first turn."""
    return cs.turns.index(group.turns[0][1]) + 1


def classify(cs: CorpusSession, entity: str, key: str, value: str) -> dict[str, Any]:
    """Which label a stored fact is (see the module docstring)."""
    family = entity.casefold().split(".", 1)[0]
    for index, fact in enumerate(cs.session.facts):
        if (
            fact.key == key
            and fact.entity.casefold().split(".", 1)[0] == family
            and same_value(fact.spellings(), value)
        ):
            return {"class": "supported", "label": f"facts[{index}]"}
    for index, trap in enumerate(cs.session.traps):
        if trap.key == key and same_value(trap.spellings(), value):
            return {"class": "trap", "label": f"traps[{index}]", "category": trap.category}
    return {"class": "unlabelled"}


def settle(
    cs: CorpusSession, agent: AgentSettings, answers: Sequence[tuple[TurnGroup, DistillationResponse | None]]
) -> list[dict[str, Any]]:
    """Every proposed fact of the session's answers (None: no valid answer), through the pass's checks."""
    memory = factstore.load(None, BENCH_AGENT, agent.memory.settings, schema_for(agent))
    now = session_now(cs)
    outcomes: list[dict[str, Any]] = []
    proposed = [
        (number, fact, group.by_id)
        for number, (group, answer) in enumerate(answers, start=1)
        if answer is not None
        for fact in answer.facts
    ]
    admitted = admit_all(memory, agent, [(fact, turns) for _, fact, turns in proposed], now)
    for (number, fact, _turns), (line, result) in zip(proposed, admitted, strict=True):
        entry: dict[str, Any] = {
            "request": number,
            "fact": fact.model_dump(),
            "status": result.status,
            "reason": result.reason,
            "detail": result.detail,
            "line": line,
        }
        if result.status == "stored":
            entry["record_id"] = result.record_id
            entry["match"] = classify(cs, fact.entity, fact.key, fact.value)
        outcomes.append(entry)
    return outcomes


LANGUAGE_COUNTS = ("sessions", "facts", "facts_found", "traps", "traps_stored", "stored", "supported_stored")


def _ratio(part: int, whole: int) -> float | None:
    return round(part / whole, 4) if whole else None


def score_session(cs: CorpusSession, outcomes: Sequence[dict[str, Any]]) -> dict[str, Any]:
    stored = [o for o in outcomes if o["status"] == "stored"]
    matches = [o["match"] for o in stored]
    found = {m["label"] for m in matches if m["class"] == "supported"}
    traps = {m["label"] for m in matches if m["class"] == "trap"}
    return {
        "session": cs.id,
        "proposed": len(outcomes),
        "stored": len(stored),
        "supported_stored": sum(m["class"] == "supported" for m in matches),
        "unlabelled_stored": sum(m["class"] == "unlabelled" for m in matches),
        "facts": len(cs.session.facts),
        "facts_found": len(found),
        "facts_missed": [_label(f"facts[{i}]", f) for i, f in enumerate(cs.session.facts) if f"facts[{i}]" not in found],
        "traps": len(cs.session.traps),
        "traps_stored": [
            f"{_label(f'traps[{i}]', t)} ({t.category})" for i, t in enumerate(cs.session.traps) if f"traps[{i}]" in traps
        ],
    }


def _label(where: str, label: Label) -> str:
    return f"{where} {label.entity}.{label.key} = {label.value!r}"


def figures(
    corpus: Corpus, outcomes: dict[str, list[dict[str, Any]]], requests: int, invalid: int
) -> dict[str, Any]:
    """The corpus's figures over the sessions in `outcomes` (the sessions that were run)."""
    ran = [cs for cs in corpus.sessions if cs.id in outcomes]
    rows = [score_session(cs, outcomes[cs.id]) for cs in ran]
    per_category: dict[str, dict[str, int]] = {c: {"traps": 0, "stored": 0} for c in corpus.header.categories}
    for cs in ran:
        hit = {o["match"]["label"] for o in outcomes[cs.id] if o.get("match", {}).get("class") == "trap"}
        for index, trap in enumerate(cs.session.traps):
            per_category[trap.category]["traps"] += 1
            per_category[trap.category]["stored"] += f"traps[{index}]" in hit
    per_language: dict[str, dict[str, int]] = {}
    for cs, row in zip(ran, rows, strict=True):
        lang = detect([m.content for m in cs.session.transcript if m.role == "user"])
        counts = per_language.setdefault(lang.code if lang else "unknown", dict.fromkeys(LANGUAGE_COUNTS, 0))
        counts["sessions"] += 1
        for name in ("facts", "facts_found", "traps", "stored", "supported_stored"):
            counts[name] += row[name]
        counts["traps_stored"] += len(row["traps_stored"])
    stored = sum(r["stored"] for r in rows)
    supported = sum(r["supported_stored"] for r in rows)
    facts = sum(r["facts"] for r in rows)
    found = sum(r["facts_found"] for r in rows)
    traps = sum(r["traps"] for r in rows)
    traps_stored = sum(len(r["traps_stored"]) for r in rows)
    reasons = Counter(f"{o['status']} {o['reason']}" for cs in ran for o in outcomes[cs.id])
    return {
        "sessions": len(ran),
        "sessions_in_corpus": len(corpus.sessions),
        "requests": requests,
        "invalid_responses": invalid,
        "proposed": sum(r["proposed"] for r in rows),
        "stored": stored,
        "supported_stored": supported,
        "unlabelled_stored": sum(r["unlabelled_stored"] for r in rows),
        "precision": _ratio(supported, stored),
        "facts": facts,
        "facts_found": found,
        "recall": _ratio(found, facts),
        "traps": traps,
        "traps_stored": traps_stored,
        "junk_rate": _ratio(traps_stored, traps),
        "by_category": {
            c: {**n, "junk_rate": _ratio(n["stored"], n["traps"])} for c, n in per_category.items()
        },
        # by the language of the session's user messages (the text layer's `detect`)
        "by_language": {
            code: {
                **n,
                "precision": _ratio(n["supported_stored"], n["stored"]),
                "recall": _ratio(n["facts_found"], n["facts"]),
                "junk_rate": _ratio(n["traps_stored"], n["traps"]),
            }
            for code, n in sorted(per_language.items())
        },
        "by_outcome": dict(sorted(reasons.items())),
        "by_session": rows,
    }
