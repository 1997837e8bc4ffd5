"""When a quote says its fact starts: "since 2023", "from the 1st of June", "seit März" (pure).

The model proposes `valid_from`; a quote that states the start itself wins over it. The
words that open a start are the language's `claim.since` list (data file); the date is what
follows within a few words: a year (four digits), a month name (CLDR, any inflection the
text layer folds), a day (digits or a number word, ordinal or not). A month without a year
is the latest such month not after the turn's date ("since March", said in December, is
this March); a day without a month is not a date. Anything else ("since I moved…",
"from Lisbon") states no start.
"""

from __future__ import annotations

import re
from datetime import date

from daemon.text.language import Language
from daemon.text.lexicon import calendar_at, number_at
from daemon.text.unicode_words import segment

MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august", "september",
          "october", "november", "december")
YEAR = re.compile(r"(19|20|21)\d\d")
DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th|\.|er|º|ª)?")
ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
REACH = 5  # words after the opening word a date may take


def _date_after(lang: Language, words: list[str], low: list[str], i: int) -> tuple[int | None, int | None, int | None]:
    year = month = day = None
    j = i
    while j < min(len(words), i + REACH):
        word, folded = words[j], low[j]
        if YEAR.fullmatch(folded):
            year = int(folded)
        elif (found := calendar_at(lang, word, folded)) in MONTHS:
            month = MONTHS.index(found) + 1
        elif (match := DAY.fullmatch(folded)) and 1 <= int(match.group(1)) <= 31:
            day = int(match.group(1))
        else:
            value, _ordinal, used = number_at(lang, low, j)
            if used and 1 <= value <= 31 and day is None:
                day = value
                j += used
                continue
            if folded in lang.words("stopwords") or not folded.isalpha():
                j += 1
                continue
            break
        j += 1
    return year, month, day


def stated_start(quote: str, lang: Language | None, said_on: str | None) -> str | None:
    """The start `quote` states for its fact, as YYYY-MM-DD, or None (see the module docstring)."""
    if lang is None:
        return None
    openers = lang.claim.get("since", frozenset())
    words = [w.text for w in segment(quote)]
    low = [w.casefold() for w in words]
    for i in range(len(low)):
        size = next((len(p) for p in openers if tuple(low[i : i + len(p)]) == p), 0)
        if not size:
            continue
        iso = ISO.search(quote)
        if iso is not None:
            try:
                return date(int(iso.group(1)), int(iso.group(2)), int(iso.group(3))).isoformat()
            except ValueError:
                return None
        year, month, day = _date_after(lang, words, low, i + size)
        if year is None and month is None:
            continue
        today = date.fromisoformat(said_on) if said_on else None
        if year is None:
            if today is None:
                continue
            year = today.year if (month, day or 1) <= (today.month, today.day) else today.year - 1
        try:
            return date(year, month or 1, day or 1).isoformat() if month or day is None else None
        except ValueError:
            return None
    return None
