"""The JSON documents the command line prints with `--json`, one model each.

A command prints `model_dump(mode="json")` of its document (`Output.document`), so the
model is the contract; `DOCUMENTS` names the command of each, and tools/gen_json_docs.py
writes their JSON Schemas into docs/reference/json.md. The status document is owned by
`daemon.doors.status_documents`, the one of `once` by `daemon.doors.once_document`; records the
daemon persists (a fact record, a refused fact, a proposal's history) are their own
models, nested as they are stored.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, RootModel

from daemon.doors.once_document import OnceDocument
from daemon.doors.status_documents import HeldTranscript, StatusDocument
from daemon.impact.document import ImpactDocument
from daemon.kernel.json_contract import Document, Omittable
from daemon.kernel.memory_settings import MemorySettings
from daemon.kernel.review_queue import HistoryEntry, Status
from daemon.lab.verify import VerifyDocument
from daemon.model.coordination_protocol import FleetHost
from memory_engine.records import FactRecord
from memory_engine.refused import RefusedFact

# -- status --fleet -----------------------------------------------------------------------


class FleetDocument(Document):
    """What `status --fleet --json` prints: every daemon that ever wrote a heartbeat."""

    hosts: list[FleetHost]


# -- runs and show -----------------------------------------------------------------------


class RunRow(Document):
    """A run as `runs --json` lists it."""

    run_id: str
    agent: str
    started_at: str  # when the run was committed
    passes: list[str]
    files_changed: int  # how many
    status: str  # applied | undone by RUN | undo of RUN


class RunsDocument(RootModel[list[RunRow]]):
    """What `runs --json` prints: runs, newest first, per agent."""

    model_config = ConfigDict(frozen=True)


class ChangedFile(Document):
    status: str  # A | M | D, as git reports the change
    path: str


class ShownRun(RunRow):
    """What `show RUN_ID --json` prints."""

    commit: str  # the store's commit id
    subject: str
    report: str  # the run's report, without the trailer lines
    trailers: dict[str, str]
    files: list[ChangedFile]
    diff: str  # the unified diff of the run


# -- review ------------------------------------------------------------------------------


class ProposalRow(Document):
    """A proposal as `review list --json` lists it."""

    id: str
    agent: str
    kind: str
    target: str
    title: str
    status: Status
    stale_because: list[str]  # why a stale proposal is stale, one sentence per target
    created_at: str
    run_id: str | None  # the run that applied or rejected it; null while open
    created_by_run: str | None  # the run that made it


class ReviewListDocument(RootModel[list[ProposalRow]]):
    """What `review list --json` prints."""

    model_config = ConfigDict(frozen=True)


class ShownProposal(ProposalRow):
    """What `review show ID --json` prints."""

    diff: str  # from the current files and what approval would write
    rationale: str
    evidence: list[str]
    history: list[HistoryEntry]


# -- memory ------------------------------------------------------------------------------


class MemoryAnswer(Document):
    """What `memory query --json` prints; both null when memory holds no answer."""

    value: str | None
    record: FactRecord | None


class MemoryListing(Document):
    """What `memory list --json` prints."""

    as_of: str | None  # null with --all
    settings: MemorySettings  # the effective memory settings
    settings_origin: str  # config, or the adopted lab proposal
    records: list[FactRecord]


class SearchMatch(Document):
    score: float  # the query words the fact holds, each weighed by its rarity (memory_engine/fact_search.py)
    record: FactRecord


class MemorySearchDocument(Document):
    """What `memory search --json` prints: the facts best matching the query, best first."""

    query: str
    as_of: str | None  # null with --all
    words: list[str]  # the query's words looked for (function words left out)
    matches: list[SearchMatch]
    more: bool  # more facts matched than --limit


class RefusedDocument(RootModel[list[RefusedFact]]):
    """What `memory refused --json` prints: the refused facts, newest first."""

    model_config = ConfigDict(frozen=True)


# -- transcripts -------------------------------------------------------------------------


class MessagePreview(Document):
    role: str
    text: str  # cut at 200 characters unless --full
    ts: str | None
    tools: list[str]  # one-line summaries of the tools an assistant message called
    source: str | None  # the runtime's own id of the line


class TurnPreview(Document):
    ref: str  # <file>@<byte offset>
    ts: str | None
    messages: list[MessagePreview]


class SetAsideSession(Document):
    """A session of another project or profile, never read, and why."""

    file: str
    reason: str


class TranscriptsDocument(Document):
    """What `transcripts --json` prints: the turns the passes would read next."""

    agent: str
    format: str
    after_cursors_of: str  # the consumer whose cursors were read
    turns: list[TurnPreview]
    skipped: dict[str, int]  # lines or blocks skipped, by precision-guard rule
    # lines of kinds the adapter does not know (`system:turn_duration`, `last-prompt`…), not analysed
    unknown_lines: dict[str, int]
    set_aside: list[SetAsideSession]  # sessions of another project or profile, never read
    held: list[HeldTranscript]
    warnings: list[str]


# The command of each document, in the order of docs/reference/json.md.
# -- init ------------------------------------------------------------------------------------


class FoundProject(Document):
    """A runtime's sessions of one project (or OpenClaw agent, or Hermes profile)."""

    number: int
    runtime: str
    project: str
    home: str
    root: str
    glob: str
    sessions: int
    last: str | None
    unreadable: int


class InitListDocument(Document):
    """What `init --list --json` prints: every runtime's projects found on this machine."""

    found: list[FoundProject]


class AttachedAgent(Document):
    """One agent `init` attached: its `init` run, and what became of the hook's wiring."""

    agent: str
    runtime: str
    home: str
    run: str | None
    hook: str | None
    hook_command: str


class ConfigChecked(Document):
    ok: bool
    problems: list[str]
    warnings: list[str]


class InitDocument(Document):
    """What `init --json` (and `init --hooks --json`) prints."""

    config: str
    written: bool
    backup: Omittable[str] = None  # the config replaced with --force, kept
    check: Omittable[ConfigChecked] = None  # left out by `init --hooks`
    agents: list[AttachedAgent]
    next: list[str]


DOCUMENTS: dict[str, type[BaseModel]] = {
    "once": OnceDocument,
    "status": StatusDocument,
    "status --fleet": FleetDocument,
    "runs": RunsDocument,
    "show": ShownRun,
    "review list": ReviewListDocument,
    "review show": ShownProposal,
    "memory query": MemoryAnswer,
    "memory list": MemoryListing,
    "memory search": MemorySearchDocument,
    "memory refused": RefusedDocument,
    "transcripts": TranscriptsDocument,
    "impact": ImpactDocument,
    "lab verify": VerifyDocument,
    "init": InitDocument,
    "init --list": InitListDocument,
}
