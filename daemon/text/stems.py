"""Stems from the Snowball algorithms (PyStemmer), for the languages Snowball covers.

A language's data file names its algorithm (`stemmer:`); a language without one (Chinese,
Japanese, Korean, Hebrew) or without a data file keeps its words whole. Words are
casefolded before stemming. Two inflected forms match when their stems are equal, or when
one stem is the start of the other, of at least four letters, with accents set aside:
Snowball cuts Polish "Kraków" to "krak" and "Krakowie" to "krakow". One letter more is
not enough: "Hanna" and "Hannah" are two names.
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache

import Stemmer

_local = threading.local()  # a stemmer keeps a cache and is not thread-safe
MIN_PREFIX = 4


def _stemmer(algorithm: str) -> Stemmer.Stemmer:
    cache: dict[str, Stemmer.Stemmer] = getattr(_local, "stemmers", None) or {}
    _local.stemmers = cache
    if algorithm not in cache:
        cache[algorithm] = Stemmer.Stemmer(algorithm)
    return cache[algorithm]


def algorithms() -> frozenset[str]:
    return frozenset(Stemmer.algorithms())


def stem(word: str, algorithm: str | None) -> str:
    """The Snowball stem of `word` casefolded, or the casefolded word without an algorithm."""
    folded = word.casefold()
    if algorithm is None:
        return folded
    return _stemmer(algorithm).stemWord(folded)


@lru_cache(maxsize=65536)
def _bare(text: str) -> str:
    """`text` without its accents (ó is o, ł stays ł: it is a letter of its own)."""
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def same_stem(a: str, b: str) -> bool:
    """Whether two stems are of one word: equal, or one the start of the other, of at least
    four letters, accents set aside (German "bekomm" and "bekommt", Polish "krak" and "krakow")."""
    if a == b:
        return True
    sa, sb = _bare(a), _bare(b)
    short, long = sorted((sa, sb), key=len)
    return sa == sb or (len(short) >= MIN_PREFIX and long.startswith(short))


def same_word(a: str, b: str, algorithm: str | None) -> bool:
    """Whether `a` and `b` are forms of one word (see the module docstring)."""
    if a.casefold() == b.casefold():
        return True
    if algorithm is None:
        return False
    sa, sb = _bare(stem(a, algorithm)), _bare(stem(b, algorithm))
    if sa == sb:
        return True
    # A stem one letter longer is another word as often (Hanna, Hannah): two letters or more
    # is an ending Snowball left on (Krak, Krakow).
    short, long = sorted((sa, sb), key=len)
    return len(short) >= MIN_PREFIX and long.startswith(short) and len(long) - len(short) >= 2
