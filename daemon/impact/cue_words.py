"""Which sentences may hold a cue at all, in any language (pure, no I/O;
docs/explanation/impact.md): the first words of every cue phrase of every language's `impact:`
lists, read once, so that a sentence holding none of them is not read further
(`daemon.impact.cues` reads the cues themselves)."""

from __future__ import annotations

import re
from functools import cache

from daemon.impact.clauses import NEGATING, Words, unspaced
from daemon.impact.shapes import EQUALS
from daemon.text.keyboard import typed_key
from daemon.text.language import Language, known
from daemon.text.latin_reading import latin_readings

# The lists whose phrases make a sentence a statement (the others only leave sentences out).
CUE_LISTS = (
    "correction_openers",
    "prohibition_openers",
    "stop_openers",
    "contrast",
    "contrast_after",
    "contrast_before_name",
    "instead",
    "reminder",
    "again",
    "standing",
    "preference",
    "address",
    "house",
    "closing",
    "closing_clause",
    "limit",
    "changed",
    "politeness",
    "first",
    "every",
    "precedent",
    "excess",
    "likened",
    "thus",
    "prohibiting_after",
)


@cache
def first_words() -> frozenset[str]:
    """The first word of every cue phrase of every language: a sentence holding none of them
    (nor a negation in capitals) holds no cue, whatever its language, and is not read further."""
    found: set[str] = set()
    for lang in known().values():
        for name in CUE_LISTS:
            found.update(p[0] for p in lang.impact.get(name, ()) if p)
        if lang.impact:
            found.update(p[0] for p in lang.claim.get("standing", ()) if p)
    return frozenset(found | {typed_key(w) for w in found})


@cache
def first_words_in_latin() -> tuple[tuple[Language, frozenset[str]], ...]:
    """The first words of the cue phrases of each reading in Latin letters (`latin_readings`),
    keyed as it keys the words of a sentence ("ohi" is read as "oxi")."""
    return tuple(
        (r, frozenset(p[0] for name in CUE_LISTS for p in r.impact.get(name, ()) if p)) for r in latin_readings()
    )


@cache
def negations() -> frozenset[str]:
    """The words of every language with cues that say "not" (`NEGATING`): read in capitals."""
    return meaning(*NEGATING)


@cache
def meaning(*concepts: str) -> frozenset[str]:
    """The words of every language with cues that the meaning table reads as one of `concepts`
    ("not", "if")."""
    wanted = set(concepts)
    return frozenset(w for lang in known().values() if lang.impact for w, said in lang.concepts.items() if wanted & set(said))


@cache
def contrasts_unspaced() -> tuple[str, ...]:
    """Every language's `contrast` and `contrast_before_name` phrases written in a script without
    spaces (Thai "ไม่ใช่", Chinese "不是"): after a space, one goes on with the sentence before it
    ("500 บาทค่ะ ไม่ใช่ 30%", "用分存吧 不是浮點數")."""
    return unspaced_phrases("contrast", "contrast_before_name")


@cache
def unspaced_phrases(*keys: str) -> tuple[str, ...]:
    """Every language's `impact` phrases of `keys` written in a script without spaces, their
    words joined as they are typed."""
    joined = {"".join(phrase) for lang in known().values() for key in keys for phrase in lang.impact.get(key, ())}
    return tuple(sorted(w for w in joined if w and unspaced(w[0])))


@cache
def endings() -> re.Pattern[str] | None:
    """Every language's `reminder_endings` (and those closing a clause) as one pattern (Korean
    "…돈다니까요"), or None."""
    found = [
        p.pattern
        for lang in known().values()
        for key in ("reminder_endings", "reminder_endings_closing")
        for p in lang.patterns.get(key, ())
    ]
    return re.compile("|".join(f"(?:{p})" for p in found)) if found else None


def may_hold_cues(text: str, words: Words) -> bool:
    """Whether some word of the sentence `text` opens a cue phrase of some language
    (`first_words`), ends as a reminder does (`endings`), is a negation written in capitals
    (`negations`), or a name is defined with " = " (`daemon.impact.shapes.defined`)."""
    ending = endings()
    return (
        not first_words().isdisjoint(words.low)
        or not negations().isdisjoint(words.capitals)
        or EQUALS.search(text) is not None
        or any(not first.isdisjoint(r.key(w) for w in words.low) for r, first in first_words_in_latin())
        or (ending is not None and any(ending.search(w) for w in words.low))
    )
