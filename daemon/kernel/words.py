"""Words as the checks compare them: case, punctuation, possessives, number words, ordinals, months, plurals.

Shared by the fact grounding (memory engine) and the skill-step grounding (skills engine):
"three" and "3" are one word, "10th" is "10", "Dec" and "December" are one month, and
"reports" is "report".
"""

from __future__ import annotations

import re

WORD = re.compile(r"[^\W_]+", re.UNICODE)
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
    text = POSSESSIVE.sub("", text)
    return [token(w) for w in WORD.findall(text.replace("'", "").replace("’", ""))]
