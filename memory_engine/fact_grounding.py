"""Is a fact supported by the words it cites? A pure check, before the memory's write rules.

The model proposes (entity, key, value) and quotes the turn it read it in. The quote is
checked to be in the turn elsewhere; here the value must be *in the quote*: every
content word of the value, after normalising case, punctuation, whitespace, number words
("three" = "3"), dates (2026-12-10 = "10 December" = "Dec 10") and time-zone names
("Europe/Berlin" needs only "Berlin"), appears in the quote — in any script: words are
compared as `daemon.text.words` makes them, so "柏林" is in "我住在柏林". And the quote must
be about the entity: for the user's own facts (`user`, `user.*`) a first-person word
(`first_person`: "I", "my", "we", "ich", "мой", "je", "मैं", "我", "私", "나는"…); for any
other entity, its name appears in the quote — except the agent's project (`project`,
`team`, `repo` and their sub-entities: a coding agent's home is one repository), which its
people name in the first person plural: "our staging DB is db-staging.internal", "we deploy
with `make ship`", "Usamos pnpm".

A grounded fact has a strength (`Verdict.strength`): 2 when the value is in the quote as
written, 1 when every value word is (in another order or with other words between), 0 when
a word is only there inflected ("Kraków" in "w Krakowie"). Two candidates for one key and
date are decided by it (`fact_conflicts`).

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
from importlib import resources

import yaml

from daemon.text.cldr import city_names, language_names
from daemon.text.language import Language, detect
from daemon.text.lexicon import lemma, says_not
from daemon.text.stems import same_word
from daemon.text.unicode_words import segment, uncased
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
    # a one-letter ending the language's data file lists as an inflection (German "den
    # Nachbarn"); any other letter more is another word (Hanna, Hannah)
    if lang is not None and len(word) >= SHORT_ENDING_MIN and any(word + e in said for e in lang.words("short_endings")):
        return True
    if uncased(word):
        return any(lemma(t, lang) == word for t in said)
    algorithm = lang.stemmer if lang is not None else None
    return algorithm is not None and any(same_word(word, t, algorithm) for t in said)


SHORT_ENDING_MIN = 5  # letters of a word that a one-letter ending may inflect


def _plain(text: str) -> list[str]:
    return [w.text.casefold().replace("'", "").replace("’", "") for w in segment(text)]


def _negation(word: str, lang: Language) -> bool:
    return says_not(lang.concepts.get(word, ())) or lang.matches("negation_affixes", word)


def _said_otherwise(word: str, value: str, quote: str, said: set[str], lang: Language) -> bool:
    """Whether the value word `word` (a stem) is said another way: a language by its name in
    the quote's language ("French" in "je réponds en français", "German" in "Deutsch ist
    meine Muttersprache"), a city by its name there ("Lisbon" in "in Lissabon", "Europe/Warsaw"
    in "czas warszawski": CLDR's cities of the time-zone database), a negation by any of the
    language's ("no red meat" in "I don't eat red meat")."""
    locale = lang.locale or lang.code
    names = language_names(locale)
    english = " ".join(value.casefold().split())
    plain = _plain(quote)
    if english in names.values() and any(names.get(w) == english for w in plain):
        return True
    city = city_names(locale).get(english.rsplit("/", 1)[-1].replace("_", " "))
    if city is not None and word in tokens(english.rsplit("/", 1)[-1].replace("_", " "), lang):
        local = tokens(city, lang)
        if local and all(_said(w, said, lang) for w in local):
            return True
    negations = {t for v in _plain(value) if _negation(v, lang) for t in tokens(v, lang)}
    return word in negations and any(_negation(w, lang) for w in plain)


def _entity_words(entity: str, lang: Language | None) -> set[str]:
    return {t for t in tokens(entity.replace("-", " ").replace(".", " "), lang) if t not in stopwords(lang)}


# The entities that are the agent's project, spoken of as "we" and "our" (the schema's data file).
SHARED_ENTITIES = frozenset(
    yaml.safe_load(resources.files("memory_engine").joinpath("fact_schema.yaml").read_text(encoding="utf-8"))[
        "shared_entities"
    ]
)


@dataclass(frozen=True)
class Verdict:
    grounded: bool
    detail: str = ""
    strength: int = 0


def _strength(value: str, quote: str, wanted: set[str], said: set[str]) -> int:
    if " ".join(value.casefold().split()) in " ".join(quote.casefold().split()):
        return 2
    return 1 if wanted <= said else 0


def _standing(quote: str, lang: Language | None) -> bool:
    """A standing instruction ("from now on, parcels to the neighbour", "ab jetzt …": the
    language's `claim.standing`) is the user speaking of themself, pronoun or not."""
    if lang is None:
        return False
    low = _plain(quote)
    return any(
        tuple(low[i : i + len(phrase)]) == tuple(w.replace("'", "") for w in phrase)
        for phrase in lang.claim.get("standing", frozenset())
        for i in range(len(low) - len(phrase) + 1)
    )


def _about_the_project(quote: str, key: str, said: set[str], lang: Language | None) -> bool:
    """Whether `quote` speaks of the agent's project: "we", "our" (or a first-person verb),
    a word that points at it ("here", "this repo": the language's `claim.project_deixis`),
    or the key's own words ("Tests run with `npm test`" for test_command)."""
    if first_person(quote, lang):
        return True
    if lang is None:
        return False
    low = [t.casefold() for t in tokens(quote, lang)]
    for phrase in lang.claim.get("project_deixis", frozenset()):
        if any(tuple(low[i : i + len(phrase)]) == phrase for i in range(len(low) - len(phrase) + 1)):
            return True
    wanted = {w for w in tokens(key.replace("_", " "), lang) if w not in stopwords(lang)}
    return any(_said(w, said, lang) for w in wanted)


def check(
    entity: str, value: str, quote: str, self_names: frozenset[str] = frozenset({"user"}), key: str = ""
) -> Verdict:
    """Whether `quote` states `value` about `entity` (see the module docstring).

    `self_names`: the entities that are the user themself (`user`, and the memory owner's
    user name when one is configured), about whom a first-person statement speaks.
    """
    lang = detect([quote])
    said = set(tokens(quote, lang))
    wanted = value_words(value, lang)
    missing = sorted(
        w for w in wanted if not _said(w, said, lang) and not (lang and _said_otherwise(w, value, quote, said, lang))
    )
    if missing:
        return Verdict(False, f"the quote does not say {', '.join(missing)!s} (value {value!r})")
    if not wanted:
        return Verdict(False, f"the value {value!r} has no content words to find in the quote")
    strength = _strength(value, quote, wanted, said)
    head = entity.split(".", 1)[0]
    if head in self_names:
        if not (first_person(quote, lang) or _standing(quote, lang)):
            return Verdict(False, "a fact about the user needs the user's own first-person words")
        return Verdict(True, strength=strength)
    own = _entity_words(entity, lang)
    if own and not own & said:
        if head in SHARED_ENTITIES and _about_the_project(quote, key, said, lang):
            return Verdict(True, strength=strength)
        hint = " nor speak of it as \"we\" or \"our\"" if head in SHARED_ENTITIES else ""
        return Verdict(False, f"the quote does not name {entity!r}{hint}")
    return Verdict(True, strength=strength)
