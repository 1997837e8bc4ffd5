"""Refused facts are not silently lost: a bounded log of them, and turns a person re-queues.

When an answer's facts are refused the turns are still consumed — the same model would
answer the same — but each refused candidate is logged with its reason in
`.metaeng/refused.jsonl` (the newest MAX_ENTRIES, one JSON object per line, in the store
like every other file the daemon keeps, so undo and plain git see it). `memory refused`
lists it; `memory retry --run RUN` writes the turns of that run's refusals to
`.metaeng/retry.json`, and the next distillation reads those turns again, before the new
ones, and takes them off the queue.

Two kinds of entry wait for more than a log line. A *tentative* statement ("I might move to
Porto", reason `tentative`) is never a fact; when a later turn states the same value and it
is stored, the entry is marked `settled` ("confirmed by m012"). A *held* conflict
(`held_conflict`: two values for one key and date, grounded as firmly) waits for a person:
`memory keep` stores the value they choose, as a run, and marks the entries settled.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from daemon.kernel.changeset import FileWrite
from daemon.kernel.paths import META_DIR
from daemon.kernel.statefile import parse_versioned
from daemon.kernel.view import AgentView
from daemon.transcripts.files import TranscriptSource
from daemon.transcripts.reader import FileRead, Turn, read_turn_at

REFUSED_LOG = f"{META_DIR}/refused.jsonl"
RETRY_FILE = f"{META_DIR}/retry.json"
MAX_ENTRIES = 1000
VERSION = 1


class RefusedFact(BaseModel):
    """One candidate fact the memory did not store, with why, and the turn it cited."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    v: int = VERSION
    run_id: str
    at: str
    entity: str
    key: str
    value: str
    quote: str
    status: str  # rejected | abstained | held
    reason: str
    detail: str = ""
    file: str | None = None  # the cited turn, when it was one that was sent
    start: int | None = None
    end: int | None = None
    valid_from: str | None = None  # as the model proposed it
    confidence: float | None = None
    settled: str | None = None  # what became of it later: "confirmed by m012", "kept as m013 by a person"


class RetryTurn(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    file: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    run_id: str


class RetryQueue(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    version: int = VERSION
    turns: list[RetryTurn] = Field(default_factory=list)


def refused_entry(
    run_id: str, now: datetime, fact: object, turn: Turn | None, status: str, reason: str, detail: str
) -> RefusedFact:
    """The log entry for `fact` (a DistilledFact) refused with `status`/`reason`."""

    def text(name: str) -> str:
        return str(getattr(fact, name, ""))[:500]

    return RefusedFact(
        run_id=run_id,
        at=now.isoformat(),
        entity=text("entity"),
        key=text("key"),
        value=text("value"),
        quote=text("quote"),
        status=status,
        reason=reason,
        detail=detail[:500],
        file=turn.file if turn else None,
        start=turn.start if turn else None,
        end=turn.end if turn else None,
        valid_from=text("valid_from")[:10] or None,
        confidence=_confidence(getattr(fact, "confidence", None)),
    )


def _confidence(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _same(value: str) -> str:
    return " ".join(value.casefold().split())


def confirmed(
    entries: Sequence[RefusedFact], stored: Iterable[tuple[str, str, str, str]]
) -> tuple[list[RefusedFact], int]:
    """`entries` with each open tentative entry that a stored (entity, key, value, record id)
    states again marked settled, and how many were."""
    found = {(e, k, _same(v)): record for e, k, v, record in stored}
    out: list[RefusedFact] = []
    count = 0
    for entry in entries:
        record = found.get((entry.entity, entry.key, _same(entry.value)))
        if entry.reason == "tentative" and entry.settled is None and record is not None:
            entry = entry.model_copy(update={"settled": f"confirmed by {record}"})
            count += 1
        out.append(entry)
    return out, count


def render_log(entries: Sequence[RefusedFact]) -> FileWrite:
    kept = list(entries)[-MAX_ENTRIES:]
    body = "".join(json.dumps(e.model_dump(), ensure_ascii=False, sort_keys=True) + "\n" for e in kept)
    return FileWrite(path=REFUSED_LOG, content=body.encode("utf-8"))


def read_log(view: AgentView) -> list[RefusedFact]:
    """Every logged refusal, oldest first; lines that do not parse are skipped."""
    raw = view.read_text(REFUSED_LOG) or ""
    entries: list[RefusedFact] = []
    for line in raw.splitlines():
        try:
            entries.append(RefusedFact.model_validate(json.loads(line)))
        except (ValueError, ValidationError):
            continue
    return entries


def log_write(view: AgentView, new: Sequence[RefusedFact]) -> FileWrite | None:
    """The log with `new` appended, keeping the newest MAX_ENTRIES; None when nothing is new."""
    if not new:
        return None
    return render_log([*read_log(view), *new])


def read_queue(view: AgentView) -> RetryQueue:
    """The turns waiting to be distilled again (empty when none were queued)."""
    raw = view.read_bytes(RETRY_FILE)
    if raw is None:
        return RetryQueue()
    return parse_versioned(raw, view.home / RETRY_FILE, RetryQueue, VERSION) or RetryQueue()


def queue_write(queue: RetryQueue) -> FileWrite:
    return FileWrite(path=RETRY_FILE, content=(queue.model_dump_json(indent=1) + "\n").encode("utf-8"))


def queued(view: AgentView, run_id: str) -> tuple[RetryQueue, int]:
    """The queue with the turns of `run_id`'s refusals added, and how many were new."""
    queue = read_queue(view)
    have = {(t.file, t.start, t.end) for t in queue.turns}
    added: list[RetryTurn] = []
    for entry in read_log(view):
        if entry.run_id != run_id or entry.file is None or entry.start is None or entry.end is None:
            continue
        key = (entry.file, entry.start, entry.end)
        if key not in have:
            have.add(key)
            added.append(RetryTurn(file=entry.file, start=entry.start, end=entry.end, run_id=run_id))
    return RetryQueue(turns=[*queue.turns, *added]), len(added)


def retry_reads(source: TranscriptSource, queue: RetryQueue) -> tuple[list[FileRead], list[str]]:
    """The queued turns read again (no cursor moves for them), and a warning per turn gone."""
    reads: list[FileRead] = []
    warnings: list[str] = []
    for item in queue.turns:
        turn = read_turn_at(source, item.file, item.start, item.end)
        if turn is None:
            warnings.append(
                f"{item.file}@{item.start}: queued for retry, but the transcript no longer holds that turn; dropped"
            )
            continue
        reads.append(FileRead(item.file, (turn,), None, (), (0, 0), item.start))
    return reads, warnings


def without(queue: RetryQueue, done: Iterable[Turn], readable: Iterable[FileRead]) -> RetryQueue:
    """The queue without the turns in `done`, nor those that could no longer be read."""
    finished = {(t.file, t.start, t.end) for t in done}
    alive = {(t.file, t.start, t.end) for r in readable for t in r.turns}
    return RetryQueue(
        turns=[t for t in queue.turns if (t.file, t.start, t.end) not in finished and (t.file, t.start, t.end) in alive]
    )
