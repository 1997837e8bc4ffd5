"""Verbatim spans of a text and its numbers: what the meaning check compares as written (pure).

Code spans, links and URLs, e-mail addresses, command-line flags, dates, IPs and host names,
paths, channels and handles, versions and numbers with their unit are taken out of the text
before its words are read (`masked`), each as a token of its own (`daemon.text.meaning`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Units a number may carry, written after it; compared as one unit each.
UNITS = {
    **dict.fromkeys(["ms", "millisecond", "milliseconds"], "ms"),
    **dict.fromkeys(["s", "sec", "secs", "second", "seconds"], "second"),
    **dict.fromkeys(["min", "mins", "minute", "minutes"], "minute"),
    **dict.fromkeys(["h", "hr", "hrs", "hour", "hours"], "hour"),
    **dict.fromkeys(["d", "day", "days"], "day"),
    **dict.fromkeys(["week", "weeks"], "week"),
    **dict.fromkeys(["month", "months"], "month"),
    **dict.fromkeys(["y", "yr", "yrs", "year", "years"], "year"),
    **{u: u for u in ("kb", "mb", "gb", "tb", "k", "x", "am", "pm")},
    "times": "x",
}  # fmt: skip


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True, order=True)
class Token:
    category: str
    value: str

    def __str__(self) -> str:
        return f"{self.category} “{self.value}”"



MASK = " § "


CODE = re.compile(r"(`+)(?:.+?)\1")
LINK = re.compile(r"!?\[([^\]\n]*)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
URL = re.compile(r"\b(?:https?://|www\.)[^\s<>()`\"']+")
EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def character_class(categories: tuple[str, ...], end: int = 0x10000) -> str:
    """A character-class body of the characters from U+0080 up to `end` (the basic plane by
    default) whose Unicode category starts with one of `categories`."""
    chars = [c for c in map(chr, range(0x80, end)) if unicodedata.category(c).startswith(categories)]
    ranges: list[list[str]] = []
    for c in chars:
        if ranges and ord(c) == ord(ranges[-1][1]) + 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "".join(a if a == b else f"{a}-{b}" for a, b in ranges)


# Letters without case (Lo, Lm: Han, kana, Hangul, Devanagari, Arabic, Hebrew, Thai …, plus
# the rarer ideographs beyond the basic plane).
UNCASED = character_class(("Lo", "Lm")) + "\U00020000-\U0003134f"

FILE_EXT = r"md|py|json|jsonl|ya?ml|csv|tsv|txt|sh|toml|ini|cfg|conf|log|js|ts|html|css|sql|env|lock|xml|pdf|png|jpe?g|xlsx?|docx?"
PATH = re.compile(
    r"(?<![\w@#])(?:~/|\.{1,2}/|/)?[\w.-]+(?:/[\w.-]+)+/?"
    rf"|(?<![\w@#/.-])[\w-]+(?:\.[\w-]+)*\.(?:{FILE_EXT})\b"
)
# `--name[=value]` or a cluster of letters after one dash, standing alone: not "- item", "re-run", "-5".
FLAG = re.compile(r"(?<![^\s(\[])(?:--[A-Za-z0-9][\w-]*(?:=[\w./:@-]*[\w/])?|-[A-Za-z]+)(?=[\s.,;:!?)\]]|$)")
CHANNEL = re.compile(r"(?<![\w/])[#@][^\W_][\w-]*(?:\.[\w-]+)*")
IP = re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b")
HOST = re.compile(r"(?<![\w@.-])(?:[A-Za-z0-9](?:[\w-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}(?::\d+)?(?![\w-])")
DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\b\d{1,2}/\d{1,2}/\d{2,4}\b")
VERSION = re.compile(r"\bv\d+(?:\.\d+)+\b")
# A number stands alone, not inside a word (v2, abc123, 2fa); a letter without case next to
# it does not make it part of a word (延迟超过20%时报警: Chinese has no spaces).
NUMBER = re.compile(
    rf"(?<![.,:/])(?<![^\W{UNCASED}])(?P<cur>[$€£])?(?P<n>\d+(?:[.,:-]\d+)*)(?P<ord>st|nd|rd|th)?"
    r"(?:\s?(?P<pct>%|percent\b|per cent\b)"
    rf"|[\s-]?(?P<unit>{'|'.join(sorted(UNITS, key=len, reverse=True))})\b)?(?![^\W{UNCASED}]|%)",
    re.IGNORECASE,
)


def counted(n: str, unit: str) -> Token:
    """A number with its unit: `47 minute`, `9 pm`, `3x` (times)."""
    unit = UNITS[unit.casefold()]
    return Token("number", f"{n}{unit}" if unit == "x" else f"{n} {unit}")


def _number(match: re.Match[str]) -> Token:
    n = match["n"].replace(",", "") if re.fullmatch(r"\d{1,3}(?:,\d{3})+", match["n"]) else match["n"]
    if n.isdigit():
        n = str(int(n))
    if match["ord"]:
        return Token("number", ordinal(int(n)) if n.isdigit() else n)
    value = (match["cur"] or "") + n + ("%" if match["pct"] else "")
    return counted(value, match["unit"]) if match["unit"] else Token("number", value)


def masked(text: str, found: list[Token]) -> str:
    """`text` with every verbatim span (code, link, URL, address, path, date, number …) replaced."""

    def take(category: str, value: str, keep: str = MASK) -> str:
        found.append(Token(category, value))
        return keep

    text = CODE.sub(lambda m: take("code", m[0]), text)
    text = LINK.sub(lambda m: take("url", m[2], f" {m[1]} "), text)
    text = URL.sub(lambda m: take("url", m[0].rstrip(".,;:!?")), text)
    text = EMAIL.sub(lambda m: take("email", m[0].casefold()), text)
    text = FLAG.sub(lambda m: take("flag", m[0]), text)
    text = DATE.sub(lambda m: take("date", m[0]), text)
    text = IP.sub(lambda m: take("host", m[0]), text)
    text = PATH.sub(lambda m: take("path", m[0].rstrip(".")), text)
    text = CHANNEL.sub(lambda m: take("channel", m[0].casefold()), text)
    text = HOST.sub(lambda m: take("host", m[0].casefold()), text)
    text = VERSION.sub(lambda m: take("name", m[0].casefold()), text)
    return NUMBER.sub(lambda m: take(_number(m).category, _number(m).value), text)
