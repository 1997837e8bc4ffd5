"""A number of the agent's turn the person writes back in another notation, as it is to be
written (pure, no I/O; docs/explanation/impact.md#set-right-without-a-word): "142.310,00 kr."
to an agent that wrote "142,310.00", "₹4,95,000" to one that wrote "495,000". People name a
number of the agent's as often as they set its notation right ("ok so 1.250,00 then", "paid
23.480,50 yesterday", a phone number or an IBAN grouped their way; review helper-223), so only
a number grouped as amounts are, in thousands or in lakhs, with another shape than the agent's
marked one and as many characters or more, standing alone in its clause (beside short words,
function words, lead-ins and requests: "og beløbene: 142.310,00 kr.", "1,87,400 pls.") counts;
its cue (`notation`) is no value an agreement lets through ("passt, 23.480,50 € ist korrekt").
"""

from __future__ import annotations

import re
from bisect import bisect_right
from functools import lru_cache

from daemon.impact.clauses import Words, breaks
from daemon.impact.cues import Cue
from daemon.impact.setright import asking
from daemon.text.language import Language

# A number written with marks between its digits: a group mark or a decimal one, a space too
# ("R4 350,00"). Each group bounded: the pattern stays linear on a long run of digits.
MARKED = re.compile(r"(?<![\d.,])\d{1,12}(?:[.,'\u00a0\u202f ]\d{1,12}){1,8}(?!\d)")
# Shapes of an amount (each digit as "0"): grouped in thousands by one mark, a decimal part
# after another ("142.310,00", "1'250.00", "4 350,00"), or in lakhs ("4,95,000", "18,40,000").
THOUSANDS = re.compile(r"0{1,3}(?P<group>[.,' ])000(?:(?P=group)000){0,5}(?:(?!(?P=group))[.,]0{1,3})?")
LAKHS = re.compile(r"0{1,2}(?:,00){1,5},000(?:\.0{1,3})?")
# Digits a number needs to be read: shorter ones are counts, times and days.
SHORTEST = 4
# Words of its clause beside the number that say nothing of it: a currency's sign or code.
SHORT = 3


def _digits(number: str) -> str:
    return "".join(c for c in number if c.isdigit())


def _shape(number: str) -> str:
    """The number with each digit as "0", its marks where they stand ("1,840,000" and
    "18,40,000" are two shapes of the same marks), a no-break space as a space."""
    return "".join("0" if c.isdigit() else " " if c in "\u00a0\u202f" else c for c in number)


@lru_cache(maxsize=256)
def _theirs(turn: str) -> dict[str, frozenset[str]]:
    """The agent's numbers of SHORTEST digits or more written with a mark, by their digits,
    each with its shapes (a bare "585000" is no notation to set right)."""
    found: dict[str, set[str]] = {}
    for match in re.finditer(r"\d[\d.,'\u00a0\u202f]{0,30}", turn):
        number = match.group().rstrip(".,'\u00a0\u202f")
        if len(_digits(number)) >= SHORTEST and not number.isdigit():
            found.setdefault(_digits(number), set()).add(_shape(number))
    return {digits: frozenset(shapes) for digits, shapes in found.items()}


# Each language's words a number's clause may hold beside it, by its code, made once.
_OWN: dict[str, frozenset[str]] = {}


def _own(lang: Language) -> frozenset[str]:
    """The words of `lang` a number's clause may hold beside it: function words, lead-ins and
    requests."""
    if lang.code not in _OWN:
        phrases = lang.impact.get("lead_ins", frozenset()) | asking(lang)
        _OWN[lang.code] = lang.function_words | frozenset(w for phrase in phrases for w in phrase)
    return _OWN[lang.code]


def rewritten(lang: Language, text: str, words: Words, answered: str) -> list[Cue]:
    """The first number of the sentence that writes one of the agent's turn `answered` in
    another notation (see the module docstring), as a `notation` cue."""
    if not answered.strip():
        return []
    theirs = _theirs(answered)
    if not theirs:
        return []
    for match in MARKED.finditer(text):
        mine = match.group()
        shape = _shape(mine)
        other = theirs.get(_digits(mine))
        if other is None or shape in other or not (THOUSANDS.fullmatch(shape) or LAKHS.fullmatch(shape)):
            continue
        if any(len(shape) < len(s) for s in other):
            continue
        at = next((i for i, (_, end) in enumerate(words.spans) if end > match.start()), 0)
        cut = breaks(text, words)
        own = _own(lang)
        clause = bisect_right(cut, at)
        bounds = (cut[clause - 1] if clause else 0, cut[clause] if clause < len(cut) else len(words.low))
        beside = [
            w
            for i, w in enumerate(words.low[bounds[0] : bounds[1]], bounds[0])
            if not (match.start() <= words.spans[i][0] < match.end()) and w not in own and len(w) > SHORT
        ]
        if not beside:
            return [Cue("notation", mine, at)]
    return []
