"""Grounding of an instruction proposal: the turns it rests on, and the edit it makes.

Evidence cites a turn the daemon sent (T1, T2, ...) and quotes it; the quote is looked up
in that turn, which also tells whose words they are (user, assistant, tool). An edit
replaces verbatim text of the current file (found exactly once) or appends; the daemon
applies edits itself and computes the unified diff from the result, so a proposal's diff
always applies to the file it was made against.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from daemon.kernel.errors import DaemonError
from daemon.transcripts.reader import Turn
from workspace.units import normalise


class _Answer(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Evidence(_Answer):
    turn: str = Field(description="id of a turn you were given, e.g. T3")
    quote: str = Field(description="verbatim words from that turn")


class Edit(_Answer):
    old: str = Field(description="verbatim text of the current file to replace; empty to append at the end")
    new: str = Field(description="the text that replaces it (or is appended)")


class GroundingRefused(DaemonError):
    """A proposal whose evidence or edit does not hold up; it is dropped and reported."""


@dataclass(frozen=True)
class Grounded:
    turn_id: str
    turn: Turn
    quote: str
    role: str

    def line(self) -> str:
        when = f", {self.turn.ts}" if self.turn.ts else ""
        return f"{self.turn.ref} ({self.role}{when}): “{self.quote.strip()}”"


def ground(evidence: Sequence[Evidence], turns: Mapping[str, Turn]) -> list[Grounded]:
    """Every evidence item checked against the turns sent; raises GroundingRefused."""
    if not evidence:
        raise GroundingRefused("it cites no transcript turn")
    grounded: list[Grounded] = []
    for item in evidence:
        turn = turns.get(item.turn.strip())
        if turn is None:
            raise GroundingRefused(f"it cites turn {item.turn!r}, which was not sent")
        needle = normalise(item.quote)
        if len(needle) < 3:
            raise GroundingRefused(f"its quote from {item.turn} is empty")
        role = next((m.role for m in turn.messages if needle in normalise(m.content)), None)
        if role is None:
            raise GroundingRefused(f"its quote “{item.quote.strip()[:80]}” is not in turn {item.turn}")
        grounded.append(Grounded(item.turn.strip(), turn, item.quote, role))
    return grounded


def apply_edits(path: str, current: str | None, edits: Sequence[Edit]) -> str:
    """The file after `edits`; raises GroundingRefused if an edit does not apply exactly."""
    if not edits:
        raise GroundingRefused("it makes no edit")
    text = current or ""
    for edit in edits:
        old = edit.old.strip("\n")
        if not old.strip():
            if text and not text.endswith("\n"):
                text += "\n"
            text += edit.new if edit.new.endswith("\n") else edit.new + "\n"
            continue
        count = text.count(old)
        if count != 1:
            where = "is not in" if count == 0 else f"appears {count} times in"
            raise GroundingRefused(f"the text it replaces (“{old[:80]}”) {where} {path}")
        text = text.replace(old, edit.new.strip("\n"), 1)
    if text == (current or ""):
        raise GroundingRefused(f"its edits leave {path} unchanged")
    return text
