"""The spellings of a value a purge erases, as byte patterns.

The same name reaches the files in many spellings, every one of them a copy to erase:

- composed, decomposed, or partly composed (Vietnamese "ễ" as one character, as "e" and two
  accents, or as "ê" and one): each character matches any of them, so a mix is found too;
- fullwidth Latin (Ｊｏｓé) and half-width katakana (ｶﾞ for ガ), as Japanese input writes them;
- a typographic apostrophe for a straight one (O’Brien, O'Brien) and the reverse;
- a space as a no-break space, a narrow or ideographic one, or a line break and the
  indentation of the next line (a wrapped paragraph);
- each of those inside one or two levels of JSON strings, escaped or not, with lower- or
  upper-case hex (`\\u1ec5`, `\\u1EC5`), and percent-encoded in a URL (`%E1%BB%85`, `%e1%bb%85`,
  a space as `%20` or `+`; there no width variant, no other space).

One pattern per encoding, built character by character, so the count stays a few dozen
whatever the value's length.
"""

from __future__ import annotations

import json
import re
import unicodedata
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

Encoding = Callable[[str], str]

APOSTROPHES = ("'", "\u2019", "\u02bc")  # straight, typographic (right quote), modifier letter
SPACE = " "
INDENTS = (" ", "\t")
BREAKS = ("\r\n", "\n")
SPACES = (" ", "\u00a0", "\u202f", "\u3000")  # plain, no-break, narrow no-break, ideographic
_WIDE = re.compile("[\uff01-\uff5e\uff61-\uff9f]+")  # fullwidth ASCII, half-width katakana
_HEX_ESCAPE = re.compile(r"(\\+u)([0-9a-f]{4})")
_PERCENT = re.compile(r"%[0-9A-F]{2}")


def _json(text: str, ascii_only: bool) -> str:
    return json.dumps(text, ensure_ascii=ascii_only)[1:-1]


def _upper_hex(escaped: str) -> str:
    return _HEX_ESCAPE.sub(lambda m: m[1] + m[2].upper(), escaped)


def _lower_percent(encoded: str) -> str:
    return _PERCENT.sub(lambda m: m[0].lower(), encoded)


# (encoding, whether a width variant or a line break is looked for in it: in plain text and
# in JSON strings — a pasted paragraph —, not percent-encoded, which keeps the patterns few).
ENCODINGS: tuple[tuple[Encoding, bool], ...] = (
    (lambda s: s, True),
    (lambda s: _json(s, False), True),
    (lambda s: _json(s, True), True),
    (lambda s: _upper_hex(_json(s, True)), True),
    (lambda s: _json(_json(s, False), False), True),
    (lambda s: _json(_json(s, True), True), True),
    (lambda s: _upper_hex(_json(_json(s, True), True)), True),
    (lambda s: urllib.parse.quote(s, safe=""), False),
    (lambda s: _lower_percent(urllib.parse.quote(s, safe="")), False),
)
PERCENT_SPACES = ("%20", "+")


@lru_cache(maxsize=1)
def _half_width() -> dict[str, str]:
    """Katakana (and its punctuation) → its half-width spelling, voiced ones as two characters."""
    table: dict[str, str] = {}
    for code in range(0xFF61, 0xFFA0):
        half = chr(code)
        full = unicodedata.normalize("NFKC", half)
        if len(full) == 1 and full != half:
            table.setdefault(full, half)
    for half in list(table.values()):
        for mark in ("\uff9e", "\uff9f"):  # ﾞ ﾟ: voiced, semi-voiced
            full = unicodedata.normalize("NFKC", half + mark)
            if len(full) == 1:
                table.setdefault(full, half + mark)
    return table


def _canonical(value: str) -> str:
    """`value` composed, fullwidth Latin and half-width katakana folded to their usual width."""
    return _WIDE.sub(lambda m: unicodedata.normalize("NFKC", m[0]), unicodedata.normalize("NFC", value))


@lru_cache(maxsize=4096)
def _spellings(char: str, wide: bool) -> tuple[str, ...]:
    """Every spelling of one composed character (fullwidth and half-width ones if `wide`)."""
    found = {char}
    decomposed = unicodedata.normalize("NFD", char)
    for cut in range(1, len(decomposed) + 1):  # partly composed: a composed head, loose marks
        found.add(unicodedata.normalize("NFC", decomposed[:cut]) + decomposed[cut:])
    if char in APOSTROPHES:
        found.update(APOSTROPHES)
    if wide and "!" <= char <= "~":
        found.add(chr(ord(char) + 0xFEE0))
    if wide:
        found.update(_half_width().get(spelling, spelling) for spelling in list(found))
    return tuple(sorted(found, key=lambda s: (-len(s), s)))


def _choice(escaped: tuple[str, ...]) -> str:
    unique = sorted(set(escaped), key=lambda s: (-len(s), s))  # the longest wins where two begin
    return unique[0] if len(unique) == 1 else "(?:" + "|".join(unique) + ")"


def _escaped(options: tuple[str, ...], encode: Encoding) -> tuple[str, ...]:
    return tuple(re.escape(encode(o)) for o in options)


def _space(encode: Encoding, rich: bool) -> str:
    """A space of the value: any one space, or a line break with the indentation around it."""
    if not rich:
        return "(?:" + "|".join(re.escape(space) for space in PERCENT_SPACES) + ")"
    indent = "(?:" + _choice(_escaped(INDENTS, encode)) + ")*"
    breaks = _choice(_escaped(BREAKS, encode))
    return f"(?:{indent}{breaks}{indent}|" + "|".join(sorted(set(_escaped(SPACES, encode)))) + ")"


@dataclass(frozen=True)
class Spelling:
    """One encoding of a value as a pattern: `firsts`, the literal spellings of its first
    character (so a scan can skip ahead by their first bytes), then `rest`, a regular
    expression without groups; `length` is its plain rendering's, to try the longest first."""

    firsts: tuple[bytes, ...]
    rest: bytes
    length: int

    @property
    def source(self) -> bytes:
        return b"(?:" + b"|".join(self.firsts) + b")" + self.rest


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


@lru_cache(maxsize=4096)
def spellings(value: str) -> tuple[Spelling, ...]:
    """The value's spellings, one per encoding (those that coincide given once)."""
    canonical = _canonical(value)
    found: dict[bytes, Spelling] = {}
    for encode, rich in ENCODINGS:
        try:
            head, *tail = [
                (_space(encode, rich),) if c == SPACE else tuple(sorted(set(_escaped(_spellings(c, rich), encode))))
                for c in canonical
            ]
            rendering = encode(canonical)
        except (UnicodeEncodeError, ValueError):  # a lone surrogate has no percent-encoding
            continue
        rest = "".join(_choice(options) for options in tail)
        spelling = Spelling(tuple(_bytes(first) for first in head), _bytes(rest), len(_bytes(rendering)))
        found.setdefault(spelling.source, spelling)
    return tuple(found.values())
