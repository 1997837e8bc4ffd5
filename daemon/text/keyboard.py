"""Words as people type them on a keyboard that lacks their letters: "mowilam" for "mówiłam",
"nao" for "não", "forst" for "först", "Kazan" for "Казань" (pure; docs/explanation/impact.md).

A phrase of several words of a language's lists is read so typed in every language (`find`,
`said_at`: impact's cues, and the claim check's hypotheticals, reported words, jokes …); a
single word only in a language whose data file says `typed_without_accents: true`
(`typed_plain`, when the file is parsed). A word of another alphabet or of Hangul is also
written in Latin letters, names above all: "Kazan" for "Казань", "Seoyeon" for "서연"
(`in_latin`, which recurrence compares).
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Iterable, Mapping
from functools import cache, lru_cache

import icu

# Letters a keyboard without them makes into others: "mówiłam" is typed "mowilam".
LATIN_END = "\u0250"  # past Latin Extended-B: the letters whose accents a keyboard may leave out
TYPED_AS = str.maketrans({"ł": "l", "Ł": "L", "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ı": "i", "æ": "ae", "œ": "oe"})


def unaccented(word: str) -> str:
    """`word` as typed without the accents of Latin letters and their special letters: "não"
    is "nao", "mówiłam" is "mowilam", "först" is "forst" (people on a phone or a foreign
    keyboard type so). Other scripts keep their marks: a Devanagari vowel sign or a Cyrillic
    "й" is a letter, not an accent."""
    kept = []
    base = ""
    for c in unicodedata.normalize("NFD", word.translate(TYPED_AS)):
        if not unicodedata.combining(c):
            base = c
        elif base < LATIN_END:
            continue
        kept.append(c)
    return "".join(kept)


# How people write a word of the Cyrillic or Greek alphabet in Latin letters, names above all
# ("Kazan" for "Казань", "Kriti" for "Κρήτη", "Kyiv" for "Київ"): the BGN/PCGN and UN
# romanizations ICU has, Ukrainian's own for Ukrainian, Russian's for other Cyrillic.
ROMANIZATION = "Russian-Latin/BGN; Ukrainian-Latin/BGN; Greek-Latin/UNGEGN; Latin-ASCII"
ROMANIZATIONS = {"uk": "Ukrainian-Latin/BGN; Latin-ASCII"}
ROMANIZED = ("\u0370", "\u052f")  # Greek, Coptic and Cyrillic (with its supplement)
# … and a word in Hangul, names above all ("서연" is "seoyeon"), by ICU's Korean romanization
# with the hyphen it marks an ambiguous syllable break with ("선거" "seongeo", "성어"
# "seong-eo"), and only when it makes ROMANIZED_LETTERS letters or more: a syllable or two
# romanize into English words ("팀" "tim", "박" "bag"). Not kana (a long vowel is lost:
# "ビール" and "ビル" are both "biru", and Japanese names are written in Han), nor Han (its
# characters read one way in Chinese and another in Japanese).
HANGUL = (("\u1100", "\u11ff"), ("\u3130", "\u318f"), ("\uac00", "\ud7af"))
HANGUL_LATIN = "Hangul-Latin; Latin-ASCII"
ROMANIZED_LETTERS = 5
SIGNS = str.maketrans("", "", "'\"ʹʺ")  # the soft and hard signs, romanized as marks nobody types
_local = threading.local()


def in_latin(word: str, code: str = "") -> str:
    """`word` as written in Latin letters when it holds Cyrillic, Greek or Hangul ones
    ("казань" is "kazan", "Κρήτη" is "Kriti"; in Ukrainian, `code` "uk", "київ" is "kyyiv";
    "서연" is "seoyeon"), else unchanged: a person who writes "Kazan. сколько можно" names the
    city of "склад в Казани", and "it's Seoyeon" the "서연" of before."""
    if word.isascii():
        return word
    if any(ROMANIZED[0] <= c <= ROMANIZED[1] for c in word):
        return _romanized(word, ROMANIZATIONS.get(code, ROMANIZATION))
    if any(a <= c <= b for c in word for a, b in HANGUL):
        romanized = _romanized(word, HANGUL_LATIN)
        return romanized if sum(c.isalpha() for c in romanized) >= ROMANIZED_LETTERS else word
    return word


@lru_cache(maxsize=65536)
def _romanized(word: str, rules: str) -> str:
    found: dict[str, icu.Transliterator] = getattr(_local, "romanize", None) or {}
    _local.romanize = found
    if rules not in found:  # an ICU transliterator is not safe to share between threads
        found[rules] = icu.Transliterator.createInstance(rules)
    return str(found[rules].transliterate(word)).translate(SIGNS)


def typed_key(word: str) -> str:
    """A word as typed without apostrophes or accents ("you're" is "youre", "não" is "nao")."""
    return unaccented(word.replace("'", ""))


# Letters a single word typed without its accents needs to be read as the cue it stands for.
PLAIN_WORD = 3
STRICT = "\0"  # the key of a phrase read only as written: no typed word equals it


def typed_plain(
    lists: dict[str, frozenset[tuple[str, ...]]],
    vocabulary: frozenset[str],
    meanings: Mapping[str, Iterable[str]] | None = None,
) -> dict[str, frozenset[tuple[str, ...]]]:
    """The `impact:` or `claim:` lists of a language people often type without its accents, each
    single-word phrase also as so typed ("mówiłam" as "mowilam", "máximo" as "maximo"),
    unless that is a word of its own in the language ("sí" is not "si", which is "if") or
    shorter than PLAIN_WORD letters (Swedish "så" is not "sa", which is "said"). A word the
    meaning table (`meanings`) gives the same meanings as the accented one is that word as
    typed, not another: Portuguese "nao" is "não".
    Phrases of several words are read so in every language (`said_at`)."""
    meanings = meanings or {}

    def other_word(accented: str, plain: str) -> bool:
        if plain not in vocabulary:
            return False
        mine = set(meanings.get(plain, ()))
        return not mine or mine != set(meanings.get(accented, ()))

    found = {}
    for name, phrases in lists.items():
        plain = {(p[0], unaccented(p[0])) for p in phrases if len(p) == 1}
        found[name] = phrases | {
            (typed,) for accented, typed in plain if len(typed) >= PLAIN_WORD and not other_word(accented, typed)
        }
    return found


def find(low: tuple[str, ...], phrases: Iterable[tuple[str, ...]]) -> list[tuple[int, tuple[str, ...]]]:
    """(position, phrase) of every one of `phrases` said in `low` (`said_at`), by position. A
    language's list (a frozenset) is looked up by its phrases' first words: each word of the
    sentence is read once, however long the list."""
    if not isinstance(phrases, frozenset):
        return sorted(_find_each(low, phrases), key=lambda hit: hit[0])
    by_first, by_key = _index(phrases)
    typed = _typed(low) if by_key else ()
    hits = []
    for i, word in enumerate(low):
        for phrase, keyed in by_first.get(word, ()):
            if i + len(phrase) <= len(low) and _said(low, i, phrase, keyed):
                hits.append((i, phrase))
        # a phrase of several words whose first word is typed without its accents ("nao sei")
        plain = typed[i] if by_key else None
        for phrase, keyed in by_key.get(plain, ()) if plain is not None else ():
            if phrase[0] != word and i + len(phrase) <= len(low) and _said(low, i, phrase, keyed):
                hits.append((i, phrase))
    return hits


Indexed = dict[str, tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]]


@lru_cache(maxsize=4096)
def _index(phrases: frozenset[tuple[str, ...]]) -> tuple[Indexed, Indexed]:
    """The phrases (with their words typed without accents, `_keyed`) by their first word, and
    those of several words by their first word so typed."""
    by_first: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    by_key: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
    for phrase in sorted(p for p in phrases if p):
        keyed = _keyed(phrase)
        by_first.setdefault(phrase[0], []).append((phrase, keyed))
        if len(phrase) > 1:
            by_key.setdefault(keyed[0], []).append((phrase, keyed))
    return {w: tuple(ps) for w, ps in by_first.items()}, {w: tuple(ps) for w, ps in by_key.items()}


def _find_each(low: tuple[str, ...], phrases: Iterable[tuple[str, ...]]) -> list[tuple[int, tuple[str, ...]]]:
    """`find` over phrases given one by one (no list to index)."""
    hits = []
    typed = _typed(low)
    for phrase in phrases:
        if not phrase:
            continue
        keyed = _keyed(phrase)
        # the first word compared here, the rest by `_said`: most positions fail at once
        first, key = phrase[0], keyed[0] if len(phrase) > 1 else STRICT
        for i in range(len(low) - len(phrase) + 1):
            if (low[i] == first or typed[i] == key) and _said(low, i, phrase, keyed):
                hits.append((i, phrase))
    return hits


def said_at(low: tuple[str, ...], at: int, phrase: tuple[str, ...]) -> bool:
    """Whether `phrase` is said at position `at` of `low`: as written, or, when it has several
    words, with its words typed without apostrophes or accents ("no youre right", "ive said
    that", "ja falei"). A single word is read as written: "id" is not "i'd", "hatte" is not
    "hätte" (a language typed without accents lists its single words so too:
    `daemon.text.keyboard.typed_plain`)."""
    return 0 <= at <= len(low) - len(phrase) and _said(low, at, phrase, _keyed(phrase))


def _said(low: tuple[str, ...], at: int, phrase: tuple[str, ...], keyed: tuple[str, ...]) -> bool:
    """Whether `phrase` (typed without accents: `keyed`) is said at `at`; only the phrase's
    words are looked at, not the sentence's `_typed` (a long sentence's tuple is hashed whole)."""
    said = low[at : at + len(phrase)]
    if said == phrase:
        return True
    return len(phrase) > 1 and all(w == phrase[k] or (w == keyed[k] and typed_key(w) == w) for k, w in enumerate(said))


@lru_cache(maxsize=4096)
def _typed(low: tuple[str, ...]) -> tuple[str | None, ...]:
    """Each word of a sentence that holds neither apostrophe nor accent (it may be a phrase's
    word typed without them), else None: a word typed with them matches only as written."""
    return tuple(w if typed_key(w) == w else None for w in low)


@cache
def _keyed(phrase: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(typed_key(w) for w in phrase)
