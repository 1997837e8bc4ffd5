"""Word segmentation from the Unicode rules (UAX #29), with dictionaries for scripts written
without spaces: ICU's word break iterator, through PyICU (docs/explanation/text.md).

"我住在柏林" is 我, 住在, 柏林; "東京に住んでいます" is 東京, に, 住ん, で, い, ます; "ฉันอยู่ที่กรุงเทพ"
is ฉัน, อยู่, ที่, กรุงเทพ; elsewhere words are what the Unicode rules say: "l'homme", "don't",
"3.5" and "사용자는" are one word each, combining marks stay with their letter — but for a
number across a comma no writer of its script means as one (`NOT_IN_NUMBERS`). Text is
NFC-normalised first. Only words are returned (letters, numbers, kana, ideographs), never
the spaces and punctuation between them.
"""

from __future__ import annotations

import re
import threading
import unicodedata
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Literal

import icu

WordKind = Literal["number", "letter", "kana", "ideograph"]
# ICU's rule status ranges of a word break (UWordBreak): what kind of word ends there.
_KINDS: tuple[tuple[int, int, WordKind], ...] = (
    (100, 200, "number"),
    (200, 300, "letter"),
    (300, 400, "kana"),
    (400, 500, "ideograph"),
)
# ICU's ULineBreak values ID and SA, which PyICU does not name.
LINE_BREAK_IDEOGRAPHIC = 14
LINE_BREAK_COMPLEX_CONTEXT = 24
# Commas the Unicode rules let a number run across (MidNum) that separate clauses in the scripts
# that write them, but in a number grouped by thousands typed full-width ("10，000 元", `THOUSANDS`):
# "不是 3/16，16 號 QA 還在跑" is …, 16, 16, 號, not "16，16"; Arabic writes its decimal and
# thousands marks as ٫ and ٬, so "3،4" is two numbers too.
NOT_IN_NUMBERS = re.compile("[，；،]")
THOUSANDS = re.compile(r"\d{1,3}(?:，\d{3})+(?:[.．]\d+)?")
# The first letter of a script written without spaces (Thai): below it, none is.
FIRST_SPACELESS = "\u0e00"
_local = threading.local()  # a break iterator is not thread-safe: one per thread


@dataclass(frozen=True, slots=True)
class Word:
    text: str
    start: int  # offsets into the NFC text
    end: int
    kind: WordKind


def _iterator() -> icu.BreakIterator:
    found = getattr(_local, "words", None)
    if found is None:
        found = _local.words = icu.BreakIterator.createWordInstance(icu.Locale.getRoot())
    return found


def _kind(status: int) -> WordKind | None:
    for low, high, kind in _KINDS:
        if low <= status < high:
            return kind
    return None


def segment(text: str) -> list[Word]:
    """The words of `text` (NFC) in order, with their offsets into the NFC text and kind."""
    text = unicodedata.normalize("NFC", text)
    if not text:
        return []
    breaks = _iterator()
    breaks.setText(text)
    found: list[Word] = []
    start = breaks.first()
    highest = max(text)
    # ICU counts offsets in UTF-16 code units: map them back for text beyond the basic plane.
    units = _unit_offsets(text) if highest > "\uffff" else None
    # a script without spaces may stand against another in a word (`_split_scripts`); none has
    # a letter below FIRST_SPACELESS, so most texts are read as ICU cuts them
    if highest < FIRST_SPACELESS:
        for end in breaks:
            kind = _kind(breaks.getRuleStatus())
            if kind is not None:
                found += _split_number(Word(text[start:end], start, end, kind))
            start = end
        return found
    # read whole before a word is split: splitting one segments its runs with this iterator
    for end, kind in [(end, _kind(breaks.getRuleStatus())) for end in breaks]:
        if kind is not None:
            a, b = (units[start], units[end]) if units is not None else (start, end)
            found += _split_scripts(Word(text[a:b], a, b, kind))
        start = end
    return found


def _split_scripts(word: Word) -> list[Word]:
    """`word` (`_split_number`), or the words of each run of it in a script written without
    spaces and of each run in another: ICU's dictionary leaves Thai typed against Latin
    letters or digits one word ("ห้ามmigrateบนstagingครับ" is ห้าม, migrate, บน, staging, ครับ)."""
    if word.kind not in ("letter", "number") or max(word.text) < FIRST_SPACELESS:
        return _split_number(word)
    kinds = {spaceless(c) for c in word.text if c.isalnum()}
    if len(kinds) < 2:
        return _split_number(word)
    cuts = []
    base = ""  # the last letter or digit before each character (a mark stays with its letter)
    for at, char in enumerate(word.text):
        if base and _apart(base, char):
            cuts.append(at)
        if char.isalnum():
            base = char
    if not cuts:
        return _split_number(word)
    found: list[Word] = []
    for a, b in zip([0, *cuts], [*cuts, len(word.text)], strict=True):
        # each run is shorter than the word: segmenting it again ends
        found += [Word(w.text, word.start + a + w.start, word.start + a + w.end, w.kind) for w in segment(word.text[a:b])]
    return found


