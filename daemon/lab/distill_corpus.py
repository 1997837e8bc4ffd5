"""The distillation precision corpus: short sessions, the facts they support, the traps they set.

A corpus is a folder: `corpus.yaml` (version, name, description, the allowed keys and
the trap categories) and `sessions/*.yaml`, one session per file, its id the file's
stem. A session holds a `date`, a `transcript` — the messages exactly as the daemon's
JSON Lines transcripts hold them (`role`, `content`, optional `ts`; a message without
`ts` is stamped with the session's date) — the `facts` it supports and the `traps` that
must not become facts, each trap with one of the declared categories.

Each label (fact or trap) names `entity`, `key`, `value` (`also`: other spellings that
count as the same value), the `turn` it is stated in (1-based, a turn being a user
message and what follows it, as the daemon reads them) and a `quote`: words of that
turn, verbatim. The quotes are what a scripted replay answers with, so the loader
checks each one against its turn: an authoring slip is an error naming the file and
the label, never a silently wrong figure.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from daemon.kernel.errors import DaemonError
from daemon.text.language import Language, detect
from daemon.transcripts.window import Turn, scan_window
from memory_engine import fact_grounding
from memory_engine.records import canonical_date

CORPUS_VERSION = 1
HEADER = "corpus.yaml"
SESSIONS = "sessions"
MAX_SESSIONS = 1000
MAX_LINE_BYTES = 1024 * 1024
Text = Field(min_length=1, max_length=256)


def _day(value: object) -> str:
    """A canonical YYYY-MM-DD date; YAML reads an unquoted date as a date, which is fine too."""
    return canonical_date(value.isoformat() if isinstance(value, date) else value)


class CorpusError(DaemonError):
    """A corpus is unreadable or invalid; the message names the file and the field."""


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class CorpusHeader(_Frozen):
    version: int
    name: str = Text
    description: str = ""
    allowed_keys: list[str] = Field(min_length=1)
    categories: dict[str, str] = Field(min_length=1)


class Message(_Frozen):
    role: Literal["user", "assistant", "tool", "system"]
    content: str = Field(min_length=1, max_length=8000)
    ts: str | None = None


class Label(_Frozen):
    entity: str = Text
    key: str = Text
    value: str = Text
    also: list[str] = Field(default_factory=list)
    turn: int = Field(ge=1)
    quote: str = Field(min_length=1, max_length=400)
    valid_from: str | None = None

    @field_validator("valid_from", mode="before")
    @classmethod
    def _date(cls, value: object) -> str | None:
        return None if value is None else _day(value)

    def spellings(self) -> tuple[str, ...]:
        return (self.value, *self.also)


class Trap(Label):
    category: str = Text


class Session(_Frozen):
    version: int
    title: str = Text
    date: str
    transcript: list[Message] = Field(min_length=1, max_length=60)
    facts: list[Label] = Field(default_factory=list)
    traps: list[Trap] = Field(default_factory=list)

    @field_validator("date", mode="before")
    @classmethod
    def _date(cls, value: object) -> str:
        return _day(value)


@dataclass(frozen=True)
class CorpusSession:
    id: str
    file: str  # relative to the corpus folder
    session: Session
    turns: tuple[Turn, ...]


@dataclass(frozen=True)
class Corpus:
    name: str
    header: CorpusHeader
    sessions: tuple[CorpusSession, ...]
    files: dict[str, bytes]  # relative path → bytes, every file the corpus consists of

    @property
    def sha256(self) -> str:
        """One hash over every file and its path (a renamed file changes it too)."""
        listing = [[rel, hashlib.sha256(data).hexdigest()] for rel, data in sorted(self.files.items())]
        return hashlib.sha256(json.dumps(listing).encode("utf-8")).hexdigest()

    def file_hashes(self) -> dict[str, str]:
        return {rel: hashlib.sha256(data).hexdigest() for rel, data in sorted(self.files.items())}


def jsonl(session: Session) -> bytes:
    """The session as the daemon's transcript file: one JSON object per line, then session_end."""
    lines = []
    for index, message in enumerate(session.transcript):
        ts = message.ts or f"{session.date}T10:{index // 60:02d}:{index % 60:02d}Z"
        lines.append(json.dumps({"role": message.role, "content": message.content, "ts": ts}))
    lines.append(json.dumps({"type": "session_end"}))
    return ("\n".join(lines) + "\n").encode("utf-8")


def turns_of(session_id: str, session: Session) -> tuple[Turn, ...]:
    """The session's turns exactly as the daemon's transcript reader cuts them."""
    scan = scan_window(f"{session_id}.jsonl", jsonl(session), 0, MAX_LINE_BYTES)
    if scan.warnings:
        raise ValueError(scan.warnings[0])
    turns = list(scan.turns)
    if scan.open_turn:
        turns.append(Turn(scan.file, scan.open_start, scan.consumed_end, tuple(scan.open_turn)))
    return tuple(turns)


def _where(exc: ValidationError) -> str:
    err = exc.errors()[0]
    loc = ".".join(str(p) for p in err["loc"])
    return f"{loc}: {err['msg']}" if loc else err["msg"]


def _yaml(data: bytes, label: str) -> object:
    try:
        return yaml.safe_load(data.decode("utf-8"))
    except (UnicodeDecodeError, yaml.YAMLError) as exc:
        raise CorpusError(f"{label}: not readable YAML ({exc})") from None


