"""What one word or phrase of a language means to the meaning check: its tokens (pure).

The language's data file says which words stand for which concept (`language.CONCEPTS`);
this table says which meaning tokens a concept is. Numbers and calendar names come from
CLDR (`cldr`), inflected calendar names are found by their Snowball stem, and `lemma` is
the form two content words are compared in.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache, lru_cache

import icu

from daemon.text.cldr import abbreviated_names, calendar_names, key, language_names, normal
from daemon.text.keyboard import unaccented
from daemon.text.language import MONTHS, WEEKDAYS, Language, known, language
from daemon.text.stems import stem
from daemon.text.unicode_words import uncased

Pair = tuple[str, str]  # (category, value) of a meaning token

NOT: Pair = ("negation", "not")
CONCORD: Pair = ("negation", "concord")
_POLARITY = {
    "must": "always", "should": "should", "may": "may", "usually": "usually", "sometimes": "sometimes",
    "rarely": "rarely", "only": "only", "except": "except", "unless": "except", "prefer": "prefer",
    "allow": "allow", "enable": "enable", "more": "more", "less": "less", "before": "before",
    "after": "after", "increase": "increase", "decrease": "decrease", "public": "public",
    "private": "private", "internal": "internal", "external": "external",
}  # fmt: skip
_ENVIRONMENT = ("staging", "production", "development", "test", "qa", "sandbox", "preprod", "canary", "local")
_DATES = (
    "today", "tomorrow", "yesterday", "tonight", "weekend", "weekday", "morning", "afternoon", "evening",
    "noon", "midnight", "daily", "weekly", "fortnightly", "monthly", "quarterly", "yearly", "hourly", "nightly",
)  # fmt: skip
CONCEPT_TOKENS: dict[str, tuple[Pair, ...]] = {
    "negation": (NOT,),
    "negation_concord": (CONCORD,),
    "never": (NOT, ("polarity", "always")),
    "never_concord": (CONCORD, ("polarity", "always")),
    "forbid": (NOT, ("polarity", "allow")),
    "dislike": (NOT, ("polarity", "prefer")),
    "disable": (NOT, ("polarity", "enable")),
    "if": (("condition", "if"),),
    **{c: (("polarity", v),) for c, v in _POLARITY.items()},
    **{c: (("environment", c),) for c in _ENVIRONMENT},
    **{c: (("date", c),) for c in _DATES},
    # Extra weekday and month forms (German "montags"); "may" is the permission, not the month
    # (the month's forms come from CLDR).
    **{c: (("date", c),) for c in (*WEEKDAYS, *MONTHS) if c != "may"},
    "more_with_number": (("polarity", "more"),),
    "less_with_number": (("polarity", "less"),),
    "percent": (),  # after a number: "twenty percent" is 20% (`meaning._clause`)
    "twice": (("number", "2x"),),
    "thrice": (("number", "3x"),),
    "half": (("number", "0.5"),),
}
# `unless` is "except" and a condition: dropping it, or turning it into "if", changes both.
CONCEPT_TOKENS["unless"] = (("polarity", "except"), ("condition", "if"))


def concept_tokens(concepts: Sequence[str]) -> list[Pair]:
    return [pair for concept in concepts for pair in CONCEPT_TOKENS[concept]]


_OUTRIGHT = {NOT, ("polarity", "always")}


def says_not(concepts: Sequence[str]) -> bool:
    """Whether one of `concepts` says "not" outright ("not", "never"), rather than as part of
    another meaning ("forbid" is not-allow, "dislike" not-prefer) or in concord."""
    return any(NOT in CONCEPT_TOKENS[c] and set(CONCEPT_TOKENS[c]) <= _OUTRIGHT for c in concepts)


def phrase_at(lang: Language, low: Sequence[str], i: int) -> tuple[tuple[str, ...], int]:
    """(concepts, words used) of the longest listed phrase of `lang` starting at `i`, or ((), 0)."""
    for size in range(min(lang.longest_phrase, len(low) - i), 1, -1):
        found = lang.phrases.get(tuple(low[i : i + size]))
        if found:
            return found, size
    return (), 0


def number_at(lang: Language, low: Sequence[str], i: int) -> tuple[int, bool, int]:
    """(value, ordinal, words used) of the longest number spelled in words at `i`, or (0, False, 0).

    A word the language lists as `not_numbers` (German "ein", French "un": also "a") is
    never a number by itself. A round hundred or thousand goes on with a smaller number,
    after one of the language's connectives or not ("one hundred and five", "tausend zwei")."""
    value, ordinal, used = _number_at(lang, low, i)
    if used and not ordinal and value >= 100 and value % 100 == 0:
        place = 1000 if value % 1000 else value
        skip = 1 if i + used < len(low) and low[i + used] in lang.words("connectives") else 0
        rest, rest_ordinal, more = _number_at(lang, low, i + used + skip)
        if more and rest < place and not (rest >= 100 and value % 1000):
            return value + rest, rest_ordinal, used + skip + more
    return value, ordinal, used


