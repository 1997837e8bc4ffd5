"""Lexical search over an owner's facts: entity, key, value and quote (docs/explanation/fact-memory.md).

A query is read through the text layer: its words (`unicode_words.segment`) in the
language `language.detect` finds in it — for a query too short to tell (a name alone), in
the language of the facts it may match. A fact holds a query word when one of its words
is a form of it (`stems.same_word`): "where does Jonas live" finds "Jonas lives in Porto".
The language's function words ("where", "does") are left out of a query that has other
words.

A fact's score is the sum, over the query words it holds in its entity, key, value or
quote, of each word's rarity among the owner's facts (BM25's idf: a word in every fact
weighs nothing). So facts holding more of the query's words, and rarer ones, rank first,
a word no fact holds keeps none out, and among equal scores the newer fact comes first.

Reading every fact's words per query would take seconds at 100,000 facts (ICU and a
stemmer cost ~70 µs a fact), and no second index is kept. The query index flags the
candidates in one SQL pass (`FactIndex.flag`): facts holding the start of a query word's
stem at the start of a word, which also gives each word's rarity. Candidates are then
read word by word, those flagged with the most weight first, only until no candidate
left can beat the last result. What the pass cannot see is not found: a query without
the accents the fact has ("Krakow" for "Kraków"), a word right after punctuation other
than a space.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from daemon.kernel.errors import DaemonError
from daemon.text.language import Language, detect
from daemon.text.stems import same_word, stem
from daemon.text.unicode_words import segment, spaceless
from daemon.text.words import POSSESSIVE, stopwords, token
from memory_engine.fact_index import FactIndex, Flagged, Look, Searchable
from memory_engine.records import FactRecord

MAX_TERMS = 16  # query words looked for: each adds a LIKE to the pass over the owner's facts
MIN_PROBE = 3  # letters of a stem's start looked for (a shorter word: all of it)
BATCH = 64  # candidates read from the index at a time
_RUN = re.compile(r"\w+")


@dataclass(frozen=True)
class Hit:
    record: FactRecord
    score: float


@dataclass(frozen=True)
class Found:
    """What a search found: the best facts first, and whether more matched."""

    hits: list[Hit]
    more: bool  # more facts matched than were asked for


@dataclass(frozen=True)
class Term:
    """A word of a query and how the index looks for it."""

    word: str  # as the query writes it
    probe: str  # the start of every form of it: casefolded, accents set aside
    spaceless: bool  # of a script written without spaces: found anywhere in a word
    plain: bool  # letters and digits only, of a script written with spaces


def _folded(text: str) -> str:
    """`text` casefolded, accents set aside (ó is o; ł stays ł, a letter of its own)."""
    folded = text.casefold()
    if folded.isascii():
        return folded
    return "".join(c for c in unicodedata.normalize("NFD", folded) if not unicodedata.combining(c))


def _term(word: str, algorithm: str | None) -> Term:
    whole, stemmed = _folded(word), _folded(stem(word, algorithm))
    shared = next((i for i, (a, b) in enumerate(zip(whole, stemmed, strict=False)) if a != b), min(len(whole), len(stemmed)))
    common = whole[:shared] or whole
    # Snowball may change a stem's last letter (city → citi): one letter less is looked for.
    probe = common[: max(min(len(common), MIN_PROBE), len(common) - 1)]
    alone = spaceless(word[0])
    return Term(word, probe, alone, not alone and _RUN.fullmatch(word) is not None)


def _terms(text: str, lang: Language | None) -> list[Term]:
    words = [w.text for w in segment(POSSESSIVE.sub("", text))]  # "Jonas's" is Jonas
    algorithm = lang.stemmer if lang is not None else None
    function_words = stopwords(lang)
    content = [w for w in words if token(w, lang) not in function_words] or words
    found: dict[str, Term] = {}
    for word in content:
        found.setdefault(stem(word, algorithm), _term(word, algorithm))
    return list(found.values())[:MAX_TERMS]


def _look(term: Term) -> Look:
    """The probe as folded and as the query writes it (accents kept); SQL folds ASCII
    letters only, so a probe of other letters is looked for capitalised too."""
    written = term.word.lower()[: len(term.probe)]
    forms: dict[str, None] = {}
    for form in (term.probe, written):
        forms.setdefault(form)
        if not form.isascii():
            forms.setdefault(form[:1].upper() + form[1:])
    return Look(tuple(forms), inside=term.spaceless)


@lru_cache(maxsize=4096)
def _words(field: str) -> tuple[tuple[str, str], ...]:
    """The words of a field as written and folded (entities and keys repeat: read once)."""
    return tuple((w.text, _folded(w.text)) for w in segment(field))


@lru_cache(maxsize=65536)
def _same(word: str, other: str, algorithm: str | None) -> bool:
    return same_word(word, other, algorithm)


def _holds(term: Term, field: str, algorithm: str | None) -> bool:
    """Whether a word of `field` is a form of the term's word (starting with its probe).

    A field's runs of letters and digits are looked at first, a few microseconds: a fact
    flagged for "tea" that says "team" is turned down without segmenting its quote."""
    if term.probe not in _folded(field):
        return False
    if term.plain and not any(
        _same(term.word, run, algorithm) for run in _RUN.findall(field.casefold()) if _folded(run).startswith(term.probe)
    ):
        return False
    return any(
        (term.probe in folded if term.spaceless else folded.startswith(term.probe))
        and _same(term.word, written, algorithm)
        for written, folded in _words(field)
    )


def _score(terms: Sequence[Term], idf: Sequence[float], flagged: Flagged, fact: Searchable, algorithm: str | None) -> float:
    """The sum of the rarities of the query words `fact` holds (only those it was flagged for can be)."""
    fields = (fact.entity, fact.key, fact.value, fact.quote)
    return sum(
        idf[i]
        for i, term in enumerate(terms)
        if flagged.looks >> i & 1 and any(_holds(term, field, algorithm) for field in fields)
    )


def _ordered(flagged: list[Flagged], idf: Sequence[float]) -> list[tuple[float, Flagged]]:
    """Candidates with the most they can score first; among equals the newest, then by id."""
    bounds = {m: sum(w for i, w in enumerate(idf) if m >> i & 1) for m in {f.looks for f in flagged}}
    bounded = [(bounds[f.looks], f) for f in flagged]
    bounded.sort(key=lambda pair: pair[1].id)
    bounded.sort(key=lambda pair: (pair[0], pair[1].valid_from), reverse=True)
    return bounded


@dataclass(frozen=True)
class Query:
    """A search as read (`read_query`): its words to look for and the language they are in."""

    text: str
    terms: tuple[Term, ...]
    language: Language | None

    @property
    def words(self) -> tuple[str, ...]:
        return tuple(t.word for t in self.terms)


def read_query(text: str) -> Query:
    """`text` read as a search (see the module docstring); DaemonError when it has no word."""
    lang = detect([text])
    terms = _terms(text, lang)
    if not terms:
        raise DaemonError("give at least one word to search for (letters or digits)")
    return Query(text, tuple(terms), lang)


def search(index: FactIndex, owner: tuple[str, str], query: Query, day: str | None, limit: int) -> Found:
    """The owner's facts valid on `day` (every version if None) holding words of `query`,
    best first, at most `limit` (see the module docstring)."""
    terms, lang = query.terms, query.language
    flagged = index.flag(owner, day, [_look(t) for t in terms])
    total = max(index.count(owner), len(flagged))  # BM25's N: the owner's stored versions
    frequency = [sum(f.looks >> i & 1 for f in flagged) for i in range(len(terms))]
    idf = [math.log(1 + (total - n + 0.5) / (n + 0.5)) for n in frequency]
    ordered = _ordered(flagged, idf)
    algorithm = lang.stemmer if lang is not None else None
    best: list[tuple[float, Searchable]] = []
    for start in range(0, len(ordered), BATCH):
        batch = ordered[start : start + BATCH]
        if len(best) > limit and batch[0][0] <= best[-1][0]:
            break  # no candidate left can rank among the limit + 1 best
        facts = index.fields([f.row for _bound, f in batch])
        if lang is None and start == 0:  # a name alone: read in the language of the facts
            lang = detect([" ".join((f.entity, f.key, f.value, f.quote)) for f in facts])
            algorithm = lang.stemmer if lang is not None else None
        for fact, (bound, flags) in zip(facts, batch, strict=True):
            if len(best) > limit and bound <= best[-1][0]:
                break
            score = _score(terms, idf, flags, fact, algorithm)
            if score > 0:
                best.append((score, fact))
                best.sort(key=lambda pair: pair[0], reverse=True)  # stable: equals keep the read order
                del best[limit + 1 :]
    best.sort(key=lambda pair: pair[1].id)
    best.sort(key=lambda pair: pair[1].valid_from, reverse=True)
    best.sort(key=lambda pair: pair[0], reverse=True)
    hits = [Hit(FactRecord.model_validate_json(fact.record), round(score, 3)) for score, fact in best[:limit]]
    return Found(hits, len(best) > limit)
