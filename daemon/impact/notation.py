"""A number of the agent's turn the person writes back in another notation, as it is to be
written (pure, no I/O; docs/explanation/impact.md#set-right-without-a-word): "142.310,00 kr."
to an agent that wrote "142,310.00", "₹18,40,000" to one that wrote "1,840,000". People name a
number of the agent's as often as they set its notation right, so only a notation with as many
marks as the agent's or more, and other ones, counts: "1250 is fine" to "1,250.00" names it.
"""

from __future__ import annotations

import re
from functools import lru_cache

from daemon.impact.clauses import Words
from daemon.impact.cues import Cue

# A number written with marks between its digits: a group mark or a decimal one, a space too
# ("R4 350,00"). Each group bounded: the pattern stays linear on a long run of digits.
MARKED = re.compile(r"(?<![\d.,])\d{1,12}(?:[.,'\u00a0\u202f ]\d{1,12}){1,8}(?![\d])")
# Digits a number needs to be read: shorter ones are counts, times and days.
SHORTEST = 4


def _digits(number: str) -> str:
    return "".join(c for c in number if c.isdigit())


def _shape(number: str) -> str:
    """The number with each digit as "0", its marks where they stand: "1,840,000" and
    "18,40,000" are two shapes of the same marks."""
    return "".join("0" if c.isdigit() else " " if c in "\u00a0\u202f" else c for c in number)


@lru_cache(maxsize=256)
def _theirs(turn: str) -> dict[str, frozenset[str]]:
    """The agent's numbers of SHORTEST digits or more, by their digits, each with its shapes
    ("000000" for one written bare: "585000")."""
    found: dict[str, set[str]] = {}
    for match in re.finditer(r"\d[\d.,'\u00a0\u202f]{0,30}", turn):
        number = match.group().rstrip(".,'")
        if len(_digits(number)) >= SHORTEST:
            found.setdefault(_digits(number), set()).add(_shape(number))
    return {digits: frozenset(shapes) for digits, shapes in found.items()}


def rewritten(text: str, words: Words, answered: str) -> list[Cue]:
    """The first number of the sentence that writes one of the agent's turn `answered` in
    another notation (see the module docstring), as a `set_right` cue."""
    if not answered.strip():
        return []
    theirs = _theirs(answered)
    for match in MARKED.finditer(text):
        mine = match.group().strip()
        shape = _shape(mine)
        other = theirs.get(_digits(mine))
        if other is None or len(_digits(mine)) < SHORTEST or shape in other:
            continue
        if all(shape.count("0") < len(shape) and len(shape) >= len(s) for s in other):
            at = next((i for i, (start, end) in enumerate(words.spans) if end > match.start()), 0)
            return [Cue("set_right", mine, at)]
    return []
