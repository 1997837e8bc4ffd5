"""Whether a fact the model proposed is stored: the one decision of distillation (docs/explanation/fact-memory.md).

The quote is looked up in the turn it cites, which also tells whose words the fact rests on
(user, assistant or tool output) — the daemon sets the source and the owner, never the
model; grounding (`fact_grounding`) and the claim check (`claim`) judge the quote; then the
memory's write rules decide. Every fact not stored comes back with its reason.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from daemon.kernel.json_contract import RawJson
from daemon.kernel.settings import AgentSettings
from daemon.text.language import detect, known
from daemon.transcripts.lines import Message
from daemon.transcripts.reader import Turn
from memory_engine import claim, fact_conflicts, fact_grounding
from memory_engine.memory import Memory, WriteResult
from memory_engine.records import FactProposal
from memory_engine.stated_time import stated_start

# Entity names that are identifiers, not words, for the user ("me", "ich", "moi" … are read
# from every language's `first_person` list).
SELF_ENTITIES = frozenset({"self", "the_user", "the-user"})


class DistilledFact(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    turn: str = Field(description="id of the turn the fact comes from, e.g. T3")
    quote: str = Field(description="verbatim words from that turn that state the fact")
    entity: str = Field(description="what the fact is about, e.g. user, user.home, project-x")
    key: str = Field(description="one of the allowed keys")
    value: str
    # strict: a JSON true or "0.9" is a malformed answer, not a confidence of 1.0 or 0.9.
    confidence: float = Field(strict=True, description="0..1: how sure the statement is")
    valid_from: str = Field(description="YYYY-MM-DD from which the fact holds")


def _normalise(text: str) -> str:
    # NFC: a transcript in decomposed form ("Zu\u0308rich") still contains the quote a model
    # writes composed, and the other way round.
    return unicodedata.normalize("NFC", re.sub(r"\s+", " ", text).strip().strip("\"'“”«»").casefold())


def _turn_date(turn: Turn, now: datetime | None) -> str | None:
    stamp = turn.ts
    if stamp:
        try:
            return datetime.fromisoformat(stamp.replace("Z", "+00:00")).date().isoformat()
        except ValueError:
            pass
    return now.date().isoformat() if now is not None else None


def _valid(raw: RawJson) -> bool:
    try:
        FactProposal.model_validate(raw)
    except ValidationError:
        return False
    return True


def _quoted_message(turn: Turn, quote: str) -> Message | None:
    """The turn's message that holds `quote` (its role says whose words they are), or None."""
    needle = _normalise(quote)
    if not needle:
        return None
    return next((m for m in turn.messages if needle in _normalise(m.content)), None)



@dataclass(frozen=True)
class Candidate:
    """A fact every check let through, waiting for the memory's write rules."""

    fact: DistilledFact
    label: str
    raw: dict[str, object]
    turn: Turn
    strength: int  # fact_grounding.Verdict.strength
    note: str = ""  # what admission changed (a valid_from read from the quote)
    # False: a source or value the memory refuses anyway, for that clearer reason; such a
    # candidate takes no part in deciding a conflict
    checked: bool = True


def _refused(label: str, status: str, reason: str, detail: str) -> tuple[str, WriteResult]:
    result = WriteResult(status, reason, False, detail=detail)  # type: ignore[arg-type]
    return f"{status} {label}: {reason} — {detail}", result


