"""Whether a value found in bytes stands there as a whole word, in any script.

Purging "Ada" leaves "Adam" alone, purging "Ада" leaves "Адам", and purging "Ren" leaves
"René" — whose "é" may be one character or an "e" and a combining accent. The bytes on
either side of a match are read as the characters they encode:

- a letter, digit or `_` next to the value's own letter or digit makes one longer word,
  and a combining mark right after the value would end it inside a character;
- Chinese, Japanese, Thai, Lao, Khmer and Myanmar are written without spaces between
  words (the Unicode line-breaking data says which, `unicode_words.spaceless`): beside their
  letters a value always counts as whole (a purge must rather erase too much than leave a copy);
- Korean is written with spaces, but attaches its particles to the word (철수는, 철수에게):
  a Hangul value is whole where no Hangul comes before it and what follows, up to the
  next character that is not Hangul, is nothing or a chain of particles (`PARTICLES`) —
  so purging 콩 erases 콩, 콩을, 콩에게는 and keeps 홍콩, 콩나물국, 콩코드;
- format characters (a soft hyphen, zero-width joiners, direction marks) and variation
  selectors are looked through to the character beyond;
- a neighbour written as a JSON escape (`\\u043c`, twice escaped `\\\\u043c`, a surrogate
  pair, `\\n`) is the character it stands for, as the value's own escaped forms match;
- bytes that are not UTF-8 (a binary file) join nothing.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache

from daemon.text.language import language
from daemon.text.unicode_words import script, spaceless


class Kind(Enum):
    WORD = "word"  # a letter or digit of a script written with spaces, or `_`
    MARK = "mark"  # a combining mark: part of the character before it
    FORMAT = "format"  # invisible inside a word: looked through
    HANGUL = "hangul"  # a Korean letter: whole beside another only through particles
    OTHER = "other"  # a space, punctuation, a symbol, a letter of an unspaced script




@lru_cache(maxsize=1)
def particles() -> frozenset[str]:
    """What may follow a Korean noun and leave it the same word, for a purge: every particle,
    copula and polite or vocative ending of the Korean data file (`daemon/text/languages/ko.yaml`),
    including 만 ("only"), which the meaning check keeps as meaning but a purge erases with the name."""
    korean = language("ko")
    if korean is None:
        raise LookupError("daemon/text/languages/ko.yaml is missing: a purge cannot read Korean particles")
    return korean.words("particles") | korean.words("meaning_particles_excluded")
CHAIN = 3  # particles stack (콩에게만은): at most this many are read after a value

ZERO_WIDTH_SPACE = "\u200b"  # a format character that separates words (Thai, Khmer)
VARIATION_SELECTORS = ((0xFE00, 0xFE0F), (0xE0100, 0xE01EF))
LOOK = 16  # format characters (and marks before) looked through at most; then the match is whole

_ESCAPE_AT = re.compile(rb"\\+u([0-9a-fA-F]{4})")
_ESCAPE_BEFORE = re.compile(rb"\\+u([0-9a-fA-F]{4})\Z")
_SHORT_ESCAPE_BEFORE = re.compile(rb"\\+[nrtbf]\Z")
_BACKSLASH = ord("\\")
_WINDOW = 48  # bytes searched back for an escape (its backslashes may be doubled)
# A UTF-8 character's length by its first byte: (length, mask, bits under the mask).
_UTF8_LEADS = ((1, 0x80, 0x00), (2, 0xE0, 0xC0), (3, 0xF0, 0xE0), (4, 0xF8, 0xF0))
_NOT_UTF8 = "\ufffd"  # what an undecodable byte reads as: a symbol, joining nothing


def _within(code: int, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= code <= high for low, high in ranges)


@lru_cache(maxsize=4096)
def kind(char: str) -> Kind:
    """What `char` is to the whole-word rule."""
    if char == "_":
        return Kind.WORD
    code = ord(char)
    if _within(code, VARIATION_SELECTORS):
        return Kind.FORMAT
    category = unicodedata.category(char)
    if category[0] == "M":
        return Kind.MARK
    if category == "Cf" and char != ZERO_WIDTH_SPACE:
        return Kind.FORMAT
    if category[0] in "LN" and script(char) == "Hang":
        return Kind.HANGUL
    if category[0] in "LN" and not spaceless(char):
        return Kind.WORD
    return Kind.OTHER


@dataclass(frozen=True)
class Edges:
    """What a value begins and ends with: only a WORD or HANGUL edge can join a neighbour."""

    head: Kind
    tail: Kind

    @classmethod
    def of(cls, value: str) -> Edges:
        kinds = [kind(c) for c in value]
        bases = [k for k in kinds if k not in (Kind.MARK, Kind.FORMAT)]
        # A value that begins with a mark begins inside a character: it joins nothing before.
        head = kinds[0] if kinds and kinds[0] in (Kind.WORD, Kind.HANGUL) else Kind.OTHER
        return cls(head, bases[-1] if bases else Kind.OTHER)


def _surrogates(high: int, low: int) -> str | None:
    if 0xD800 <= high <= 0xDBFF and 0xDC00 <= low <= 0xDFFF:
        return chr(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
    return None


def _char_at(data: bytes, pos: int) -> tuple[str, int] | None:
    """The character that begins at `pos` and where the next one begins; None at the end."""
    if pos >= len(data):
        return None
    if data[pos] < 0x80 and data[pos] != _BACKSLASH:
        return chr(data[pos]), pos + 1
    escape = _ESCAPE_AT.match(data, pos)
    if escape is not None:
        code = int(escape.group(1), 16)
        low = _ESCAPE_AT.match(data, escape.end())
        pair = _surrogates(code, int(low.group(1), 16)) if low is not None else None
        if pair is not None and low is not None:
            return pair, low.end()
        return chr(code), escape.end()
    size = next((n for n, mask, bits in _UTF8_LEADS if data[pos] & mask == bits), 0)
    if size:
        try:
            return data[pos : pos + size].decode("utf-8"), pos + size
        except UnicodeDecodeError:
            pass
    return _NOT_UTF8, pos + 1


def _char_before(data: bytes, pos: int) -> tuple[str, int] | None:
    """The character that ends at `pos` and where it begins; None at the start."""
    if pos <= 0:
        return None
    last = data[pos - 1]
    escaped = (pos >= 6 and data[pos - 6] == _BACKSLASH) or (pos >= 2 and data[pos - 2] == _BACKSLASH)
    if last < 0x80 and not escaped:
        return chr(last), pos - 1  # ASCII, and no escape (`\\u00e9`, `\\n`) can end here
    start = max(0, pos - _WINDOW)
    window = data[start:pos]
    escape = _ESCAPE_BEFORE.search(window)
    if escape is not None:
        code = int(escape.group(1), 16)
        high = _ESCAPE_BEFORE.search(window, 0, escape.start())
        pair = _surrogates(int(high.group(1), 16), code) if high is not None else None
        if pair is not None and high is not None:
            return pair, start + high.start()
        return chr(code), start + escape.start()
    short = _SHORT_ESCAPE_BEFORE.search(window)
    if short is not None:
        return "\n", start + short.start()  # `\n`, `\t` …: a control character
    begin = pos - 1
    while begin > max(0, pos - 4) and data[begin] & 0xC0 == 0x80:
        begin -= 1
    try:
        char = data[begin:pos].decode("utf-8")
    except UnicodeDecodeError:
        return _NOT_UTF8, pos - 1
    return (char, begin) if len(char) == 1 else (_NOT_UTF8, pos - 1)


def _is_particles(text: str) -> bool:
    """Whether `text` (Hangul, composed) is a chain of at most `CHAIN` particles."""
    ends = {0}
    for _ in range(CHAIN):
        ends = {e + n for e in ends for n in range(1, max(map(len, particles())) + 1) if text[e : e + n] in particles()}
        if len(text) in ends:
            return True
    return False


def _korean_ending(data: bytes, pos: int, first: str) -> bool:
    """Whether the Hangul that begins with `first` (its next character at `pos`) runs to a
    character that is not Hangul (or the end) as a chain of particles."""
    run = [first]
    for _ in range(CHAIN * max(map(len, particles())) * 3):  # decomposed syllables take three jamo
        after = _char_at(data, pos)
        if after is None:
            break
        char, pos = after
        found = kind(char)
        if found is Kind.FORMAT:
            continue
        if found is not Kind.HANGUL:
            return _is_particles(unicodedata.normalize("NFC", "".join(run)))
        run.append(char)
    else:
        return False
    return _is_particles(unicodedata.normalize("NFC", "".join(run)))


def is_whole(data: bytes, start: int, end: int, edges: Edges) -> bool:
    """Whether the value at `data[start:end]` (with `edges`) stands as a whole word."""
    pos = end
    for _ in range(LOOK):
        after = _char_at(data, pos)
        if after is None:
            break
        char, pos = after
        found = kind(char)
        if found is Kind.FORMAT:
            continue
        if found is Kind.MARK or (found is Kind.WORD and edges.tail is Kind.WORD):
            return False
        if found is Kind.HANGUL and edges.tail is Kind.HANGUL and not _korean_ending(data, pos, char):
            return False
        break
    pos = start
    for _ in range(LOOK):
        before = _char_before(data, pos)
        if before is None:
            return True
        char, pos = before
        found = kind(char)
        if found in (Kind.FORMAT, Kind.MARK):  # a mark belongs to the character before it
            continue
        return not (found in (Kind.WORD, Kind.HANGUL) and found is edges.head)
    return True
