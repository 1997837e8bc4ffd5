"""Whether a fact the model proposed is stored: the one decision of distillation (docs/explanation/fact-memory.md).

The quote is looked up in the turn it cites, which also tells whose words the fact rests on
(user, assistant or tool output) — the daemon sets the source and the owner, never the
model; grounding (`fact_grounding`) and the claim check (`claim`) judge the quote; then the
memory's write rules decide. Every fact not stored comes back with its reason.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from daemon.kernel.json_contract import RawJson
from daemon.kernel.settings import AgentSettings
from daemon.text.language import detect
from daemon.transcripts.lines import Message
from daemon.transcripts.reader import Turn
from memory_engine import claim, fact_grounding
from memory_engine.memory import Memory, WriteResult
from memory_engine.records import FactProposal


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


def _turn_date(turn: Turn, now: datetime) -> str:
    stamp = turn.ts
    if stamp:
        try:
            return datetime.fromisoformat(stamp.replace("Z", "+00:00")).date().isoformat()
        except ValueError:
            pass
    return now.date().isoformat()


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



def admit(
    memory: Memory, agent: AgentSettings, fact: DistilledFact, turns: dict[str, Turn], now: datetime
) -> tuple[str, WriteResult]:
    """Whether `memory` takes `fact`, as a report line and the write's result: the cited turn
    was sent, the quote is in it (whose words: its message's role), the memory would take the
    record, grounding finds the value in the quote, the claim check finds it asserted, then
    the memory's write rules decide."""
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
    raw = {
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
    if source in agent.memory.allowed_sources and _valid(raw):
        own = frozenset({"user", *([agent.memory.owner.user] if agent.memory.owner.user else [])})
        verdict = fact_grounding.check(fact.entity, fact.value, fact.quote, own)
        if not verdict.grounded:
            result = WriteResult("rejected", "ungrounded", False, detail=verdict.detail)
            return f"rejected {label}: ungrounded — {verdict.detail}", result
        # Grounded words are not yet a claim: negated, hypothetical, reported … (`claim`)
        about_user = fact.entity.split(".", 1)[0] in own
        text = message.content
        refusal = claim.assess(fact.quote, fact.value, text, detect([text]), about_user, fact.key)
        if refusal is None and about_user and source != "user":
            refusal = claim.Refusal("not_the_user", f"the quote is the {source}'s words, not the user's")
        if refusal is not None:
            result = WriteResult("rejected", refusal.code, False, detail=refusal.detail)
            return f"rejected {label}: {refusal.code} — {refusal.detail}", result
    result = memory.write(
        raw, owner=agent.owner, at=_turn_date(turn, now), source_event_id=turn.ref, quote=fact.quote
    )
    if result.status == "stored":
        return f"stored {label} valid from {fact.valid_from} [{result.record_id}]", result
    detail = f": {result.detail}" if result.detail else ""
    return f"{result.status} {label}: {result.reason}{detail}", result
