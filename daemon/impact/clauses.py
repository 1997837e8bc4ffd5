"""A sentence's words and its clauses (pure, no I/O): what the cues of
`daemon.impact.cues` and `daemon.impact.shapes` are read over."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from daemon.text.keyboard import said_at
from daemon.text.language import Language
from daemon.text.unicode_words import script, segment, spaceless

# What separates "X" from ", not Y": a comma, a dash, a semicolon, a colon, a bracket, and
# their full-width forms and the ideographic comma of Chinese and Japanese ("金额用分存，别用浮点数").
# Not the Arabic comma: Arabic negates every present verb with the word that is its "not"
# ("وصل الطرد، لا يوجد ضرر" reports no damage).
CLAUSE_BREAK = re.compile(r"[,;:—–()，、；：（）]|\s-\s|[»”\"']\s*[,，]")
# The meaning table's concepts that say "not" (pas, jamais: the concord words of ne … pas).
NEGATING = frozenset({"negation", "never", "negation_concord", "never_concord"})
# Letters of a negation in capitals that insists: "NOT", "NICHT", "PAS" (a bare "NO" is a value).
SHOUTED = 3
# Words of address said in a row after a "no": "nah mate, …", "όχι ρε φίλε, …".
CALLED = 2
# Hyphens that join two words into one ("man-hours"), the non-breaking one too.
JOINING = "-\u2010\u2011"


@dataclass(frozen=True)
class Words:
    """A sentence's words, casefolded (’ as '), with their offsets into the sentence."""

    low: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]
    capitals: frozenset[str] = frozenset()  # words written in capitals, SHOUTED letters or more, casefolded


def words_of(text: str) -> Words:
    found = segment(text)
    return Words(
        tuple(folded(w.text) for w in found),
        tuple((w.start, w.end) for w in found),
        frozenset(folded(w.text) for w in found if len(w.text) >= SHOUTED and w.text.isupper()),
    )


def folded(text: str) -> str:
    """Text casefolded as the lists are written: ’ as ', and Turkish "İ" as "i" (casefolded, it
    is "i" with a combining dot, which no list holds: "İki şey." is "iki şey")."""
    return text.casefold().replace("’", "'").replace("i\u0307", "i")


def body_start(lang: Language, low: tuple[str, ...], i: int = 0) -> int:
    """The position of the first word after the lead-ins ("And", "Please", "Ok") that start at
    `i` (the sentence's start, or a clause's)."""
    lead_ins = lang.impact.get("lead_ins", frozenset())
    moved = True
    while moved and i < len(low):
        moved = False
        for phrase in lead_ins:
            if said_at(low, i, phrase):
                i += len(phrase)
                moved = True
                break
    return i


def after_address(lang: Language, text: str, words: Words, i: int) -> int:
    """The position after the words that call the listener (`vocative`: "mate", "joh", "ρε",
    "yaar"), at most CALLED of them, standing at `i` and closing their clause ("no mate, it's
    8080", "nee joh, …", "npm nahi bhai, pnpm"); `i` when none do. Said after a "no", they leave
    it the "no" of its clause; followed by more words, they may be words of their own ("no man
    pages in the repo")."""
    vocatives = lang.impact.get("vocative", frozenset())
    j = i
    for _ in range(CALLED):
        step = max((len(p) for p in vocatives if said_at(words.low, j, p)), default=0)
        if not step:
            break
        j += step
    if j == i:
        return i
    rest = text[words.spans[j - 1][1] :]
    if rest[:1] and rest[0] in JOINING and rest[1:2].isalnum():
        return i  # a word joined on: "no man-hours in the estimate"
    # closing their clause: punctuation after them, or the end (the Arabic comma too, which
    # `breaks` leaves out: "لا يا عم، المنفذ 8080")
    return j if punctuated(rest) else i


def punctuated(rest: str) -> bool:
    """Whether the text `rest` after a word closes the word's clause: it is empty, or opens with
    punctuation that is no quotation mark ("No —", "nee joh, …"; not "No 'emojis'")."""
    after = rest.lstrip()
    return not after or not (after[0].isalnum() or after[0] in "'‘«“\"")


def marked(text: str, words: Words, end: int) -> bool:
    """Whether a mark stands between the word before `end` and the word at it ("no, …"; the
    Arabic comma too, which `breaks` leaves out: "… مش Wrap، …")."""
    gap = text[words.spans[end - 1][1] : words.spans[end][0]]
    return bool(gap.strip()) and punctuated(gap)


@lru_cache(maxsize=1024)
def breaks(text: str, words: Words) -> tuple[int, ...]:
    """The positions of the words of the sentence `text` a clause break stands before. Read
    once per sentence: the cues, their exclusions and each clause's shape all ask."""
    return tuple(i for i in range(1, len(words.low)) if _breaks_between(text, words.spans[i - 1][1], words.spans[i][0]))


def _breaks_between(text: str, end: int, start: int) -> bool:
    """Whether what stands between two words (from `end` to `start`) breaks a clause: a mark of
    CLAUSE_BREAK, or a space beside a letter of a script written without spaces between words
    (`unspaced`): Thai, Chinese and Japanese space only where a clause or a sentence ends
    ("ยาวไปครับ อ่านไม่ไหว": "too long, can't read it"; "ยาวไปครับ 555 อ่านไม่ไหว"), not
    around a word of a spaced script ("コミットに emoji 入れないで")."""
    gap = text[end:start]
    if CLAUSE_BREAK.search(gap):
        return True
    if not any(c.isspace() for c in gap):
        return False
    before, after = text[end - 1], text[start]
    spaced = [c for c in (before, after) if not unspaced(c)]
    return len(spaced) < 2 and not any(c.isupper() or c.islower() or script(c) == "Hang" for c in spaced)


def unspaced(char: str) -> bool:
    """Whether `char` is a letter of a script written without spaces (`unicode_words.spaceless`):
    not a full-width Latin one ("ｐｎｐｍ"), nor Korean's jamo (Korean spaces its words)."""
    return char.isalpha() and not (char.isupper() or char.islower()) and spaceless(char) and script(char) != "Hang"


def negating(lang: Language, word: str) -> bool:
    """Whether the meaning table of `lang` reads `word` as "not" (`NEGATING`)."""
    return bool(NEGATING & set(lang.concepts.get(word, ())))


def says_not(lang: Language, word: str) -> bool:
    """Whether `word` says "not" in any form: by the meaning table, or by an ending the
    language writes it with (`negation_affixes`: "can't", Turkish "bağlanamıyorum")."""
    return negating(lang, word) or lang.matches("negation_affixes", word.replace("’", "'"))
