"""Words as the checks compare them: case, punctuation, possessives, number words, ordinals, months, plurals.

Shared by the fact grounding (memory engine), the skill-step grounding (skills engine) and
the new-heading check (workspace): "three" and "3" are one word, "10th" is "10", "Dec" and
"December" are one month, and "reports" is "report".

Any script: text is NFC-normalised first (a decomposed "Zürich" is the composed one), and a
word keeps its combining marks (a Devanagari vowel sign is part of its Hindi word). Scripts
written without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) have no words
to split on, so a run of them yields its overlapping character pairs — "我住在柏林" is 我住,
住在, 在柏, 柏林 — and a one-character run that character: "柏林" is then inside the clause
as a containment check needs it to be.
"""

from __future__ import annotations

import itertools
import re
import unicodedata

# Scripts written without spaces: Thai, Lao, Myanmar, Khmer (and its symbols), the ideographic
# iteration and number marks, Hiragana, Katakana, Han (unified, extensions, compatibility),
# halfwidth Katakana. Hangul is written with spaces and is not among them.
SPACELESS = re.compile(
    "["
    "\u0e00-\u0eff"  # Thai, Lao
    "\u1000-\u109f\ua9e0-\ua9ff\uaa60-\uaa7f"  # Myanmar
    "\u1780-\u17ff\u19e0-\u19ff"  # Khmer
    "\u3005-\u3007\u3021-\u3029\u3031-\u3035\u303b\u303c"  # ideographic marks and numerals
    "\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f\U0001aff0-\U0001b16f"  # Hiragana, Katakana
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"  # Han
    "]+"
)
HANGUL_PAIR = re.compile("[\uac00-\ud7a3]{2}")
STOP = frozenset(
    ["a", "an", "the", "of", "in", "on", "at", "to", "for", "from", "by", "with", "and", "or", "is", "are", "was", "be", "my", "our", "your", "their", "his", "her", "its", "i", "me", "we", "us", "you", "he", "she", "they", "it", "this", "that"]
)
NUMBERS = {
    "zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
    "seven": "7", "eight": "8", "nine": "9", "ten": "10", "eleven": "11", "twelve": "12",
    "thirteen": "13", "fourteen": "14", "fifteen": "15", "sixteen": "16", "seventeen": "17",
    "eighteen": "18", "nineteen": "19", "twenty": "20", "thirty": "30", "forty": "40",
    "fifty": "50", "hundred": "100", "first": "1", "second": "2", "third": "3",
}  # fmt: skip
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december"]  # fmt: skip
ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th)$")
# "Jonas's" is Jonas: the possessive goes before other apostrophes are dropped ("don't" → dont).
POSSESSIVE = re.compile(r"(?<=[^\W_])['’]s\b")


def token(word: str) -> str:
    word = word.casefold()
    if word in NUMBERS:
        return NUMBERS[word]
    if (match := ORDINAL.match(word)) is not None:
        return str(int(match.group(1)))
    if word.isdigit():
        return str(int(word))
    for index, month in enumerate(MONTHS):
        if len(word) >= 3 and month.startswith(word):
            return f"month{index + 1}"
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]  # plural of an ordinary word
    return word


def tokens(text: str) -> list[str]:
    """Normalised words of `text`: case, punctuation, possessives, number words, ordinals, month names."""
    text = POSSESSIVE.sub("", unicodedata.normalize("NFC", text))
    return [token(w) for w in words(text.replace("'", "").replace("’", ""))]


def words(text: str) -> list[str]:
    """The words of `text` as written (NFC): runs of letters and digits with their combining
    marks, a run of a script written without spaces as its character pairs (module docstring)."""
    found: list[str] = []
    for run, unspaced in _runs(unicodedata.normalize("NFC", text)):
        if not unspaced:
            found.append("".join(run))
        elif len(run) == 1:
            found.append(run[0])
        else:
            found += [first + second for first, second in itertools.pairwise(run)]
    return found


def spaceless(word: str) -> bool:
    """Whether `word` is (a piece of) a script written without spaces."""
    return SPACELESS.fullmatch(word) is not None


def is_content(word: str) -> bool:
    """Whether a token carries content: not a function word, and a number, at least 3 letters,
    a piece of a script written without spaces, or a Hangul word of 2 syllables (a syllable
    block is 2 or 3 letters: 회의 is "meeting")."""
    if word in STOP:
        return False
    return word.isdigit() or len(word) >= 3 or spaceless(word) or HANGUL_PAIR.fullmatch(word) is not None


def _runs(text: str) -> list[tuple[list[str], bool]]:
    """Maximal runs of characters (a letter or digit with the combining marks after it) of one
    kind — written without spaces or not — each as (its characters, whether unspaced)."""
    runs: list[tuple[list[str], bool]] = []
    chars: list[str] = []
    unspaced = False
    for char in text:
        if chars and unicodedata.category(char).startswith("M"):
            chars[-1] += char
            continue
        kind = SPACELESS.fullmatch(char) is not None
        if chars and (not char.isalnum() or kind != unspaced):
            runs.append((chars, unspaced))
            chars = []
        if char.isalnum():
            chars.append(char)
            unspaced = kind
    if chars:
        runs.append((chars, unspaced))
    return runs
