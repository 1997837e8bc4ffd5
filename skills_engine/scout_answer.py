"""What the scout may answer: its candidates (skip / update / create) as the strict schema the
model is held to, and what became of each one in the pass's report (`candidates` applies them)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from daemon.kernel.json_contract import Document, Omittable

MAX_CANDIDATES = 12


class SectionAddition(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    heading: str
    text: str


class FileAddition(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    path: str = Field(
        description="a text file of the skill, relative to its folder, e.g. templates/report.md"
    )
    text: str = Field(description="text appended to that file")


class ScoutCandidate(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    action: Literal["skip", "update", "create"]
    name: str = Field(
        description="skip: the skill that covers it; update: the exact name of the skill to improve; "
        "create: a new name, lowercase words joined by hyphens"
    )
    capability: str = Field(description="the procedure, in one sentence")
    reason: str
    cites: list[str] = Field(max_length=20, description="ids of the turns it rests on, e.g. T2")
    description: str = Field(description="create: one line saying what the skill does; otherwise empty")
    trigger: str = Field(description="create: when to use it; otherwise empty")
    steps: list[str] = Field(
        max_length=60, description="create: every step in order; update: only the new steps to append"
    )
    sections: list[SectionAddition] = Field(
        max_length=20, description="sections to add (or extend) in SKILL.md"
    )
    file_additions: list[FileAddition] = Field(
        description="update: text to append to other files of the skill"
    )


class ScoutResponse(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    candidates: list[ScoutCandidate] = Field(max_length=20)


Outcome = Literal["created", "updated", "forked", "skipped", "stopped-near-duplicate", "refused", "proposed"]


class CandidateResult(Document):
    """What became of one candidate the scout answered (an item of `candidates` in `once --json`)."""

    action: Literal["skip", "update", "create"]
    name: str
    outcome: Outcome
    reason: str
    proposal: Omittable[str] = None  # the review-queue proposal it became
    near: Omittable[str] = None  # the existing skill whose name is near-identical
    cites: Omittable[list[str]] = None  # the turn refs (file@offset) it rests on
    path: Omittable[str] = None  # the learned skill's folder
    files: Omittable[list[str]] = None  # the files of the skill an update changes
    forked_from: Omittable[str] = None  # the managed or pack skill an update forked
    as_is: Omittable[str] = None  # why a created skill was written as the model gave it
