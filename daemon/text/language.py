"""The languages the text layer knows: one data file each (`daemon/text/languages/<code>.yaml`,
read by `daemon.text.language_data`).

A data file holds what no Unicode library knows of a language's words — negations and
concord words, obligation and permission, conditions, polarity pairs, first-person forms,
particles, stopwords, hedges (docs/how-to/add-a-language.md). Segmentation, stems, number
words and calendar names come from ICU, Snowball and CLDR (`unicode_words`, `stems`,
`cldr`). `detect` tells which language a text is written in, from its script and its
words; a text of no known language gets the strict rules of the checks that read it.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable
from functools import cache

from daemon.text import cldr
from daemon.text.language_data import (
    CLAIM_LISTS,
    CONCEPTS,
    IMPACT_LISTS,
    KEYS,
    LISTS,
    MONTHS,
    PATTERNS,
    SCRIPTS,
    WEEKDAYS,
    Language,
    abbreviations,
    in_every_language,
    known,
    parse,
)
from daemon.text.latin_reading import LATIN_READING, in_latin_letters, typed_in_latin
from daemon.text.unicode_words import script, segment, words

# the names other modules read here, from the data files' module
__all__ = [
    "CLAIM_LISTS",
    "CLOSE",
    "CONCEPTS",
    "IMPACT_LISTS",
    "KEYS",
    "LISTS",
    "MONTHS",
    "PATTERNS",
    "SCRIPTS",
    "WEEKDAYS",
    "Language",
    "abbreviations",
    "detect",
    "in_every_language",
    "known",
    "language",
    "merged",
    "parse",
    "script_of",
]  # fmt: skip


def language(code: str) -> Language | None:
    """The language of `code`, or of codes joined by "+" (`merged`), or its reading in Latin
    letters ("el-latn"); None if one has no file."""
    if code.endswith(LATIN_READING):
        return in_latin_letters(code.removesuffix(LATIN_READING))
    codes = tuple(code.split("+"))
    if any(c not in known() for c in codes):
        return None
    return merged(codes)


# ICU's script codes (ISO 15924) → the scripts a data file may name.
ISO_SCRIPTS = {
    "Latn": "latin", "Cyrl": "cyrillic", "Grek": "greek", "Hani": "han", "Hira": "kana", "Kana": "kana",
    "Hang": "hangul", "Arab": "arabic", "Hebr": "hebrew", "Deva": "devanagari", "Thai": "thai",
}  # fmt: skip


def script_of(char: str) -> str | None:
    """The script of one letter, among `SCRIPTS` (from ICU's Unicode data), or None."""
    if not (char.isalpha() or unicodedata.category(char) == "Lm"):
        return None
    return ISO_SCRIPTS.get(script(char))


CLOSE = 0.75
# The share of a text's letters another script needs to be the text's script however many Latin
# letters are beside it, when it also writes more words than the Latin letters write words of
# a language (`_outvotes`): people who write Chinese, Thai or Hebrew type tool names, code and
# English words among it in Latin letters; people who write in Latin letters type a name in
# another script now and then ("My nickname is Ада.").
OWN_SCRIPT = 0.2
OUTVOTE_CHARS = 4000


@cache
def _names(code: str) -> frozenset[str]:
    """The one-word number names CLDR has for `code`: words `detect` counts."""
    table = cldr.numbers(code)
    return frozenset(name for name in (*table.cardinals, *table.ordinals) if " " not in name)


@cache
def _calendar(code: str) -> frozenset[str]:
    """The one-word weekday and month names CLDR has for `code`: words `detect` counts."""
    return frozenset(name for name in cldr.calendar_names(code) if " " not in name)


def detect(texts: Iterable[str]) -> Language | None:
    """The language `texts` (read together) are written in, or None if no data file fits.

    The text's main script decides first: Hangul is Korean, ideographs with kana Japanese,
    without Chinese; otherwise the main script chooses the candidates and its words vote: each word that is one of a
    language's listed words (stopwords, connectives, openers, first-person forms and verbs,
    concept words) or one of its CLDR weekday, month or number names counts one, each of its
    distinctive letters (`letters:`) one; a word several languages list is shared among them.
    No vote, no language. Languages that come close (within `CLOSE` of the best: Swedish
    and Danish share most short words) are read together: `merged` of them, which reads a
    word as every one of them does — the safe side for a check that refuses changes.
    """
    text = unicodedata.normalize("NFC", " ".join(texts))
    scripts = Counter(s for c in text if (s := script_of(c)) is not None)
    if not scripts:
        return None
    languages = known()
    # Japanese writes kana among its ideographs: the two count as one script here.
    scripts["han"] += scripts.pop("kana", 0) if scripts["kana"] else 0
    main = scripts.most_common(1)[0][0]
    if main == "latin" and (others := [(n, s) for s, n in scripts.items() if s != "latin" and n]):
        count, other = max(others)
        if count >= OWN_SCRIPT * scripts.total() and _outvotes(text, other, languages):
            main = other
    if main == "han":
        code = "ja" if any(script_of(c) == "kana" for c in text) else "zh"
        return languages.get(code)
    if main == "hangul":
        return languages.get("ko")
    candidates = [lang for lang in languages.values() if lang.script == main]
    if len(candidates) == 1 and main != "latin":
        return candidates[0]
    # a word with an apostrophe votes with its parts too: I'm, l'homme, c'è
    folded = [part for w in words(text) for part in _with_parts(w.casefold().replace("’", "'"))]
    letters = Counter(c for c in text.casefold() if c.isalpha())
    # A word counts 1 / (how many candidates list it): "werden" speaks for German and Dutch
    # half each, "nicht" for German alone.
    # A number name votes only as written in lower case: a capitalised "Otto" is a name, not eight.
    lower = {w.text.casefold() for w in segment(text) if not w.text[:1].isupper()}
    holders = {
        w: [
            lang.code
            for lang in candidates
            if w in lang.vocabulary or w in _calendar(lang.code) or (w in lower and w in _names(lang.code))
        ]
        for w in set(folded)
    }
    scores: dict[str, float] = {}
    for lang in candidates:
        score = sum(1 / len(holders[w]) for w in folded if lang.code in holders[w])
        score += sum(letters[c] for c in lang.words("letters"))
        if score:
            scores[lang.code] = score
    if main == "latin":
        typed = typed_in_latin(folded, holders, max(scores.values(), default=0.0), CLOSE)
        if typed is not None:
            return typed
    if not scores:
        return None
    top = max(scores.values())
    return merged(tuple(sorted(code for code, score in scores.items() if score >= CLOSE * top)))


def _outvotes(text: str, other: str, languages: dict[str, Language]) -> bool:
    """Whether `text` writes more words its script `other`'s languages list than words in
    Latin letters a Latin-script language lists: "幫我在 docs/v2.4.md 寫 release note 草稿，Jira
    裡 … 的都抓進來" holds 我, 在, 的, 都 … and one English word; "My nickname is Ада." and "Always cc 王小明 and 李华." only
    names in their other script."""
    latin = [lang for lang in languages.values() if lang.script == "latin"]
    # Japanese writes its kana among ideographs: counted as one script with them here
    own = [lang for lang in languages.values() if lang.script == other or (other == "han" and lang.script == "kana")]
    theirs = ours = 0
    # the words of its first OUTVOTE_CHARS: a megabyte of text is told by its start as well
    for word in segment(text[:OUTVOTE_CHARS]):
        found = script_of(word.text[0])
        folded = word.text.casefold()
        if found in (other, "kana") and any(folded in lang.vocabulary for lang in own):
            theirs += 1
        elif found == "latin" and any(folded in lang.vocabulary for lang in latin):
            ours += 1
    return theirs > ours


def _with_parts(word: str) -> list[str]:
    return [word, *(p for p in word.split("'") if p)] if "'" in word else [word]


def within(found: Language | None, *writing: Language | None) -> Language | None:
    """`found`, the language `detect` tells, unless it is a merge (words several languages share
    as much: "nie nie." is German and Polish) holding a language the person is known to write
    in (`writing`, the first that is one of them): then that one. German "nie" is "never",
    Polish "nie" is "no"; a Pole's "haha nie." sets no rule."""
    if found is None or "+" not in found.code:
        return found
    codes = found.code.split("+")
    return next((lang for lang in writing if lang is not None and lang.code in codes), found)


@cache
def merged(codes: tuple[str, ...]) -> Language:
    """One language, or several read as one (their words together; the first one's stemmer,
    calendar and numbers): for a text their votes cannot tell apart."""
    languages = known()
    if len(codes) == 1:
        return languages[codes[0]]
    parts = [languages[c] for c in codes]
    concepts: dict[str, tuple[str, ...]] = {}
    phrases: dict[tuple[str, ...], tuple[str, ...]] = {}
    for part in parts:
        for word, found in part.concepts.items():
            concepts[word] = tuple(dict.fromkeys((*concepts.get(word, ()), *found)))
        for key, found in part.phrases.items():
            phrases[key] = tuple(dict.fromkeys((*phrases.get(key, ()), *found)))
    lists = {name: frozenset().union(*(p.lists.get(name, frozenset()) for p in parts)) for name in LISTS}
    patterns = {name: tuple(x for p in parts for x in p.patterns.get(name, ())) for name in PATTERNS}
    first = parts[0]
    affixes = {c: tuple(x for p in parts for x in p.affixes.get(c, ())) for c in {c for p in parts for c in p.affixes}}
    return Language(
        "+".join(codes),
        " / ".join(p.name for p in parts),
        first.script,
        first.stemmer,
        any(p.pro_drop for p in parts),
        concepts,
        phrases,
        lists,
        patterns,
        max(p.longest_phrase for p in parts),
        frozenset().union(*(p.vocabulary for p in parts)),
        affixes,
        {k: v for p in parts for k, v in p.extra_numbers.items()},
        {name: frozenset().union(*(p.claim.get(name, frozenset()) for p in parts)) for name in CLAIM_LISTS},
        first.locale,
        person_unmarked=all(p.person_unmarked for p in parts),
        impact={
            name: frozenset().union(*(p.impact.get(name, frozenset()) for p in parts))
            for name in IMPACT_LISTS
            if any(p.impact for p in parts)
        },
    )
