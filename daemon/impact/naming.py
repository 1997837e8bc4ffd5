"""What a word of a sentence names (pure, no I/O): a value, a name, a day or a month, a term;
what a "not" is said of before or after it (`daemon.impact.cues`), and what a laugh beside a
contrast leaves set right (`daemon.impact.left_out`)."""

from __future__ import annotations

from daemon.impact.clauses import Words
from daemon.impact.shapes import in_code
from daemon.text.language import MONTHS, WEEKDAYS, Language, script_of
from daemon.text.lexicon import number_at

# The meaning table's days of the week and months: each names a day or a month as a name does;
# not "may", which is also the table's concept of permission ("てもいい", Hindi "सकता").
CALENDAR = (frozenset(WEEKDAYS) | frozenset(MONTHS)) - {"may"}


def names(lang: Language, text: str, words: Words, i: int) -> bool:
    """Whether the `i`th word names something: a value, a name written with a capital (two
    letters or more: not "I"), or a day of the week or a month, which scripts without capitals
    write as any word ("水曜ちゃうで", not Wednesday)."""
    return (
        value(lang, words.low, i)
        or (text[words.spans[i][0]].isupper() and len(words.low[i]) > 1)
        or not CALENDAR.isdisjoint(lang.concepts.get(words.low[i], ()))
    )


def term(lang: Language, word: str) -> bool:
    """Whether `word` is in Latin letters in a language written in another script, not read as
    typed in Latin letters (where every word is): a term ("npm", "mvn")."""
    return lang.script != "latin" and not lang.keyed and any(script_of(c) == "latin" for c in word)


def value(lang: Language, low: tuple[str, ...], i: int) -> bool:
    """Whether the `i`th word is a value: a number, or a name in code."""
    return number(lang, low, i) or (in_code(low[i]) and not _spelled_with_digits(lang, low[i]))


def number(lang: Language, low: tuple[str, ...], i: int) -> bool:
    """Whether the `i`th word is a number, in digits or in words."""
    digits = any(c.isdigit() for c in low[i]) and not _spelled_with_digits(lang, low[i])
    return digits or number_at(lang, low, i)[2] > 0


def _spelled_with_digits(lang: Language, word: str) -> bool:
    """Whether a word's digits are letters: typed in Latin letters, a language may write with
    them the letters Latin has none of (`Spelling.digits`: "sob7", "3aref" in Arabizi, "8elw"
    in Greeklish; not "python3" in Hinglish)."""
    digits = lang.spelling.digits if lang.keyed and lang.spelling is not None else frozenset()
    return any(c in digits for c in word) and any(c.isalpha() for c in word)
