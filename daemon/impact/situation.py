"""What the agent did around a statement: the prose of its turn the person answered and of its
reply (pure, no I/O; docs/explanation/impact.md#how-recurrence-is-matched).

A correction said again is most often said at the same mistake: the agent does the same wrong
thing again ("I rounded the Dupont totals…") and sets it right the same way ("Back to
cents…"), in whatever other words the person finds the second time. Two statements of
different sessions whose wording is near but not close enough to say the same thing
(`recurrence.NEAR`) are the same thing said again when the agent's turns around them are alike
(`Situations.alike`) and bridge the words the person changed. Only the prose counts: the code
and the tool calls and output a project prints every session ("42 passed") say nothing about
which mistake, and neither do the words an agent writes after every piece of work ("Let me
know if …").
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property

from daemon.impact.content import content
from daemon.impact.sentences import END
from daemon.impact.tool_lines import NOT_PROSE
from daemon.text.language import Language, detect, language

# Characters of each turn kept: the end of the turn answered (what the person reacts to), the
# head of the reply (where an agent writes what it set right).
SITUATION_CHARS = 800
# … read from this much of the raw turn, before its code and tool lines are taken out.
RAW_CHARS = 4 * SITUATION_CHARS
FENCE = "```"
# Stems two turns must share to be alike: one is chance.
SHARED_STEMS = 2
# A sentence of the agent's in this many of its situations or more is what it writes every
# time ("All 42 tests pass. Let me know if you want anything else."), whatever the work.
EVERY_TIME = 3
# What a sentence of the agent's is compared as, for that count (numbers alike: "All 41 tests
# pass" is "All 42 tests pass"); sentences end where the person's do (`sentences.END`).
DIGITS = re.compile(r"\d+")


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

    @cached_property
    def _every_time(self) -> frozenset[str]:
        """The sentences the agent writes in EVERY_TIME of its situations or more (read once,
        when a first pair is near)."""
        seen: Counter[str] = Counter()
        # each message's once (its statements share one), a message said in many the same way many times
        for around in {id(around): around for around, _ in self._of.values()}.values():
            seen.update({_sentence(x) for text in (around.before, around.after) for x in END.split(text)})
        return frozenset(x for x, n in seen.items() if n >= EVERY_TIME and x)

    def _prose(self, text: str, code: str) -> frozenset[str]:
        """The stems of what the agent wrote, without what it writes every time, read in its own
        language (an agent may write English to a person who writes French: "the" is no word of
        what was done)."""
        kept = " ".join(x for x in END.split(text) if _sentence(x) not in self._every_time)
        lang: Language | None = detect([kept]) if kept.strip() else None
        return content(kept, lang or language(code)).stems

    def _stems(self, statement: int) -> tuple[frozenset[str], frozenset[str]] | None:
        if statement not in self._of:
            return None
        key = self._of[statement]  # the statements of one message share it, an agent repeats itself
        if key not in self._read:
            around, code = key
            self._read[key] = (self._prose(around.before, code), self._prose(around.after, code))
        return self._read[key]

    def alike(self, a: int, b: int, about: frozenset[str]) -> float:
        """How close the agent's turns around two statements are, 0 to 1: the weight of the
        stems they share over the smaller side's, the turn answered with the turn answered, the
        reply with the reply, the closer pair counting — when they share SHARED_STEMS, one of
        them a stem `about` what one statement says and the other does not: the turns bridge
        the words the person changed ("cents" the first time, "two decimals" the second)."""
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


def _sentence(text: str) -> str:
    """A sentence of the agent's as its repeats are counted: its words, case and numbers aside."""
    return DIGITS.sub("0", " ".join(text.casefold().split()))