def _apart(before: str, after: str) -> bool:
    """Whether a script without spaces begins or ends between a letter or digit and the
    character after it (a combining mark stays with its letter)."""
    return after.isalnum() and spaceless(before) != spaceless(after)


def _split_number(word: Word) -> list[Word]:
    """`word`, or its parts between the commas of `NOT_IN_NUMBERS` when it is a number."""
    if word.kind != "number" or not NOT_IN_NUMBERS.search(word.text) or THOUSANDS.fullmatch(word.text):
        return [word]
    found, at = [], 0
    for part in NOT_IN_NUMBERS.split(word.text):
        if part:
            found.append(Word(part, word.start + at, word.start + at + len(part), "number"))
        at += len(part) + 1
    return found


def words(text: str) -> list[str]:
    """The words of `text` as written (NFC), in order."""
    return [w.text for w in segment(text)]


def _unit_offsets(text: str) -> dict[int, int]:
    """UTF-16 offset → index into `text`, for every character boundary."""
    table = {0: 0}
    units = 0
    for index, char in enumerate(text, start=1):
        units += 2 if ord(char) > 0xFFFF else 1
        table[units] = index
    return table


def cased(word: str) -> bool:
    """Whether `word` is of a script with case (Latin, Cyrillic, Greek …): some letter of it is cased."""
    return any(c.isupper() or c.islower() for c in word)


def uncased(word: str) -> bool:
    """Whether `word` is of a script without case (李, 사용자는, راشد): letters, none cased."""
    return any(c.isalpha() for c in word) and not any(c.isupper() or c.islower() or c.isdigit() for c in word)


@cache
def spaceless_class() -> str:
    """A regex character-class body of the letters of scripts written without spaces between
    words: those the Unicode line-breaking data (UAX #14) marks ideographic (ID: Han, kana),
    conditional Japanese starters (CJ) or South-East Asian (SA: Thai, Lao, Khmer, Myanmar).
    Built once from ICU's data (a few tens of ms)."""
    kinds = {LINE_BREAK_IDEOGRAPHIC, LINE_BREAK_COMPLEX_CONTEXT, icu.ULineBreak.CONDITIONAL_JAPANESE_STARTER}
    ranges: list[list[int]] = []
    for code in range(0x80, 0x32000):
        if 0xD800 <= code <= 0xF8FF:
            continue  # surrogates and private use
        char = chr(code)
        letter = char.isalpha() or unicodedata.category(char) in ("Lm", "Mn", "Mc", "Nl")
        if letter and icu.Char.getIntPropertyValue(char, icu.UProperty.LINE_BREAK) in kinds:
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in ranges)


@cache
def sentence_terminal_marks() -> str:
    """The characters Unicode marks as ending a sentence (Sentence_Terminal): ". ! ?", the
    Devanagari danda "।", the Arabic "؟", the Urdu "۔", the Ethiopic "።", the ideographic "。" …
    Read once from ICU's data (a few tens of ms)."""
    ends = (chr(c) for c in range(0x21, 0x20000) if not 0xD800 <= c <= 0xF8FF)
    return "".join(c for c in ends if icu.Char.hasBinaryProperty(c, icu.UProperty.S_TERM))


@cache
def sentence_terminals() -> str:
    """`sentence_terminal_marks` as a regex character-class body."""
    return "".join(re.escape(c) for c in sentence_terminal_marks())


@cache
def spaceless_run() -> re.Pattern[str]:
    """One or more letters of scripts written without spaces (`spaceless_class`)."""
    return re.compile(f"[{spaceless_class()}]+")


@lru_cache(maxsize=65536)
def script(char: str) -> str:
    """The Unicode script of `char` (its ISO 15924 code from ICU: Latn, Cyrl, Hang, Hani …)."""
    return str(icu.Script.getScript(char).getShortName())


@lru_cache(maxsize=65536)
def spaceless(char: str) -> bool:
    """Whether `char` belongs to a script written without spaces between words (`spaceless_class`)."""
    kinds = (LINE_BREAK_IDEOGRAPHIC, LINE_BREAK_COMPLEX_CONTEXT, icu.ULineBreak.CONDITIONAL_JAPANESE_STARTER)
    return icu.Char.getIntPropertyValue(char, icu.UProperty.LINE_BREAK) in kinds