def examine(
    agent: AgentSettings, fact: DistilledFact, turns: dict[str, Turn]
) -> Candidate | tuple[str, WriteResult]:
    """The checks before the memory: the cited turn was sent, the quote is in it (whose
    words: its message's role), grounding finds the value in the quote, the claim check
    finds it asserted. A Candidate, or the report line and result of the refusal."""
    label = f"{fact.entity}.{fact.key} = {fact.value!r} (cites {fact.turn})"
    turn = turns.get(fact.turn)
    if turn is None:
        result = WriteResult(
            "rejected", "unknown_turn", False, detail=f"cites turn {fact.turn!r}, which was not sent"
        )
        return f"rejected {label}: {result.detail}", result
    message = _quoted_message(turn, fact.quote)
    if message is None:
        result = WriteResult(
            "rejected", "quote_not_found", False, detail=f"quote not found in turn {fact.turn}"
        )
        return f"rejected {label}: {result.detail}", result
    source = message.role
    tenant, user = agent.owner
    raw: dict[str, object] = {
        "tenant": tenant,
        "user": user,
        "entity": fact.entity,
        "key": fact.key,
        "value": fact.value,
        "confidence": fact.confidence,
        "valid_from": fact.valid_from,
        "source": source,
        "kind": "fact",
    }
    # A fact the memory refuses anyway (a source it does not take, a value it cannot
    # store) is refused for that, the clearer reason; grounding judges the rest.
    if source not in agent.memory.allowed_sources or not _valid(raw):
        return Candidate(fact, label, raw, turn, 0, checked=False)
    text = message.content
    lang = detect([text])
    head = fact.entity.split(".", 1)[0]
    own = frozenset({"user", *([agent.memory.owner.user] if agent.memory.owner.user else [])})
    # an entity named "me", "ich", "moi" … (in any language with a data file) is the user,
    # and is checked as the user
    if head.casefold() in SELF_ENTITIES or any(head.casefold() in known_lang.words("first_person") for known_lang in known().values()):
        own |= {head}
    verdict = fact_grounding.check(fact.entity, fact.value, fact.quote, own, fact.key)
    if not verdict.grounded:
        result = WriteResult("rejected", "ungrounded", False, detail=verdict.detail)
        return f"rejected {label}: ungrounded — {verdict.detail}", result
    # Grounded words are not yet a claim: negated, hypothetical, reported … (`claim`). The
    # project's facts too must not be someone else's ("my friend's team uses yarn").
    about_user = head in own
    shared = head in fact_grounding.SHARED_ENTITIES
    refusal = claim.assess(fact.quote, fact.value, text, lang, about_user or shared, fact.key)
    if refusal is None and about_user and source != "user":
        refusal = claim.Refusal("not_the_user", f"the quote is the {source}'s words, not the user's")
    if refusal is not None:
        return _refused(label, "rejected", refusal.code, refusal.detail)
    # "since 2023", "from the 1st of June": the quote's own start wins over the model's date
    start = stated_start(fact.quote, lang, _turn_date(turn, None))
    note = ""
    if start is not None and start != fact.valid_from:
        raw["valid_from"] = start
        note = f" (valid_from {start}: the quote states it; the model said {fact.valid_from})"
    return Candidate(fact, label, raw, turn, verdict.strength, note)


def write(memory: Memory, candidate: Candidate, now: datetime) -> tuple[str, WriteResult]:
    """The memory's write rules on one candidate, as a report line and the write's result."""
    fact, label = candidate.fact, candidate.label
    result = memory.write(
        candidate.raw,
        owner=(str(candidate.raw["tenant"]), str(candidate.raw["user"])),
        at=_turn_date(candidate.turn, now) or now.date().isoformat(),
        source_event_id=candidate.turn.ref,
        quote=fact.quote,
    )
    if result.status == "stored":
        return f"stored {label} valid from {candidate.raw['valid_from']} [{result.record_id}]{candidate.note}", result
    detail = f": {result.detail}" if result.detail else ""
    return f"{result.status} {label}: {result.reason}{detail}", result


def admit_all(
    memory: Memory, agent: AgentSettings, proposed: Sequence[tuple[DistilledFact, dict[str, Turn]]], now: datetime
) -> list[tuple[str, WriteResult]]:
    """Whether `memory` takes each proposed fact (with the turns its answer was about), as a
    report line and the write's result, in the order proposed. Candidates that survive the
    checks and say different values for one key and date are decided by their grounding's
    strength, or all held for review (`fact_conflicts`) — never by which came first."""
    outcomes: list[tuple[str, WriteResult] | None] = []
    candidates: list[tuple[int, Candidate]] = []
    for index, (fact, turns) in enumerate(proposed):
        examined = examine(agent, fact, turns)
        if isinstance(examined, Candidate):
            candidates.append((index, examined))
            outcomes.append(None)
        else:
            outcomes.append(examined)
    checked = [(i, c) for i, c in candidates if c.checked]
    for index, candidate in candidates:
        if not candidate.checked:
            outcomes[index] = write(memory, candidate, now)
    contest = fact_conflicts.settle([(c.raw, c.strength) for _, c in checked])
    for (index, candidate), verdict in zip(checked, contest, strict=True):
        if verdict is None:
            outcomes[index] = write(memory, candidate, now)
        else:
            outcomes[index] = _refused(candidate.label, verdict.status, verdict.reason, verdict.detail)
    return [o for o in outcomes if o is not None]


def admit(
    memory: Memory, agent: AgentSettings, fact: DistilledFact, turns: dict[str, Turn], now: datetime
) -> tuple[str, WriteResult]:
    """Whether `memory` takes one `fact` (see `admit_all`)."""
    (outcome,) = admit_all(memory, agent, [(fact, turns)], now)
    return outcome
