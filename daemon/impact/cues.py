"""Which cues of a language one sentence holds (pure, no I/O; docs/explanation/impact.md).

The cues are the `impact:` lists of the language's data file (daemon/text/languages/*.yaml),
read through `Language.impact`, with `claim.standing` (standing instructions) and
`claim.hypothetical`, `claim.humour` and `claim.reported` (what is not a rule). A cue said
inside quotation marks, code or pasted output (`apart`) is someone else's and never counts.

| class | where it counts | for example |
| --- | --- | --- |
| correction_opener | at the start (after `lead_ins`), punctuation after it | "No — use pnpm" |
| prohibition | at the start, a word after it | "No emojis in commits", "Keine Anglizismen" |
| stop | at the start | "Stop adding emojis", "Arrête de …" |
| contrast | after a clause break | "Aisle seat, not window", "Nadia, pas Benoît" |
| instead, reminder, standing, preference | anywhere | "use pnpm instead", "I told you", "always" |
| again | at the start, or in an exclamation | "Again: run …", "Emojis again!" |
| limit | anywhere, beside a number | "maximal 300 Wörter" |
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from daemon.text.language import Language, known
from daemon.text.lexicon import number_at
from daemon.text.unicode_words import segment

# What separates "X" from ", not Y": a comma, a dash, a semicolon, a colon, a bracket.
CLAUSE_BREAK = re.compile(r"[,;:—–()]|\s-\s|[»”\"']\s*,")
ANYWHERE = ("instead", "reminder", "standing", "preference")
# The lists whose phrases make a sentence a statement (the others only leave sentences out).
CUE_LISTS = (
    "correction_openers",
    "prohibition_openers",
    "stop_openers",
    "contrast",
    "instead",
    "reminder",
    "again",
    "standing",
    "preference",
    "limit",
)


@dataclass(frozen=True)
class Words:
    """A sentence's words, casefolded (’ as '), with their offsets into the sentence."""

    low: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Cue:
    kind: str  # one of the classes above
    phrase: str
    at: int  # the word position it starts at


def words_of(text: str) -> Words:
    found = segment(text)
    return Words(
        tuple(w.text.casefold().replace("’", "'") for w in found), tuple((w.start, w.end) for w in found)
    )


def find(low: tuple[str, ...], phrases: Iterable[tuple[str, ...]]) -> list[tuple[int, tuple[str, ...]]]:
    """(position, phrase) of every one of `phrases` said in `low`."""
    hits = []
    for phrase in phrases:
        size = len(phrase)
        if not size:
            continue
        for i in range(len(low) - size + 1):
            if low[i] == phrase[0] and low[i : i + size] == phrase:
                hits.append((i, phrase))
    return hits


@cache
def first_words() -> frozenset[str]:
    """The first word of every cue phrase of every language: a sentence holding none of them
    holds no cue, whatever its language, and is not read further."""
    found: set[str] = set()
    for lang in known().values():
        for name in CUE_LISTS:
            found.update(p[0] for p in lang.impact.get(name, ()) if p)
        if lang.impact:
            found.update(p[0] for p in lang.claim.get("standing", ()) if p)
    return frozenset(found)


def may_hold_cues(words: Words) -> bool:
    """Whether some word of the sentence opens a cue phrase of some language (`first_words`)."""
    return not first_words().isdisjoint(words.low)


def body_start(lang: Language, low: tuple[str, ...]) -> int:
    """The position of the sentence's first word after its lead-ins ("And", "Please", "Ok")."""
    i = 0
    lead_ins = lang.impact.get("lead_ins", frozenset())
    moved = True
    while moved and i < len(low):
        moved = False
        for phrase in lead_ins:
            if low[i : i + len(phrase)] == phrase:
                i += len(phrase)
                moved = True
                break
    return i


def agreement(lang: Language, words: Words) -> str | None:
    """The agreeing or declining "no" the sentence opens with ("No, that's fine"), or None."""
    for start in {0, body_start(lang, words.low)}:
        for phrase in lang.impact.get("agreement", frozenset()):
            if words.low[start : start + len(phrase)] == phrase:
                return " ".join(phrase)
    return None


def cues(lang: Language, text: str, words: Words, apart: list[tuple[int, int]]) -> list[Cue]:
    """Every cue of `lang` in the sentence `text` (its `words`), outside the `apart` spans
    (offsets into `text`)."""

    def free(i: int, size: int) -> bool:
        a, b = words.spans[i][0], words.spans[i + size - 1][1]
        return not any(x <= a and b <= y for x, y in apart)

    impact = lang.impact
    low = words.low
    found: list[Cue] = []
    start = body_start(lang, low)
    for kind in ("correction_openers", "prohibition_openers", "stop_openers"):
        for phrase in impact.get(kind, frozenset()):
            size = len(phrase)
            if low[start : start + size] != phrase or not free(start, size):
                continue
            after = text[words.spans[start + size - 1][1] :].lstrip()
            punctuated = not after or not (after[0].isalnum() or after[0] in "'‘«“\"")
            if kind == "correction_openers" and not punctuated:
                continue
            if kind == "prohibition_openers" and punctuated:
                continue
            found.append(Cue(kind.removesuffix("_openers"), " ".join(phrase), start))
    for i, phrase in find(low, impact.get("contrast", frozenset())):
        if (
            i > start
            and free(i, len(phrase))
            and CLAUSE_BREAK.search(text[words.spans[i - 1][1] : words.spans[i][0]])
        ):
            found.append(Cue("contrast", " ".join(phrase), i))
    for kind in ANYWHERE:
        phrases = impact.get(kind, frozenset())
        if kind == "standing":
            phrases = phrases | lang.claim.get("standing", frozenset())
        found += [Cue(kind, " ".join(p), i) for i, p in find(low, phrases) if free(i, len(p))]
    exclaimed = "!" in text or "！" in text
    for i, phrase in find(low, impact.get("again", frozenset())):
        if (i == start or exclaimed) and free(i, len(phrase)):
            found.append(Cue("again", " ".join(phrase), i))
    if any(_number(lang, low, i) for i in range(len(low))):
        found += [
            Cue("limit", " ".join(p), i)
            for i, p in find(low, impact.get("limit", frozenset()))
            if free(i, len(p))
        ]
    # in the order said; a phrase inside a longer one of the same class ("told you" in "i told you") left out
    found.sort(key=lambda c: (c.at, -len(c.phrase), c.kind))
    return [
        c
        for c in found
        if not any(
            o.kind == c.kind
            and o is not c
            and o.at <= c.at
            and c.at + len(c.phrase.split()) <= o.at + len(o.phrase.split())
            and len(o.phrase) > len(c.phrase)
            for o in found
        )
    ]


def _number(lang: Language, low: tuple[str, ...], i: int) -> bool:
    return any(c.isdigit() for c in low[i]) or number_at(lang, low, i)[2] > 0


def said(
    lang: Language,
    words: Words,
    phrases: Iterable[tuple[str, ...]],
    apart_of: list[tuple[int, int]] | None = None,
) -> list[tuple[int, tuple[str, ...]]]:
    """Where `phrases` are said in the sentence, outside `apart_of` if given."""
    hits = find(words.low, phrases)
    if not apart_of:
        return hits
    return [
        (i, p)
        for i, p in hits
        if not any(x <= words.spans[i][0] and words.spans[i + len(p) - 1][1] <= y for x, y in apart_of)
    ]
