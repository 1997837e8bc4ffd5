"""The key under which two steps of a skill are the same step (pure).

Tidying removes a step whose key repeats an earlier one, an update does not add a step whose
key is already present, and the near-duplicate check counts shared keys. So the key ignores
only what never changes what a step says: case (lowered, not casefolded: "Maßen" is not
"Massen"), Unicode composition (NFC), whitespace, and plain punctuation around words —
sentence marks, quotes, brackets, backticks and the emphasis markers `*`, `_`, `~`. It keeps
every symbol (currency, maths, arrows, emoji: "$500" is not "€500", "≤" is not "≥") and the
marks that change a word or number they touch: `-5` is not `5`, `C#` is not `C++`, `10%`,
`@team`, `and/or`. Punctuation between two digits is part of the number (`1.5` is not `15`),
and `~` before a digit means "about". In scripts written without spaces (Chinese, Japanese,
Thai …) a space or a punctuation mark between two letters is not a word break either:
「打开」队列。 is 打开队列.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from daemon.text.unicode_words import spaceless_class

# Punctuation (Unicode P) that never changes the word it touches; dashes other than the
# hyphens, and the percent, number, at, ampersand, slash, section and prime signs, are not.
_KEPT = (
    "#%&@/\\-\u2010\u2011\u2030\u2031\u2032\u2033\u2034\u066a\ufe6a\uff05\uff03\uff06\uff20\uff0f\uff3c§¶†‡"
)
_ASCII_PLAIN = ".,;:!?'\"()[]{}`*_"


@cache
def _plain() -> re.Pattern[str]:
    """Plain punctuation, except between two digits; `~` except before a digit. Built on
    first use (reading the Unicode table takes a few tens of ms)."""
    other = "".join(
        c
        for c in map(chr, range(0x80, 0x10000))
        if unicodedata.category(c).startswith("P") and c not in _KEPT
    )
    body = re.escape(_ASCII_PLAIN) + "".join(re.escape(c) for c in other)
    return re.compile(rf"(?<!\d)[{body}]|[{body}](?!\d)|~(?!\d)")


def step_key(text: str) -> str:
    """Equal for the same step (see the module docstring). A step made only of plain
    punctuation is keyed by its own text, whitespace collapsed."""
    lowered = unicodedata.normalize("NFC", text).lower()
    tokens = _plain().sub(" ", lowered).split()
    # A dash, slash or ampersand standing alone between words joins them like a comma.
    found = [t for t in tokens if not all(unicodedata.category(c).startswith("P") for c in t)]
    if not found:
        return " ".join(text.split())
    return _between_spaceless().sub("", " ".join(found))


@cache
def _between_spaceless() -> re.Pattern[str]:
    letter = f"[{spaceless_class()}]"
    return re.compile(rf"(?<={letter}) (?={letter})")