def _number_at(lang: Language, low: Sequence[str], i: int) -> tuple[int, bool, int]:
    if i >= len(low):
        return 0, False, 0
    table = lang.numbers()
    first = normal(low[i])
    if first in lang.extra_numbers:
        return lang.extra_numbers[first], False, 1
    for size in range(min(table.longest, len(low) - i), 0, -1):
        spelled = " ".join(normal(w) for w in low[i : i + size])
        if size == 1 and spelled in lang.words("not_numbers"):
            continue
        if spelled in table.cardinals:
            return table.cardinals[spelled], False, size
        if spelled in table.ordinals:
            return table.ordinals[spelled], True, size
    return 0, False, 0


def calendar_phrase_at(lang: Language, low: Sequence[str], i: int) -> tuple[str | None, int]:
    """(the English weekday or month, words used) of a calendar name of several words at `i`
    (Portuguese "segunda-feira", segmented "segunda feira"), or (None, 0)."""
    names = lang.calendar()
    for size in (3, 2):
        if i + size <= len(low):
            found = names.get(" ".join(normal(w) for w in low[i : i + size]))
            if found:
                return found, size
    return None, 0


@cache
def _calendar_stems(locale: str, algorithm: str | None) -> dict[str, str]:
    names = calendar_names(locale)
    return {stem(name, algorithm): value for name, value in names.items() if " " not in name and len(name) > 3}


def calendar_at(lang: Language, word: str, folded: str) -> str | None:
    """The English weekday or month `word` names in `lang` (any inflection Snowball folds:
    понедельникам, środę), an abbreviation only with a capital (Mon, janv); else None."""
    names = lang.calendar()
    folded = normal(folded)
    if folded in lang.words("not_calendar"):
        return None
    if folded in names:
        return names[folded]
    if word[:1].isupper() and folded in abbreviated_names(lang.locale):
        return abbreviated_names(lang.locale)[folded]
    if lang.stemmer is not None and len(folded) > 3:
        return _calendar_stems(lang.locale, lang.stemmer).get(stem(folded, lang.stemmer))
    return None


# Letters a name of a cased script needs (a shorter one is another word too: "ga", "ido"), and
# the letters of its ending a case form of it may change where no stemmer folds them
# (Ukrainian "англійська", "англійською"), at most.
NAME_LETTERS = 4
ENDING = 2
# Languages named by another code in CLDR than their data file's: Norwegian is "no" ("norsk",
# "Norwegian"), its Bokmål "nb" a name of two words.
NAMED_AS = {"nb": "no"}


@cache
def _named_languages() -> frozenset[str]:
    """The English names of the languages the text layer reads (a data file each): the names
    matched. Another language's name is as often a word ("crea" is Cree's, "corso" Corsican's)."""
    english = language_names("en")
    codes = {NAMED_AS.get(code, code) for code in known()}
    return frozenset(english[key(icu.Locale(code).getDisplayLanguage(icu.Locale("en")))] for code in codes)


