"""What kind of statement a sentence's cues make it (pure, no I/O;
docs/explanation/impact.md#what-counts-as-a-correction): a standing instruction when a cue
says it holds from now on, a correction when one says the agent's work was wrong (or the
agent's reply shows it took it so), a preference when one says how the person wants it."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from daemon.impact.cues import Cue

Kind = Literal["correction", "preference", "standing_instruction"]
CORRECTING = frozenset(
    {"correction", "contrast", "instead", "changed", "emphasis", "set_right", "amended", "acted_on", "swapped", "dropped", "reworked"}
)
PREFERRING = frozenset({"prohibition", "stop", "preference", "limit", "asked", "sequence", "defined", "excess"})
# Cues that the agent's reply shows, not the sentence's words: a sentence holding one stands
# alone as a statement, however few content words it has ("pytest.", "dev_arseniy.").
SHOWN_BY_REPLY = frozenset({"amended", "acted_on", "swapped", "dropped", "reworked"})


def kind_of(found: Iterable[Cue]) -> Kind:
    kinds = {c.kind for c in found}
    if "standing" in kinds:
        return "standing_instruction"
    if kinds & CORRECTING:
        return "correction"
    # "… stp, comme d'hab" asks for a way as before; "the same mistake, like last time" corrects
    if kinds & PREFERRING or kinds == {"precedent"}:
        return "preference"
    return "correction"
