"""What the agent did around a statement: the prose of its turn the person answered and of its
reply (pure, no I/O; docs/explanation/impact.md#recurrence).

A correction said again is most often said at the same mistake: the agent does the same wrong
thing again ("Running `npm install`…") and sets it right the same way ("Switched to pnpm"),
whatever words or language the person finds the second time. Two statements whose wording is
near but not close enough to say the same thing (`recurrence.NEAR`) are the same thing said
again when the agent's turns around them are close too (`alike`). Only the prose counts:
the tool output a project prints every session ("42 passed") says nothing about which mistake.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from daemon.impact.amends import NOT_PROSE
from daemon.impact.content import content
from daemon.text.language import language

# Characters of each turn kept: the end of the turn answered (what the person reacts to), the
# head of the reply (where an agent writes what it set right).
SITUATION_CHARS = 800
# … read from this much of the raw turn, before its code and tool lines are taken out.
RAW_CHARS = 4 * SITUATION_CHARS


SHARED_STEMS = 2


@dataclass(frozen=True)
class Situation:
    """The prose of the agent's turn a statement answers (its end) and of the reply (its head)."""

    before: str
    after: str


def situation(answered: str, reply: str) -> Situation:
    """The situation of a statement said after the agent's turn `answered`, answered by `reply`."""
    before = NOT_PROSE.sub(" ", answered[-RAW_CHARS:]).strip()
    after = NOT_PROSE.sub(" ", reply[:RAW_CHARS]).strip()
    return Situation(before[-SITUATION_CHARS:], after[:SITUATION_CHARS])


class Situations:
    """The situations of an agent's statements, their stems read only when asked (most pairs of
    statements are told apart by their own words) and once."""

    def __init__(self, texts: dict[int, tuple[Situation, str]], weight: Callable[[str], float]) -> None:
        # id of a statement → (its situation, its language); `weight`: how much a stem says
        self._texts = texts
        self._weight = weight
        self._stems: dict[int, tuple[frozenset[str], frozenset[str]]] = {}

    def _of(self, key: int) -> tuple[frozenset[str], frozenset[str]] | None:
        if key not in self._texts:
            return None
        if key not in self._stems:
            found, code = self._texts[key]
            lang = language(code)
            self._stems[key] = (content(found.before, lang).stems, content(found.after, lang).stems)
        return self._stems[key]

    def alike(self, a: int, b: int) -> float:
        """How close the agent's turns around two statements are, 0 to 1: the weight of the
        stems they share over the smaller side's, the turn answered with the turn answered, the
        reply with the reply, the closer pair counting."""
        mine, theirs = self._of(a), self._of(b)
        if mine is None or theirs is None:
            return 0.0
        best = 0.0
        for x, y in zip(mine, theirs, strict=True):
            if len(x & y) < SHARED_STEMS:
                continue
            smaller = min(sum(map(self._weight, x)), sum(map(self._weight, y)))
            if smaller:
                best = max(best, sum(map(self._weight, x & y)) / smaller)
        return best
