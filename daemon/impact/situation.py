"""What the agent did around a statement: the prose of its turn the person answered and of its
reply (pure, no I/O; docs/explanation/impact.md#how-recurrence-is-matched).

A correction said again is most often said at the same mistake: the agent does the same wrong
thing again ("I rounded the Dupont totals…") and sets it right the same way ("Back to
cents…"), whatever words or language the person finds the second time. Two statements of
different sessions whose wording is near but not close enough to say the same thing
(`recurrence.NEAR`) are the same thing said again when the agent's turns around them are alike
(`Situations.alike`) about what the two statements say. Only the prose counts: the code and
the tool calls and output a project prints every session ("42 passed") say nothing about which
mistake, and neither do the words an agent ends every turn with ("Let me know if …").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from daemon.impact.amends import NOT_PROSE
from daemon.impact.content import content
from daemon.text.language import language

# Characters of each turn kept: the end of the turn answered (what the person reacts to), the
# head of the reply (where an agent writes what it set right).
SITUATION_CHARS = 800
# … read from this much of the raw turn, before its code and tool lines are taken out.
RAW_CHARS = 4 * SITUATION_CHARS
FENCE = "```"
# Stems two turns must share to be alike: one is chance.
SHARED_STEMS = 2


@dataclass(frozen=True)
class Situation:
    """The prose of the agent's turn a statement answers (its end) and of the reply (its head)."""

    before: str
    after: str


def situation(answered: str, reply: str) -> Situation:
    """The situation of a statement said after the agent's turn `answered` and answered by
    `reply` (what the agent wrote, without its tool calls)."""
    cut = max(0, len(answered) - RAW_CHARS)
    window = answered[cut:]
    if answered.count(FENCE, 0, cut) % 2:
        window = FENCE + window  # the window opens inside a code block: it is code up to its end
    before = NOT_PROSE.sub(" ", window).strip()
    after = NOT_PROSE.sub(" ", reply[:RAW_CHARS]).strip()
    return Situation(before[-SITUATION_CHARS:], after[:SITUATION_CHARS])


class Situations:
    """The situations of an agent's statements, their stems read only when asked (most pairs of
    statements are told apart by their own words), once for each situation and language."""

    def __init__(self, of: Mapping[int, tuple[Situation, str]], weight: Callable[[str], float]) -> None:
        # id of a statement → (its situation, its language); `weight`: how much a stem says
        self._of = of
        self._weight = weight
        self._read: dict[tuple[Situation, str], tuple[frozenset[str], frozenset[str]]] = {}

    def __bool__(self) -> bool:
        return bool(self._of)

    def _stems(self, statement: int) -> tuple[frozenset[str], frozenset[str]] | None:
        if statement not in self._of:
            return None
        key = self._of[statement]  # the statements of one message share it, an agent repeats itself
        if key not in self._read:
            around, code = key
            lang = language(code)
            self._read[key] = (content(around.before, lang).stems, content(around.after, lang).stems)
        return self._read[key]

    def alike(self, a: int, b: int, about: frozenset[str]) -> float:
        """How close the agent's turns around two statements are, 0 to 1: the weight of the
        stems they share over the smaller side's, the turn answered with the turn answered, the
        reply with the reply, the closer pair counting — when they share SHARED_STEMS, one of
        them a stem of what the statements say (`about`): turns that share only what the agent
        writes every time are not alike."""
        mine, theirs = self._stems(a), self._stems(b)
        if mine is None or theirs is None:
            return 0.0
        best = 0.0
        for x, y in zip(mine, theirs, strict=True):
            shared = x & y
            if len(shared) < SHARED_STEMS or shared.isdisjoint(about):
                continue
            smaller = min(sum(map(self._weight, x)), sum(map(self._weight, y)))
            if smaller:
                best = max(best, sum(map(self._weight, shared)) / smaller)
        return best
