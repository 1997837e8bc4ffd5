"""Words as people type them on a keyboard that lacks their letters' accents: "mowilam" for
"mówiłam", "nao" for "não", "forst" for "först" (pure; docs/explanation/impact.md).

Impact reads a cue phrase of several words so typed in every language
(`daemon.impact.cues.said_at`, through `typed_key`), and the single-word cues of a language
whose data file says `typed_without_accents: true` (`typed_plain`, when the file is parsed).
"""

from __future__ import annotations

import unicodedata

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


def typed_key(word: str) -> str:
    """A word as typed without apostrophes or accents ("you're" is "youre", "não" is "nao")."""
    return unaccented(word.replace("'", ""))


# Letters a single word typed without its accents needs to be read as the cue it stands for.
PLAIN_WORD = 3


def typed_plain(
    impact: dict[str, frozenset[tuple[str, ...]]], vocabulary: frozenset[str]
) -> dict[str, frozenset[tuple[str, ...]]]:
    """The `impact:` lists of a language people often type without its accents, each
    single-word phrase also as so typed ("mówiłam" as "mowilam", "máximo" as "maximo"),
    unless that is a word of its own in the language ("sí" is not "si", which is "if") or
    shorter than PLAIN_WORD letters (Swedish "så" is not "sa", which is "said").
    Phrases of several words are read so in every language (`daemon.impact.cues.said_at`)."""
    found = {}
    for name, phrases in impact.items():
        plain = {(unaccented(p[0]),) for p in phrases if len(p) == 1}
        found[name] = phrases | {p for p in plain if p[0] not in vocabulary and len(p[0]) >= PLAIN_WORD}
    return found
