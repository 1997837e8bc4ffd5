"""Words as the checks compare them: case, punctuation, possessives, number words, ordinals,
calendar names and inflection folded, in every language the text layer knows.

Shared by the fact grounding (memory engine), the skill-step grounding (skills engine) and
the new-heading check (workspace): "three" and "3" are one word, "10th" is "10", "Dec" and
"December" are one month (so are "grudnia" and "December"), and "reports" is "report".
Words come from ICU's segmentation (`unicode_words`): "我住在柏林" is 我, 住在, 柏林. The
language of a text is `language.detect`'s; a word is reduced to its Snowball stem in a
language that has one, so "Krakowie" and "Krakowa" are one word (`stems.same_word` also
matches "Kraków", whose stem Snowball cuts shorter).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from daemon.text.language import Language, detect
from daemon.text.lexicon import calendar_at, lemma, number_at
from daemon.text.stems import stem
from daemon.text.unicode_words import segment, uncased
from daemon.text.unicode_words import words as _words

ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th|er|e|º|ª|\.)$")
# "Jonas's" is Jonas: the possessive goes before other apostrophes are dropped ("don't" → dont).
POSSESSIVE = re.compile(r"(?<=[^\W_])['’]s\b")
MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip


def words(text: str) -> list[str]:
    """The words of `text` as written (NFC), from the Unicode rules (`unicode_words`)."""
    return _words(text)


def tokens(text: str, lang: Language | None = None) -> list[str]:
    """Normalised words of `text` (read as `lang`, or the language `detect` finds): casefolded,
    number words as digits, ordinals as their number, months as `monthN`, other words as
    their stem."""
    lang = lang if lang is not None else detect([text])
    text = POSSESSIVE.sub("", unicodedata.normalize("NFC", text))
    raw = [w.text for w in segment(text)]
    low = [w.casefold().replace("'", "").replace("’", "") for w in raw]
    found: list[str] = []
    i = 0
    while i < len(low):
        if lang is not None:
            value, _ordinal, used = number_at(lang, low, i)
            if used:
                found.append(str(value))
                i += used
                continue
        found.append(token(raw[i], lang))
        i += 1
    return found


def token(word: str, lang: Language | None = None) -> str:
    """One word normalised (see `tokens`)."""
    folded = word.casefold().replace("'", "").replace("’", "")
    if (match := ORDINAL.match(folded)) is not None:
        return str(int(match.group(1)))
    if folded.isdigit():
        return str(int(folded))
    month = _month(word, folded, lang)
    if month is not None:
        return month
    if lang is None:
        return folded
    if lang.keyed:  # typed in Latin letters ("Greeklish"): its lists hold the one spelling
        return lang.key(folded)
    if uncased(folded):
        return lemma(folded, lang)  # a Korean particle or an Arabic/Hebrew "and" left out
    return stem(folded, lang.stemmer)


def _month(word: str, folded: str, lang: Language | None) -> str | None:
    found = calendar_at(lang, word, folded) if lang is not None else None
    if found is None and lang is not None and lang.locale != "en":
        found = calendar_at(_english(), word, folded)  # English names are read everywhere
    if found in MONTHS:
        return f"month{MONTHS.index(found) + 1}"
    return None


def _english() -> Language:
    from daemon.text.language import language

    found = language("en")
    assert found is not None, "daemon/text/languages/en.yaml is part of the package"
    return found


def stopwords(lang: Language | None) -> frozenset[str]:
    """The function words of `lang` as `tokens` makes them (free to add or leave out)."""
    return frozenset() if lang is None else _stopwords(lang.code)


@cache
def _stopwords(code: str) -> frozenset[str]:
    from daemon.text.language import language

    lang = language(code)
    assert lang is not None, f"no language data for {code}"
    return frozenset(token(w, lang) for w in lang.function_words)


def is_content(word: str, lang: Language | None = None) -> bool:
    """Whether a token carries content: not a function word of `lang`, and a number, a word of
    at least 3 letters, or a word of a script without case (王, 회의)."""
    if word in stopwords(lang):
        return False
    return word.isdigit() or len(word) >= 3 or uncased(word)
