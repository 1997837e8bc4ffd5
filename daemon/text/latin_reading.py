"""A language read as typed in Latin letters (Greek as "Greeklish"): its lists keyed to the one
Latin spelling of `daemon.text.latin_letters`, and the votes that tell a text so typed from
the languages written in Latin letters (pure; docs/how-to/add-a-language.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cache

from daemon.text.language_data import Language, known

# A reading in Latin letters is its language's code with this after it ("el-latn").
LATIN_READING = "-latn"


@cache
def in_latin_letters(code: str) -> Language | None:
    """The language of `code` as typed in Latin letters (Greek as "Greeklish"), every word of
    its lists, concepts and vocabulary keyed to its one Latin spelling; None without a
    `typed_in_latin:` table. Its patterns and distinctive letters are the script's: left out."""
    base = known().get(code)
    if base is None or base.spelling is None:
        return None
    key = base.spelling.key

    def keyed(phrase: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(key(w) for w in phrase)

    concepts: dict[str, tuple[str, ...]] = {}
    for word, found in base.concepts.items():
        concepts[key(word)] = tuple(dict.fromkeys((*concepts.get(key(word), ()), *found)))
    return replace(
        base,
        code=code + LATIN_READING,
        name=f"{base.name} in Latin letters",
        stemmer=None,
        concepts=concepts,
        phrases={keyed(p): found for p, found in base.phrases.items()},
        lists={name: frozenset(key(w) for w in words) for name, words in base.lists.items() if name != "letters"},
        patterns={},
        vocabulary=frozenset(key(w) for w in base.vocabulary),
        affixes={},
        claim={name: _keyed_list(phrases, keyed) for name, phrases in base.claim.items()},
        impact={name: _keyed_list(phrases, keyed) for name, phrases in base.impact.items()},
        keyed=True,
    )


def _keyed_list(phrases: frozenset[tuple[str, ...]], keyed: Callable[[tuple[str, ...]], tuple[str, ...]]) -> frozenset[tuple[str, ...]]:
    """A phrase list keyed, but for a phrase keyed to single letters: "आज से" ("from today")
    and "ji se" are both "j s", and a laugh ("हाहाहा") is "h" as "है" ("is") is."""
    keyed_phrases = (keyed(p) for p in phrases)
    return frozenset(k for k in keyed_phrases if any(len(w) > 1 for w in k))


@cache
def latin_readings() -> tuple[Language, ...]:
    """The readings in Latin letters of every language whose file has `typed_in_latin:`."""
    return tuple(r for code in known() if (r := in_latin_letters(code)) is not None)


# Letters a word typed in Latin letters needs to vote for a reading so ("den", not "na"), and
# the words that must so vote: one word keyed alike ("auto", "echo", "pote") is a coincidence.
LATIN_WORD = 3
LATIN_VOTES = 2


def typed_in_latin(folded: list[str], holders: dict[str, list[str]], best: float, close: float) -> Language | None:
    """The reading in Latin letters (`in_latin_letters`) the words vote for: LATIN_VOTES words
    or more that no language written in Latin letters lists (`holders`) and the reading does,
    keyed, more than the best Latin language's votes by the margin two languages are read
    together within (`close`), the one with most votes; None otherwise. It is never read
    together with another."""
    chosen: Language | None = None
    most = (LATIN_VOTES - 1, 0)
    for reading in latin_readings():
        assert reading.spelling is not None
        typed, shortest = reading.spelling.typed, reading.spelling.shortest_key
        # A word votes if the data file lists it as typed; a language that lists none (Greek)
        # is voted for by any word whose key is one of its words and long enough. Keyed
        # without vowels (Hindi), "better", "parent" and "homes" are Hindi words: such a
        # language lists the words that vote. Between two readings (Greeklish, Hinglish), the
        # one more words vote for, then the one with longer keys.
        keyed = ((w, reading.key(w)) for w in folded if len(w) >= LATIN_WORD and not holders[w])
        keys = [
            k for w, k in keyed if w in typed or (not typed and len(k) >= shortest and k in reading.vocabulary)
        ]
        score = (len(keys), sum(len(k) for k in keys))
        if score > most and score[0] >= LATIN_VOTES and best < close * score[0]:
            chosen, most = reading, score
    return chosen
