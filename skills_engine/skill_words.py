"""Words of a skill's text in any script, as tidying, updates and the duplicate checks compare them (pure).

Words come from the text layer's segmentation (`daemon.text.unicode_words`: the Unicode
rules, ICU's dictionaries for scripts written without spaces): a Devanagari vowel sign or an
Arabic vowel mark is part of its word, so मेल (mail) and माल (goods) are different words.
Text is NFC-normalised first, and lowercased — not casefolded, which would make "Maßen"
(moderation) and "Massen" (masses) one word.

Chinese, Japanese, Thai, Lao, Khmer and Myanmar are written without spaces between words:
`spaced_words` leaves those scripts out, for the checks that need words a person separated
(they compare such text with the meaning check instead).
"""

from __future__ import annotations

import re
import unicodedata

from daemon.text.unicode_words import spaceless_run
from daemon.text.unicode_words import words as segmented

ASCII_WORD = re.compile(r"[A-Za-z0-9]+")


def words(text: str) -> list[str]:
    """The words of `text` in order, of any script, NFC-normalised and lowercased."""
    if text.isascii():  # most skills: the same words, several times faster
        return ASCII_WORD.findall(text.lower())
    return [w.lower() for w in segmented(unicodedata.normalize("NFC", text))]


def spaced_words(text: str) -> list[str]:
    """`words` of `text` outside the scripts written without spaces."""
    return words(text if text.isascii() else spaceless_run().sub(" ", unicodedata.normalize("NFC", text)))
