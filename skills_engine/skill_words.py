"""Words of a skill's text in any script, as tidying, updates and the duplicate checks compare them (pure).

A word is a run of letters, digits and combining marks (Unicode categories L, N and M; not
`_`): a Devanagari vowel sign or an Arabic vowel mark is part of its word, so मेल (mail)
and माल (goods) are different words. Text is NFC-normalised first, so an accent typed as a
combining mark is the same word as the accented letter, and lowercased — not casefolded,
which would make "Maßen" (moderation) and "Massen" (masses) one word.

Chinese, Japanese, Thai, Lao, Khmer and Myanmar are written without spaces between words, so
a run of their letters is a whole clause: `spaced_words` leaves those scripts out, for the
checks that need single words (they compare such text with the meaning check instead).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from daemon.text.meaning import character_class
from daemon.text.words import SPACELESS

ASCII_WORD = re.compile(r"[A-Za-z0-9]+")


@cache
def _word() -> re.Pattern[str]:
    """A run of letters and digits (`[^\\W_]` is exactly Unicode L and N) and combining marks,
    which lie in the basic and supplementary multilingual planes and the variation selectors
    supplement (U+E0100–E01EF). Built on first use (reading the Unicode table takes a few
    tens of ms); written letters first, marks between, as marks are rare."""
    marks = character_class(("M",), end=0x20000)  # no mark below U+0080
    marks += "\U000e0100-\U000e01ef"
    return re.compile(rf"(?:[^\W_]|[{marks}])[^\W_]*(?:[{marks}]+[^\W_]*)*")


def words(text: str) -> list[str]:
    """The words of `text` in order, of any script, NFC-normalised and lowercased."""
    if text.isascii():  # most skills: the same words, several times faster
        return ASCII_WORD.findall(text.lower())
    return _word().findall(unicodedata.normalize("NFC", text).lower())


def spaced_words(text: str) -> list[str]:
    """`words` of `text` outside the scripts written without spaces (whose runs are clauses)."""
    return words(text if text.isascii() else SPACELESS.sub(" ", unicodedata.normalize("NFC", text)))