@cache
def _language_names(locale: str, algorithm: str | None) -> tuple[dict[str, str], dict[str, str]]:
    """CLDR's names of the languages the text layer reads (`cldr.language_names`) in `locale`,
    its regional forms (Chinese "英语" and "英文") and English, typed without accents → the
    English name; and the same keyed by their Snowball stem, or, where the language has none,
    its own names in a script other than Latin by all but their ending ("policy" is no "Polish")."""
    named = _named_languages()
    own: dict[str, str] = {}
    for variant in icu.Locale.getAvailableLocales():
        if variant.split("_")[0] == locale.split("_")[0]:
            own.update({k: v for k, v in language_names(variant).items() if k not in own and v in named})
    names: dict[str, str] = {}
    for source in (own, {k: v for k, v in language_names("en").items() if v in named}):
        for name, english in source.items():
            # a script without spaces is cut into words by the tables' key ("スペイン 語")
            name = _typed(name.replace(" ", "") if uncased(name.replace(" ", "")) else name)
            if " " not in name and len(name) >= (2 if uncased(name) else NAME_LETTERS):
                names.setdefault(name, english)
    cased = {k: v for k, v in names.items() if not uncased(k)}
    if algorithm is not None:
        return names, {stem(k, algorithm): v for k, v in cased.items()}
    # (a Latin name's prefix is too often a word's: "poli" of "policy")
    mine = {_typed(k) for k in own}
    return names, {k[:-ENDING]: v for k, v in cased.items() if k in mine and not k.isascii() and len(k) - ENDING >= NAME_LETTERS}


def _typed(name: str) -> str:
    """A name as typed on any keyboard: without the accents of Latin letters ("ingles"), the dot
    of Turkish "İ" casefolded ("ingilizce"); other scripts' letters whole (NFC: "й", Hangul)."""
    return unicodedata.normalize("NFC", unaccented(name.replace("\u0307", "")))


def language_at(lang: Language, word: str) -> str | None:
    """The English name of the language `word` names, in `lang` or in English (CLDR's names, in
    any inflection Snowball folds: "inglés", "ingles", "Englisch", "по-английски"; a particle
    of a script without case off: "영어로"), else None. A word the language also uses otherwise
    (`not_language_names`: English "polish", Dutch "pools") names one only with a capital."""
    return _spoken(lang.code, word)


@lru_cache(maxsize=1 << 16)
def _spoken(code: str, word: str) -> str | None:
    # kept per word: every content word of every statement is asked (`impact.content`)
    lang = language(code)
    if lang is None:
        return None
    folded = _typed(normal(word))
    if len(folded) < 2 or folded in lang.function_words:
        return None
    if folded in lang.words("not_language_names") and not word[:1].isupper():
        return None
    names, stems = _language_names(lang.locale or lang.code, lang.stemmer)
    if folded in names:
        return names[folded]
    if uncased(folded):
        return names.get(lemma(folded, lang))
    if len(folded) < NAME_LETTERS:
        return None
    if lang.stemmer is not None:
        return stems.get(stem(folded, lang.stemmer))
    # a case form: all of the name but its ending, and at most an ending's letters more
    return next(
        (stems[folded[:n]] for n in range(len(folded), NAME_LETTERS - 1, -1) if folded[:n] in stems and len(folded) - n <= 2 * ENDING),
        None,
    )


def lemma(word: str, lang: Language | None) -> str:
    """The form two content words are compared in: the Snowball stem in a language with one
    (answers, answered, answering → answer); a word of a script without case loses a particle
    its language lists (사용자는 → 사용자) or a leading "and" (والقهوة → القهوة)."""
    folded = word.casefold().removesuffix("'s")
    if lang is None:
        return folded
    if uncased(folded):
        particles = lang.words("particles") - lang.words("meaning_particles_excluded")
        for particle in sorted(particles, key=len, reverse=True):
            if folded.endswith(particle) and len(folded) > len(particle):
                return folded[: -len(particle)]
        for prefix in lang.words("and_prefixes"):
            if folded.startswith(prefix) and len(folded) > 2:
                return folded[len(prefix) :]
        return folded
    return stem(folded, lang.stemmer)
