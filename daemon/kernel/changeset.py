"""What a pass returns: the changes it wants, never applied by itself (docs/explanation/architecture.md).

A changeset holds file writes and deletions (paths relative to the agent home), cursor
advances, and a report. Review-queue items are ordinary files under the review folder,
written by the queue's own helper, so they ride the same atomic commit and undo.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializeAsAny,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)

from daemon.kernel.json_contract import Document
from daemon.kernel.spool import Content, SpooledContent, resolved

PassStatus = Literal["applied", "nothing", "skipped", "failed"]


class _Frozen(BaseModel):
    # Validators built on first use: a short command (`status`) imports these and builds few.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class FileWrite(_Frozen):
    """One file to write: its bytes (`content=`), or, for a plan too big to hold in memory,
    a file spooled on disk (`spooled=`, see `daemon.kernel.spool`). `content` reads a spooled
    file's bytes on each access; code that walks many writes uses `data` instead."""

    model_config = ConfigDict(arbitrary_types_allowed=True)

    path: str
    inline: bytes | None = Field(default=None, alias="content")
    spooled: SpooledContent | None = None

    @model_validator(mode="after")
    def _one_source(self) -> FileWrite:
        if (self.inline is None) == (self.spooled is None):
            raise ValueError("a file write has either content or spooled content")
        return self

    @property
    def content(self) -> bytes:
        return resolved(self.data)

    @property
    def data(self) -> Content:
        """The bytes, or where they are spooled: what the view and the applier carry."""
        if self.inline is not None:
            return self.inline
        assert self.spooled is not None  # _one_source
        return self.spooled


class Cursor(_Frozen):
    """How far one consumer has read one transcript, and which file that was."""

    offset: int = Field(ge=0)
    dev: int
    ino: int
    # sha256 of the file's first min(offset, 1024) bytes: catches a replaced file that
    # happens to reuse the inode.
    head: str
    # sha256 of the min(offset, 64) bytes ending at the offset (a line's end): catches an
    # earlier line rewritten in place, and finds where reading stopped (daemon.transcripts.resume).
    # None in cursors written before it existed.
    tail: str | None = None
    # Set while a line longer than the read window is being skipped: where that line starts.
    # `offset` is then how far it has been looked through for its end (no newline between the
    # two), not a line start; each pass looks on from there (daemon.transcripts.reader).
    skipping_from: int | None = Field(default=None, ge=0)
    # SQLite sources (daemon.transcripts.sqlite_common): `offset` is the last row read (seq or
    # id); `recent` holds short hashes of the last rows analysed, so a row deleted and
    # re-inserted with a new id (Hermes /retry) is recognised. None for files.
    recent: list[str] | None = None

    @model_serializer(mode="wrap")
    def _skip_written_only_while_skipping(self, handler: SerializerFunctionWrapHandler) -> Any:
        # Absent unless a skip is in progress: a daemon rolled back to the version before
        # this field (extra keys refused) still reads every ordinary cursor file.
        data = handler(self)
        if isinstance(data, dict) and data.get("skipping_from") is None:
            data.pop("skipping_from", None)
        return data


class CursorAdvance(_Frozen):
    consumer: str
    file: str
    cursor: Cursor


class PassDetails(Document):
    """What a pass (or a person's action) reports beside its changes: the fields its entry
    of `once --json` adds to name, status, reason and files. Each pass declares its own
    subclasses, in the module that makes them."""


class Changeset(_Frozen):
    """The plan of one pass. `status` is the pass's own verdict before apply:

    - "changes": writes/deletes to apply (becomes "applied" once committed);
    - "nothing": nothing to change (cursor advances may still be committed);
    - "skipped": could not run this cycle (cap, budget, model, lock): no cursor advance;
    - "failed": an error; recorded, other passes go on.
    """

    pass_name: str
    status: Literal["changes", "nothing", "skipped", "failed"]
    reason: str = ""
    writes: tuple[FileWrite, ...] = ()
    deletes: tuple[str, ...] = ()
    cursor_advances: tuple[CursorAdvance, ...] = ()
    report: tuple[str, ...] = ()
    # None: the pass reports nothing beyond its status and reason (a skip before it began).
    details: SerializeAsAny[PassDetails] | None = None

    @property
    def touched(self) -> list[str]:
        return sorted({w.path for w in self.writes} | set(self.deletes))

    def has_file_changes(self) -> bool:
        return bool(self.writes or self.deletes)


def nothing(pass_name: str, reason: str, details: PassDetails | None = None) -> Changeset:
    return Changeset(pass_name=pass_name, status="nothing", reason=reason, details=details)


def skipped(pass_name: str, reason: str, details: PassDetails | None = None) -> Changeset:
    return Changeset(pass_name=pass_name, status="skipped", reason=reason, details=details)


def failed(pass_name: str, reason: str, details: PassDetails | None = None) -> Changeset:
    return Changeset(pass_name=pass_name, status="failed", reason=reason, details=details)
