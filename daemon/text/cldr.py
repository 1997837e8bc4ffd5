"""Number words, weekday and month names of a language, from CLDR through ICU (PyICU).

Numbers: ICU's rule-based spell-out (RBNF) formats every number from 0 to 100, the round
hundreds and thousands and a million in each of the language's rule sets — every gender and
case form ICU has (Polish "pięciu", Russian "трёх", German "fünfundvierzig", French
"quatre-vingt-dix") and the ordinals — and the table maps each spelling back to its value.
Names: the format and stand-alone forms, wide and abbreviated, of the weekdays and months
(Polish "stycznia" and "styczeń"). Each table is built once per language, on first use.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import icu

from daemon.text.unicode_words import words

WEEKDAYS = ("sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday")
MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
SPELLED = [*range(0, 101), *range(200, 1000, 100), *range(1000, 10001, 1000), 100_000, 1_000_000]


@dataclass(frozen=True)
class Numbers:
    """A language's number words: spelling (its words joined by one space, casefolded) → value."""

    cardinals: dict[str, int]
    ordinals: dict[str, int]
    longest: int  # the most words one spelling has


def _spellings(formatter: icu.RuleBasedNumberFormat, rule_set: str) -> dict[str, int]:
    found: dict[str, int] = {}
    for n in SPELLED:
        try:
            text = formatter.format(n, rule_set)
        except icu.ICUError:
            continue
        spelled = key(text)
        if spelled and not spelled.isdigit():
            found.setdefault(spelled, n)
    return found


@cache
def numbers(locale: str) -> Numbers:
    """The number words of `locale` (a language code), from every spell-out rule set."""
    formatter = icu.RuleBasedNumberFormat(icu.URBNFRuleSetTag.SPELLOUT, icu.Locale(locale))
    cardinals: dict[str, int] = {}
    ordinals: dict[str, int] = {}
    for index in range(formatter.getNumberOfRuleSetNames()):
        rule_set = formatter.getRuleSetName(index)
        if "year" in rule_set:
            continue  # "nineteen eighty-four" spells years, not quantities
        target = ordinals if "ordinal" in rule_set else cardinals
        for key, value in _spellings(formatter, rule_set).items():
            target.setdefault(key, value)
    longest = max((k.count(" ") + 1 for k in (*cardinals, *ordinals)), default=1)
    return Numbers(cardinals, ordinals, longest)


@cache
def calendar_names(locale: str) -> dict[str, str]:
    """Every casefolded weekday and month name of `locale` → the English weekday or month."""
    symbols = icu.DateFormatSymbols(icu.Locale(locale))
    found: dict[str, str] = {}
    contexts = (icu.DateFormatSymbols.FORMAT, icu.DateFormatSymbols.STANDALONE)
    # Wide names only: abbreviations are other words too (Polish "pt", English "mar", Japanese
    # 月 alone is "month"); `abbreviated_names` has them, for capitalised words.
    for context in contexts:
        for width in (icu.DateFormatSymbols.WIDE,):
            for index, name in enumerate(symbols.getWeekdays(context, width)):
                if name and index >= 1:
                    found.setdefault(key(name), WEEKDAYS[index - 1])
            for index, name in enumerate(symbols.getMonths(context, width)):
                if name:
                    found.setdefault(key(name), MONTHS[index])
    return {k: v for k, v in found.items() if k and not k.isdigit()}


@cache
def abbreviated_names(locale: str) -> dict[str, str]:
    """Casefolded abbreviated weekday and month names of at least three letters (Mon, Sept,
    janv) → the English name: a capitalised word only, as abbreviations are other words too."""
    symbols = icu.DateFormatSymbols(icu.Locale(locale))
    found: dict[str, str] = {}
    for context in (icu.DateFormatSymbols.FORMAT, icu.DateFormatSymbols.STANDALONE):
        width = icu.DateFormatSymbols.ABBREVIATED
        for index, name in enumerate(symbols.getWeekdays(context, width)):
            if index >= 1:
                found.setdefault(key(name), WEEKDAYS[index - 1])
        for index, name in enumerate(symbols.getMonths(context, width)):
            found.setdefault(key(name), MONTHS[index])
    return {k: v for k, v in found.items() if len(k) >= 3 and k.isalpha() and any(c.islower() for c in k)}


def key(name: str) -> str:
    """A name or number word as the tables key it: casefolded words joined by one space (ё is
    е; ICU's soft hyphens inside German and Dutch numbers dropped, ʼ written ')."""
    return " ".join(words(normal(name).rstrip(".")))


def normal(word: str) -> str:
    """A word as the tables compare it: casefolded, ё as е, no soft hyphen, ʼ and ’ as '."""
    return word.casefold().replace("ё", "е").replace("\u00ad", "").replace("\u02bc", "'").replace("\u2019", "'")


@cache
def language_names(locale: str) -> dict[str, str]:
    """Every casefolded name `locale` gives a language (of a two-letter ISO code) → its English
    name casefolded: French "français" → "french", German "Deutsch" → "german"."""
    here = icu.Locale(locale)
    english = icu.Locale("en")
    found: dict[str, str] = {}
    for code in icu.Locale.getISOLanguages():
        if len(code) != 2:
            continue
        language = icu.Locale(code)
        name, own = key(language.getDisplayLanguage(here)), key(language.getDisplayLanguage(english))
        if name and own and name != code:
            found.setdefault(name, own)
    return found


@cache
def city_names(locale: str) -> dict[str, str]:
    """The cities of the time-zone database, English name → the name `locale` gives it, both
    casefolded: German "lisbon" → "lissabon", Polish "warsaw" → "warszawa" (CLDR exemplar
    cities)."""
    english = icu.TimeZoneNames.createInstance(icu.Locale("en"))
    here = icu.TimeZoneNames.createInstance(icu.Locale(locale))
    found: dict[str, str] = {}
    for zone in icu.TimeZone.createEnumeration():
        if "/" not in zone or zone.startswith(("Etc/", "SystemV/")):
            continue
        own, local = english.getExemplarLocationName(zone), here.getExemplarLocationName(zone)
        if own and local and key(own) != key(local):
            found.setdefault(key(own), key(local))
    return found
