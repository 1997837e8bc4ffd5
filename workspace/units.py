"""Markdown text as blocks and units: what a workspace rewrite must keep (pure, no I/O).

A *block* is a span of lines: a fenced code block, a bullet item (with its indented
continuation lines), a table row, a paragraph, a heading, a rule. A *unit* is what must
survive a rewrite: each sentence of a bullet or paragraph, each table row, each code
block. Headings and rules are structure, not units — regrouping under clearer headings is
what a consolidation is for.

Every unit has a *key* that decides when two units are "the same": prose is compared
normalised (Unicode NFC, display width, case but "I"/"İ", bold and emphasis markers,
whitespace, trailing punctuation; not NFKC, which makes "10⁶" "106", not casefold, which
makes "Maßen" "massen"; not `~~strike-through~~`, which withdraws a note, however it is marked:
`~x~`, `<del>x</del>`, `<s>x</s>` are `~~x~~`), but
code spans, markdown links and bare URLs inside it are kept verbatim in the key, so they
must survive byte for byte; a code block's key is its exact text.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from daemon.text.language import Language, abbreviations, detect
from daemon.text.strike import struck_as_tildes
from daemon.text.words import stopwords, tokens

BlockKind = Literal["code", "bullet", "row", "paragraph", "heading", "rule"]
UnitKind = Literal["code", "bullet", "sentence", "row"]

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
HEADING = re.compile(r"^\s{0,3}#{1,6}(\s|$)")
RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
BULLET = re.compile(r"^(\s*)([-*+]|\d{1,9}[.)])\s+(.*)$")
TABLE_SEPARATOR = re.compile(r"^\|?[\s:|-]+\|?$")
# Verbatim segments: code spans, markdown links/images, bare URLs.
PROTECTED = re.compile(
    r"(`+)(?:.+?)\1|!?\[[^\]\n]*\]\([^)\s]*(?:\s+\"[^\"]*\")?\)|https?://[^\s<>()`]+[^\s<>()`.,;:!?'\"]"
)
PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
SENTENCE_END = re.compile(r"[.!?]+[\"')\]»”’]*\s+")
QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "«": '"', "»": '"'})
NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*%?")
HANDLE = re.compile(r"(?<![\w/])[#@]\w[\w-]*(?:\.\w[\w-]*)*")
PATH = re.compile(r"(?<![\w/#@])[\w.-]+(?:/[\w.-]+)+")
WORD = re.compile(r"[^\W_]+(?:'[^\W_]+)*")

@dataclass(frozen=True)
class Block:
    kind: BlockKind
    start: int  # first line, 1-based
    end: int  # last line, 1-based, inclusive
    raw: str  # the lines exactly as written
    text: str  # bullet/paragraph text without markers, lines joined by one space


@dataclass(frozen=True)
class Unit:
    file: str
    line: int
    kind: UnitKind
    text: str
    key: str


def _starts_other_block(line: str) -> bool:
    stripped = line.strip()
    return bool(
        not stripped
        or FENCE.match(line)
        or HEADING.match(line)
        or RULE.match(line)
        or BULLET.match(line)
        or stripped.startswith("|")
    )


def _closes(line: str, marker: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(marker[0] * len(marker)) and not stripped.strip(marker[0])


def parse_blocks(text: str) -> list[Block]:
    """The blocks of a markdown text, in order; blank lines separate, never belong."""
    lines = text.split("\n")
    blocks: list[Block] = []
    i, n = 0, len(lines)
    while i < n:
        line = lines[i]
        stripped = line.strip()
        if not stripped:
            i += 1
            continue
        fence = FENCE.match(line)
        if fence:
            j = i + 1
            while j < n and not _closes(lines[j], fence.group(1)):
                j += 1
            end = min(j, n - 1)
            raw = "\n".join(lines[i : end + 1])
            blocks.append(Block("code", i + 1, end + 1, raw, raw))
            i = end + 1
            continue
        if HEADING.match(line) or RULE.match(line):
            blocks.append(Block("heading" if HEADING.match(line) else "rule", i + 1, i + 1, line, stripped))
            i += 1
            continue
        if stripped.startswith("|"):
            kind: BlockKind = "rule" if TABLE_SEPARATOR.match(stripped) else "row"
            blocks.append(Block(kind, i + 1, i + 1, line, stripped))
            i += 1
            continue
        bullet = BULLET.match(line)
        if bullet:
            indent = len(bullet.group(1))
            parts = [bullet.group(3).strip()]
            j = i + 1
            while j < n and not _starts_other_block(lines[j]) and _indent(lines[j]) > indent:
                parts.append(lines[j].strip())
                j += 1
            blocks.append(Block("bullet", i + 1, j, "\n".join(lines[i:j]), " ".join(parts)))
            i = j
            continue
        parts = []
        j = i
        while j < n and (j == i or not _starts_other_block(lines[j])):
            parts.append(re.sub(r"^(>\s?)+", "", lines[j].strip()))
            j += 1
        blocks.append(Block("paragraph", i + 1, j, "\n".join(lines[i:j]), " ".join(parts)))
        i = j
    return blocks


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _mask(text: str) -> tuple[str, list[str]]:
    segments: list[str] = []

    def keep(match: re.Match[str]) -> str:
        segments.append(match.group(0))
        return f"\ue000{len(segments) - 1}\ue001"

    return PROTECTED.sub(keep, text), segments


def _unmask(text: str, segments: list[str]) -> str:
    return PLACEHOLDER.sub(lambda m: segments[int(m.group(1))], text)


def sentences(text: str) -> list[str]:
    """Split prose into sentences; code spans, links and URLs are never split."""
    masked, segments = _mask(text)
    found: list[str] = []
    start = 0
    for match in SENTENCE_END.finditer(masked):
        before = masked[start : match.start()].rsplit(" ", 1)[-1].casefold().strip("([\"'")
        if before in abbreviations() or (len(before) == 1 and before.isalpha()) or before.isdigit():
            continue
        found.append(masked[start : match.end()].strip())
        start = match.end()
    found.append(masked[start:].strip())
    return [_unmask(s, segments) for s in found if s]


def _width_folds() -> dict[int, str]:
    # Fullwidth ＡＰＩ３ and halfwidth ｶﾞ are only display widths of API3 and ガ (Unicode's
    # <wide>/<narrow> compatibility forms); all of them live in U+3000 and U+FF00-U+FFEF.
    folds: dict[int, str] = {}
    for code in (0x3000, *range(0xFF00, 0xFFF0)):
        tag, _, target = unicodedata.decomposition(chr(code)).partition(" ")
        if tag in ("<wide>", "<narrow>"):
            folds[code] = "".join(chr(int(part, 16)) for part in target.split())
    return folds


WIDTH = _width_folds()
# "I" is "ı" in Turkish and Azeri (ILIK "lukewarm", ilik "marrow"): it and "İ" keep their case.
CASED = re.compile(r"[^Iİ]+")


def _lower(text: str) -> str:
    return CASED.sub(lambda m: m.group(0).lower(), text)


def normalise(text: str) -> str:
    """The comparison key of a piece of prose; verbatim segments stay byte for byte.

    Folds only what never changes what a note says: canonical composition (NFC: "ü" is "u" plus
    a combining diaeresis), display width, whitespace, case by `str.lower` ("ß" stays "ß";
    `casefold` makes "Maßen" "massen", another word) but not "I"/"İ", and emphasis. Not NFKC:
    it makes "10⁶" "106" and "2³" "23"."""
    return _prose_key(text, lambda value: unicodedata.normalize("NFC", value.translate(WIDTH)), _lower)


def fingerprint_key(text: str) -> str:
    """The key contradictions are fingerprinted by: `normalise` as it was, with NFKC and casefold.

    Frozen, not for comparing notes: the review queue recognises proposals a person rejected by
    these fingerprints, so a new key would bring every rejected one back."""
    return _prose_key(text, lambda value: unicodedata.normalize("NFKC", value), str.casefold)


def _prose_key(text: str, fold: Callable[[str], str], lower: Callable[[str], str]) -> str:
    masked, segments = _mask(text)
    value = fold(masked).translate(QUOTES)
    # Bold and emphasis only stress a note; `~~strike-through~~` withdraws it, so it stays.
    value = re.sub(r"\*\*|__", "", struck_as_tildes(value))
    value = re.sub(r"(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", value)
    value = re.sub(r"\s+", " ", lower(value)).strip().rstrip(" .;:!,")
    value = re.sub(r"[ .;:!,]+~~$", "~~", value)
    return _unmask(value, segments)


def _row_key(text: str) -> str:
    cells = [normalise(cell) for cell in text.strip().strip("|").split("|")]
    return " | ".join(cells)


def block_key(block: Block) -> str:
    """The key de-duplication compares blocks by ("" for structure)."""
    if block.kind == "code":
        return "\x00code\x00" + block.raw
    if block.kind == "row":
        return "\x00row\x00" + _row_key(block.text)
    if block.kind in ("bullet", "paragraph"):
        return normalise(block.text)
    return ""


def units_of(file: str, text: str) -> Iterator[Unit]:
    """Every unit of `text`, with the file and line it is on."""
    for block in parse_blocks(text):
        if block.kind == "code":
            yield Unit(file, block.start, "code", block.raw, block_key(block))
        elif block.kind == "row":
            yield Unit(file, block.start, "row", block.text, block_key(block))
        elif block.kind in ("bullet", "paragraph"):
            kind: UnitKind = "bullet" if block.kind == "bullet" else "sentence"
            for sentence in sentences(block.text):
                key = normalise(sentence)
                if key:
                    yield Unit(file, block.start, kind, sentence, key)


def critical_tokens(text: str) -> set[str]:
    """Code spans, links, URLs, numbers, #channels and paths of `text`, verbatim.

    The loss check no longer uses this: what a merge must keep is `daemon.text.meaning`'s one
    notion, shared with the skills engine. Kept for callers of this module's API."""
    masked, segments = _mask(text)
    plain = PLACEHOLDER.sub(" ", masked)
    tokens = set(segments)
    for pattern in (NUMBER, HANDLE, PATH):
        tokens.update(m.group(0).rstrip(".-") for m in pattern.finditer(plain))
    return {t for t in tokens if t}


def content_words(text: str, lang: Language | None = None) -> set[str]:
    """The content words of `text` outside its code, links and URLs, as the text layer folds them
    (`daemon.text.words.tokens`: case, inflection, number words), the language's function
    words left out."""
    masked, _segments = _mask(normalise(text))
    stop = stopwords(lang)
    return {w for w in tokens(PLACEHOLDER.sub(" ", masked), lang) if w not in stop and len(w) > 1}


def similarity(merged: str, kept: str) -> float:
    """How much of `merged` the `kept` text carries: the larger of content-word containment
    (share of merged's content words found in kept) and the character-level ratio."""
    lang = detect([merged, kept])  # one language for both, so their stems compare
    words = content_words(merged, lang)
    containment = len(words & content_words(kept, lang)) / len(words) if words else 0.0
    ratio = SequenceMatcher(None, normalise(merged), normalise(kept), autojunk=False).ratio()
    return max(containment, ratio)
