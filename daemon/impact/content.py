"""What a statement is about: its content words, as stems and as accent-folded trigrams
(pure, no I/O; shared by detection, which lets a statement with too few of them take in the
sentence before it, and recurrence, which compares them).

Content words are the words `daemon.text.words` calls content (not a function word of the
language, a number or three letters or more) that are not cue words of the language's
`impact:` lists or `claim.standing` (a one-word cue, or a word of a recall): "always" and
"I told you" say how, not what. A word in quotation marks is named,
not used, and counts even when it is a function word ("« Tu », pas « vous »").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from daemon.text.language import MONTHS, WEEKDAYS, Language, language
from daemon.text.lexicon import calendar_at
from daemon.text.unicode_words import words
from daemon.text.words import is_content, token, tokens

TRIGRAM_WORD = 4  # letters a word needs for its trigrams to count (shorter words are noise)
# Concepts of the meaning table that name a thing, the same in every language (the others —
# not, must, before — say how, and are cues or function words here).
SHARED_MEANINGS = frozenset(
    {"staging", "production", "development", "test", "qa", "sandbox", "preprod", "canary", "local"}
    | set(WEEKDAYS) | set(MONTHS)
)
# A few words in quotation marks: a word named, not used ("« tu »", "'Sie'", "“per se”").
MENTION = re.compile(r"(?<!\w)[«“\"‘'„「]\s*([^«»“”\"‘’'„「」\n]{1,30}?)\s*[»”\"’'“」](?!\w)")


@dataclass(frozen=True)
class Content:
    stems: frozenset[str]
    trigrams: frozenset[str]


@cache
def cue_tokens(code: str) -> frozenset[str]:
    """The cue words of a language as `words.token` makes them, and as written."""
    lang = language(code)
    if lang is None:
        return frozenset()
    # a cue of one word, and every word of a recall ("i told you"); the words of other
    # phrases may carry content ("time" of "this time", "next time", "using" of "we stopped using")
    phrases = [p for listed in lang.impact.values() for p in listed] + list(lang.claim.get("standing", ()))
    recalls = [p for name in ("reminder", "again") for p in lang.impact.get(name, ())]
    plain = {p[0] for p in phrases if len(p) == 1} | {w for p in recalls for w in p}
    return frozenset(plain | {token(w, lang) for w in plain})


def meanings(said: Sequence[str], lang: Language) -> frozenset[str]:
    """What the words `said` mean in every language, as `@<meaning>`: a weekday or a month
    (CLDR's names, in any inflection: "vendredi", "freitags" are `@friday`) and the
    environments of the meaning table ("préprod" is `@preprod`). "Le déploiement, c'est le
    vendredi" and "we deploy on Fridays" share `@friday`."""
    found = set()
    for word in said:
        folded = word.casefold()
        named = calendar_at(lang, word, folded)
        if named is not None:
            found.add(f"@{named}")
        found.update(f"@{c}" for c in lang.concepts.get(folded, ()) if c in SHARED_MEANINGS)
    return frozenset(found)


def fold(word: str) -> str:
    """`word` casefolded, without accents (ó is o)."""
    return "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))


def content(text: str, lang: Language | None) -> Content:
    """The content words of `text` read as `lang` (see the module docstring)."""
    cue = cue_tokens(lang.code) if lang is not None else frozenset()
    stems = frozenset(t for t in tokens(text, lang) if is_content(t, lang) and t not in cue)
    # a word in quotation marks is named, not used: "« Tu », pas « vous »" is about those words
    stems |= frozenset(t for m in MENTION.finditer(text) for t in tokens(m.group(1), lang))
    said = words(text)
    if lang is not None:
        stems |= meanings(said, lang)
    function = lang.function_words if lang is not None else frozenset()
    plain = [w.casefold().replace("’", "'") for w in said]
    kept = [fold(w) for w in plain if w not in cue and w not in function and (len(w) >= TRIGRAM_WORD or w.isdigit())]
    grams = frozenset(g for w in kept for g in _trigrams(w))
    return Content(stems, grams)


def _trigrams(word: str) -> list[str]:
    padded = f"^{word}$"
    return [padded[i : i + 3] for i in range(len(padded) - 2)]
