"""Typed fact records and the proposals they are built from (docs/explanation/fact-memory.md).

A proposal is what a writer (the distiller, a lab scenario) asks to store; a record is
what the memory keeps. Both are validated before the stored history changes: missing
source, bad dates, unknown fields or an empty validity interval are rejected.

A proposal is held to tighter bounds than a stored record: its text fields may hold no
control characters (a newline in a value would become markup in the markdown view) and
its dates lie in YEAR_MIN..YEAR_MAX. Records already in a store file keep loading under
the looser rules they were written with; every new record comes from a proposal.
"""

from __future__ import annotations

import math
import unicodedata
from datetime import date
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SCHEMA_VERSION = 1
TEXT_MAX = 256
Text = Field(min_length=1, max_length=TEXT_MAX)
YEAR_MIN, YEAR_MAX = 1900, 2200
# Characters that end or restyle a line: C0/C1 controls and the Unicode line and
# paragraph separators.
_LINE_BREAKING = frozenset({"Cc", "Zl", "Zp"})
# Invisible characters that reorder or hide text ("Trojan Source"): bidi embeddings,
# overrides, isolates and marks, zero-width space, word joiner, BOM. Not the zero-width
# (non-)joiners, which Persian, Indic scripts and emoji sequences need.
_HIDING = frozenset(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C, 0x200B, 0x2060, 0xFEFF]
)


def canonical_date(value: object) -> str:
    """`value` if it is a canonical YYYY-MM-DD date, else ValueError naming it."""
    if not isinstance(value, str):
        raise ValueError(f"must be a date string YYYY-MM-DD, got {value!r}")
    try:
        parsed = date.fromisoformat(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a date YYYY-MM-DD") from None
    if parsed.isoformat() != value:
        raise ValueError(f"{value!r} is not a canonical date YYYY-MM-DD")
    return value


def bounded_date(value: object) -> str:
    """`value` if it is a canonical date in YEAR_MIN..YEAR_MAX, else ValueError naming it."""
    day = canonical_date(value)
    year = int(day[:4])
    if not YEAR_MIN <= year <= YEAR_MAX:
        raise ValueError(f"{day!r}: year {year} is outside {YEAR_MIN}-{YEAR_MAX}")
    return day


def plain_text(value: str) -> str:
    """`value` if it holds no control character or line separator, else ValueError naming one."""
    for position, char in enumerate(value):
        if unicodedata.category(char) in _LINE_BREAKING:
            raise ValueError(
                f"must not contain control characters (U+{ord(char):04X} at position {position})"
            )
    return value


def shown_text(value: str) -> str:
    """`plain_text`, and no character that reorders or hides what is shown: for a new fact's
    entity, key and value. (A quote is the user's words verbatim and may carry one.)"""
    plain_text(value)
    for position, char in enumerate(value):
        if ord(char) in _HIDING:
            raise ValueError(
                f"must not contain invisible characters that reorder or hide text "
                f"(U+{ord(char):04X} at position {position})"
            )
    return value


QUOTE_MAX = 280


def bounded_quote(text: str) -> str:
    """`text` on one line, cut to QUOTE_MAX characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= QUOTE_MAX else flat[: QUOTE_MAX - 1] + "…"


class FactProposal(BaseModel):
    """A fact someone wants stored, owner included (checked against the writer's owner)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    tenant: str = Text
    user: str = Text
    entity: str = Text
    key: str = Text
    value: str = Text
    confidence: float = Field(ge=0.0, le=1.0)
    valid_from: str
    source: str = Text
    kind: str = Text

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError("must be a number in [0, 1]")
        if not math.isfinite(float(value)):
            raise ValueError("must be finite")
        return float(value)

    @field_validator("valid_from")
    @classmethod
    def _date(cls, value: str) -> str:
        return bounded_date(value)

    @field_validator("tenant", "user", "source", "kind")
    @classmethod
    def _plain(cls, value: str) -> str:
        return plain_text(value)

    @field_validator("entity", "key", "value")
    @classmethod
    def _shown(cls, value: str) -> str:
        return shown_text(value)


class FactRecord(BaseModel):
    """A stored version of one (owner, entity, key). Field order is the file's key order."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    tenant: str = Text
    user: str = Text
    entity: str = Text
    key: str = Text
    value: str = Text
    confidence: float = Field(ge=0.0, le=1.0)
    source: str = Text
    valid_from: str
    schema_version: Literal[1] = 1
    memory_type: Literal["fact"] = "fact"
    id: str = Field(min_length=1, max_length=80)
    source_event_id: str = Field(min_length=1, max_length=512)
    observed_at: str
    valid_to: str | None = None
    supersedes_memory_id: str | None = None
    # The words the fact was distilled from (the cited turn's own words, at most QUOTE_MAX
    # characters): why the fact exists, for `memory list` and a reviewer. Records stored
    # before it was kept, and the lab's, have none.
    quote: str | None = Field(default=None, max_length=QUOTE_MAX)

    @field_validator("confidence", mode="before")
    @classmethod
    def _confidence(cls, value: object) -> object:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError("must be a number in [0, 1]")
        return float(value)

    @field_validator("quote")
    @classmethod
    def _quote(cls, value: str | None) -> str | None:
        return None if value is None else plain_text(value)

    @field_validator("valid_from", "observed_at")
    @classmethod
    def _dates(cls, value: str) -> str:
        return canonical_date(value)

    @field_validator("valid_to")
    @classmethod
    def _optional_date(cls, value: str | None) -> str | None:
        return None if value is None else canonical_date(value)

    @model_validator(mode="after")
    def _interval(self) -> FactRecord:
        if self.valid_to is not None and self.valid_to <= self.valid_from:
            raise ValueError(
                f"empty validity interval: valid_to {self.valid_to} <= valid_from {self.valid_from}"
            )
        return self

    @property
    def owner(self) -> tuple[str, str]:
        return (self.tenant, self.user)

    @property
    def scope(self) -> tuple[str, str, str, str]:
        return (self.tenant, self.user, self.entity, self.key)

    def valid_at(self, day: str) -> bool:
        return self.valid_from <= day and (self.valid_to is None or day < self.valid_to)


class MemorySchema(BaseModel):
    """What may be stored at all: keys, sources, kinds, how far ahead a fact may start.

    Anything else is a forbidden write. `max_future_days` bounds `valid_from` after the
    date the fact was stated; None (the lab's scenarios) leaves it unbounded.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    allowed_keys: frozenset[str]
    allowed_sources: frozenset[str] = frozenset({"user"})
    allowed_kinds: frozenset[str] = frozenset({"fact"})
    max_future_days: int | None = Field(default=None, ge=0)


PUBLISHED_SCHEMA = MemorySchema(
    allowed_keys=frozenset({"city", "language", "timezone", "delivery", "color", "plan"})
)