def _check_labels(label: str, session: Session, turns: tuple[Turn, ...], header: CorpusHeader) -> None:
    facts = [(f"facts[{i}]", item) for i, item in enumerate(session.facts)]
    traps = [(f"traps[{i}]", item) for i, item in enumerate(session.traps)]
    for where, item in facts + traps:
        if item.key not in header.allowed_keys:
            raise CorpusError(f"{label}: {where}.key: {item.key!r} is not in the corpus's allowed_keys")
        if isinstance(item, Trap) and item.category not in header.categories:
            raise CorpusError(f"{label}: {where}.category: {item.category!r} is not a declared category")
        if item.turn > len(turns):
            raise CorpusError(f"{label}: {where}.turn: {item.turn}, but the session has {len(turns)} turn(s)")
        if not any(item.quote in m.content for m in turns[item.turn - 1].messages):
            raise CorpusError(f"{label}: {where}.quote: {item.quote!r} is not verbatim in turn {item.turn}")
    for where, trap in traps:
        for fact_where, fact in facts:
            if fact.key == trap.key and (
                any(same_value(fact.spellings(), s) for s in trap.spellings())
                or any(same_value(trap.spellings(), s) for s in fact.spellings())
            ):
                raise CorpusError(
                    f"{label}: {where} has the value of {fact_where} ({trap.key} = {trap.value!r}): "
                    "a stored fact could not be told apart"
                )


def value_words(value: str, lang: Language | None = None) -> frozenset[str]:
    """Content words of a value, normalised as grounding reads them (Europe/Lisbon → lisbon)."""
    return frozenset(fact_grounding.value_words(value, lang))


@lru_cache(maxsize=1 << 14)  # pure, and asked again for every load of a corpus and every stored fact
def same_value(spellings: tuple[str, ...], stored: str) -> bool:
    """Whether `stored` says one of `spellings`: all its content words are in the stored value
    (both read in one language, so their stems compare)."""
    lang = detect([*spellings, stored])
    said = value_words(stored, lang)
    return any((words := value_words(s, lang)) and words <= said for s in spellings)


def parse_session(session_id: str, data: bytes, label: str, header: CorpusHeader) -> CorpusSession:
    raw = _yaml(data, label)
    try:
        session = Session.model_validate(raw)
    except ValidationError as exc:
        raise CorpusError(f"{label}: {_where(exc)}") from None
    if session.version > CORPUS_VERSION:
        raise CorpusError(f"{label} has version {session.version}; this lab reads up to {CORPUS_VERSION}")
    if session.transcript[0].role != "user":
        raise CorpusError(f"{label}: transcript[0]: a session starts with a user message")
    try:
        turns = turns_of(session_id, session)
    except ValueError as exc:
        raise CorpusError(f"{label}: transcript: {exc}") from None
    _check_labels(label, session, turns, header)
    return CorpusSession(session_id, f"{SESSIONS}/{session_id}.yaml", session, turns)


def parse_corpus(files: dict[str, bytes], label: str) -> Corpus:
    """A corpus from its files (relative path → bytes); raises CorpusError naming the fault."""
    if HEADER not in files:
        raise CorpusError(f"{label}: no {HEADER}")
    try:
        header = CorpusHeader.model_validate(_yaml(files[HEADER], f"{label}/{HEADER}"))
    except ValidationError as exc:
        raise CorpusError(f"{label}/{HEADER}: {_where(exc)}") from None
    if header.version > CORPUS_VERSION:
        raise CorpusError(f"{label}/{HEADER} has version {header.version}; this lab reads up to {CORPUS_VERSION}")
    sessions = []
    for rel in sorted(files):
        if rel == HEADER:
            continue
        if not (rel.startswith(f"{SESSIONS}/") and rel.endswith(".yaml") and rel.count("/") == 1):
            raise CorpusError(f"{label}/{rel}: not part of the format ({HEADER} and {SESSIONS}/*.yaml)")
        session_id = rel[len(SESSIONS) + 1 : -len(".yaml")]
        sessions.append(parse_session(session_id, files[rel], f"{label}/{rel}", header))
    if not sessions:
        raise CorpusError(f"{label}: no sessions ({SESSIONS}/*.yaml)")
    if len(sessions) > MAX_SESSIONS:
        raise CorpusError(f"{label}: {len(sessions)} sessions, more than {MAX_SESSIONS}")
    return Corpus(header.name, header, tuple(sessions), dict(files))


def corpus_files(root: Path) -> dict[str, bytes]:
    """`corpus.yaml` and `sessions/*.yaml` of the folder `root`, as bytes."""
    if not root.is_dir():
        raise CorpusError(f"corpus folder {root} does not exist")
    found = {}
    paths = [root / HEADER, *sorted((root / SESSIONS).glob("*.yaml"))]
    for path in paths:
        if path.is_symlink():
            raise CorpusError(f"{path}: a corpus file may not be a symlink")
        try:
            found[path.relative_to(root).as_posix()] = path.read_bytes()
        except OSError as exc:
            raise CorpusError(f"cannot read {path}: {exc.strerror or exc}") from None
    return found


def load_corpus(root: Path) -> Corpus:
    return parse_corpus(corpus_files(root), str(root))
