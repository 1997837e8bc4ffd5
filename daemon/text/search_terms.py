"""Search terms for the delivery index: what a prompt and a fact are matched on, in every
language, with nothing but the standard library.

The delivery hook (`daemon.delivery.hook`) runs before every prompt a person sends, so it
may not pay for ICU or a language's data file (tens of milliseconds each). Its matching
is therefore lexical and language-blind, the way full-text engines index text they know
nothing about: words are runs of letters and digits (Unicode `\\w`), folded to lower case
and NFKC; a run of a script written without spaces (Han, kana, Thai, Lao, Khmer, Myanmar)
becomes its overlapping character pairs, so "東京に住んでいます" is found by "東京". What is
too common to tell facts apart is left to the index's statistics (a term in most facts
weighs nothing), never to a list of words in code.

The same function prepares both sides: the text stored in the index and the prompt.
"""

from __future__ import annotations

import functools
import re
import unicodedata

# Scripts written without spaces between words (by Unicode block; the hook cannot afford
# ICU's line-break data, `daemon.text.unicode_words.spaceless_class`, which is the exact set).
_SPACELESS = (
    "\u0e00-\u0e7f"  # Thai
    "\u0e80-\u0eff"  # Lao
    "\u1000-\u109f"  # Myanmar
    "\u1780-\u17ff"  # Khmer
    "\u3040-\u309f"  # Hiragana
    "\u30a0-\u30ff\u31f0-\u31ff\uff66-\uff9f"  # Katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # Han
    "\U00020000-\U0003134f"  # Han, extensions
)
_WORD = re.compile(r"[^\W_]+")
_FIRST_SPACELESS = "\u0e00"  # text below it has none (most prompts: compiling the class costs ~2 ms)


@functools.cache
def _run() -> re.Pattern[str]:
    return re.compile(f"[{_SPACELESS}]+")
MAX_TERMS = 32  # a prompt's terms looked up; a pasted file is not a query


def _pairs(run: str) -> list[str]:
    return [run] if len(run) < 2 else [run[i : i + 2] for i in range(len(run) - 1)]


def terms(text: str) -> list[str]:
    """The search terms of `text`, in order, repeats kept (see the module docstring)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if not folded or max(folded) < _FIRST_SPACELESS:
        return _WORD.findall(folded)
    found: list[str] = []
    for word in _WORD.findall(folded):
        at = 0
        for run in _run().finditer(word):
            if run.start() > at:
                found.append(word[at : run.start()])
            found += _pairs(run.group())
            at = run.end()
        if at < len(word):
            found.append(word[at:])
    return found


def stems(found: list[str], algorithms: list[str]) -> list[str]:
    """The Snowball stems of `found` under each of `algorithms` that differ from the term
    ("deployment" → "deploy", "lives" → "live"): what makes a prompt's word find the same
    word inflected in a fact. PyStemmer is a C extension: importing it costs ~1 ms."""
    if not algorithms:
        return []
    import Stemmer

    extra: dict[str, None] = {}
    words = [t for t in found if t.isalpha() and not paired(t)]
    for algorithm in algorithms:
        for term, stem in zip(words, Stemmer.Stemmer(algorithm).stemWords(words), strict=True):
            if stem != term and stem:
                extra.setdefault(stem, None)
    return list(extra)


def paired(term: str) -> bool:
    """Whether `term` is a pair (or a lone letter) of a script written without spaces."""
    return bool(term) and max(term) >= _FIRST_SPACELESS and bool(_run().fullmatch(term))


def indexed(text: str) -> str:
    """`text` as the index stores it: its terms separated by spaces."""
    return " ".join(terms(text))


def query_terms(text: str) -> list[str]:
    """The distinct terms of a prompt, first seen first, at most MAX_TERMS."""
    seen: dict[str, None] = {}
    for term in terms(text):
        seen.setdefault(term, None)
        if len(seen) == MAX_TERMS:
            break
    return list(seen)
