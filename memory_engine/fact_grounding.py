"""Is a fact supported by the words it cites? A pure check, before the memory's write rules.

The model proposes (entity, key, value) and quotes the turn it read it in. The quote is
checked to be in the turn elsewhere; here the value must be *in the quote*: every
content word of the value, after normalising case, punctuation, whitespace, number words
("three" = "3"), dates (2026-12-10 = "10 December" = "Dec 10") and time-zone names
("Europe/Berlin" needs only "Berlin"), appears in the quote — in any script: words are
compared as `daemon.text.words` makes them, so "柏林" is in "我住在柏林". And the quote must
be about the entity: for the user's own facts (`user`, `user.*`) a first-person word
(`first_person`: "I", "my", "we", "ich", "мой", "je", "मैं", "我", "私", "나는"…); for any
other entity, its name appears in the quote.

Two scripts need more than equal words. Chinese and Japanese are compared by pairs of
characters, so a one-character value (a surname, 王 in "我姓王") is found by containment in
the quote; a Korean word carries its particle (서울에, "in Seoul"), so a Hangul value word is
found in a quote word that is it plus a particle or copula (서울 in 서울에, 부산 in 부산이에요).

So "city = Lima" citing "I moved to Oslo" is refused, and so is a value the model
invented from several turns ("Paris" in no turn sent). A fact can still be wrong — the
user may be joking — but never without the words that say it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from daemon.text.language import Language, detect
from daemon.text.lexicon import lemma
from daemon.text.stems import same_word
from daemon.text.unicode_words import uncased
from daemon.text.words import stopwords, tokens
from memory_engine.first_person import first_person


def value_words(value: str, lang: Language | None) -> set[str]:
    """The words of a value as grounding looks for them (dates as day and month, a time zone
    by its city, function words of `lang` left out unless they are all it says)."""
    text = value.strip()
    try:
        day = date.fromisoformat(text)
    except ValueError:
        day = None
    if day is not None:
        return {str(day.day), f"month{day.month}"}
    if "/" in text and " " not in text:  # a time-zone name: Europe/Berlin → Berlin
        text = text.rsplit("/", 1)[1].replace("_", " ")
    found = tokens(text, lang)
    # a value that is only a function word somewhere ("CET", French "this") is still the value
    return {t for t in found if t not in stopwords(lang)} or set(found)


def _said(word: str, said: set[str], lang: Language | None) -> bool:
    """Whether the value word `word` is in the quote (`said`: its tokens), in any inflection
    (Kraków in "w Krakowie"), a word of a script without case with a particle (서울 in 서울에)."""
    if word in said:
        return True
    if uncased(word):
        return any(lemma(t, lang) == word for t in said)
    algorithm = lang.stemmer if lang is not None else None
    return algorithm is not None and any(same_word(word, t, algorithm) for t in said)


def _entity_words(entity: str, lang: Language | None) -> set[str]:
    return {t for t in tokens(entity.replace("-", " ").replace(".", " "), lang) if t not in stopwords(lang)}


@dataclass(frozen=True)
class Verdict:
    grounded: bool
    detail: str = ""


def check(entity: str, value: str, quote: str, self_names: frozenset[str] = frozenset({"user"})) -> Verdict:
    """Whether `quote` states `value` about `entity` (see the module docstring).

    `self_names`: the entities that are the user themself (`user`, and the memory owner's
    user name when one is configured), about whom a first-person statement speaks.
    """
    lang = detect([quote])
    said = set(tokens(quote, lang))
    wanted = value_words(value, lang)
    missing = sorted(w for w in wanted if not _said(w, said, lang))
    if missing:
        return Verdict(False, f"the quote does not say {', '.join(missing)!s} (value {value!r})")
    if not wanted:
        return Verdict(False, f"the value {value!r} has no content words to find in the quote")
    if entity.split(".", 1)[0] in self_names:
        if not first_person(quote, lang):
            return Verdict(False, "a fact about the user needs the user's own first-person words")
        return Verdict(True)
    own = _entity_words(entity, lang)
    if own and not own & said:
        return Verdict(False, f"the quote does not name {entity!r}")
    return Verdict(True)
